// layout.cpp — TeX math layout over an OpenType MATH font (layout.h).
//
// [SECTION] Index
//   [SECTION] Boxes and styles
//   [SECTION] Glyphs, text, stretchy constructions
//   [SECTION] Lists: atoms, spacing, packing
//   [SECTION] Constructs: scripts, limits, fractions, radicals, delimiters
//   [SECTION] Constructs: arrays, braces, accents
//   [SECTION] Public API
//
// Units: the MATH table is in font units; everything here is converted to px at the current
// style's size (em(env) = font_px x 1, 0.7 or 0.5) as soon as it is read. Boxes use TeX's
// convention (height above, depth below the baseline, y UP for shifts), while the glyph and
// rectangle items they hold are stored y DOWN relative to the box's baseline origin, ready for
// the display list. Rule numbers refer to the TeXbook, appendix G; the constant names are the
// OpenType MATH ones that replace TeX's font parameters (as in MathML Core).
#include "rope/typeset/layout.h"

#include <algorithm>
#include <cmath>

namespace rope::typeset {
namespace {

// [SECTION] Boxes and styles

struct Box {
  float w = 0, h = 0, d = 0;  // px: width, height above and depth below the baseline
  float italic = 0;           // italic correction of a single glyph, px
  float accent_x = -1;        // top-accent attachment of a single glyph, px (< 0: none)
  bool is_char = false;       // a single character (TeX's "character box", rule 18a)
  std::vector<PlacedGlyph> glyphs;
  std::vector<FilledRect> rects;

  // Copies b's items, moved right by dx and UP by dy (px).
  void add(const Box& b, float dx, float dy) {
    for (PlacedGlyph g : b.glyphs) {
      g.x += dx;
      g.y -= dy;
      shift_clip(g, dx, dy);
      glyphs.push_back(g);
    }
    for (FilledRect r : b.rects) {
      r.x += dx;
      r.y -= dy;
      rects.push_back(r);
    }
  }
  // The same for a box used for the last time: when this box is still empty its items are taken
  // over and moved in place. A nested fraction or script then costs no allocation per level,
  // which kept 40 nested \frac around a 4 000-character tail at ~1 s (issue 16, item 7).
  void add(Box&& b, float dx, float dy) {
    // (a list reserves room for all its atoms first: then copying into that room is as cheap)
    if (!glyphs.empty() || !rects.empty() || glyphs.capacity() > b.glyphs.size()) {
      add(static_cast<const Box&>(b), dx, dy);
      return;
    }
    glyphs = std::move(b.glyphs);
    rects = std::move(b.rects);
    for (PlacedGlyph& g : glyphs) {
      g.x += dx;
      g.y -= dy;
      shift_clip(g, dx, dy);
    }
    for (FilledRect& r : rects) {
      r.x += dx;
      r.y -= dy;
    }
  }
  static void shift_clip(PlacedGlyph& g, float dx, float dy) {
    if (g.clip == ClipAxis::x) {
      g.clip_min += dx;
      g.clip_max += dx;
    } else if (g.clip == ClipAxis::y) {
      g.clip_min -= dy;
      g.clip_max -= dy;
    }
  }
  void shift_up(float dy) {  // moves the content up relative to the baseline
    for (PlacedGlyph& g : glyphs) {
      g.y -= dy;
      shift_clip(g, 0, dy);
    }
    for (FilledRect& r : rects)
      r.y -= dy;
    h += dy;
    d -= dy;
  }
};

struct Env {
  MathStyle style = MathStyle::display;
  bool cramped = false;
  Rgba color;
};

int script_level(MathStyle s) {
  return s == MathStyle::script ? 1 : s == MathStyle::script_script ? 2 : 0;
}
MathStyle smaller(MathStyle s) {  // D,T -> S -> SS (superscripts and subscripts)
  return (s == MathStyle::display || s == MathStyle::text) ? MathStyle::script
                                                           : MathStyle::script_script;
}
MathStyle fraction_part(MathStyle s) {  // D -> T -> S -> SS (numerators and denominators)
  return s == MathStyle::display ? MathStyle::text : smaller(s);
}
Env with_style(Env e, MathStyle s, bool cramped) {
  e.style = s;
  e.cramped = cramped;
  return e;
}

struct Atom {
  AtomClass cls = AtomClass::ord;
  Box box;
  MathStyle style = MathStyle::display;
  bool kern = false;      // explicit space: takes no part in class spacing
  bool limits = false;    // operator whose scripts go above/below
  bool large_op = false;  // \sum-like glyph (subscript tucked in by its italic correction)
};

// Inter-atom spacing, TeXbook ch. 18 (left atom = row, right atom = column). 1, 2, 3 = thin,
// medium, thick space (3, 4, 5 mu); negative = only in display and text styles.
constexpr int kSpacing[8][8] = {
    //  ord  op bin rel open close punct inner
    {0, 1, -2, -3, 0, 0, 0, -1},      // ord
    {1, 1, 0, -3, 0, 0, 0, -1},       // op
    {-2, -2, 0, 0, -2, 0, 0, -2},     // bin
    {-3, -3, 0, 0, -3, 0, 0, -3},     // rel
    {0, 0, 0, 0, 0, 0, 0, 0},         // open
    {0, 1, -2, -3, 0, 0, 0, -1},      // close
    {-1, -1, 0, -1, -1, -1, -1, -1},  // punct
    {-1, 1, -2, -3, -1, 0, -1, -1},   // inner
};

class Layout {
 public:
  Layout(const MathFont& font, const LayoutOptions& opt)
      : font_(font),
        c_(font.constants()),
        opt_(opt),
        px_per_unit_(opt.font_px / static_cast<float>(font.units_per_em())) {}

