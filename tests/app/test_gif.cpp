// The GIF writer: a file that giflib decodes back with every frame, the right size and colours.
#include <catch2/catch.hpp>

#include <gif_lib.h>

#include <array>
#include <cstdlib>
#include <cstring>

#include "export/gif.h"

using namespace rope::app;

namespace {

struct Reader {
  const std::string* bytes;
  std::size_t at = 0;
};

int read_bytes(GifFileType* gif, GifByteType* out, int size) {
  auto* r = static_cast<Reader*>(gif->UserData);
  const auto n = std::min(static_cast<std::size_t>(size), r->bytes->size() - r->at);
  std::memcpy(out, r->bytes->data() + r->at, n);
  r->at += n;
  return static_cast<int>(n);
}

Image solid(int w, int h, unsigned char r, unsigned char g, unsigned char b) {
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.resize(static_cast<std::size_t>(w * h) * 4);
  for (std::size_t i = 0; i < img.rgba.size(); i += 4) {
    img.rgba[i] = r;
    img.rgba[i + 1] = g;
    img.rgba[i + 2] = b;
    img.rgba[i + 3] = 255;
  }
  return img;
}

}  // namespace

TEST_CASE("an animated GIF decodes with the requested frames and colours", "[gif]") {
  GifWriter writer(64, 48, 5);
  REQUIRE(writer.add(solid(64, 48, 255, 0, 0)).ok());
  REQUIRE(writer.add(solid(64, 48, 0, 128, 255)).ok());
  Image half = solid(64, 48, 0, 0, 0);
  for (std::size_t i = 0; i < half.rgba.size() / 2; i += 4)
    half.rgba[i + 1] = 200;  // top green
  REQUIRE(writer.add(half).ok());
  CHECK_FALSE(writer.add(solid(10, 10, 0, 0, 0)).ok());  // wrong size refused
  auto bytes = writer.finish();
  REQUIRE(bytes.ok());
  CHECK(bytes.value().substr(0, 6) == "GIF89a");

  Reader reader{&bytes.value()};
  int error = 0;
  GifFileType* gif = DGifOpen(&reader, read_bytes, &error);
  REQUIRE(gif != nullptr);
  REQUIRE(DGifSlurp(gif) == GIF_OK);
  CHECK(gif->SWidth == 64);
  CHECK(gif->SHeight == 48);
  REQUIRE(gif->ImageCount == 3);
  const auto colour_at = [&](int frame, int x, int y) {
    const SavedImage& img = gif->SavedImages[frame];
    const ColorMapObject* map = img.ImageDesc.ColorMap ? img.ImageDesc.ColorMap : gif->SColorMap;
    const GifColorType c = map->Colors[img.RasterBits[y * 64 + x]];
    return std::array<int, 3>{c.Red, c.Green, c.Blue};
  };
  // giflib's median cut keeps 5 bits per channel: colours come back within 7 levels
  const auto near = [](std::array<int, 3> a, std::array<int, 3> b) {
    for (int i = 0; i < 3; ++i)
      if (std::abs(a[static_cast<std::size_t>(i)] - b[static_cast<std::size_t>(i)]) > 7)
        return false;
    return true;
  };
  CHECK(near(colour_at(0, 10, 10), {255, 0, 0}));
  CHECK(near(colour_at(1, 63, 47), {0, 128, 255}));
  CHECK(std::abs(colour_at(2, 5, 2)[1] - 200) <= 7);  // top half green
  // flat areas come back exactly: each palette entry is the mean of its pixels (review D12: a
  // light canvas was (248, 248, 248) in the GIF, (255, 255, 255) in the PNG)
  CHECK(colour_at(0, 10, 10) == std::array<int, 3>{255, 0, 0});
  CHECK(colour_at(1, 63, 47) == std::array<int, 3>{0, 128, 255});
  CHECK(colour_at(2, 5, 2) == std::array<int, 3>{0, 200, 0});
  CHECK(colour_at(2, 5, 40)[1] == 0);  // bottom half black
  GraphicsControlBlock gcb{};
  REQUIRE(DGifSavedExtensionToGCB(gif, 0, &gcb) == GIF_OK);
  CHECK(gcb.DelayTime == 5);
  DGifCloseFile(gif, &error);
}

TEST_CASE("a GIF with no frames is an error, not an empty file", "[gif]") {
  GifWriter writer(8, 8, 5);
  CHECK_FALSE(writer.finish().ok());
}
