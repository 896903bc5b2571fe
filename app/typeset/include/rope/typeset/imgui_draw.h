// rope/typeset/imgui_draw.h — draws a DisplayList into an ImDrawList: glyphs as textured quads
// from a GlyphAtlas page the app has uploaded as `atlas_texture`, rules as AddRectFilled.
// No GL calls here; the app owns the texture (upload GlyphAtlas::pixels() when dirty()).
//
// Usage:
//   ImVec2 p = ImGui::GetCursorScreenPos();
//   ImGui::Dummy({list.width, list.height + list.depth});
//   draw_display_list(ImGui::GetWindowDrawList(), list, {p.x, p.y + list.height}, atlas, tex);
#pragma once

#include "imgui.h"
#include "rope/typeset/display_list.h"
#include "rope/typeset/glyph_atlas.h"

namespace rope::typeset {

// `baseline_origin` is the screen position of the left end of the baseline; it is rounded to
// whole pixels so rules stay crisp. Returns false if a glyph was skipped because the atlas was
// full (reset it next frame). `tint` multiplies every colour (pass IM_COL32_WHITE to keep them).
bool draw_display_list(ImDrawList* draw_list, const DisplayList& list, ImVec2 baseline_origin,
                       GlyphAtlas& atlas, ImTextureID atlas_texture, ImU32 tint = IM_COL32_WHITE);

}  // namespace rope::typeset
