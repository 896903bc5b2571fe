// Heatmap colouring pass, one fragment per on-screen pixel of the picture: the matrix cells
// under this pixel (from a single-channel float texture, one texel per cell) are mapped through
// the colour map's control points (sent by the app: the same table the CPU colour bar uses).
// A pixel covering one cell or less shows that cell's colour exactly; a pixel covering several
// cells (a matrix larger than its picture) shows the mean colour of up to 2 x 2 of them, spread
// over its footprint (more would cost a software rasteriser a visible stall per new matrix).
// Masked (-inf) and NaN cells get u_masked.

// The number of control points of io/colour_map.h (a test compares the two).
const int kColourMapPoints = 11;

in vec2 v_uv;

uniform sampler2D u_scores;    // GL_R32F, [rows][cols], one texel per cell
uniform vec2 u_target;         // size of the picture in pixels
uniform vec2 u_range;          // (lo, hi): lo maps to the first control point, hi to the last
uniform vec3 u_colours[kColourMapPoints];    // control points, evenly spaced on t in [0, 1]
uniform vec4 u_masked;         // colour of masked and undefined cells

out vec4 o_colour;

vec4 cell_colour(ivec2 cell) {
  float v = texelFetch(u_scores, cell, 0).r;
  if (isinf(v) || isnan(v)) return u_masked;
  float span = u_range.y - u_range.x;
  float t = span > 0.0 ? clamp((v - u_range.x) / span, 0.0, 1.0) : 0.5;
  float x = t * float(kColourMapPoints - 1);
  int i = min(int(x), kColourMapPoints - 2);
  return vec4(mix(u_colours[i], u_colours[i + 1], x - float(i)), 1.0);
}

void main() {
  ivec2 cells = textureSize(u_scores, 0);
  vec2 per_pixel = vec2(cells) / u_target;  // cells across one pixel
  vec2 first = floor(gl_FragCoord.xy - 0.5) * per_pixel;  // this pixel's footprint in cells
  ivec2 n = clamp(ivec2(ceil(per_pixel)), ivec2(1), ivec2(2));
  vec4 sum = vec4(0.0);
  for (int y = 0; y < n.y; ++y) {
    for (int x = 0; x < n.x; ++x) {
      vec2 at = first + (vec2(x, y) + 0.5) * per_pixel / vec2(n);
      sum += cell_colour(clamp(ivec2(floor(at)), ivec2(0), cells - 1));
    }
  }
  o_colour = sum / float(n.x * n.y);
}