  Box list(const NodeList& nodes, const Env& env, bool leading_ord = false) {
    std::vector<Atom> atoms;
    if (leading_ord) {
      Atom a;
      a.style = env.style;
      atoms.push_back(std::move(a));
    }
    collect(nodes, env, atoms);
    return pack(atoms);
  }

 private:
  const MathFont& font_;
  const MathConstants& c_;
  LayoutOptions opt_;
  float px_per_unit_;  // at the base style

  float size_factor(const Env& e) const {
    const int level = script_level(e.style);
    if (level == 0) return 1.0f;
    const int percent =
        level == 1 ? c_.script_percent_scale_down : c_.script_script_percent_scale_down;
    const float factor = static_cast<float>(percent) / 100.0f;
    if (opt_.min_script_px <= 0.0f || opt_.font_px <= 0.0f) return factor;
    return std::clamp(opt_.min_script_px / opt_.font_px, factor, 1.0f);  // LayoutOptions
  }
  float em(const Env& e) const {
    const float px = opt_.font_px * size_factor(e);
    // a script at the floor is drawn at exactly it (the factor's rounding would give 11.999...)
    if (script_level(e.style) == 0 || opt_.min_script_px <= 0.0f) return px;
    return std::max(px, std::min(opt_.min_script_px, opt_.font_px));
  }
  float k(int font_units, const Env& e) const {
    return static_cast<float>(font_units) * px_per_unit_ * size_factor(e);
  }
  // Rules are drawn snapped to whole pixels and at least 1 px thick; lay out with that size.
  static float rule_px(float t) { return std::max(1.0f, std::round(t)); }

  // [SECTION] Glyphs, text, stretchy constructions

  Box glyph_box(std::uint32_t glyph, const Env& e) const {
    const GlyphMetrics& m = font_.metrics(glyph);
    const float s = k(1, e);
    Box b;
    b.w = static_cast<float>(m.advance) * s;
    b.h = static_cast<float>(m.y_max) * s;
    b.d = -static_cast<float>(m.y_min) * s;
    b.italic = static_cast<float>(m.italic) * s;
    b.accent_x = static_cast<float>(m.top_accent) * s;
    b.glyphs.push_back({glyph, 0, em(e), 0, 0, e.color});
    return b;
  }

  // Shaped upright text (\text, operator names, error source).
  Box text_box(std::string_view text, const Env& e, Rgba color) const {
    Box b;
    const float s = k(1, e);
    float x = 0;
    bool any = false;
    for (const ShapedGlyph& sg : font_.shape(text)) {
      const GlyphMetrics& m = font_.metrics(sg.glyph);
      const float gx = x + static_cast<float>(sg.x_offset) * s;
      const float gy = static_cast<float>(sg.y_offset) * s;  // up
      if (m.y_max != m.y_min) {
        b.h = any ? std::max(b.h, static_cast<float>(m.y_max) * s + gy)
                  : static_cast<float>(m.y_max) * s + gy;
        b.d = any ? std::max(b.d, -static_cast<float>(m.y_min) * s - gy)
                  : -static_cast<float>(m.y_min) * s - gy;
        any = true;
      }
      b.glyphs.push_back({sg.glyph, 0, em(e), gx, -gy, color});
      x += static_cast<float>(sg.x_advance) * s;
    }
    b.w = x;
    return b;
  }

