// test_layout.cpp — box metrics of the layout against the MATH constants and glyph advances of
// Latin Modern Math (upem 1000). Most cases use font_px = 100, so 1 font unit = 0.1 px.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "rope/typeset/layout.h"
#include "test_support.h"

using namespace rope::typeset;

namespace {

constexpr float kPx = 100.0f;
constexpr float kUnit = kPx / 1000.0f;  // px per font unit at kPx

DisplayList lay(const char* tex, MathStyle style = MathStyle::display, float px = kPx) {
  LayoutOptions o;
  o.font_px = px;
  o.style = style;
  const ParseResult r = parse(tex);
  INFO(tex);
  CHECK(r.ok());
  return layout(r.nodes, *test::font(), o);
}

float adv(char32_t cp) {
  const MathFont& f = *test::font();
  return static_cast<float>(f.metrics(f.glyph_for(cp)).advance) * kUnit;
}

const PlacedGlyph* find_glyph(const DisplayList& l, char32_t cp, int script_level = 0) {
  const MathFont& f = *test::font();
  const std::uint32_t g = f.script_glyph(f.glyph_for(cp), script_level);
  for (const PlacedGlyph& p : l.glyphs)
    if (p.glyph == g) return &p;
  return nullptr;
}

constexpr float kMu = kPx / 18.0f;  // 1 mu at kPx, px
float fu(int font_units) {
  return static_cast<float>(font_units) * kUnit;
}

}  // namespace

TEST_CASE("font loads and failures are reported, not fatal", "[layout][font]") {
  REQUIRE(test::font() != nullptr);
  CHECK(test::font()->units_per_em() == 1000);
  CHECK(test::font()->constants().axis_height == 250);
  const FontLoad missing = MathFont::load("/nonexistent/font.otf");
  CHECK(missing.font == nullptr);
  CHECK(missing.error.find("cannot read") != std::string::npos);
  const FontLoad not_font = MathFont::load("/etc/os-release");
  CHECK(not_font.font == nullptr);
  CHECK_FALSE(not_font.error.empty());
  const FontLoad no_math =
      MathFont::load("/usr/share/texmf/fonts/opentype/public/lm/lmroman10-regular.otf");
  CHECK(no_math.font == nullptr);
  CHECK(no_math.error.find("MATH") != std::string::npos);
}

TEST_CASE("widths of simple formulas follow advances and TeX spacing", "[layout]") {
  const char32_t x = 0x1D465, y = 0x1D466, a = 0x1D44E, b = 0x1D44F;
  // Bin: medium space (4 mu) on both sides.
  CHECK(lay("x+y").width == Approx(adv(x) + adv('+') + adv(y) + 8 * kMu).margin(0.01));
  // Rel: thick space (5 mu).
  CHECK(lay("a=b").width == Approx(adv(a) + adv('=') + adv(b) + 10 * kMu).margin(0.01));
  // Unary minus: a Bin at the start becomes an Ord, no space.
  CHECK(lay("-x").width == Approx(adv(0x2212) + adv(x)).margin(0.01));
  // Punct: thin space after the comma only.
  CHECK(lay("a,b").width == Approx(adv(a) + adv(',') + adv(b) + 3 * kMu).margin(0.01));
  // Op followed by Ord: thin space; the name is upright text.
  const float cos_w = adv('c') + adv('o') + adv('s');
  CHECK(lay(R"(\cos x)").width == Approx(cos_w + 3 * kMu + adv(x)).margin(0.5));
  // Explicit spaces: \quad = 1 em.
  CHECK(lay(R"(a\quad b)").width == Approx(adv(a) + kPx + adv(b)).margin(0.01));
  // In script style the Bin/Rel spaces vanish.
  const DisplayList sub = lay("x_{a+b}");
  const float script = 0.7f;
  const MathFont& f = *test::font();
  auto sadv = [&](char32_t cp) {
    return static_cast<float>(f.metrics(f.script_glyph(f.glyph_for(cp), 1)).advance) * kUnit *
           script;
  };
  const float space_after = static_cast<float>(f.constants().space_after_script) * kUnit;
  CHECK(sub.width == Approx(adv(x) + sadv(a) + sadv('+') + sadv(b) + space_after).margin(0.01));
}

