#include "ui/theme.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <string>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "io/read_file.h"

namespace rope::app {
namespace {

// The baked rings (Fonts::rings): side in px in the atlas, and line width / radius.
constexpr int kRingSizes[2] = {64, 128};
constexpr float kRingWidths[2] = {1.0f / 8.0f, 1.0f / 24.0f};

constexpr ImU32 rgb(int r, int g, int b, int a = 255) {
  return IM_COL32(r, g, b, a);
}

const Palette kDark{
    rgb(22, 24, 30),     // canvas
    rgb(34, 37, 46),     // panel
    rgb(70, 76, 92),     // grid
    rgb(150, 156, 170),  // axis
    rgb(235, 238, 245),  // text
    rgb(160, 166, 180),  // text_dim
    rgb(255, 196, 61),   // query: amber
    rgb(86, 200, 255),   // key: sky blue
    rgb(255, 105, 180),  // accent: pink
    rgb(80, 220, 120),   // good
    rgb(255, 90, 80),    // bad
};

// Projector theme: near-white canvas, black text, saturated dark colours (projectors wash out
// light tints and thin lines, so everything is darker and bolder).
const Palette kLight{
    rgb(255, 255, 255),  // canvas
    rgb(238, 240, 244),  // panel
    rgb(175, 180, 190),  // grid
    rgb(60, 64, 72),     // axis
    rgb(0, 0, 0),        // text
    rgb(70, 74, 84),     // text_dim
    rgb(200, 110, 0),    // query: dark orange
    rgb(0, 90, 200),     // key: strong blue
    rgb(200, 0, 120),    // accent: magenta
    rgb(0, 140, 60),     // good
    rgb(210, 0, 0),      // bad
};

}  // namespace

const Palette& palette(Theme theme) {
  return theme == Theme::light ? kLight : kDark;
}

ImU32 ink_on(ImU32 fill) {
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(fill);
  return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z > 0.45f ? IM_COL32(0, 0, 0, 255)
                                                               : IM_COL32(255, 255, 255, 255);
}

ImU32 frequency_colour(int i, int blocks, Theme theme) {
  // Hue runs from red-orange (fastest block) through yellow and green to blue-violet (slowest):
  // an ordered sweep a class can read as "hot = fast".
  const float t = blocks > 1 ? static_cast<float>(i) / static_cast<float>(blocks - 1) : 0.0f;
  const float hue = 0.02f + 0.70f * t;
  const float sat = theme == Theme::light ? 0.95f : 0.70f;
  const float val = theme == Theme::light ? 0.78f : 1.0f;
  float r = 0, g = 0, b = 0;
  ImGui::ColorConvertHSVtoRGB(hue, sat, val, r, g, b);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f));
}