  // The Unicode math alphanumeric for a letter/digit in an alphabet (U+1D400 plane, with the
  // holes that live in the Letterlike Symbols block).
  static char32_t map_alphabet(char32_t cp, Alphabet a) {
    const bool upper = cp >= 'A' && cp <= 'Z';
    const bool lower = cp >= 'a' && cp <= 'z';
    const bool digit = cp >= '0' && cp <= '9';
    const bool gl = cp >= 0x3B1 && cp <= 0x3C9;
    const bool gu = cp >= 0x391 && cp <= 0x3A9;
    const char32_t latin = upper ? cp - 'A' : lower ? cp - 'a' + 26 : 0;
    switch (a) {
      case Alphabet::upright:
        return cp;
      case Alphabet::italic:
        if (cp == 'h') return 0x210E;
        if (upper || lower) return 0x1D434 + latin;
        if (gl) return 0x1D6FC + (cp - 0x3B1);
        if (gu) return 0x1D6E2 + (cp - 0x391);
        break;
      case Alphabet::bold:
        if (upper || lower) return 0x1D400 + latin;
        if (digit) return 0x1D7CE + (cp - '0');
        if (gl) return 0x1D6C2 + (cp - 0x3B1);
        if (gu) return 0x1D6A8 + (cp - 0x391);
        break;
      case Alphabet::bold_italic:
        if (upper || lower) return 0x1D468 + latin;
        if (gl) return 0x1D736 + (cp - 0x3B1);
        if (gu) return 0x1D71C + (cp - 0x391);
        break;
      case Alphabet::double_struck: {
        switch (cp) {
          case 'C':
            return 0x2102;
          case 'H':
            return 0x210D;
          case 'N':
            return 0x2115;
          case 'P':
            return 0x2119;
          case 'Q':
            return 0x211A;
          case 'R':
            return 0x211D;
          case 'Z':
            return 0x2124;
          default:
            break;
        }
        if (upper || lower) return 0x1D538 + latin;
        if (digit) return 0x1D7D8 + (cp - '0');
        break;
      }
      case Alphabet::calligraphic: {
        switch (cp) {
          case 'B':
            return 0x212C;
          case 'E':
            return 0x2130;
          case 'F':
            return 0x2131;
          case 'H':
            return 0x210B;
          case 'I':
            return 0x2110;
          case 'L':
            return 0x2112;
          case 'M':
            return 0x2133;
          case 'R':
            return 0x211B;
          default:
            break;
        }
        if (upper) return 0x1D49C + latin;
        break;
      }
    }
    // Greek variant letters (ϵ ϑ ϰ ϕ ϱ ϖ) follow omega in the italic/bold blocks.
    constexpr char32_t kVariants[] = {0x3F5, 0x3D1, 0x3F0, 0x3D5, 0x3F1, 0x3D6};
    for (char32_t i = 0; i < 6; ++i) {
      if (cp != kVariants[i]) continue;
      if (a == Alphabet::italic) return 0x1D716 + i;
      if (a == Alphabet::bold) return 0x1D6DC + i;
      if (a == Alphabet::bold_italic) return 0x1D750 + i;
    }
    return cp;
  }

  std::uint32_t glyph_of(char32_t cp, Alphabet a) const {
    std::uint32_t g = font_.glyph_for(map_alphabet(cp, a));
    if (g == 0) g = font_.glyph_for(cp);
    return g;
  }

  // A glyph assembly along one axis, reaching at least `target` font units if it can.
  // Vertical parts go bottom-to-top (origin at the part's bottom), horizontal left-to-right.
  Box assemble(std::span<const GlyphPart> parts, float target_fu, bool vertical,
               const Env& e) const {
    const float overlap_min =
        static_cast<float>(vertical ? c_.min_connector_overlap_v : c_.min_connector_overlap_h);
    float fixed = 0, ext = 0;
    int n_fixed = 0, n_ext = 0;
    for (const GlyphPart& p : parts) {
      (p.extender ? ext : fixed) += static_cast<float>(p.full_advance);
      (p.extender ? n_ext : n_fixed) += 1;
    }
    int repeats = 0;
    for (; repeats < 500; ++repeats) {
      const int count = n_fixed + repeats * n_ext;
      const float longest = fixed + static_cast<float>(repeats) * ext -
                            static_cast<float>(std::max(0, count - 1)) * overlap_min;
      if ((longest >= target_fu && count > 0) || n_ext == 0) break;
    }
    std::vector<const GlyphPart*> seq;
    for (const GlyphPart& p : parts) {
      const int times = p.extender ? repeats : 1;
      for (int i = 0; i < times; ++i)
        seq.push_back(&p);
    }
    Box b;
    if (seq.empty()) return b;
    float total = 0;
    for (const GlyphPart* p : seq)
      total += static_cast<float>(p->full_advance);
    const float joints = static_cast<float>(seq.size() - 1);
    // Spread the excess evenly over the joints, never below the minimum overlap or beyond the
    // connectors' lengths.
    const float wanted = joints > 0 ? std::max(overlap_min, (total - target_fu) / joints) : 0.0f;
    const float s = k(1, e);
    constexpr float kOpen = 1e6f;  // an unclipped end
    float pos = 0, cut = -kOpen;   // font units along the axis; cut = clip start of this part
    for (std::size_t i = 0; i < seq.size(); ++i) {
      const GlyphPart& p = *seq[i];
      const GlyphMetrics& m = font_.metrics(p.glyph);
      float step = static_cast<float>(p.full_advance);
      float next_cut = kOpen;
      if (i + 1 < seq.size()) {
        const float limit =
            static_cast<float>(std::min(p.end_connector, seq[i + 1]->start_connector));
        const float overlap = std::max(overlap_min, std::min(wanted, limit));
        step -= overlap;
        next_cut = pos + static_cast<float>(p.full_advance) - overlap / 2;
      }
      PlacedGlyph g{p.glyph, 0, em(e), 0, 0, e.color};
      if (vertical) {  // y down: the part spans [-(pos + advance), -pos] times s
        g.y = -pos * s;
        g.clip = ClipAxis::y;
        g.clip_min = next_cut >= kOpen ? -kOpen : -next_cut * s;
        g.clip_max = cut <= -kOpen ? kOpen : -cut * s;
        b.w = std::max(b.w, static_cast<float>(m.advance) * s);
      } else {
        g.x = pos * s;
        g.clip = ClipAxis::x;
        g.clip_min = cut <= -kOpen ? -kOpen : cut * s;
        g.clip_max = next_cut >= kOpen ? kOpen : next_cut * s;
        b.h = std::max(b.h, static_cast<float>(m.y_max) * s);
        b.d = std::max(b.d, -static_cast<float>(m.y_min) * s);
      }
      b.glyphs.push_back(g);
      cut = next_cut;
      pos += step;
    }
    if (vertical) {
      b.h = pos * s;
      b.d = 0;
    } else {
      b.w = pos * s;
    }
    return b;
  }