TEST_CASE("superscripts and subscripts use the MATH shifts", "[layout]") {
  const MathFont& f = *test::font();
  const MathConstants& c = f.constants();
  const DisplayList sup = lay("x^2");
  const PlacedGlyph* two = find_glyph(sup, '2', 1);
  REQUIRE(two != nullptr);
  CHECK(two->size_px == Approx(70.0f));  // ScriptPercentScaleDown
  CHECK(-two->y == Approx(fu(c.superscript_shift_up)).margin(0.01));
  // The superscript starts after the italic correction of x.
  const auto& mx = f.metrics(f.glyph_for(0x1D465));
  CHECK(two->x == Approx(fu(mx.advance + mx.italic)).margin(0.01));

  const DisplayList sub = lay("x_2");
  const PlacedGlyph* two_sub = find_glyph(sub, '2', 1);
  REQUIRE(two_sub != nullptr);
  const auto& m2 = f.metrics(f.script_glyph(f.glyph_for('2'), 1));
  const float expected_down =
      std::max(fu(c.subscript_shift_down), fu(m2.y_max) * 0.7f - fu(c.subscript_top_max));
  CHECK(two_sub->y == Approx(expected_down).margin(0.01));

  // Both: the gap between them is at least SubSuperscriptGapMin.
  const DisplayList both = lay("x_2^2");
  REQUIRE(both.glyphs.size() == 3);
  const float sup_bottom = both.glyphs[1].y - fu(m2.y_min) * 0.7f;
  const float sub_top = both.glyphs[2].y - fu(m2.y_max) * 0.7f;
  CHECK(sub_top - sup_bottom >= fu(c.sub_superscript_gap_min) - 0.01f);

  // Cramped (denominator) superscripts sit lower.
  const DisplayList den = lay(R"(\frac{1}{x^2})");
  const DisplayList num = lay(R"(\frac{x^2}{1})");
  auto raise = [&](const DisplayList& l) {
    const PlacedGlyph* x = find_glyph(l, 0x1D465, 0);
    const PlacedGlyph* s = find_glyph(l, U'2', 1);
    REQUIRE(x != nullptr);
    REQUIRE(s != nullptr);
    return x->y - s->y;
  };
  CHECK(raise(den) < raise(num));
}

// A floor for scripts (LayoutOptions::min_script_px, MathML's scriptminsize): at 24 px the
// font's 70 % and 50 % give 16.8 and 12 px; with a floor of 14 px both come out at 14 px, the
// base is untouched, and a script keeps its place above the baseline, raised as far as its
// (larger) size asks.
TEST_CASE("scripts are drawn no smaller than the floor, the base as it was", "[layout]") {
  const auto with_floor = [](const char* tex, float floor) {
    LayoutOptions o;
    o.font_px = 24.0f;
    o.min_script_px = floor;
    return layout(parse(tex).nodes, *test::font(), o);
  };
  const auto sizes = [](const DisplayList& l) {
    std::vector<float> out;
    for (const PlacedGlyph& g : l.glyphs)
      out.push_back(g.size_px);
    return out;
  };
  // e^{i x_2}: e at 24, i and x at level 1, 2 at level 2
  const DisplayList plain = with_floor("e^{i x_2}", 0.0f);
  REQUIRE(plain.glyphs.size() == 4);
  CHECK(plain.glyphs[0].size_px == 24.0f);
  CHECK(plain.glyphs[1].size_px == Approx(16.8f));
  CHECK(plain.glyphs[2].size_px == Approx(16.8f));
  CHECK(plain.glyphs[3].size_px == Approx(12.0f));
  const DisplayList floored = with_floor("e^{i x_2}", 14.0f);
  REQUIRE(floored.glyphs.size() == 4);
  CHECK(floored.glyphs[0].size_px == 24.0f);
  CHECK(floored.glyphs[1].size_px == Approx(16.8f));  // above the floor: as the font says
  CHECK(floored.glyphs[3].size_px == 14.0f);          // exactly the floor, not 13.999
  CHECK(floored.width > plain.width);                 // the larger script takes more room
  // a floor above the base size stops at the base: a script is never larger than its base
  const DisplayList big = with_floor("x_2", 40.0f);
  REQUIRE(big.glyphs.size() == 2);
  CHECK(big.glyphs[1].size_px == 24.0f);
  // no floor, or one below the font's sizes: the same list as before
  const DisplayList low = with_floor("e^{i x_2}", 10.0f);
  CHECK(sizes(low) == sizes(plain));
  CHECK(low.width == plain.width);
}

