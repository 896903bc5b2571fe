// export/png.h — RGBA8 pixels to a PNG file, written atomically (temporary name, then rename).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "rope/conventions.h"

namespace rope::app {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  // [height][width][4], rows top to bottom
};

// A frame rendered over a transparent background holds colours premultiplied by alpha (ImGui
// blends with SRC_ALPHA / ONE_MINUS_SRC_ALPHA onto zero); PNG stores straight alpha. Divides
// every pixel's colour by its alpha (pixels with alpha 0 become 0, 0, 0, 0).
void unpremultiply(Image& image);

// Encodes to PNG bytes (stb_image_write, from Debian's libstb).
Result<std::string> encode_png(const Image& image);

// Encodes and writes; on failure no file is created or replaced. Error.parameter is "output".
Status write_png(const std::filesystem::path& path, const Image& image);

}  // namespace rope::app