  // The smallest variant of `glyph` whose size along the axis is >= target px, else the
  // assembly, else the largest variant.
  Box stretchy(std::uint32_t glyph, float target_px, bool vertical, const Env& e) const {
    const float s = k(1, e);
    const float target_fu = target_px / s;
    const GlyphMetrics& m0 = font_.metrics(glyph);
    const float base_size = static_cast<float>(vertical ? m0.y_max - m0.y_min : m0.advance);
    if (base_size >= target_fu) return glyph_box(glyph, e);
    std::uint32_t best = glyph;
    for (const GlyphVariant& v : font_.variants(glyph, vertical)) {
      best = v.glyph;
      if (static_cast<float>(v.advance) >= target_fu) return glyph_box(v.glyph, e);
    }
    std::span<const GlyphPart> parts = font_.assembly(glyph, vertical);
    if (!parts.empty()) return assemble(parts, target_fu, vertical, e);
    return glyph_box(best, e);
  }

  // A delimiter of at least `size` px total height, centred on the math axis (rule 19).
  Box delimiter(char32_t code, float size, const Env& e) const {
    if (code == 0) {  // null delimiter: \nulldelimiterspace = 1.2 pt = 0.12 em
      Box b;
      b.w = 0.12f * em(e);
      return b;
    }
    Box b = stretchy(font_.glyph_for(code), size, true, e);
    b.shift_up(k(c_.axis_height, e) - (b.h - b.d) / 2);
    b.is_char = false;
    b.italic = 0;
    return b;
  }

  // [SECTION] Lists: atoms, spacing, packing

  void collect(const NodeList& nodes, const Env& env, std::vector<Atom>& atoms) {
    for (const Node& n : nodes) {
      if (n.kind == NodeKind::color) {
        Env e = env;
        e.color = rgba_from_u32(n.color);
        if (!n.args.empty()) collect(n.args[0], e, atoms);
      } else if (n.kind == NodeKind::style) {
        const MathStyle s = n.style == StyleOverride::display  ? MathStyle::display
                            : n.style == StyleOverride::text   ? MathStyle::text
                            : n.style == StyleOverride::script ? MathStyle::script
                                                               : MathStyle::script_script;
        if (!n.args.empty()) collect(n.args[0], with_style(env, s, env.cramped), atoms);
      } else if (n.kind == NodeKind::space) {
        Atom a;
        a.kern = true;
        a.style = env.style;
        a.box.w = n.value * em(env) / 18.0f;
        atoms.push_back(std::move(a));
      } else {
        atoms.push_back(atom(n, env));
      }
    }
  }

  static bool bin_demotes_after(AtomClass c) {
    return c == AtomClass::bin || c == AtomClass::op || c == AtomClass::rel ||
           c == AtomClass::open || c == AtomClass::punct;
  }

  Box pack(std::vector<Atom>& atoms) const {
    // Rules 5 and 6: a Bin with nothing binary around it becomes an Ord.
    Atom* prev = nullptr;
    for (Atom& a : atoms) {
      if (a.kern) continue;
      if (a.cls == AtomClass::bin && (prev == nullptr || bin_demotes_after(prev->cls)))
        a.cls = AtomClass::ord;
      if ((a.cls == AtomClass::rel || a.cls == AtomClass::close || a.cls == AtomClass::punct) &&
          prev != nullptr && prev->cls == AtomClass::bin)
        prev->cls = AtomClass::ord;
      prev = &a;
    }
    if (prev != nullptr && prev->cls == AtomClass::bin) prev->cls = AtomClass::ord;

    Box out;
    std::size_t glyph_count = 0;  // one allocation for the whole list, not one per doubling
    for (const Atom& a : atoms)
      glyph_count += a.box.glyphs.size();
    out.glyphs.reserve(glyph_count);
    int real_atoms = 0;
    bool first = true;
    prev = nullptr;
    float x = 0;
    for (Atom& a : atoms) {
      if (!a.kern) {
        if (prev != nullptr) {
          const int sp = kSpacing[static_cast<int>(prev->cls)][static_cast<int>(a.cls)];
          const bool scripty = script_level(a.style) > 0;
          if (sp > 0 || (sp < 0 && !scripty)) {
            constexpr float kMu[] = {0, 3, 4, 5};
            Env e;
            e.style = a.style;
            x += kMu[std::abs(sp)] * em(e) / 18.0f;
          }
        }
        prev = &a;
        ++real_atoms;
      }
      out.h = first ? a.box.h : std::max(out.h, a.box.h);
      out.d = first ? a.box.d : std::max(out.d, a.box.d);
      first = false;
      const float w = a.box.w;
      out.add(std::move(a.box), x, 0);  // only its items go; its size fields stay readable
      x += w;
    }
    out.w = x;
    if (atoms.size() == 1 && real_atoms == 1) {  // a one-atom list keeps its character traits
      out.is_char = atoms[0].box.is_char;
      out.italic = atoms[0].box.italic;
      out.accent_x = atoms[0].box.accent_x;
    }
    return out;
  }

