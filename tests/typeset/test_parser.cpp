// test_parser.cpp — parse tree shapes, placeholders, error messages with columns, and a fuzz
// loop over random and truncated sources (never throws, never crashes, always lays out).
#include <catch2/catch.hpp>

#include <random>

#include "rope/typeset/layout.h"
#include "rope/typeset/parser.h"
#include "test_support.h"

using namespace rope::typeset;

TEST_CASE("symbols get code points, classes and alphabets", "[parser]") {
  ParseResult r = parse(R"(x + \theta \le \Theta \cdot 2)");
  REQUIRE(r.ok());
  REQUIRE(r.nodes.size() == 7);
  CHECK(r.nodes[0].code == U'x');
  CHECK(r.nodes[0].alphabet == Alphabet::italic);
  CHECK(r.nodes[1].atom == AtomClass::bin);
  CHECK(r.nodes[2].code == 0x3B8);
  CHECK(r.nodes[2].alphabet == Alphabet::italic);
  CHECK(r.nodes[3].atom == AtomClass::rel);
  CHECK(r.nodes[4].alphabet == Alphabet::upright);  // capital Greek is upright in TeX
  CHECK(r.nodes[5].code == 0x22C5);
  CHECK(r.nodes[6].alphabet == Alphabet::upright);
  // '-' is the minus sign; UTF-8 Greek and relations work like their commands.
  ParseResult u = parse("-θ ≤ 1");
  REQUIRE(u.ok());
  CHECK(u.nodes[0].code == 0x2212);
  CHECK(u.nodes[1].code == 0x3B8);
  CHECK(u.nodes[2].atom == AtomClass::rel);
}

TEST_CASE("fractions, radicals and scripts have the expected shape", "[parser]") {
  ParseResult f = parse(R"(\frac{a}{b+c})");
  REQUIRE(f.ok());
  REQUIRE(f.nodes.size() == 1);
  CHECK(f.nodes[0].kind == NodeKind::fraction);
  CHECK(f.nodes[0].args[0].size() == 1);
  CHECK(f.nodes[0].args[1].size() == 3);
  CHECK(parse(R"(\dfrac12)").nodes[0].style == StyleOverride::display);
  CHECK(parse(R"(\tfrac{1}{2})").nodes[0].style == StyleOverride::text);

  ParseResult s = parse(R"(\sqrt[3]{x})");
  REQUIRE(s.nodes[0].kind == NodeKind::radical);
  CHECK(s.nodes[0].args[1].size() == 1);  // the degree

  ParseResult x = parse("x_i^2");
  REQUIRE(x.nodes.size() == 1);
  const Node& sc = x.nodes[0];
  CHECK(sc.kind == NodeKind::scripts);
  CHECK((sc.has_sub && sc.has_sup));
  CHECK(sc.args[0][0].code == U'x');
  CHECK(sc.args[1][0].code == U'i');
  CHECK(sc.args[2][0].code == U'2');

  // Primes are superscripts; a following ^ joins them (x'^2 = x^{\prime 2}).
  ParseResult p = parse("x''^2");
  REQUIRE(p.ok());
  REQUIRE(p.nodes[0].args[2].size() == 3);
  CHECK(p.nodes[0].args[2][0].code == 0x2032);
  CHECK(p.nodes[0].args[2][2].code == U'2');
}

