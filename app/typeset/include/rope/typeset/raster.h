// rope/typeset/raster.h — CPU rendering of a DisplayList into an RGBA8 image (FreeType
// anti-aliased coverage, alpha-blended), and PNG output. Used by tests and the equation sheet.
//
// Usage:
//   RgbaImage img(width, height, Rgba{255, 255, 255, 255});
//   render(img, list, font, 10.0f, 10.0f + list.height);   // origin = left end of the baseline
//   write_png(img, "sheet.png");
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rope/typeset/display_list.h"
#include "rope/typeset/math_font.h"

namespace rope::typeset {

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // width * height * 4, row-major, RGBA, top row first

  RgbaImage() = default;
  RgbaImage(int w, int h, Rgba background);
  Rgba at(int x, int y) const;  // precondition: inside the image
};

// Draws the list with its baseline origin at (origin_x, origin_y) px. Glyphs outside the image
// are clipped. Glyph colours come from the list; alpha blends over what is there.
void render(RgbaImage& image, const DisplayList& list, const MathFont& font, float origin_x,
            float origin_y);

// Writes a PNG (via libstb). Returns false if the file could not be written.
bool write_png(const RgbaImage& image, const std::string& path);

}  // namespace rope::typeset