TEST_CASE("fractions stack around the axis and are taller than their parts", "[layout]") {
  const DisplayList x = lay("x");
  const DisplayList frac = lay(R"(\frac{x}{y})");
  CHECK(frac.height > x.height);
  CHECK(frac.depth > x.depth);
  REQUIRE(frac.rects.size() == 1);
  // The rule is centred on the axis (250 units = 25 px above the baseline) and 4 px thick.
  CHECK(frac.rects[0].h == Approx(4.0f));
  CHECK(frac.rects[0].y + frac.rects[0].h / 2 == Approx(-25.0f).margin(1.0));
  // \dfrac in text style is as tall as \frac in display style; \tfrac is smaller.
  CHECK(lay(R"(\dfrac{x}{y})", MathStyle::text).height == Approx(frac.height));
  CHECK(lay(R"(\tfrac{x}{y})").height < frac.height);
  // Numerator and denominator are centred.
  const DisplayList wide = lay(R"(\frac{1}{xxxx})");
  const float num_mid = wide.glyphs[0].x + adv('1') / 2 * 0.7f / 0.7f;
  CHECK(num_mid == Approx(wide.width / 2).margin(1.0));
}

// Boxes hand their items up without copying (issue 16, item 7: 40 nested \frac around a long
// tail took ~1 s when every level copied everything below it). What must hold either way: every
// glyph and rule arrives once, each fraction level puts its content higher than the level
// outside it, and nothing is lost to the moves.
TEST_CASE("deeply nested fractions keep every glyph and rule, each level inside the next",
          "[layout]") {
  const std::string inner = "xy" + std::string(1998, 'z');
  std::string tex;
  for (int i = 0; i < 20; ++i)
    tex += R"(\frac{a)";
  tex += inner;
  for (int i = 0; i < 20; ++i)
    tex += "}{b}";
  const DisplayList list = lay(tex.c_str());
  CHECK(list.glyphs.size() == 20 + 2000 + 20);  // a and b per level, the tail once
  CHECK(list.rects.size() == 20);               // one rule per fraction
  // the rules of deeper levels sit higher (smaller y) than the rule of the level around them
  std::vector<float> ys;
  for (const auto& r : list.rects)
    ys.push_back(r.y);
  std::sort(ys.begin(), ys.end());
  CHECK(std::adjacent_find(ys.begin(), ys.end()) == ys.end());  // 20 distinct heights
  // the same formula laid out twice gives the same list (nothing was moved out of a cache)
  const DisplayList again = lay(tex.c_str());
  REQUIRE(again.glyphs.size() == list.glyphs.size());
  CHECK(again.glyphs.back().x == list.glyphs.back().x);
  CHECK(again.glyphs.back().y == list.glyphs.back().y);
}

TEST_CASE("rules are at least one whole pixel at any size", "[layout]") {
  for (float px : {4.0f, 6.0f, 8.0f, 11.0f, 13.5f, 24.0f, 97.3f}) {
    INFO(px);
    for (const char* tex :
         {R"(\frac{a}{b})", R"(\sqrt{x})", R"(\overline{z})", R"(x^{\frac{1}{2}})"}) {
      const DisplayList l = lay(tex, MathStyle::display, px);
      REQUIRE_FALSE(l.rects.empty());
      for (const FilledRect& r : l.rects) {
        CHECK(r.h >= 1.0f);
        CHECK(r.w >= 1.0f);
        CHECK(r.h == std::round(r.h));
        CHECK(r.y == std::round(r.y));
      }
    }
  }
}

