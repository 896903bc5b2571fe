// imgui_draw.cpp — DisplayList → ImDrawList (imgui_draw.h). No GL calls.
#include "rope/typeset/imgui_draw.h"

#include <algorithm>
#include <cmath>

namespace rope::typeset {
namespace {

ImU32 to_imu32(Rgba c, ImU32 tint) {
  const auto ch = [tint](std::uint8_t v, int shift) {
    return static_cast<ImU32>(v) * ((tint >> shift) & 0xFFu) / 255u;
  };
  return IM_COL32(ch(c.r, IM_COL32_R_SHIFT), ch(c.g, IM_COL32_G_SHIFT), ch(c.b, IM_COL32_B_SHIFT),
                  ch(c.a, IM_COL32_A_SHIFT));
}

// Restricts [lo, hi) with texture coordinates [uv_lo, uv_hi) to [min, max), interpolating.
void clip_span(float& lo, float& hi, float& uv_lo, float& uv_hi, float min, float max) {
  const float len = hi - lo;
  if (len <= 0) return;
  const float new_lo = std::max(lo, min), new_hi = std::min(hi, max);
  const float u0 = uv_lo + (uv_hi - uv_lo) * (new_lo - lo) / len;
  const float u1 = uv_lo + (uv_hi - uv_lo) * (new_hi - lo) / len;
  lo = new_lo;
  hi = new_hi;
  uv_lo = u0;
  uv_hi = u1;
}

}  // namespace

bool draw_display_list(ImDrawList* draw_list, const DisplayList& list, ImVec2 baseline_origin,
                       GlyphAtlas& atlas, ImTextureID atlas_texture, ImU32 tint) {
  if (draw_list == nullptr) return false;
  const float ox = std::round(baseline_origin.x), oy = std::round(baseline_origin.y);
  bool complete = true;
  draw_list->PushTextureID(atlas_texture);
  for (const PlacedGlyph& g : list.glyphs) {
    const float px = ox + g.x, py = oy + g.y;
    const float ix = std::floor(px), iy = std::floor(py);
    const AtlasGlyph* e = atlas.find(g.glyph, g.size_px, px - ix, py - iy);
    if (e == nullptr) {
      complete = false;
      continue;
    }
    if (e->width == 0 || e->height == 0) continue;
    ImVec2 a(ix + static_cast<float>(e->left), iy - static_cast<float>(e->top));
    ImVec2 b(a.x + static_cast<float>(e->width), a.y + static_cast<float>(e->height));
    ImVec2 uv_a(e->u0, e->v0), uv_b(e->u1, e->v1);
    // Assembly parts: cut the quad (and its UVs) at the clip span; neighbours share the edge.
    if (g.clip == ClipAxis::x) {
      clip_span(a.x, b.x, uv_a.x, uv_b.x, ox + g.clip_min, ox + g.clip_max);
    } else if (g.clip == ClipAxis::y) {
      clip_span(a.y, b.y, uv_a.y, uv_b.y, oy + g.clip_min, oy + g.clip_max);
    }
    if (!(a.x < b.x && a.y < b.y)) continue;
    draw_list->PrimReserve(6, 4);
    draw_list->PrimRectUV(a, b, uv_a, uv_b, to_imu32(g.color, tint));
  }
  draw_list->PopTextureID();
  for (const FilledRect& r : list.rects) {
    draw_list->AddRectFilled(ImVec2(ox + r.x, oy + r.y), ImVec2(ox + r.x + r.w, oy + r.y + r.h),
                             to_imu32(r.color, tint));
  }
  return complete;
}

}  // namespace rope::typeset
