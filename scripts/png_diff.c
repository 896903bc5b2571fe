/* png_diff.c — compares two PNGs by their decoded RGBA pixels (stb_image, libstb-dev), for
 * scripts/golden.sh: two encoders write different bytes for the same picture.
 * Usage: png_diff A.png B.png   prints "N pixels differ (max M levels)"; exit 0 when none
 * differ, 1 when some do or the sizes differ, 2 when a file cannot be decoded.
 * Built by golden.sh: cc -O2 $(pkg-config --cflags stb) png_diff.c -lstb -o png_diff */
#include <stb_image.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: png_diff A.png B.png\n");
    return 2;
  }
  int w[2], h[2], n;
  unsigned char* px[2];
  for (int i = 0; i < 2; ++i) {
    px[i] = stbi_load(argv[1 + i], &w[i], &h[i], &n, 4);
    if (!px[i]) {
      fprintf(stderr, "png_diff: %s: %s\n", argv[1 + i], stbi_failure_reason());
      return 2;
    }
  }
  if (w[0] != w[1] || h[0] != h[1]) {
    printf("sizes differ: %dx%d and %dx%d\n", w[0], h[0], w[1], h[1]);
    return 1;
  }
  long differ = 0;
  int max_diff = 0;
  for (long i = 0; i < (long)w[0] * h[0]; ++i) {
    int d = 0;
    for (int c = 0; c < 4; ++c) {
      const int e = abs(px[0][4 * i + c] - px[1][4 * i + c]);
      if (e > d) d = e;
    }
    if (d > 0) ++differ;
    if (d > max_diff) max_diff = d;
  }
  printf("%ld pixels differ (max %d levels)\n", differ, max_diff);
  stbi_image_free(px[0]);
  stbi_image_free(px[1]);
  return differ > 0;
}