TEST_CASE("big operators take limits above/below in display style only", "[layout]") {
  const MathFont& f = *test::font();
  for (MathStyle st : {MathStyle::display, MathStyle::text}) {
    const DisplayList l = lay(R"(\sum_{i=1}^{n} x)", st);
    REQUIRE(l.glyphs.size() >= 5);
    const PlacedGlyph& sum = l.glyphs[0];
    const auto& ms = f.metrics(sum.glyph);
    const float sum_left = sum.x, sum_right = sum.x + fu(ms.advance);
    const float sum_top = sum.y - fu(ms.y_max), sum_bottom = sum.y - fu(ms.y_min);
    const PlacedGlyph* n = find_glyph(l, 0x1D45B, 1);
    REQUIRE(n != nullptr);
    if (st == MathStyle::display) {
      CHECK(ms.y_max - ms.y_min > f.constants().display_operator_min_height - 2);  // big variant
      CHECK(n->x > sum_left);
      CHECK(n->x < sum_right);
      CHECK(n->y < sum_top);  // upper limit above the operator's ink
      const PlacedGlyph* i = find_glyph(l, 0x1D456, 1);
      REQUIRE(i != nullptr);
      CHECK(i->y - 0.7f * fu(f.metrics(i->glyph).y_max) > sum_bottom);
    } else {
      CHECK(n->x >= sum_right - 1.0f);  // to the side
      CHECK(n->y > sum_top);
    }
  }
  // \int keeps its scripts at the side even in display style.
  const DisplayList integral = lay(R"(\int_0^1 x)");
  const PlacedGlyph* one = find_glyph(integral, '1', 1);
  REQUIRE(one != nullptr);
  CHECK(one->x > integral.glyphs[0].x + fu(f.metrics(integral.glyphs[0].glyph).x_max) * 0.5f);
}

TEST_CASE("stretchy delimiters cover their content", "[layout]") {
  const MathFont& f = *test::font();
  const DisplayList inner = lay(R"(\begin{matrix} a \\ b \\ c \\ d \\ e \end{matrix})");
  const DisplayList l = lay(R"(\left( \begin{matrix} a \\ b \\ c \\ d \\ e \end{matrix} \right))");
  // Ink extent of the glyphs of the left parenthesis (all glyphs at x == 0).
  float top = 1e9f, bottom = -1e9f;
  int parts = 0;
  for (const PlacedGlyph& g : l.glyphs) {
    if (g.x != 0.0f) continue;
    const auto& m = f.metrics(g.glyph);
    top = std::min(top, g.y - fu(m.y_max));
    bottom = std::max(bottom, g.y - fu(m.y_min));
    ++parts;
  }
  REQUIRE(parts >= 3);  // built from an assembly
  // The parts' clip spans tile the delimiter: each pixel row is drawn by exactly one part.
  std::vector<const PlacedGlyph*> paren;
  for (const PlacedGlyph& g : l.glyphs)
    if (g.x == 0.0f) paren.push_back(&g);
  for (std::size_t i = 1; i < paren.size(); ++i) {
    CHECK(paren[i]->clip == ClipAxis::y);
    CHECK(paren[i - 1]->clip_min == Approx(paren[i]->clip_max));
    CHECK(paren[i]->clip_min < paren[i]->clip_max);
  }
  const float content = inner.height + inner.depth;
  CHECK(bottom - top >= 0.901f * content);
  // Centred on the axis: the middle of the paren is 25 px above the baseline.
  CHECK((top + bottom) / 2 == Approx(-25.0f).margin(1.0));
  // A small content keeps the normal glyph.
  const DisplayList small = lay(R"(\left( x \right))");
  CHECK(small.glyphs.front().glyph == f.glyph_for('('));
  // \langle and \| stretch too.
  CHECK(lay(R"(\left\langle \frac{a}{b} \right\rangle)").glyphs.front().glyph !=
        f.glyph_for(0x27E8));
}

