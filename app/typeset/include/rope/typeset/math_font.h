// rope/typeset/math_font.h — an OpenType MATH font: metrics and MATH-table data through
// HarfBuzz (hb-ot-math), glyph rasterisation through FreeType. Glyphs are addressed by glyph
// id, never through ImGui fonts (whose ImWchar is 16-bit).
//
// All metrics are in font units (FontMetrics::units_per_em per em), y UP. Everything is read
// once at load, so the const accessors are cheap and safe to call from several threads;
// render_glyph() is the exception (FreeType face state): call it from one thread at a time.
//
// Usage:
//   FontLoad fl = MathFont::load(MathFont::kDefaultPath);
//   if (!fl.font) { show(fl.error); fall back; }
//   const MathFont& font = *fl.font;
//   std::uint32_t g = font.glyph_for(U'x');
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rope::typeset {

// The MATH constants the layout uses (font units; percentages as plain numbers).
struct MathConstants {
  int script_percent_scale_down = 70, script_script_percent_scale_down = 50;
  int delimited_sub_formula_min_height = 0, display_operator_min_height = 0;
  int axis_height = 0, accent_base_height = 0;
  int subscript_shift_down = 0, subscript_top_max = 0, subscript_baseline_drop_min = 0;
  int superscript_shift_up = 0, superscript_shift_up_cramped = 0, superscript_bottom_min = 0;
  int superscript_baseline_drop_max = 0, sub_superscript_gap_min = 0;
  int superscript_bottom_max_with_subscript = 0, space_after_script = 0;
  int upper_limit_gap_min = 0, upper_limit_baseline_rise_min = 0;
  int lower_limit_gap_min = 0, lower_limit_baseline_drop_min = 0;
  int stretch_stack_gap_above_min = 0, stretch_stack_gap_below_min = 0;
  int fraction_numerator_shift_up = 0, fraction_numerator_display_style_shift_up = 0;
  int fraction_denominator_shift_down = 0, fraction_denominator_display_style_shift_down = 0;
  int fraction_numerator_gap_min = 0, fraction_num_display_style_gap_min = 0;
  int fraction_rule_thickness = 0;
  int fraction_denominator_gap_min = 0, fraction_denom_display_style_gap_min = 0;
  int overbar_vertical_gap = 0, overbar_rule_thickness = 0, overbar_extra_ascender = 0;
  int radical_vertical_gap = 0, radical_display_style_vertical_gap = 0;
  int radical_rule_thickness = 0, radical_extra_ascender = 0;
  int radical_kern_before_degree = 0, radical_kern_after_degree = 0;
  int radical_degree_bottom_raise_percent = 0;
  int min_connector_overlap_v = 0, min_connector_overlap_h = 0;
};

struct GlyphMetrics {
  int advance = 0;                                 // horizontal advance
  int x_min = 0, x_max = 0, y_min = 0, y_max = 0;  // ink box (y up; y_min < 0 below baseline)
  int italic = 0;                                  // MATH italic correction
  int top_accent = 0;                              // MATH top accent attachment x
};

struct GlyphVariant {
  std::uint32_t glyph = 0;
  int advance = 0;  // size along the stretch direction
};

struct GlyphPart {
  std::uint32_t glyph = 0;
  int start_connector = 0, end_connector = 0, full_advance = 0;
  bool extender = false;
};

struct ShapedGlyph {
  std::uint32_t glyph = 0;
  int x_offset = 0, y_offset = 0, x_advance = 0;  // font units
};

// An 8-bit coverage bitmap; pixel (0,0) is at (left, -top) relative to the pen position, y down.
struct GlyphBitmap {
  int left = 0, top = 0, width = 0, height = 0;
  std::vector<std::uint8_t> coverage;  // width * height, row-major
};

class MathFont;
struct FontLoad {
  std::unique_ptr<MathFont> font;  // null on failure
  std::string error;               // why, when font is null
};

class MathFont {
 public:
  static constexpr const char* kDefaultPath =
      "/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf";

  // Loads a font file; fails (no abort) if it is missing, unreadable or has no MATH table.
  // It opens `path` as it is (a FIFO would block): the app reads the bytes through its checked
  // reader (io/read_file.h) and calls load_bytes.
  static FontLoad load(const std::string& path);
  // The same from the file's bytes, kept by the font; `path` only names it in messages.
  static FontLoad load_bytes(std::string bytes, const std::string& path);
  ~MathFont();
  MathFont(const MathFont&) = delete;
  MathFont& operator=(const MathFont&) = delete;

  int units_per_em() const { return upem_; }
  const MathConstants& constants() const { return constants_; }

  // Nominal glyph for a code point via the cmap (any plane); 0 (.notdef) if missing.
  std::uint32_t glyph_for(char32_t cp) const;
  const GlyphMetrics& metrics(std::uint32_t glyph) const;
  // The 'ssty' optical-size alternate for script level 1 or 2; the glyph itself if none.
  std::uint32_t script_glyph(std::uint32_t glyph, int level) const;
  // Size variants (smallest first) and the glyph assembly (bottom-to-top / left-to-right).
  std::span<const GlyphVariant> variants(std::uint32_t glyph, bool vertical) const;
  std::span<const GlyphPart> assembly(std::uint32_t glyph, bool vertical) const;
  // Shapes UTF-8 text with the font's default features (kerning, ligatures).
  std::vector<ShapedGlyph> shape(std::string_view utf8) const;

  // Rasterises a glyph at an em size of size_px with the pen at a subpixel offset
  // (0 <= phase < 1, px, y down). Returns false if FreeType fails. Not thread-safe.
  bool render_glyph(std::uint32_t glyph, float size_px, float phase_x, float phase_y,
                    GlyphBitmap& out) const;

 private:
  struct Impl;
  MathFont();
  std::unique_ptr<Impl> impl_;
  int upem_ = 1000;
  MathConstants constants_;
};

}  // namespace rope::typeset