void apply_style(Theme theme, float scale) {
  ImGuiStyle style;  // ImGui's defaults, then ours, then the scale
  if (theme == Theme::light) {
    ImGui::StyleColorsLight(&style);
  } else {
    ImGui::StyleColorsDark(&style);
  }
  style.WindowRounding = 0.0f;
  // Square frames and grabs: rounded corners add anti-aliased fringe triangles to every
  // widget, which the software rasteriser pays for in every frame (~0.3 ms with the panel).
  style.FrameRounding = 0.0f;
  style.GrabRounding = 0.0f;
  style.PopupRounding = 4.0f;
  style.ScrollbarRounding = 6.0f;
  style.WindowBorderSize = 0.0f;
  style.FrameBorderSize = theme == Theme::light ? 1.0f : 0.0f;
  style.WindowPadding = ImVec2(14, 12);
  style.FramePadding = ImVec2(8, 5);
  style.ItemSpacing = ImVec2(10, 8);
  style.ItemInnerSpacing = ImVec2(8, 6);
  // A slider's value is written across it and its knob: a narrow, see-through knob leaves every
  // digit readable (a solid 14 px knob hid one; issue 15, item 6). Clicking anywhere on a slider
  // moves it there, so a narrow knob is no harder to use. At 6 px and 75 % opacity a knob still
  // hid the digit under it ("speed 1.00", "base = 10000", review D20): 4 px, half opaque.
  style.GrabMinSize = 4.0f;
  style.ScrollbarSize = 16.0f;
  ImVec4* c = style.Colors;
  if (theme == Theme::dark) {
    c[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.15f, 1.0f);
    c[ImGuiCol_ChildBg] = ImVec4(0.0f, 0.0f, 0.0f, 0.0f);
    c[ImGuiCol_MenuBarBg] = ImVec4(0.09f, 0.10f, 0.12f, 1.0f);
    c[ImGuiCol_FrameBg] = ImVec4(0.19f, 0.21f, 0.26f, 1.0f);
    c[ImGuiCol_Header] = ImVec4(0.22f, 0.30f, 0.45f, 1.0f);
    c[ImGuiCol_Button] = ImVec4(0.20f, 0.27f, 0.40f, 1.0f);
    c[ImGuiCol_SliderGrab] = ImVec4(1.0f, 0.77f, 0.24f, 0.5f);
    c[ImGuiCol_SliderGrabActive] = ImVec4(1.0f, 0.85f, 0.45f, 0.9f);
    c[ImGuiCol_CheckMark] = ImVec4(1.0f, 0.77f, 0.24f, 1.0f);
  } else {
    c[ImGuiCol_Text] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
    c[ImGuiCol_WindowBg] = ImVec4(0.96f, 0.96f, 0.97f, 1.0f);
    c[ImGuiCol_MenuBarBg] = ImVec4(0.90f, 0.91f, 0.93f, 1.0f);
    c[ImGuiCol_FrameBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
    c[ImGuiCol_Border] = ImVec4(0.45f, 0.47f, 0.52f, 1.0f);
    c[ImGuiCol_SliderGrab] = ImVec4(0.78f, 0.43f, 0.0f, 0.45f);
    c[ImGuiCol_SliderGrabActive] = ImVec4(0.60f, 0.33f, 0.0f, 0.8f);
    c[ImGuiCol_CheckMark] = ImVec4(0.78f, 0.43f, 0.0f, 1.0f);
  }
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

std::string ui_font_dir() {
  const char* env = std::getenv("ROPE_LAB_FONT_DIR");
  return env && *env ? std::string(env) : std::string(kDefaultFontDir);
}

namespace {

// A UI font is a few hundred kB (DejaVu Sans: 0.7 MB); the limit keeps a link to /dev/zero from
// growing the process.
constexpr std::size_t kMaxUiFontBytes = 64u << 20;

// The font's bytes when they are a scalable font with the glyphs A, θ and → that load; else
// why not ("is a pipe (FIFO), not a regular file", "not a font FreeType can read").
Result<std::string> read_ui_font(const std::string& path) {
  bool missing = false;
  auto bytes = read_regular_file(path, kMaxUiFontBytes, &missing);
  if (missing) return Error{path, "not found"};
  if (!bytes) return bytes.error();
  FT_Library lib = nullptr;
  if (FT_Init_FreeType(&lib) != 0) return Error{path, "FreeType could not start"};
  std::string problem;
  FT_Face face = nullptr;
  const std::string& data = bytes.value();
  if (FT_New_Memory_Face(lib, reinterpret_cast<const FT_Byte*>(data.data()),
                         static_cast<FT_Long>(data.size()), 0, &face) != 0) {
    problem = "not a font FreeType can read";
  } else if (!FT_IS_SCALABLE(face)) {
    problem = "not a scalable font";
  } else {
    for (FT_ULong c : {FT_ULong{'A'}, FT_ULong{0x03B8}, FT_ULong{0x2192}}) {
      const FT_UInt glyph = FT_Get_Char_Index(face, c);
      if (glyph == 0 || FT_Set_Pixel_Sizes(face, 0, 19) != 0 ||
          FT_Load_Glyph(face, glyph, FT_LOAD_DEFAULT) != 0) {
        problem = "damaged (glyph U+" + std::to_string(c) + " missing or unreadable)";
        break;
      }
    }
  }
  if (face) FT_Done_Face(face);
  FT_Done_FreeType(lib);
  if (!problem.empty()) return Error{path, problem};
  return bytes;
}

}  // namespace

// The largest scale glyphs are rasterised at. The atlas grows with scale²: measured with these
// four fonts and ranges (1 260 glyphs each), 8192 x 8192 at scale 6 without oversampling, so
// scale 8 needs about 11 000², inside a 16384 texture. A smaller texture limit lowers the cap
// in proportion; a UI scale of 4 in a 4x export (16) is drawn from glyphs rasterised at 8.
float raster_cap(int max_texture) {
  return std::max(1.0f, 8.0f * static_cast<float>(max_texture) / 16384.0f);
}

Fonts load_fonts(ImFontAtlas& atlas, float scale, const std::string& font_dir, int max_texture) {
  // Latin-1, Greek, general punctuation, super/subscripts, letterlike symbols (ℝ), arrows,
  // mathematical operators, misc technical (⌈⌉), geometric shapes (▶ ■), dingbats (✓ ✗),
  // and the subscript letters ᵢ ⱼ that live outside those blocks.
  static const ImWchar kRanges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x206F, 0x2070,
                                    0x209F, 0x2100, 0x214F, 0x2190, 0x21FF, 0x2200, 0x22FF,
                                    0x2300, 0x23FF, 0x25A0, 0x25FF, 0x2700, 0x27BF, 0x27E8,
                                    0x27EB, 0x1D62, 0x1D62, 0x2C7C, 0x2C7C, 0};
  const std::string regular = font_dir + "/DejaVuSans.ttf";
  const std::string bold = font_dir + "/DejaVuSans-Bold.ttf";
  const std::string mono = font_dir + "/DejaVuSansMono.ttf";
  // the listings hold ASCII only (code_view.cpp's kListings)
  static const ImWchar kMonoRanges[] = {0x0020, 0x007E, 0};

  Fonts f;
  f.scale = scale;
  f.max_texture = max_texture;
  f.raster_scale = std::min(scale, raster_cap(max_texture));
  const float raster = f.raster_scale;
  atlas.Clear();
  // ImGui's own choice stops at 4096 wide and grows the height: 4096 x 32768 at scale 6, more
  // than any GL texture. A wider atlas keeps both sides inside the limit.
  atlas.TexDesiredWidth = raster > 6.0f   ? max_texture
                          : raster > 3.0f ? std::min(8192, max_texture)
                                          : 0;
  // Read once each, checked, then handed to ImGui from memory (AddFontFromFileTTF would open
  // the path again, unchecked).
  auto regular_bytes = read_ui_font(regular);
  auto bold_bytes = regular_bytes ? read_ui_font(bold) : regular_bytes;
  const std::string problem = !regular_bytes ? regular_bytes.error().to_string()
                              : !bold_bytes  ? bold_bytes.error().to_string()
                                             : std::string();
  const auto add = [&](const Result<std::string>& bytes, float px,
                       const ImWchar* ranges) -> ImFont* {
    if (!problem.empty() || !bytes) return nullptr;
    ImFontConfig cfg;
    // Horizontal oversampling sharpens small text at fractional positions; above 40 px it
    // only doubles the atlas.
    cfg.OversampleH = px * raster < 40.0f ? 2 : 1;
    cfg.OversampleV = 1;
    cfg.PixelSnapH = false;
    // The atlas owns (and IM_FREEs) each copy it is given.
    const std::string& data = bytes.value();
    void* copy = IM_ALLOC(data.size());
    std::memcpy(copy, data.data(), data.size());
    return atlas.AddFontFromMemoryTTF(copy, static_cast<int>(data.size()), std::round(px * raster),
                                      &cfg, ranges);
  };
  f.body = add(regular_bytes, 19.0f, kRanges);
  f.bold = add(bold_bytes, 19.0f, kRanges);
  f.large = add(regular_bytes, 26.0f, kRanges);
  f.title = add(bold_bytes, 38.0f, kRanges);
  f.heading = add(bold_bytes, 26.0f, kRanges);
  f.mono = add(problem.empty() ? read_ui_font(mono) : regular_bytes, 26.0f, kMonoRanges);
  if (!f.mono) f.mono = f.body;
  if (!f.body || !f.bold || !f.large || !f.title || !f.heading) {
    atlas.Clear();
    ImFontConfig cfg;
    cfg.SizePixels = std::round(13.0f * raster);
    ImFont* fallback = atlas.AddFontDefault(&cfg);
    f.body = f.bold = f.large = f.title = f.heading = f.mono = fallback;
    f.warning = "font " + (problem.empty() ? regular + ": not usable" : problem) +
                " (install fonts-dejavu-core, or set ROPE_LAB_FONT_DIR to a folder holding "
                "DejaVuSans.ttf and DejaVuSans-Bold.ttf); using ImGui's built-in font, which "
                "lacks Greek letters and arrows";
  }
  for (int i = 0; i < 2; ++i)
    f.rings[i].rect = atlas.AddCustomRectRegular(kRingSizes[i], kRingSizes[i]);
  return f;
}

namespace {

// Glyphs rasterised at raster_scale drawn at scale: every metric grows by k, the UVs stay.
void enlarge_glyphs(ImFont* font, float k) {
  font->FontSize *= k;
  font->Ascent *= k;
  font->Descent *= k;
  for (ImFontGlyph& g : font->Glyphs) {
    g.AdvanceX *= k;
    g.X0 *= k;
    g.Y0 *= k;
    g.X1 *= k;
    g.Y1 *= k;
  }
  font->BuildLookupTable();
}

}  // namespace

void bake_ring(ImFontAtlas& atlas, Fonts& fonts) {
  // One byte of coverage per texel: the texture is uploaded from these (ui/ui_context.h), and
  // ImGui's RGBA form, when someone asks for it, is made from them (white, alpha = coverage).
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  atlas.GetTexDataAsAlpha8(&pixels, &width, &height);
  if (width > fonts.max_texture || height > fonts.max_texture) {
    char scale[32];
    std::snprintf(scale, sizeof scale, "%g", static_cast<double>(fonts.scale));
    fonts.warning = std::string("the font texture at UI scale x export scale ") + scale +
                    " needs " + std::to_string(width) + " x " + std::to_string(height) +
                    " px, more than this OpenGL's largest texture (" +
                    std::to_string(fonts.max_texture) + " px): choose a smaller scale";
  }
  if (fonts.scale > fonts.raster_scale) {
    const float k = fonts.scale / fonts.raster_scale;
    for (ImFont* font : atlas.Fonts)
      enlarge_glyphs(font, k);
  }
  for (int i = 0; i < 2; ++i) {
    Fonts::Ring& ring = fonts.rings[i];
    const ImFontAtlasCustomRect* rect =
        ring.rect >= 0 ? atlas.GetCustomRectByIndex(ring.rect) : nullptr;
    if (!pixels || !rect || !rect->IsPacked()) continue;
    // Coverage of a ring touching the square's sides, its line kRingWidths[i] of the radius
    // wide, sampled 4x4 per pixel.
    const int size = kRingSizes[i];
    const float c = 0.5f * static_cast<float>(size);
    const float r_out = c - 0.5f;
    const float r_in = r_out - c * kRingWidths[i];
    for (int y = 0; y < size; ++y) {
      for (int x = 0; x < size; ++x) {
        int inside = 0;
        for (int sy = 0; sy < 4; ++sy)
          for (int sx = 0; sx < 4; ++sx) {
            const float px = static_cast<float>(x) + (static_cast<float>(sx) + 0.5f) / 4.0f - c;
            const float py = static_cast<float>(y) + (static_cast<float>(sy) + 0.5f) / 4.0f - c;
            const float d = std::sqrt(px * px + py * py);
            inside += (d <= r_out && d >= r_in) ? 1 : 0;
          }
        const std::size_t at =
            static_cast<std::size_t>(rect->Y + y) * static_cast<std::size_t>(width) +
            static_cast<std::size_t>(rect->X + x);
        const auto coverage = static_cast<unsigned char>(inside * 255 / 16);
        pixels[at] = coverage;
        if (atlas.TexPixelsRGBA32) {  // an RGBA copy made before: keep it the same
          unsigned char* p = reinterpret_cast<unsigned char*>(atlas.TexPixelsRGBA32 + at);
          p[0] = p[1] = p[2] = 255;
          p[3] = coverage;
        }
      }
    }
    ring.uv0 = ImVec2(static_cast<float>(rect->X) / static_cast<float>(width),
                      static_cast<float>(rect->Y) / static_cast<float>(height));
    ring.uv1 = ImVec2(static_cast<float>(rect->X + size) / static_cast<float>(width),
                      static_cast<float>(rect->Y + size) / static_cast<float>(height));
    // A texel covers part of the line when its centre is within 0.71 texel of r_in, and a
    // linear filter reads one texel further: two texels inside r_in everything is clear.
    ring.hole = std::max(0.0f, (r_in - 2.0f) / c);
  }
}

void add_ring(ImDrawList* dl, const Fonts::Ring& ring, ImVec2 c, float r, ImU32 col) {
  // The outer 16-gon has its sides' midpoints on the circle of radius r, at 0, 22.5, 45, ...
  // degrees, so it holds the whole square texture's ring and its corners stay inside the
  // square (a corner past it would read a neighbour in the atlas); the inner one has its
  // corners on the hole's circle, so everything between them is clear.
  constexpr int kSides = 16;
  const float step = 2.0f * std::numbers::pi_v<float> / static_cast<float>(kSides);
  const float outer = r / std::cos(0.5f * step), inner = r * ring.hole;
  const ImVec2 uv_per_px((ring.uv1.x - ring.uv0.x) / (2.0f * r),
                         (ring.uv1.y - ring.uv0.y) / (2.0f * r));
  const auto vertex = [&](float radius, float angle) {
    const ImVec2 p(c.x + radius * std::cos(angle), c.y + radius * std::sin(angle));
    const ImVec2 uv(ring.uv0.x + (p.x - (c.x - r)) * uv_per_px.x,
                    ring.uv0.y + (p.y - (c.y - r)) * uv_per_px.y);
    dl->PrimWriteVtx(p, uv, col);
  };
  dl->PushTextureID(ImGui::GetIO().Fonts->TexID);
  dl->PrimReserve(kSides * 6, kSides * 2);
  const auto first = static_cast<ImDrawIdx>(dl->_VtxCurrentIdx);
  for (int k = 0; k < kSides; ++k) {
    const float angle = (static_cast<float>(k) + 0.5f) * step;
    vertex(outer, angle);
    vertex(inner, angle);
  }
  for (int k = 0; k < kSides; ++k) {  // the trapezoid between corners k and k + 1
    const auto o0 = static_cast<ImDrawIdx>(first + 2 * k);
    const auto o1 = static_cast<ImDrawIdx>(first + 2 * ((k + 1) % kSides));
    for (const ImDrawIdx i : {o0, static_cast<ImDrawIdx>(o0 + 1), o1, o1,
                              static_cast<ImDrawIdx>(o0 + 1), static_cast<ImDrawIdx>(o1 + 1)})
      dl->PrimWriteIdx(i);
  }
  dl->PopTextureID();
}

}  // namespace rope::app
