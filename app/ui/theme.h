// ui/theme.h — the two themes (dark for screens, light high-contrast for projectors), the
// canvas palette, the frequency colours, and the font set, all scaled by one UI scale.
//
// Usage (once per frame, before drawing): const Palette& pal = palette(state.params.theme);
//   ImU32 c = frequency_colour(i, blocks, state.params.theme);
#pragma once

#include <string>

#include "imgui.h"
#include "state/app_state.h"

namespace rope::app {

// Colours of the canvases, as packed ImU32 (ABGR).
struct Palette {
  ImU32 canvas;    // main canvas background
  ImU32 panel;     // boxes on the canvas (read-outs)
  ImU32 grid;      // dial rims, axes' grid
  ImU32 axis;      // axes, tick marks
  ImU32 text;      // labels
  ImU32 text_dim;  // secondary labels
  ImU32 query;     // q and R_m q
  ImU32 key;       // k and R_n k
  ImU32 accent;    // angle differences, highlighted values
  ImU32 good;      // check marks
  ImU32 bad;       // crosses, errors
};

const Palette& palette(Theme theme);

// Colour of block i of `blocks`: fast (i = 0) warm, slow (i = blocks-1) cool, at a lightness
// chosen for contrast against the theme's canvas.
ImU32 frequency_colour(int i, int blocks, Theme theme);

// Black or white, whichever reads on `fill` (a colour-map cell): black when the fill's relative
// luminance (Rec. 709 weights on the sRGB components, 0 … 1) is above 0.45.
ImU32 ink_on(ImU32 fill);

// Sets ImGui's style colours and sizes for the theme at this scale (sizes are multiplied by
// `scale` from ImGui's defaults, so calling it again with another scale is exact).
void apply_style(Theme theme, float scale);

// The fonts of one atlas. Sizes are line heights in px at scale 1 (ImGui sizes are not em).
struct Fonts {
  ImFont* body = nullptr;   // UI text, 19 px
  ImFont* bold = nullptr;   // headings, 19 px
  ImFont* large = nullptr;  // canvas labels, 26 px
  ImFont* title = nullptr;  // titles and big read-outs, 38 px
  // Titles one step down from `title` (a view's compact levels), bold like it, 26 px: a title
  // keeps its weight when the layout gives it less room (review D15).
  ImFont* heading = nullptr;
  // Code listings (the code view, lessons that show it): DejaVu Sans Mono, ASCII only, 26 px
  // (drawn smaller by the code view). The body font when DejaVuSansMono.ttf is not in the font
  // folder: a listing in a proportional font is still readable, so no warning.
  ImFont* mono = nullptr;
  float scale = 1.0f;  // the scale the fonts are drawn at (px = size * scale)
  // The scale the glyphs were rasterised at: `scale` up to a cap that keeps the atlas inside
  // the GL's largest texture (kept in load_fonts); above it bake_ring enlarges the glyph
  // quads by scale / raster_scale (slightly soft edges instead of a texture too large to load).
  float raster_scale = 1.0f;
  int max_texture = 16384;  // GL_MAX_TEXTURE_SIZE the atlas must fit, px
  // Set when a font file was missing or damaged and ImGui's default font is used, or when the
  // atlas did not fit the largest texture: the picture commands refuse to write (AppState
  // problems), the window shows it.
  std::string warning;
  // Anti-aliased rings baked into the atlas (white, coverage in alpha): small and medium dials
  // draw their rim as one textured quad instead of a polyline, which costs the software
  // rasteriser far less. The quad is drawn at the dial's size, so the line scales with it:
  // ring 0's line is 1/8 of the radius (for r <= 16 px: at most 2 px), ring 1's is 1/24 (for
  // 16 < r <= 48 px: 0.7 ... 2 px). Valid after bake_ring.
  struct Ring {
    int rect = -1;  // the atlas custom rect
    ImVec2 uv0, uv1;
    float hole = 0.0f;  // inside this fraction of the radius every texel sampled is clear
    bool ready() const { return rect >= 0 && uv1.x > uv0.x; }
  };
  Ring rings[2];
  // The ring for a dial of radius r px, or nullptr when a polyline is the better rim.
  const Ring* ring_for(float radius) const {
    const Ring* r = radius <= 16.0f ? &rings[0] : radius <= 48.0f ? &rings[1] : nullptr;
    return r && r->ready() ? r : nullptr;
  }
};

// Draws `ring` as the rim of a dial of radius r px at c, tinted `col`. The pixels are those of
// the ring's square texture drawn over the dial, but only a band of 16 trapezoids around the
// line is rasterised, not the clear square inside it: a software rasteriser pays for every
// pixel a triangle covers (at r = 27 px the band is a seventh of the square), and 256 dials'
// squares were a third of a 1920 x 1080 frame.
void add_ring(ImDrawList* dl, const Fonts::Ring& ring, ImVec2 c, float r, ImU32 col);

// Builds the atlas (GetTexDataAsAlpha8), draws the rings into its pixels and sets their UVs.
// Call before the atlas is uploaded.
void bake_ring(ImFontAtlas& atlas, Fonts& fonts);

// Builds the atlas for `scale`: DejaVu Sans (fonts-dejavu-core, in `font_dir`) with Latin,
// Greek, sub- and superscripts, arrows and math operators. Missing font files fall back to
// ImGui's built-in font (Latin only) and fill Fonts::warning. Call before the atlas texture is
// created.
// The font folder: $ROPE_LAB_FONT_DIR when set (tests, unusual installations), else DejaVu's.
// Each file is opened with FreeType and must hold the glyphs the views draw (A, θ, →) before
// ImGui sees it: a damaged file falls back like a missing one instead of failing in the atlas.
inline constexpr const char* kDefaultFontDir = "/usr/share/fonts/truetype/dejavu";
std::string ui_font_dir();
Fonts load_fonts(ImFontAtlas& atlas, float scale, const std::string& font_dir = ui_font_dir(),
                 int max_texture = 16384);

}  // namespace rope::app
