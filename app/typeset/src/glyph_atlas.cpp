// glyph_atlas.cpp — shelf-packed one-byte coverage glyph page (glyph_atlas.h).
#include "rope/typeset/glyph_atlas.h"

#include <algorithm>
#include <cmath>
#include <new>

namespace rope::typeset {

GlyphAtlas::GlyphAtlas(const MathFont& font, int width, int height)
    : font_(&font), width_(std::max(64, width)), height_(std::max(64, height)) {
  pixels_.reset(static_cast<std::uint8_t*>(
      std::calloc(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_), 1)));
  if (!pixels_) throw std::bad_alloc();  // as the vector it replaces would
  mark_clean();
}

void GlyphAtlas::reset() {
  entries_.clear();
  const int used = std::min(height_, shelf_y_ + shelf_h_ + 1);  // the rows glyphs were put in
  std::fill_n(pixels_.get(), static_cast<std::size_t>(used) * static_cast<std::size_t>(width_),
              std::uint8_t{0});
  shelf_x_ = shelf_y_ = 1;
  shelf_h_ = 0;
  full_ = false;
}

const AtlasGlyph* GlyphAtlas::find(std::uint32_t glyph, float size_px, float phase_x,
                                   float phase_y) {
  // Key: glyph (24 bits) | size in 1/4 px (16 bits) | x, y phase in 1/4 px (2 bits each).
  const auto q = [](float v) {
    return static_cast<std::uint64_t>(std::clamp(std::lround(v * kPhases), 0L, 65535L));
  };
  const std::uint64_t qx = q(phase_x) % kPhases, qy = q(phase_y) % kPhases;
  const std::uint64_t qs = q(size_px);
  const std::uint64_t key = (static_cast<std::uint64_t>(glyph) << 24) | (qs << 4) | (qx << 2) | qy;
  if (auto it = entries_.find(key); it != entries_.end()) return &it->second;
  if (full_) return nullptr;

  const float step = 1.0f / kPhases;
  if (!font_->render_glyph(glyph, static_cast<float>(qs) * step, static_cast<float>(qx) * step,
                           static_cast<float>(qy) * step, scratch_)) {
    return nullptr;
  }
  AtlasGlyph e;
  e.left = scratch_.left;
  e.top = scratch_.top;
  e.width = scratch_.width;
  e.height = scratch_.height;
  if (e.width > 0 && e.height > 0) {
    if (shelf_x_ + e.width + 1 > width_) {  // next shelf
      shelf_y_ += shelf_h_ + 1;
      shelf_x_ = 1;
      shelf_h_ = 0;
    }
    if (e.width + 2 > width_ || shelf_y_ + e.height + 1 > height_) {
      full_ = true;
      return nullptr;
    }
    for (int y = 0; y < e.height; ++y) {
      for (int x = 0; x < e.width; ++x) {
        const std::size_t dst =
            static_cast<std::size_t>(shelf_y_ + y) * static_cast<std::size_t>(width_) +
            static_cast<std::size_t>(shelf_x_ + x);
        pixels_[dst] = scratch_.coverage[static_cast<std::size_t>(y * e.width + x)];
      }
    }
    const float iw = 1.0f / static_cast<float>(width_), ih = 1.0f / static_cast<float>(height_);
    e.u0 = static_cast<float>(shelf_x_) * iw;
    e.v0 = static_cast<float>(shelf_y_) * ih;
    e.u1 = static_cast<float>(shelf_x_ + e.width) * iw;
    e.v1 = static_cast<float>(shelf_y_ + e.height) * ih;
    dirty_top_ = std::min(dirty_top_, shelf_y_ - 1);
    dirty_bottom_ = std::max(dirty_bottom_, std::min(height_, shelf_y_ + e.height + 1));
    shelf_x_ += e.width + 1;
    shelf_h_ = std::max(shelf_h_, e.height);
  }
  return &entries_.emplace(key, e).first->second;
}

}  // namespace rope::typeset