TEST_CASE("fonts, text, operators, accents, colour and spaces", "[parser]") {
  CHECK(parse(R"(\mathbf{W})").nodes[0].alphabet == Alphabet::bold);
  CHECK(parse(R"(\boldsymbol{\theta})").nodes[0].alphabet == Alphabet::bold_italic);
  CHECK(parse(R"(\mathbb{R})").nodes[0].alphabet == Alphabet::double_struck);
  const ParseResult rm = parse(R"(\mathrm{Re})");
  REQUIRE(rm.nodes[0].kind == NodeKind::group);
  CHECK(rm.nodes[0].args[0][1].alphabet == Alphabet::upright);

  const ParseResult t = parse(R"(\text{if } x)");
  REQUIRE(t.nodes[0].kind == NodeKind::text);
  CHECK(t.nodes[0].text == "if ");

  const ParseResult c = parse(R"(\cos x \max_i y \operatorname{sign} z)");
  REQUIRE(c.ok());
  CHECK(c.nodes[0].kind == NodeKind::text);
  CHECK(c.nodes[0].atom == AtomClass::op);
  CHECK(c.nodes[0].limits == Limits::nolimits);
  CHECK(c.nodes[2].args[0][0].limits == Limits::automatic);  // \max takes limits in display
  CHECK(c.nodes[4].text == "sign");

  const ParseResult big = parse(R"(\sum_{i=1}^n \int_0^1)");
  CHECK(big.nodes[0].args[0][0].large_op);
  CHECK(big.nodes[1].args[0][0].limits == Limits::nolimits);

  CHECK(parse(R"(\hat{x})").nodes[0].code == 0x302);
  CHECK(parse(R"(\vec v)").nodes[0].code == 0x20D7);

  const ParseResult col = parse(R"(a \color{red}{x} y)");
  REQUIRE(col.ok());
  REQUIRE(col.nodes.size() == 2);
  CHECK(col.nodes[1].kind == NodeKind::color);
  CHECK(col.nodes[1].color == 0xFF0000FFu);
  CHECK(col.nodes[1].args[0].size() == 2);  // LaTeX semantics: to the end of the group
  const ParseResult tc = parse(R"(\textcolor{#1f77b4}{x} y)");
  REQUIRE(tc.ok());
  CHECK(tc.nodes[0].args[0][0].color == 0x1F77B4FFu);
  CHECK(tc.nodes.size() == 2);

  const ParseResult sp = parse(R"(a\,b\;c\quad d\!e~f)");
  REQUIRE(sp.ok());
  CHECK(sp.nodes[1].value == 3.0f);
  CHECK(sp.nodes[3].value == 5.0f);
  CHECK(sp.nodes[5].value == 18.0f);
  CHECK(sp.nodes[7].value == -3.0f);
  CHECK(sp.nodes[9].value == 6.0f);
}

TEST_CASE("delimiters, environments and braces", "[parser]") {
  const ParseResult lr = parse(R"(\left\langle x \right.)");
  REQUIRE(lr.ok());
  CHECK(lr.nodes[0].kind == NodeKind::left_right);
  CHECK(lr.nodes[0].delim_left == 0x27E8);
  CHECK(lr.nodes[0].delim_right == 0);

  const ParseResult pm = parse(R"(\begin{pmatrix} a & b \\ c & \cdots \\ \end{pmatrix})");
  REQUIRE(pm.ok());
  REQUIRE(pm.nodes[0].kind == NodeKind::left_right);
  CHECK(pm.nodes[0].delim_left == U'(');
  const Node& arr = pm.nodes[0].args[0][0];
  CHECK(arr.kind == NodeKind::array);
  REQUIRE(arr.rows.size() == 2);  // the trailing \\ adds no row
  CHECK(arr.rows[1].size() == 2);
  CHECK(arr.align == "cc");

  const ParseResult al = parse(R"(\begin{aligned} a &= b \\ &= c \end{aligned})");
  REQUIRE(al.ok());
  CHECK(al.nodes[0].align == "rl");
  CHECK(al.nodes[0].rows[1][0].empty());

  const ParseResult cs = parse(R"(\begin{cases} 1 & x > 0 \\ 0 & \text{else} \end{cases})");
  REQUIRE(cs.ok());
  CHECK(cs.nodes[0].delim_left == U'{');
  CHECK(cs.nodes[0].args[0][0].align == "ll");

  const ParseResult ub = parse(R"(\underbrace{a+b}_{\text{sum}})");
  REQUIRE(ub.ok());
  CHECK(ub.nodes[0].kind == NodeKind::scripts);
  CHECK(ub.nodes[0].args[0][0].kind == NodeKind::brace);
  CHECK(ub.nodes[0].atom == AtomClass::op);
}

