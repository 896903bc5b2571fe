// rope/typeset/display_list.h — the output of layout: positioned glyphs and filled rectangles.
//
// Coordinates are pixels with x to the right and y DOWN, origin on the formula's baseline at its
// left edge; the formula occupies x in [0, width], y in [-height, depth]. Glyph (x, y) is the
// glyph origin (pen position on its baseline). Rectangles are already snapped to whole pixels
// relative to the origin and are at least 1 px thick, so draw them at an integer origin.
//
// Usage:
//   for (const PlacedGlyph& g : list.glyphs) draw(g.glyph, g.size_px, ox + g.x, oy + g.y, g.color);
#pragma once

#include <cstdint>
#include <vector>

namespace rope::typeset {

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(const Rgba&, const Rgba&) = default;
};

inline Rgba rgba_from_u32(std::uint32_t rrggbbaa) {
  return {static_cast<std::uint8_t>(rrggbbaa >> 24), static_cast<std::uint8_t>(rrggbbaa >> 16),
          static_cast<std::uint8_t>(rrggbbaa >> 8), static_cast<std::uint8_t>(rrggbbaa)};
}

// Parts of a glyph assembly (tall brackets, braces) overlap; each carries a clip span ending in
// the middle of its overlaps, so that every pixel is drawn by exactly one part (no darker seams
// where anti-aliased edges would otherwise be blended twice).
enum class ClipAxis : std::uint8_t { none, x, y };

struct PlacedGlyph {
  std::uint32_t glyph = 0;  // glyph id in the face (not a code point)
  std::uint16_t face = 0;   // font face index; 0 = the math font (the only one so far)
  float size_px = 0;        // em size in px
  float x = 0, y = 0;       // origin (baseline), px
  Rgba color;
  ClipAxis clip = ClipAxis::none;
  float clip_min = 0, clip_max = 0;  // px, same frame as x or y: draw only [clip_min, clip_max)
};

struct FilledRect {
  float x = 0, y = 0, w = 0, h = 0;  // top-left and size, px; whole pixels, h >= 1, w >= 1
  Rgba color;
};

struct DisplayList {
  std::vector<PlacedGlyph> glyphs;
  std::vector<FilledRect> rects;
  float width = 0, height = 0, depth = 0;  // px; height above, depth below the baseline
};

}  // namespace rope::typeset
