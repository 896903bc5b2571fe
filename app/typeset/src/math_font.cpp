// math_font.cpp — MathFont: HarfBuzz for the MATH table, cmap, metrics and shaping; FreeType for
// rasterising by glyph id. All table data is read once in load() (see math_font.h).
#include "rope/typeset/math_font.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb-ot.h>
#include <hb.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_map>

namespace rope::typeset {

struct MathFont::Impl {
  std::string bytes;  // the font file; HarfBuzz's blob and FreeType's face point into it
  hb_blob_t* blob = nullptr;
  hb_face_t* face = nullptr;
  hb_font_t* font = nullptr;
  FT_Library ft = nullptr;
  FT_Face ft_face = nullptr;
  float ft_size_px = -1;  // size last set on ft_face, px

  std::vector<GlyphMetrics> metrics;  // indexed by glyph id
  std::unordered_map<std::uint32_t, std::vector<GlyphVariant>> variants_v, variants_h;
  std::unordered_map<std::uint32_t, std::vector<GlyphPart>> assembly_v, assembly_h;
  std::unordered_map<std::uint32_t, std::array<std::uint32_t, 2>> ssty;  // level 1, level 2

  ~Impl() {
    if (ft_face != nullptr) FT_Done_Face(ft_face);
    if (ft != nullptr) FT_Done_FreeType(ft);
    if (font != nullptr) hb_font_destroy(font);
    if (face != nullptr) hb_face_destroy(face);
    if (blob != nullptr) hb_blob_destroy(blob);
  }
};

MathFont::MathFont() : impl_(std::make_unique<Impl>()) {}
MathFont::~MathFont() = default;

namespace {

void read_constants(hb_font_t* f, MathConstants& c) {
  auto k = [f](hb_ot_math_constant_t id) { return hb_ot_math_get_constant(f, id); };
  c.script_percent_scale_down = k(HB_OT_MATH_CONSTANT_SCRIPT_PERCENT_SCALE_DOWN);
  c.script_script_percent_scale_down = k(HB_OT_MATH_CONSTANT_SCRIPT_SCRIPT_PERCENT_SCALE_DOWN);
  c.delimited_sub_formula_min_height = k(HB_OT_MATH_CONSTANT_DELIMITED_SUB_FORMULA_MIN_HEIGHT);
  c.display_operator_min_height = k(HB_OT_MATH_CONSTANT_DISPLAY_OPERATOR_MIN_HEIGHT);
  c.axis_height = k(HB_OT_MATH_CONSTANT_AXIS_HEIGHT);
  c.accent_base_height = k(HB_OT_MATH_CONSTANT_ACCENT_BASE_HEIGHT);
  c.subscript_shift_down = k(HB_OT_MATH_CONSTANT_SUBSCRIPT_SHIFT_DOWN);
  c.subscript_top_max = k(HB_OT_MATH_CONSTANT_SUBSCRIPT_TOP_MAX);
  c.subscript_baseline_drop_min = k(HB_OT_MATH_CONSTANT_SUBSCRIPT_BASELINE_DROP_MIN);
  c.superscript_shift_up = k(HB_OT_MATH_CONSTANT_SUPERSCRIPT_SHIFT_UP);
  c.superscript_shift_up_cramped = k(HB_OT_MATH_CONSTANT_SUPERSCRIPT_SHIFT_UP_CRAMPED);
  c.superscript_bottom_min = k(HB_OT_MATH_CONSTANT_SUPERSCRIPT_BOTTOM_MIN);
  c.superscript_baseline_drop_max = k(HB_OT_MATH_CONSTANT_SUPERSCRIPT_BASELINE_DROP_MAX);
  c.sub_superscript_gap_min = k(HB_OT_MATH_CONSTANT_SUB_SUPERSCRIPT_GAP_MIN);
  c.superscript_bottom_max_with_subscript =
      k(HB_OT_MATH_CONSTANT_SUPERSCRIPT_BOTTOM_MAX_WITH_SUBSCRIPT);
  c.space_after_script = k(HB_OT_MATH_CONSTANT_SPACE_AFTER_SCRIPT);
  c.upper_limit_gap_min = k(HB_OT_MATH_CONSTANT_UPPER_LIMIT_GAP_MIN);
  c.upper_limit_baseline_rise_min = k(HB_OT_MATH_CONSTANT_UPPER_LIMIT_BASELINE_RISE_MIN);
  c.lower_limit_gap_min = k(HB_OT_MATH_CONSTANT_LOWER_LIMIT_GAP_MIN);
  c.lower_limit_baseline_drop_min = k(HB_OT_MATH_CONSTANT_LOWER_LIMIT_BASELINE_DROP_MIN);
  c.stretch_stack_gap_above_min = k(HB_OT_MATH_CONSTANT_STRETCH_STACK_GAP_ABOVE_MIN);
  c.stretch_stack_gap_below_min = k(HB_OT_MATH_CONSTANT_STRETCH_STACK_GAP_BELOW_MIN);
  c.fraction_numerator_shift_up = k(HB_OT_MATH_CONSTANT_FRACTION_NUMERATOR_SHIFT_UP);
  c.fraction_numerator_display_style_shift_up =
      k(HB_OT_MATH_CONSTANT_FRACTION_NUMERATOR_DISPLAY_STYLE_SHIFT_UP);
  c.fraction_denominator_shift_down = k(HB_OT_MATH_CONSTANT_FRACTION_DENOMINATOR_SHIFT_DOWN);
  c.fraction_denominator_display_style_shift_down =
      k(HB_OT_MATH_CONSTANT_FRACTION_DENOMINATOR_DISPLAY_STYLE_SHIFT_DOWN);
  c.fraction_numerator_gap_min = k(HB_OT_MATH_CONSTANT_FRACTION_NUMERATOR_GAP_MIN);
  c.fraction_num_display_style_gap_min = k(HB_OT_MATH_CONSTANT_FRACTION_NUM_DISPLAY_STYLE_GAP_MIN);
  c.fraction_rule_thickness = k(HB_OT_MATH_CONSTANT_FRACTION_RULE_THICKNESS);
  c.fraction_denominator_gap_min = k(HB_OT_MATH_CONSTANT_FRACTION_DENOMINATOR_GAP_MIN);
  c.fraction_denom_display_style_gap_min =
      k(HB_OT_MATH_CONSTANT_FRACTION_DENOM_DISPLAY_STYLE_GAP_MIN);
  c.overbar_vertical_gap = k(HB_OT_MATH_CONSTANT_OVERBAR_VERTICAL_GAP);
  c.overbar_rule_thickness = k(HB_OT_MATH_CONSTANT_OVERBAR_RULE_THICKNESS);
  c.overbar_extra_ascender = k(HB_OT_MATH_CONSTANT_OVERBAR_EXTRA_ASCENDER);
  c.radical_vertical_gap = k(HB_OT_MATH_CONSTANT_RADICAL_VERTICAL_GAP);
  c.radical_display_style_vertical_gap = k(HB_OT_MATH_CONSTANT_RADICAL_DISPLAY_STYLE_VERTICAL_GAP);
  c.radical_rule_thickness = k(HB_OT_MATH_CONSTANT_RADICAL_RULE_THICKNESS);
  c.radical_extra_ascender = k(HB_OT_MATH_CONSTANT_RADICAL_EXTRA_ASCENDER);
  c.radical_kern_before_degree = k(HB_OT_MATH_CONSTANT_RADICAL_KERN_BEFORE_DEGREE);
  c.radical_kern_after_degree = k(HB_OT_MATH_CONSTANT_RADICAL_KERN_AFTER_DEGREE);
  c.radical_degree_bottom_raise_percent =
      k(HB_OT_MATH_CONSTANT_RADICAL_DEGREE_BOTTOM_RAISE_PERCENT);
  c.min_connector_overlap_v = hb_ot_math_get_min_connector_overlap(f, HB_DIRECTION_BTT);
  c.min_connector_overlap_h = hb_ot_math_get_min_connector_overlap(f, HB_DIRECTION_LTR);
}

// The glyph substitutions of the 'ssty' feature (alternate lookups: index 0 = script,
// 1 = scriptscript).
void read_ssty(hb_face_t* face,
               std::unordered_map<std::uint32_t, std::array<std::uint32_t, 2>>& out,
               unsigned glyph_count) {
  hb_tag_t features[] = {HB_TAG('s', 's', 't', 'y'), HB_TAG_NONE};
  hb_set_t* lookups = hb_set_create();
  hb_ot_layout_collect_lookups(face, HB_OT_TAG_GSUB, nullptr, nullptr, features, lookups);
  hb_codepoint_t lookup = HB_SET_VALUE_INVALID;
  while (hb_set_next(lookups, &lookup)) {
    for (hb_codepoint_t g = 0; g < glyph_count; ++g) {
      hb_codepoint_t alt[2] = {0, 0};
      unsigned n = 2;
      hb_ot_layout_lookup_get_glyph_alternates(face, lookup, g, 0, &n, alt);
      if (n == 0) continue;
      out[g] = {alt[0], n > 1 ? alt[1] : alt[0]};
    }
  }
  hb_set_destroy(lookups);
}

}  // namespace

FontLoad MathFont::load(const std::string& path) {
  hb_blob_t* blob = hb_blob_create_from_file_or_fail(path.c_str());
  if (blob == nullptr) return FontLoad{nullptr, "cannot read font file '" + path + "'"};
  unsigned size = 0;
  const char* data = hb_blob_get_data(blob, &size);
  std::string bytes(data == nullptr ? "" : std::string(data, size));
  hb_blob_destroy(blob);
  return load_bytes(std::move(bytes), path);
}

FontLoad MathFont::load_bytes(std::string bytes, const std::string& path) {
  FontLoad result;
  std::unique_ptr<MathFont> mf(new MathFont());
  Impl& im = *mf->impl_;
  im.bytes = std::move(bytes);
  im.blob = hb_blob_create(im.bytes.data(), static_cast<unsigned>(im.bytes.size()),
                           HB_MEMORY_MODE_READONLY, nullptr, nullptr);
  im.face = hb_face_create(im.blob, 0);
  const unsigned glyph_count = hb_face_get_glyph_count(im.face);
  if (glyph_count == 0) {
    result.error = "'" + path + "' is not an OpenType font";
    return result;
  }
  if (!hb_ot_math_has_data(im.face)) {
    result.error = "'" + path + "' has no OpenType MATH table";
    return result;
  }
  im.font = hb_font_create(im.face);  // scale = units per em: every metric in font units
  mf->upem_ = static_cast<int>(hb_face_get_upem(im.face));
  if (FT_Init_FreeType(&im.ft) != 0 ||
      FT_New_Memory_Face(im.ft, reinterpret_cast<const FT_Byte*>(im.bytes.data()),
                         static_cast<FT_Long>(im.bytes.size()), 0, &im.ft_face) != 0) {
    result.error = "FreeType cannot open '" + path + "'";
    return result;
  }
  read_constants(im.font, mf->constants_);

  im.metrics.resize(glyph_count);
  std::vector<hb_ot_math_glyph_variant_t> vars;
  std::vector<hb_ot_math_glyph_part_t> parts;
  for (hb_codepoint_t g = 0; g < glyph_count; ++g) {
    GlyphMetrics& m = im.metrics[g];
    m.advance = hb_font_get_glyph_h_advance(im.font, g);
    hb_glyph_extents_t e{};
    if (hb_font_get_glyph_extents(im.font, g, &e)) {
      m.x_min = e.x_bearing;
      m.x_max = e.x_bearing + e.width;
      m.y_max = e.y_bearing;
      m.y_min = e.y_bearing + e.height;  // hb heights are negative (y up)
    }
    m.italic = hb_ot_math_get_glyph_italics_correction(im.font, g);
    m.top_accent = hb_ot_math_get_glyph_top_accent_attachment(im.font, g);
    for (int vertical = 0; vertical < 2; ++vertical) {
      const hb_direction_t dir = vertical != 0 ? HB_DIRECTION_BTT : HB_DIRECTION_LTR;
      const unsigned nv = hb_ot_math_get_glyph_variants(im.font, g, dir, 0, nullptr, nullptr);
      if (nv > 0) {
        vars.resize(nv);
        unsigned count = nv;
        hb_ot_math_get_glyph_variants(im.font, g, dir, 0, &count, vars.data());
        auto& dst = vertical != 0 ? im.variants_v[g] : im.variants_h[g];
        for (unsigned i = 0; i < count; ++i)
          dst.push_back({vars[i].glyph, vars[i].advance});
      }
      const unsigned np =
          hb_ot_math_get_glyph_assembly(im.font, g, dir, 0, nullptr, nullptr, nullptr);
      if (np > 0) {
        parts.resize(np);
        unsigned count = np;
        hb_position_t italic = 0;
        hb_ot_math_get_glyph_assembly(im.font, g, dir, 0, &count, parts.data(), &italic);
        auto& dst = vertical != 0 ? im.assembly_v[g] : im.assembly_h[g];
        for (unsigned i = 0; i < count; ++i) {
          dst.push_back({parts[i].glyph, parts[i].start_connector_length,
                         parts[i].end_connector_length, parts[i].full_advance,
                         (parts[i].flags & HB_OT_MATH_GLYPH_PART_FLAG_EXTENDER) != 0});
        }
      }
    }
  }
  read_ssty(im.face, im.ssty, glyph_count);
  result.font = std::move(mf);
  return result;
}

std::uint32_t MathFont::glyph_for(char32_t cp) const {
  hb_codepoint_t g = 0;
  if (!hb_font_get_nominal_glyph(impl_->font, cp, &g)) return 0;
  return g;
}

const GlyphMetrics& MathFont::metrics(std::uint32_t glyph) const {
  if (glyph >= impl_->metrics.size()) return impl_->metrics[0];
  return impl_->metrics[glyph];
}

std::uint32_t MathFont::script_glyph(std::uint32_t glyph, int level) const {
  if (level <= 0) return glyph;
  auto it = impl_->ssty.find(glyph);
  if (it == impl_->ssty.end()) return glyph;
  return it->second[level >= 2 ? 1 : 0];
}

std::span<const GlyphVariant> MathFont::variants(std::uint32_t glyph, bool vertical) const {
  const auto& map = vertical ? impl_->variants_v : impl_->variants_h;
  auto it = map.find(glyph);
  if (it == map.end()) return {};
  return it->second;
}

std::span<const GlyphPart> MathFont::assembly(std::uint32_t glyph, bool vertical) const {
  const auto& map = vertical ? impl_->assembly_v : impl_->assembly_h;
  auto it = map.find(glyph);
  if (it == map.end()) return {};
  return it->second;
}

std::vector<ShapedGlyph> MathFont::shape(std::string_view utf8) const {
  std::vector<ShapedGlyph> out;
  hb_buffer_t* buf = hb_buffer_create();
  hb_buffer_add_utf8(buf, utf8.data(), static_cast<int>(utf8.size()), 0,
                     static_cast<int>(utf8.size()));
  hb_buffer_set_direction(buf, HB_DIRECTION_LTR);
  hb_buffer_guess_segment_properties(buf);
  hb_shape(impl_->font, buf, nullptr, 0);
  unsigned n = 0;
  const hb_glyph_info_t* info = hb_buffer_get_glyph_infos(buf, &n);
  const hb_glyph_position_t* pos = hb_buffer_get_glyph_positions(buf, &n);
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    out.push_back({info[i].codepoint, pos[i].x_offset, pos[i].y_offset, pos[i].x_advance});
  }
  hb_buffer_destroy(buf);
  return out;
}

