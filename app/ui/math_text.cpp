#include "ui/math_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "io/read_file.h"
#include "rope/typeset/imgui_draw.h"
#include "rope/typeset/layout.h"
#include "ui/canvas.h"

namespace rope::app {
namespace {

// Tried in order when ROPE_LAB_MATH_FONT is not set: Latin Modern Math (fonts-lmodern, which
// scripts/deps.sh installs), then two other OpenType MATH fonts Debian ships.
constexpr const char* kFallbackFonts[] = {
    typeset::MathFont::kDefaultPath,
    "/usr/share/fonts/opentype/stix-word/STIXMath-Regular.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf",
};

// Latin Modern Math is 0.7 MB and the largest OpenType MATH fonts a few MB; the limit only keeps
// a link to /dev/zero from growing the process.
constexpr std::size_t kMaxFontBytes = 64u << 20;

typeset::Rgba to_rgba(ImU32 c) {
  return {static_cast<std::uint8_t>(c & 0xFF), static_cast<std::uint8_t>((c >> 8) & 0xFF),
          static_cast<std::uint8_t>((c >> 16) & 0xFF), static_cast<std::uint8_t>((c >> 24) & 0xFF)};
}

// The height of glyph `c` of `font` drawn at `size` px above its baseline, px (0 when the font
// lacks it). ImGui bakes glyph tops relative to the line top, with the baseline at round(Ascent).
float text_glyph_height(const ImFont* font, float size, ImWchar c) {
  const ImFontGlyph* g = font->FindGlyphNoFallback(c);
  if (g == nullptr || font->FontSize <= 0.0f) return 0.0f;
  return (std::round(font->Ascent) - g->Y0) * size / font->FontSize;
}

// A math glyph's height above the baseline in em (0 when the font lacks it).
float math_glyph_height(const typeset::MathFont& font, char32_t c) {
  const std::uint32_t g = font.glyph_for(c);
  if (g == 0) return 0.0f;
  return static_cast<float>(font.metrics(g).y_max) / static_cast<float>(font.units_per_em());
}

}  // namespace

float MathText::inline_px(const ImFont* font, float size) const {
  const float text_cap = text_glyph_height(font, size, 'H');
  const float text_x = text_glyph_height(font, size, 'x');
  const float math_cap = math_glyph_height(*font_, U'H'), math_x = math_glyph_height(*font_, U'x');
  if (text_cap <= 0.0f || text_x <= 0.0f || math_cap <= 0.0f || math_x <= 0.0f)
    return size / 1.164f;
  return std::sqrt((text_cap / math_cap) * (text_x / math_x));
}

MathScope::MathScope(const ViewEnv& env, MathText& own)
    : math_(env.math ? env.math : &own),
      own_(env.math == nullptr),
      has_gl_(env.has_gl),
      scale_(env.scale) {
  if (own_) own.begin_frame();  // the shared one is begun by draw_frame
}

MathScope::~MathScope() {
  if (own_) math_->end_frame(has_gl_);
}

PenMath MathScope::pen() const {
  return PenMath{math_, has_gl_, scale_};
}

void MathText::begin_frame() {
  if (atlas_ && atlas_->full()) atlas_->reset();
  if (tried_) return;
  tried_ = true;
  std::vector<std::string> paths;
  if (const char* env = std::getenv("ROPE_LAB_MATH_FONT"); env != nullptr && *env != '\0') {
    paths.emplace_back(env);  // an explicit choice: no silent fallback
  } else {
    paths.assign(std::begin(kFallbackFonts), std::end(kFallbackFonts));
  }
  std::string first_error;
  for (const std::string& path : paths) {
    auto bytes = read_regular_file(path, kMaxFontBytes);
    if (!bytes) {
      if (first_error.empty()) first_error = "font file " + bytes.error().to_string();
      continue;
    }
    typeset::FontLoad fl = typeset::MathFont::load_bytes(std::move(bytes).value(), path);
    if (fl.font) {
      font_ = std::move(fl.font);
      atlas_ = std::make_unique<typeset::GlyphAtlas>(*font_, 2048, 2048);
      return;
    }
    if (first_error.empty()) first_error = fl.error;
  }
  error_ = "No math font could be loaded (" + first_error +
           "). Install fonts-lmodern; equations are shown as TeX source.";
}

void MathText::end_frame(bool has_gl) {
  if (has_gl && atlas_) texture_.sync(*atlas_);
}

const MathText::Formula& MathText::typeset(const std::string& tex, const typeset::Values& values,
                                           float px, ImU32 colour, bool inline_style,
                                           float min_script_px) {
  std::string key = tex;
  for (const auto& [k, v] : values) {
    key += '\x1f';
    key += k;
    key += '=';
    key += v;
  }
  char tail[64];
  std::snprintf(tail, sizeof tail, "\x1f%.2f\x1f%.2f\x1f%08x%s", static_cast<double>(px),
                static_cast<double>(min_script_px), colour, inline_style ? "\x1fi" : "");
  key += tail;
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  if (cache_.size() >= kMaxCached) cache_.clear();
  typeset::LayoutOptions options;
  options.font_px = px;
  options.ink = to_rgba(colour);
  options.min_script_px = min_script_px;
  if (inline_style) options.style = typeset::MathStyle::text;
  typeset::Typeset t = typeset::typeset(tex, values, *font_, options);
  return cache_
      .emplace(std::move(key), Formula{std::move(t.list), static_cast<int>(t.diagnostics.size())})
      .first->second;
}

void MathText::paint(ImDrawList* dl, const typeset::DisplayList& list, ImVec2 origin, ImU32 colour,
                     bool has_gl) {
  if (has_gl && atlas_) {
    if (!typeset::draw_display_list(dl, list, origin, *atlas_, texture_.id()))
      atlas_->reset();  // page full: start afresh (glyphs come back next frame)
    return;
  }
  // headless: a box per glyph and the rules, no texture
  for (const typeset::PlacedGlyph& g : list.glyphs) {
    const ImVec2 a(origin.x + g.x, origin.y + g.y - 0.6f * g.size_px);
    dl->AddRectFilled(a, ImVec2(a.x + 0.45f * g.size_px, a.y + 0.6f * g.size_px),
                      with_alpha(colour, 0.5f));
  }
  for (const typeset::FilledRect& r : list.rects)
    dl->AddRectFilled(ImVec2(origin.x + r.x, origin.y + r.y),
                      ImVec2(origin.x + r.x + r.w, origin.y + r.y + r.h), colour);
}

}  // namespace rope::app
