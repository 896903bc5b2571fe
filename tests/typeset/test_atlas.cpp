// test_atlas.cpp — the CPU glyph atlas (packing, UVs, dirty flag, full page) and drawing a
// display list into an ImDrawList in a headless ImGui frame (no GL context needed).
#include <catch2/catch.hpp>

#include "rope/typeset/glyph_atlas.h"
#include "rope/typeset/imgui_draw.h"
#include "test_support.h"

using namespace rope::typeset;

TEST_CASE("glyph atlas rasterises on demand and caches by glyph, size and phase", "[atlas]") {
  const MathFont& f = *test::font();
  GlyphAtlas atlas(f, 256, 256);
  CHECK_FALSE(atlas.dirty());  // an empty page: nothing to upload yet
  const std::uint32_t x = f.glyph_for(0x1D465);
  const AtlasGlyph* e = atlas.find(x, 24.0f, 0.0f, 0.0f);
  REQUIRE(e != nullptr);
  CHECK(atlas.dirty());
  // the dirty rows: the glyph's, with the empty row above and below it
  CHECK(atlas.dirty_top() == static_cast<int>(e->v0 * 256) - 1);
  CHECK(atlas.dirty_bottom() == static_cast<int>(e->v0 * 256) + e->height + 1);
  CHECK(e->width > 5);
  CHECK(e->height > 5);
  CHECK((e->u0 >= 0 && e->u1 <= 1 && e->u0 < e->u1 && e->v0 < e->v1));
  // The coverage landed where the UVs say (one byte a pixel), and nothing left of the glyph.
  int covered = 0;
  const int px0 = static_cast<int>(e->u0 * 256), py0 = static_cast<int>(e->v0 * 256);
  for (int yy = py0; yy < py0 + e->height; ++yy)
    for (int xx = px0; xx < px0 + e->width; ++xx) {
      covered += atlas.pixels()[yy * 256 + xx] > 128 ? 1 : 0;
    }
  CHECK(covered > 10);
  CHECK(atlas.pixels()[py0 * 256 + px0 - 1] == 0);  // the 1 px gutter before the glyph
  atlas.mark_clean();
  CHECK(atlas.find(x, 24.0f, 0.0f, 0.0f) == e);    // cached: no new raster, page stays clean
  CHECK(atlas.find(x, 24.05f, 0.01f, 0.0f) == e);  // same quarter-pixel bucket
  CHECK_FALSE(atlas.dirty());
  CHECK(atlas.find(x, 24.0f, 0.5f, 0.0f) != e);  // another subpixel phase
  CHECK(atlas.size() == 2);
  // Blank glyphs (space) have an entry with no bitmap.
  const AtlasGlyph* space = atlas.find(f.glyph_for(' '), 24.0f, 0, 0);
  REQUIRE(space != nullptr);
  CHECK(space->width == 0);

  // A small page fills up: find() returns nullptr until reset().
  GlyphAtlas tiny(f, 64, 64);
  int added = 0;
  for (char32_t cp = 'A'; cp <= 'Z'; ++cp)
    added += tiny.find(f.glyph_for(cp), 40.0f, 0, 0) ? 1 : 0;
  CHECK(tiny.full());
  CHECK(added < 26);
  tiny.reset();
  CHECK_FALSE(tiny.full());
  CHECK(tiny.size() == 0);
  CHECK(tiny.find(f.glyph_for('A'), 40.0f, 0, 0) != nullptr);
}

TEST_CASE("display list draws into an ImDrawList as textured quads and rules", "[atlas][imgui]") {
  const MathFont& f = *test::font();
  const Typeset t = typeset(R"(\frac{\theta_i}{2} + \sqrt{x})", {}, f, {.font_px = 24});
  REQUIRE(t.diagnostics.empty());
  GlyphAtlas atlas(f);
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(400, 200);
  io.DeltaTime = 1.0f / 60.0f;
  unsigned char* font_pixels = nullptr;
  int fw = 0, fh = 0;
  io.Fonts->GetTexDataAsRGBA32(&font_pixels, &fw, &fh);
  const ImTextureID math_tex = reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(42));
  bool complete = false;
  ImDrawList* dl = nullptr;
  for (int frame = 0; frame < 2; ++frame) {  // a new auto-sized window draws on its 2nd frame
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(300, 150));
    ImGui::Begin("math");
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(t.list.width, t.list.height + t.list.depth));
    dl = ImGui::GetWindowDrawList();
    complete = draw_display_list(dl, t.list, ImVec2(p.x, p.y + t.list.height), atlas, math_tex);
    ImGui::End();
    ImGui::Render();
  }
  CHECK(complete);
  CHECK(atlas.dirty());
  // One draw command with our texture holds 6 indices per visible glyph.
  unsigned math_indices = 0;
  for (const ImDrawCmd& cmd : dl->CmdBuffer)
    if (cmd.TextureId == math_tex) math_indices += cmd.ElemCount;
  std::size_t visible = 0;
  for (const PlacedGlyph& g : t.list.glyphs) {
    const AtlasGlyph* e = atlas.find(g.glyph, g.size_px, 0, 0);
    visible += (e != nullptr && e->width > 0) ? 1 : 0;
  }
  CHECK(math_indices == 6 * visible);
  CHECK(t.list.rects.size() == 2);  // fraction bar and radical rule, as AddRectFilled
  ImGui::DestroyContext();
}