  Atom atom(const Node& n, const Env& env) {
    Atom a;
    a.cls = n.atom;
    a.style = env.style;
    const bool display = env.style == MathStyle::display;
    switch (n.kind) {
      case NodeKind::symbol: {
        std::uint32_t g = glyph_of(n.code, n.alphabet);
        if (n.large_op) {
          if (display) {  // rule 13: the display size is the first variant >=
                          // DisplayOperatorMinHeight
            for (const GlyphVariant& v : font_.variants(g, true)) {
              g = v.glyph;
              if (v.advance >= c_.display_operator_min_height) break;
            }
          }
          a.box = glyph_box(g, env);
          a.box.shift_up(k(c_.axis_height, env) - (a.box.h - a.box.d) / 2);
          a.large_op = true;
          a.limits = n.limits == Limits::limits || (n.limits == Limits::automatic && display);
        } else {
          a.box = glyph_box(font_.script_glyph(g, script_level(env.style)), env);
          a.box.is_char = true;
        }
        break;
      }
      case NodeKind::text:
        a.box = text_box(n.text, env, env.color);
        if (n.atom == AtomClass::op) {
          a.limits = n.limits == Limits::limits || (n.limits == Limits::automatic && display);
        }
        break;
      case NodeKind::error:
        a.box = text_box(n.text, env, opt_.error_ink);
        break;
      case NodeKind::group:
        if (!n.args.empty()) a.box = list(n.args[0], env);
        a.box.is_char = false;  // {x}^2 is not a character nucleus in TeX either
        a.limits = n.atom == AtomClass::op && n.limits == Limits::limits;
        break;
      case NodeKind::scripts:
        return scripts(n, env);
      case NodeKind::fraction:
        a.box = fraction(n, env);
        break;
      case NodeKind::radical:
        a.box = radical(n, env);
        break;
      case NodeKind::left_right:
        a.box = left_right(n, env);
        break;
      case NodeKind::big_delim: {
        constexpr float kBigEm[] = {0, 1.2f, 1.8f, 2.4f, 3.0f};  // total size of \big ... \Bigg
        const int level = std::clamp(static_cast<int>(n.value), 1, 4);
        a.box = delimiter(n.code, kBigEm[level] * em(env), env);
        break;
      }
      case NodeKind::array:
        a.box = array(n, env);
        break;
      case NodeKind::brace:
        a.box = brace(n, env);
        a.limits = true;
        break;
      case NodeKind::accent:
        a.box = accent(n, env);
        break;
      case NodeKind::overline:
        a.box = overline(n, env);
        break;
      case NodeKind::color:
      case NodeKind::style:
      case NodeKind::space:
        break;  // handled in collect()
    }
    return a;
  }

  // [SECTION] Constructs: scripts, limits, fractions, radicals, delimiters

  Atom scripts(const Node& n, const Env& env) {
    Atom base;
    base.style = env.style;
    if (!n.args[0].empty()) base = atom(n.args[0].front(), env);
    const Env sup_env = with_style(env, smaller(env.style), env.cramped);
    const Env sub_env = with_style(env, smaller(env.style), true);
    Box sup, sub;
    if (n.has_sup) sup = list(n.args[2], sup_env);
    if (n.has_sub) sub = list(n.args[1], sub_env);
    Atom out;
    out.cls = base.cls;
    out.style = env.style;
    out.box = base.limits ? limits(base.box, sup, sub, n.has_sup, n.has_sub, env)
                          : attach(base, sup, sub, n.has_sup, n.has_sub, env);
    return out;
  }