TEST_CASE("placeholders are substituted before layout", "[parser]") {
  const Values v{{"base", "10000"}, {"neg", "-0.5"}};
  const ParseResult r = parse(R"(\theta = {{base}}^{-2/d} = {{neg}})", v);
  REQUIRE(r.ok());
  REQUIRE(r.nodes.size() == 5);
  const Node& pow = r.nodes[2];
  REQUIRE(pow.kind == NodeKind::scripts);
  REQUIRE(pow.args[0][0].kind == NodeKind::group);
  CHECK(pow.args[0][0].args[0].size() == 5);    // 1 0 0 0 0
  CHECK(r.nodes[4].args[0][0].code == 0x2212);  // a negative value gets a real minus
  CHECK(parse(R"({{base}})", v).nodes[0].source_offset == 0);
  CHECK(parse(R"(\val{base})", v).ok());

  const ParseResult missing = parse(R"(x = {{nope}})", v);
  REQUIRE(missing.diagnostics.size() == 1);
  CHECK(missing.diagnostics[0].column == 5);
  CHECK(missing.nodes[2].kind == NodeKind::error);
  CHECK(missing.nodes[2].text == "{{nope}}");
  // Not an identifier: ordinary nested groups.
  CHECK(parse("{{1}}").ok());
  CHECK(parse("{ {a} }").ok());
}

TEST_CASE("errors become red nodes with columns", "[parser]") {
  const ParseResult u = parse(R"(a + \foo{b})");
  REQUIRE(u.diagnostics.size() == 1);
  CHECK(u.diagnostics[0].column == 5);
  CHECK(u.diagnostics[0].message.find("\\foo") != std::string::npos);
  CHECK(u.nodes[2].kind == NodeKind::error);
  CHECK(u.nodes[2].text == "\\foo");

  // Columns count code points, not bytes.
  const ParseResult g = parse(R"(θθ \bar)");
  REQUIRE(g.diagnostics.size() == 1);
  CHECK(g.diagnostics[0].column == 4);

  struct Case {
    const char* tex;
    int column;
    const char* fragment;
  };
  const Case cases[] = {
      {"x^", 2, "missing argument"},
      {"{x", 1, "missing '}'"},
      {R"(\left( x)", 1, "\\right"},
      {R"(\begin{pmatrix} a)", 1, "\\end{pmatrix}"},
      {"a}", 2, "unexpected"},
      {"x^2^3", 4, "double superscript"},
      {"a & b", 3, "unexpected"},
      {R"(\color{nocolour} x)", 7, "colour"},
      {R"(\frac{1})", 1, "missing argument"},
      {R"(\left\foo x \right))", 1, "delimiter"},
  };
  for (const Case& c : cases) {
    INFO(c.tex);
    const ParseResult r = parse(c.tex);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].column == c.column);
    CHECK(r.diagnostics[0].message.find(c.fragment) != std::string::npos);
  }
}

TEST_CASE("size limits: 4000 bytes and 64 levels of nesting, each a diagnostic", "[parser]") {
  // issue 16: 10 000 nested \frac or a 40 000-character tail blocked the UI; a formula past
  // the limits is one red node and a message lessons --check reports, never a long layout
  const ParseResult ok = parse(std::string(4000, 'x'));
  CHECK(ok.diagnostics.empty());
  const ParseResult tail = parse(std::string(4001, 'x'));
  REQUIRE(tail.diagnostics.size() == 1);
  CHECK(tail.diagnostics[0].message ==
        "formula of 4001 bytes; at most 4000 are typeset (is a closing $$ or $ missing?)");
  REQUIRE(tail.nodes.size() == 1);
  CHECK(tail.nodes[0].kind == NodeKind::error);
  CHECK(tail.nodes[0].text == "formula too long");

  std::string nest;
  for (int i = 0; i < 70; ++i)
    nest += "\\frac{1}{";
  nest += "x" + std::string(70, '}');
  const ParseResult deep = parse(nest);
  REQUIRE(deep.diagnostics.size() == 1);  // not one more per level it cut short
  CHECK(deep.diagnostics[0].message == "nesting deeper than 64 levels");
  std::string fits = "x";  // 32 fractions, one in another's numerator: 64 levels of {...}
  for (int i = 0; i < 32; ++i)
    fits = "\\frac{" + fits + "}{b}";
  CHECK(parse(fits).diagnostics.empty());
  CHECK(parse("\\frac{" + fits + "}{b}").diagnostics.size() == 1);
}