bool MathFont::render_glyph(std::uint32_t glyph, float size_px, float phase_x, float phase_y,
                            GlyphBitmap& out) const {
  Impl& im = *impl_;
  out.left = out.top = out.width = out.height = 0;
  out.coverage.clear();
  if (!(size_px > 0.5f && size_px < 2000.0f)) return false;
  if (im.ft_size_px != size_px) {
    if (FT_Set_Char_Size(im.ft_face, 0, std::lround(size_px * 64.0f), 72, 72) != 0) return false;
    im.ft_size_px = size_px;
  }
  // FreeType is y up: a pen phase of +phase_y px downward is a negative y translation.
  FT_Vector delta{std::lround(phase_x * 64.0f), -std::lround(phase_y * 64.0f)};
  FT_Set_Transform(im.ft_face, nullptr, &delta);
  if (FT_Load_Glyph(im.ft_face, glyph, FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP) != 0) return false;
  FT_GlyphSlot slot = im.ft_face->glyph;
  if (FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) != 0) return false;
  const FT_Bitmap& bm = slot->bitmap;
  out.left = slot->bitmap_left;
  out.top = slot->bitmap_top;
  out.width = static_cast<int>(bm.width);
  out.height = static_cast<int>(bm.rows);
  out.coverage.resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height));
  for (int y = 0; y < out.height; ++y) {
    const unsigned char* row = bm.buffer + static_cast<std::ptrdiff_t>(y) * bm.pitch;
    for (int x = 0; x < out.width; ++x) {
      out.coverage[static_cast<std::size_t>(y * out.width + x)] = row[x];
    }
  }
  return true;
}

}  // namespace rope::typeset