  // Rule 18 with OpenType constants.
  Box attach(const Atom& base, const Box& sup, const Box& sub, bool has_sup, bool has_sub,
             const Env& env) const {
    const Box& b = base.box;
    const float u = b.is_char ? 0 : b.h - k(c_.superscript_baseline_drop_max, env);
    const float v = b.is_char ? 0 : b.d + k(c_.subscript_baseline_drop_min, env);
    float up = 0, down = 0;
    if (has_sup) {
      up = std::max(
          {u, k(env.cramped ? c_.superscript_shift_up_cramped : c_.superscript_shift_up, env),
           sup.d + k(c_.superscript_bottom_min, env)});
    }
    if (has_sub && !has_sup) {
      down = std::max({v, k(c_.subscript_shift_down, env), sub.h - k(c_.subscript_top_max, env)});
    } else if (has_sub) {
      down = std::max(v, k(c_.subscript_shift_down, env));
      const float gap = (up - sup.d) - (sub.h - down);
      const float gap_min = k(c_.sub_superscript_gap_min, env);
      if (gap < gap_min) down += gap_min - gap;
      const float psi = k(c_.superscript_bottom_max_with_subscript, env) - (up - sup.d);
      if (psi > 0) {
        up += psi;
        down -= psi;
      }
    }
    Box out;
    out.add(b, 0, 0);
    out.h = b.h;
    out.d = b.d;
    const float sup_x = b.w + b.italic;
    const float sub_x = b.w - (base.large_op ? b.italic : 0);
    float right = b.w;
    if (has_sup) {
      out.add(sup, sup_x, up);
      out.h = std::max(out.h, sup.h + up);
      out.d = std::max(out.d, sup.d - up);
      right = std::max(right, sup_x + sup.w);
    }
    if (has_sub) {
      out.add(sub, sub_x, -down);
      out.h = std::max(out.h, sub.h - down);
      out.d = std::max(out.d, sub.d + down);
      right = std::max(right, sub_x + sub.w);
    }
    out.w = right + k(c_.space_after_script, env);
    return out;
  }

  // Rule 13a: limits above and below an operator, centred, shifted by half its italic
  // correction.
  Box limits(const Box& b, const Box& sup, const Box& sub, bool has_sup, bool has_sub,
             const Env& env) const {
    const float w = std::max({b.w, has_sup ? sup.w : 0.0f, has_sub ? sub.w : 0.0f});
    float bx = (w - b.w) / 2;
    float sx = (w - sup.w) / 2 + b.italic / 2;
    float dx = (w - sub.w) / 2 - b.italic / 2;
    const float left = std::min({bx, has_sup ? sx : bx, has_sub ? dx : bx});
    bx -= left;
    sx -= left;
    dx -= left;
    Box out;
    out.add(b, bx, 0);
    out.h = b.h;
    out.d = b.d;
    float right = bx + b.w;
    if (has_sup) {
      const float rise = std::max(k(c_.upper_limit_baseline_rise_min, env),
                                  k(c_.upper_limit_gap_min, env) + sup.d);
      out.add(sup, sx, b.h + rise);
      out.h = b.h + rise + sup.h;
      right = std::max(right, sx + sup.w);
    }
    if (has_sub) {
      const float drop = std::max(k(c_.lower_limit_baseline_drop_min, env),
                                  k(c_.lower_limit_gap_min, env) + sub.h);
      out.add(sub, dx, -(b.d + drop));
      out.d = b.d + drop + sub.d;
      right = std::max(right, dx + sub.w);
    }
    out.w = right;
    return out;
  }

  // Rule 15 with OpenType constants: the bar on the axis, minimum gaps to it.
  Box fraction(const Node& n, const Env& env) {
    Env fe = env;
    if (n.style == StyleOverride::display) fe.style = MathStyle::display;
    if (n.style == StyleOverride::text) fe.style = MathStyle::text;
    const bool display = fe.style == MathStyle::display;
    Box num = list(n.args[0], with_style(fe, fraction_part(fe.style), fe.cramped));
    Box den = list(n.args[1], with_style(fe, fraction_part(fe.style), true));
    const float axis = k(c_.axis_height, fe);
    const float t = rule_px(k(c_.fraction_rule_thickness, fe));
    float up =
        k(display ? c_.fraction_numerator_display_style_shift_up : c_.fraction_numerator_shift_up,
          fe);
    float down = k(display ? c_.fraction_denominator_display_style_shift_down
                           : c_.fraction_denominator_shift_down,
                   fe);
    const float gap_num =
        k(display ? c_.fraction_num_display_style_gap_min : c_.fraction_numerator_gap_min, fe);
    const float gap_den =
        k(display ? c_.fraction_denom_display_style_gap_min : c_.fraction_denominator_gap_min, fe);
    up = std::max(up, axis + t / 2 + gap_num + num.d);
    down = std::max(down, den.h + gap_den - (axis - t / 2));
    const float pad = 0.12f * em(fe);  // \nulldelimiterspace on each side
    const float inner = std::max(num.w, den.w);
    Box out;
    out.w = inner + 2 * pad;
    out.h = std::max(up + num.h, axis + t / 2);
    out.d = std::max(down + den.d, -(axis - t / 2));
    const float num_x = pad + (inner - num.w) / 2;
    const float den_x = pad + (inner - den.w) / 2;
    out.add(std::move(num), num_x, up);
    out.add(std::move(den), den_x, -down);
    out.rects.push_back({pad, -(axis + t / 2), inner, t, fe.color});
    return out;
  }

