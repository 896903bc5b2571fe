// rope/typeset/glyph_atlas.h — a CPU glyph atlas for the GPU path: glyphs rasterised by glyph
// id on demand into one page of one-byte coverage (the texture reads it as white with that alpha,
// so a tint colour multiplies in), packed in shelves. No GL: the app uploads the page when dirty()
// and owns the texture.
//
// Entries are keyed by (glyph, size in 1/4 px, x and y subpixel phase in 1/4 px). When the page
// is full, find() returns nullptr; call reset() at the start of the next frame (every entry is
// rasterised again on demand).
//
// Usage (per frame):
//   if (atlas.full()) atlas.reset();
//   draw_display_list(dl, list, pos, atlas, tex);                  // imgui_draw.h
//   if (atlas.dirty()) { upload(rows atlas.dirty_top() ... atlas.dirty_bottom());
//   atlas.mark_clean(); }
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <unordered_map>
#include <vector>

#include "rope/typeset/math_font.h"

namespace rope::typeset {

struct AtlasGlyph {
  float u0 = 0, v0 = 0, u1 = 0, v1 = 0;  // texture coordinates of the bitmap (0..1)
  int left = 0, top = 0;                 // bitmap offset from the integer pen position, px
  int width = 0, height = 0;             // bitmap size, px (0 for blank glyphs such as space)
};

class GlyphAtlas {
 public:
  static constexpr int kPhases = 4;  // subpixel steps per px for x, y and size

  // The page is width x height px (both >= 64). The font must outlive the atlas.
  explicit GlyphAtlas(const MathFont& font, int width = 1024, int height = 1024);

  // The entry for a glyph at an em size, with the pen at a subpixel phase (0 <= phase < 1 px).
  // Rasterises on first use. nullptr if the page is full or FreeType failed.
  const AtlasGlyph* find(std::uint32_t glyph, float size_px, float phase_x, float phase_y);

  // Drops every entry and clears the page's used rows. A texture of the page need not be
  // uploaded again: glyphs rasterised from now on mark their own rows dirty.
  void reset();
  bool full() const { return full_; }
  // Rows [dirty_top(), dirty_bottom()) changed since mark_clean(): each new glyph's rows and the
  // empty row above and below it (bilinear sampling at a glyph's edge reads them). A texture
  // made from the page uploads only these; rows never dirty hold no glyph and are never read.
  bool dirty() const { return dirty_top_ < dirty_bottom_; }
  int dirty_top() const { return dirty_top_; }
  int dirty_bottom() const { return dirty_bottom_; }
  void mark_clean() {
    dirty_top_ = height_;
    dirty_bottom_ = 0;
  }
  int width() const { return width_; }
  int height() const { return height_; }
  // width*height bytes of coverage, rows top to bottom. One byte, not RGBA: the page is 4 MB
  // instead of 16 (and so is its texture); the texture reads it as white with this alpha.
  const std::uint8_t* pixels() const { return pixels_.get(); }
  std::size_t size() const { return entries_.size(); }  // number of cached entries

 private:
  const MathFont* font_;
  int width_, height_;
  // calloc'ed: a fresh page costs no time until rows are written (the 4 MB math page was zeroed
  // twice at start, measurably, with the page faults of a VM)
  struct Free {
    void operator()(std::uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint8_t[], Free> pixels_;
  std::unordered_map<std::uint64_t, AtlasGlyph> entries_;
  int shelf_x_ = 1, shelf_y_ = 1, shelf_h_ = 0;  // shelf packer cursor; 1 px border
  bool full_ = false;
  int dirty_top_ = 0, dirty_bottom_ = 0;  // rows; empty when top >= bottom
  GlyphBitmap scratch_;
};

}  // namespace rope::typeset