TEST_CASE("matrix columns are aligned and rows are evenly pitched", "[layout]") {
  const MathFont& f = *test::font();
  const DisplayList m = lay(R"(\begin{matrix} 1 & 22 \\ 333 & 4 \end{matrix})");
  REQUIRE(m.glyphs.size() == 7);  // 1, 2 2, 3 3 3, 4
  const float d = adv('1');       // all digits have the same advance
  const float c0_r0 = m.glyphs[0].x + d / 2, c0_r1 = m.glyphs[3].x + 3 * d / 2;
  const float c1_r0 = m.glyphs[1].x + d, c1_r1 = m.glyphs[6].x + d / 2;
  CHECK(c0_r0 == Approx(c0_r1).margin(0.01));
  CHECK(c1_r0 == Approx(c1_r1).margin(0.01));
  CHECK(m.glyphs[1].x - (m.glyphs[5].x + d) == Approx(kPx).margin(0.5));    // 1 em between columns
  CHECK(m.glyphs[3].y - m.glyphs[0].y == Approx(1.2f * kPx).margin(0.01));  // strut pitch
  // The block is centred on the axis.
  CHECK((m.height - m.depth) / 2 == Approx(fu(f.constants().axis_height)).margin(0.01));
  // aligned: the relation signs line up.
  const DisplayList al = lay(R"(\begin{aligned} a &= b \\ xyz &= c \end{aligned})");
  std::vector<float> eq_x;
  for (const PlacedGlyph& g : al.glyphs)
    if (g.glyph == f.glyph_for('=')) eq_x.push_back(g.x);
  REQUIRE(eq_x.size() == 2);
  CHECK(eq_x[0] == Approx(eq_x[1]));
}

TEST_CASE("radicals, accents, braces, colours and errors", "[layout]") {
  const MathFont& f = *test::font();
  const DisplayList s = lay(R"(\sqrt{x})");
  REQUIRE(s.rects.size() == 1);
  CHECK(s.rects[0].y < -lay("x").height);  // the rule clears the radicand
  CHECK(lay(R"(\sqrt{\frac{a}{b}})").height > s.height);

  const DisplayList hat = lay(R"(\hat{x})");
  CHECK(hat.glyphs.size() == 2);
  CHECK(hat.height > lay("x").height);

  const DisplayList ub = lay(R"(\underbrace{a+b+c+d}_{n})");
  CHECK(ub.depth > lay("a+b+c+d").depth + 10.0f);
  const PlacedGlyph* n = find_glyph(ub, 0x1D45B, 1);
  REQUIRE(n != nullptr);
  CHECK(n->y > 30.0f);  // the label sits below the brace
  CHECK(n->x > 10.0f);  // centred under the body

  const DisplayList col = lay(R"(a {\color{red} b} c)");
  REQUIRE(col.glyphs.size() == 3);
  CHECK(col.glyphs[0].color == Rgba{0, 0, 0, 255});
  CHECK(col.glyphs[1].color == Rgba{255, 0, 0, 255});
  CHECK(col.glyphs[2].color == Rgba{0, 0, 0, 255});

  LayoutOptions o;
  const Typeset err = typeset(R"(a \foo b)", {}, f, o);
  REQUIRE(err.diagnostics.size() == 1);
  int red = 0;
  for (const PlacedGlyph& g : err.list.glyphs)
    red += g.color == o.error_ink ? 1 : 0;
  CHECK(red == 4);  // \ f o o

  // Live values change the layout.
  const float w1 = typeset("{{v}}", {{"v", "1"}}, f, o).list.width;
  const float w4 = typeset("{{v}}", {{"v", "1000"}}, f, o).list.width;
  CHECK(w4 == Approx(4 * w1).margin(0.01));
}
// An error shows where it is, not all it spans: a \frac missing its second argument reaches to
// the end of the formula, and 60 of them nested around a 4 000-byte tail used to repeat the tail
// in red at every level (128 000 glyphs, 0.8 s of layout: issue 16, item 7).
TEST_CASE("unclosed nested fractions lay out each byte of the tail once", "[layout][parser]") {
  std::string tex;
  for (int i = 0; i < 30; ++i)  // 60 levels: each \\frac{ opens two
    tex += R"(\frac{a)";
  tex += std::string(3000, 'x');
  const ParseResult r = parse(tex);
  CHECK_FALSE(r.diagnostics.empty());
  LayoutOptions o;
  o.font_px = kPx;
  const DisplayList l = layout(r.nodes, *test::font(), o);
  CHECK(l.glyphs.size() >= 3000);
  CHECK(l.glyphs.size() < 3000 + 30 * 30);  // the tail, plus at most 24 bytes and "..." per error
}