TEST_CASE("garbage never throws or crashes, and always lays out", "[parser][fuzz]") {
  const MathFont* font = test::font();
  REQUIRE(font != nullptr);
  static const char* kTokens[] = {"x",
                                  "2",
                                  "{",
                                  "}",
                                  "^",
                                  "_",
                                  "'",
                                  "&",
                                  "\\\\",
                                  "\\frac",
                                  "\\sqrt",
                                  "[",
                                  "]",
                                  "\\left(",
                                  "\\right)",
                                  "\\left.",
                                  "\\right|",
                                  "\\begin{pmatrix}",
                                  "\\end{pmatrix}",
                                  "\\begin{aligned}",
                                  "\\end{aligned}",
                                  "\\text{",
                                  "\\color{red}",
                                  "\\textcolor{",
                                  "\\sum",
                                  "\\int",
                                  "\\limits",
                                  "\\underbrace",
                                  "\\hat",
                                  "\\foo",
                                  "\\",
                                  "{{v}}",
                                  "{{",
                                  "}}",
                                  "\\mathbf",
                                  "\\middle|",
                                  "θ",
                                  "\xff",
                                  "\xce",
                                  "%",
                                  "#",
                                  "$",
                                  "~",
                                  "\\big(",
                                  "\\,",
                                  "\\operatorname{",
                                  "\\end{cases}",
                                  " ",
                                  "\\cdots",
                                  "-",
                                  "=",
                                  "\\displaystyle",
                                  "\\val{v}",
                                  "\\sqrt[",
                                  "\\overline"};
  std::mt19937 rng(1234);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kTokens) - 1);
  std::uniform_int_distribution<int> len(0, 40);
  const Values values{{"v", "\\frac{1}{"}};  // a broken value must not break the host formula
  int with_errors = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string src;
    const int n = len(rng);
    for (int k = 0; k < n; ++k)
      src += kTokens[pick(rng)];
    INFO(src);
    Typeset t;
    REQUIRE_NOTHROW(t = typeset(src, values, *font, {.font_px = 20}));
    CHECK(std::isfinite(t.list.width));
    CHECK(std::isfinite(t.list.height));
    for (const Diagnostic& d : t.diagnostics)
      CHECK((d.column >= 1 && d.column <= int(src.size()) + 1));
    with_errors += t.diagnostics.empty() ? 0 : 1;
  }
  CHECK(with_errors > 100);
  // Every prefix of every corpus equation.
  for (const auto& eq : test::corpus()) {
    for (std::size_t cut = 0; cut <= eq.tex.size(); ++cut) {
      REQUIRE_NOTHROW(typeset(eq.tex.substr(0, cut), test::corpus_values(), *font, {}));
    }
  }
  // Deep nesting is refused, not a stack overflow.
  const std::string deep = std::string(100000, '{') + "x";
  const ParseResult r = parse(deep);
  CHECK_FALSE(r.ok());
  const std::string deep_frac = [] {
    std::string s;
    for (int i = 0; i < 5000; ++i)
      s += "\\frac{";
    return s;
  }();
  CHECK_FALSE(parse(deep_frac).ok());
}

TEST_CASE("colour specifications", "[parser]") {
  std::uint32_t c = 0;
  CHECK(parse_color("red", c));
  CHECK(c == 0xFF0000FFu);
  CHECK(parse_color("#abc", c));
  CHECK(c == 0xAABBCCFFu);
  CHECK(parse_color(" #1F77b4 ", c));
  CHECK(c == 0x1F77B4FFu);
  CHECK_FALSE(parse_color("#12345", c));
  CHECK_FALSE(parse_color("#ggg", c));
  CHECK_FALSE(parse_color("reddish", c));
}