  // Rule 11 with OpenType constants: the radical grows to the radicand plus the gap and rule.
  Box radical(const Node& n, const Env& env) {
    const Box body = list(n.args[0], with_style(env, env.style, true));
    const bool display = env.style == MathStyle::display;
    float gap = k(display ? c_.radical_display_style_vertical_gap : c_.radical_vertical_gap, env);
    const float t = rule_px(k(c_.radical_rule_thickness, env));
    const float extra = k(c_.radical_extra_ascender, env);
    const float target = body.h + body.d + gap + t;
    Box rad = stretchy(font_.glyph_for(0x221A), target, true, env);
    if (rad.h + rad.d > target) gap += (rad.h + rad.d - target) / 2;  // centre the radicand
    const float top = body.h + gap + t;  // top of the rule, above the baseline
    const float rad_up = top - rad.h;
    float x0 = 0;
    Box out;
    if (n.args.size() > 1 && !n.args[1].empty()) {  // the degree of \sqrt[n]
      const Box idx = list(n.args[1], with_style(env, MathStyle::script_script, true));
      const float before = k(c_.radical_kern_before_degree, env);
      const float after = k(c_.radical_kern_after_degree, env);
      const float raise =
          static_cast<float>(c_.radical_degree_bottom_raise_percent) / 100.0f * (rad.h + rad.d);
      const float idx_up = rad_up - rad.d + raise;
      out.add(idx, before, idx_up);
      out.h = idx_up + idx.h;
      x0 = std::max(0.0f, before + idx.w + after);
    }
    out.add(rad, x0, rad_up);
    out.rects.push_back({x0 + rad.w, -top, body.w, t, env.color});
    out.add(body, x0 + rad.w, 0);
    out.w = x0 + rad.w + body.w;
    out.h = std::max(out.h, top + extra);
    out.d = std::max(body.d, rad.d - rad_up);
    return out;
  }

  // \left ... \right: rule 19 sizes (\delimiterfactor 901, \delimitershortfall 5 pt).
  Box left_right(const Node& n, const Env& env) {
    const Box body = list(n.args[0], env);
    const float axis = k(c_.axis_height, env);
    const float delta = std::max(body.h - axis, body.d + axis);
    const float size = std::max(2 * delta * 0.901f, 2 * delta - 0.5f * em(env));
    const Box l = delimiter(n.delim_left, size, env);
    const Box r = delimiter(n.delim_right, size, env);
    Box out;
    out.add(l, 0, 0);
    out.add(body, l.w, 0);
    out.add(r, l.w + body.w, 0);
    out.w = l.w + body.w + r.w;
    out.h = std::max({l.h, body.h, r.h});
    out.d = std::max({l.d, body.d, r.d});
    return out;
  }

  // [SECTION] Constructs: arrays, braces, accents

  // matrix/pmatrix/...: text-style cells, centred columns 1 em apart (2 \arraycolsep);
  // aligned: display-style cells in r/l pairs; cases: left-aligned columns a \quad apart.
  // Rows get LaTeX's array strut (0.7/0.3 of a 1.2 em baselineskip) and no extra gap, except
  // \jot (3 pt) in aligned. The whole block is centred on the math axis.
  Box array(const Node& n, const Env& env) {
    const bool aligned =
        n.text == "aligned" || n.text == "align" || n.text == "align*" || n.text == "split";
    const bool small = n.text == "smallmatrix";
    const Env cell_env = with_style(env,
                                    aligned ? MathStyle::display
                                    : small ? MathStyle::script
                                            : MathStyle::text,
                                    false);
    const float e = em(env);
    const float strut_h = 0.84f * e * (small ? 0.7f : 1.0f);
    const float strut_d = 0.36f * e * (small ? 0.7f : 1.0f);
    const float jot = aligned ? 0.3f * e : 0.0f;
    std::size_t cols = n.align.size();
    for (const auto& row : n.rows)
      cols = std::max(cols, row.size());
    std::vector<std::vector<Box>> cells(n.rows.size());
    std::vector<float> col_w(cols, 0.0f), row_h(n.rows.size(), strut_h),
        row_d(n.rows.size(), strut_d);
    for (std::size_t r = 0; r < n.rows.size(); ++r) {
      for (std::size_t c = 0; c < n.rows[r].size(); ++c) {
        const bool right_half = aligned && c % 2 == 1;
        cells[r].push_back(list(n.rows[r][c], cell_env, right_half));
        const Box& b = cells[r].back();
        col_w[c] = std::max(col_w[c], b.w);
        row_h[r] = std::max(row_h[r], b.h);
        row_d[r] = std::max(row_d[r], b.d);
      }
    }
    // Column positions.
    std::vector<float> col_x(cols, 0.0f);
    float x = n.text == "array" ? 0.5f * e : 0.0f;
    for (std::size_t c = 0; c < cols; ++c) {
      col_x[c] = x;
      x += col_w[c];
      if (c + 1 < cols) {
        if (aligned) {
          x += (c % 2 == 1) ? 2.0f * e : 0.0f;
        } else {
          x += small ? 0.5f * e : 1.0f * e;
        }
      }
    }
    if (n.text == "array") x += 0.5f * e;
    float total = 0;
    for (std::size_t r = 0; r < n.rows.size(); ++r)
      total += row_h[r] + row_d[r] + (r > 0 ? jot : 0);
    const float top = total / 2 + k(c_.axis_height, env);
    Box out;
    float y = top;  // y UP of the current row's top
    for (std::size_t r = 0; r < n.rows.size(); ++r) {
      if (r > 0) y -= jot;
      const float baseline = y - row_h[r];
      for (std::size_t c = 0; c < cells[r].size(); ++c) {
        const Box& b = cells[r][c];
        const char al = c < n.align.size() ? n.align[c] : 'c';
        const float cx = al == 'l'   ? col_x[c]
                         : al == 'r' ? col_x[c] + col_w[c] - b.w
                                     : col_x[c] + (col_w[c] - b.w) / 2;
        out.add(b, cx, baseline);
      }
      y = baseline - row_d[r];
    }
    out.w = x;
    out.h = top;
    out.d = total - top;
    return out;
  }

