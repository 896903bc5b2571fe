// read_pixels.cpp — read_pixels_rgba (render/offscreen.h), in both builds: the desktop's
// offscreen context and window, and the browser's canvas.
#include <cstring>

#include "render/gl.h"
#include "render/offscreen.h"

namespace rope::app {

std::vector<std::uint8_t> read_pixels_rgba(int width, int height) {
  const auto row = static_cast<std::size_t>(width) * 4;
  std::vector<std::uint8_t> pixels(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  std::vector<std::uint8_t> tmp(row);
  for (int y = 0; y < height / 2; ++y) {
    std::uint8_t* a = pixels.data() + static_cast<std::size_t>(y) * row;
    std::uint8_t* b = pixels.data() + static_cast<std::size_t>(height - 1 - y) * row;
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
  return pixels;
}

}  // namespace rope::app