  // \underbrace / \overbrace: a horizontal stretchy brace at the StretchStack gaps; the label
  // is attached as a limit by scripts().
  Box brace(const Node& n, const Env& env) {
    const Box body = list(n.args[0], env);
    Box br = stretchy(font_.glyph_for(n.over ? 0x23DE : 0x23DF), body.w, false, env);
    const float w = std::max(body.w, br.w);
    Box out;
    out.add(body, (w - body.w) / 2, 0);
    if (n.over) {
      const float base = body.h + k(c_.stretch_stack_gap_below_min, env) + br.d;
      out.add(br, (w - br.w) / 2, base);
      out.h = base + br.h;
      out.d = body.d;
    } else {
      const float base = -(body.d + k(c_.stretch_stack_gap_above_min, env) + br.h);
      out.add(br, (w - br.w) / 2, base);
      out.h = body.h;
      out.d = br.d - base;
    }
    out.w = w;
    return out;
  }

  Box accent(const Node& n, const Env& env) {
    const Box base = list(n.args[0], with_style(env, env.style, true));
    std::uint32_t g = font_.glyph_for(n.code);
    if (n.stretchy) {
      const float target = base.w / k(1, env);
      for (const GlyphVariant& v : font_.variants(g, false)) {
        g = v.glyph;
        if (static_cast<float>(v.advance) >= target) break;
      }
    }
    Box acc = glyph_box(g, env);
    const float acc_attach = acc.accent_x;
    const float base_attach = base.is_char && base.accent_x >= 0 ? base.accent_x : base.w / 2;
    const float accent_base = k(c_.accent_base_height, env);
    const float up = base.h > accent_base ? base.h - accent_base : 0.0f;
    Box out;
    out.add(base, 0, 0);
    out.add(acc, base_attach - acc_attach, up);
    out.w = base.w;
    out.h = std::max(base.h, acc.h + up);
    out.d = base.d;
    out.italic = base.italic;
    return out;
  }

  Box overline(const Node& n, const Env& env) {
    const Box body = list(n.args[0], with_style(env, env.style, true));
    const float t = rule_px(k(c_.overbar_rule_thickness, env));
    const float bottom = body.h + k(c_.overbar_vertical_gap, env);
    Box out;
    out.add(body, 0, 0);
    out.rects.push_back({0, -(bottom + t), body.w, t, env.color});
    out.w = body.w;
    out.h = bottom + t + k(c_.overbar_extra_ascender, env);
    out.d = body.d;
    return out;
  }
};

}  // namespace

// [SECTION] Public API

DisplayList layout(const NodeList& nodes, const MathFont& font, const LayoutOptions& options) {
  LayoutOptions opt = options;
  if (!(opt.font_px > 0.5f && opt.font_px < 2000.0f)) opt.font_px = 24;
  Layout lay(font, opt);
  Env env;
  env.style = opt.style;
  env.color = opt.ink;
  Box box = lay.list(nodes, env);
  DisplayList out;
  out.glyphs = std::move(box.glyphs);
  out.rects.reserve(box.rects.size());
  for (const FilledRect& r : box.rects) {
    // Snap to whole pixels relative to the origin: crisp rules, never thinner than 1 px.
    const float x0 = std::round(r.x), y0 = std::round(r.y);
    const float x1 = std::max(x0 + 1, std::round(r.x + r.w));
    const float y1 = std::max(y0 + 1, std::round(r.y + r.h));
    out.rects.push_back({x0, y0, x1 - x0, y1 - y0, r.color});
  }
  out.width = std::max(0.0f, box.w);
  out.height = std::max(0.0f, box.h);
  out.depth = std::max(0.0f, box.d);
  return out;
}

Typeset typeset(std::string_view tex, const Values& values, const MathFont& font,
                const LayoutOptions& options) {
  ParseResult parsed = parse(tex, values);
  Typeset t;
  t.list = layout(parsed.nodes, font, options);
  t.diagnostics = std::move(parsed.diagnostics);
  return t;
}

}  // namespace rope::typeset
