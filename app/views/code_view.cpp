#include "views/code_view.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <span>

#include "rope/frequencies.h"
#include "state/params.h"
#include "ui/page.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

// [SECTION] the listings (written for this app) and the equations they implement

struct CodeLine {
  const char* text;
  int equation;  // 1 ... kEquations.size(); 0: none
};
struct Listing {
  const char* title;
  std::span<const CodeLine> lines;
};

constexpr CodeLine kMathLines[] = {
    {"# pairs (x[2i], x[2i+1]), one 2x2 rotation each", 0},
    {"for i in range(d // 2):", 0},
    {"    theta = base ** (-2 * i / d)", 1},
    {"    a, b = x[2*i], x[2*i + 1]", 2},
    {"    c, s = cos(m * theta), sin(m * theta)", 2},
    {"    y[2*i] = a*c - b*s", 2},
    {"    y[2*i + 1] = a*s + b*c", 2},
};
constexpr CodeLine kMetaLines[] = {
    {"# pairs (x[2i], x[2i+1]) as complex numbers", 0},
    {"theta = base ** (-arange(0, d, 2) / d)", 1},
    {"w = polar(ones(d // 2), m * theta)", 3},
    {"z = view_as_complex(x.reshape(-1, 2))", 3},
    {"y = view_as_real(z * w).reshape(d)", 3},
};
constexpr CodeLine kHalfLines[] = {
    {"# pairs (x[i], x[i + d/2])", 0},
    {"def rotate_half(x):", 4},
    {"    return cat([-x[d//2:], x[:d//2]])", 4},
    {"theta = base ** (-arange(0, d, 2) / d)", 1},
    {"a = cat([m * theta, m * theta])", 4},
    {"x = x[P]  # rows of W_q, W_k permuted", 5},
    {"y = x * cos(a) + rotate_half(x) * sin(a)", 4},
};
constexpr std::array kListings{
    Listing{"A  The math, block by block", kMathLines},
    Listing{"B  Meta style: complex, interleaved", kMetaLines},
    Listing{"C  transformers style: rotate_half", kHalfLines},
};
constexpr std::array kEquations{
    "θᵢ = base^(−2i/d),  i = 0 … d/2 − 1",
    "(y₂ᵢ, y₂ᵢ₊₁) = R(mθᵢ) (x₂ᵢ, x₂ᵢ₊₁):  a 2×2 rotation",
    "zᵢ = x₂ᵢ + i x₂ᵢ₊₁  ↦  zᵢ e^(i mθᵢ)",
    "y = x ⊙ cos mΘ + rotate_half(x) ⊙ sin mΘ",
    "(P x)ⱼ = x[P[j]]:  Meta's rows reordered",
};

// [SECTION] syntax colours: keywords, numbers, comments; the rest in the text colour

bool is_keyword(std::string_view w) {
  for (const char* k : {"for", "in", "def", "return", "range"})
    if (w == k) return true;
  return false;
}
bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

struct Token {
  std::size_t begin, end;
  ImU32 colour;
};
std::vector<Token> tokens(std::string_view line, const Palette& pal) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    std::size_t j = i + 1;
    ImU32 colour = pal.text;
    if (c == '#') {
      j = line.size();
      colour = pal.text_dim;
    } else if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      while (j < line.size() &&
             (std::isdigit(static_cast<unsigned char>(line[j])) != 0 || line[j] == '.'))
        ++j;
      colour = pal.key;
    } else if (is_word_char(c)) {
      while (j < line.size() && is_word_char(line[j]))
        ++j;
      if (is_keyword(line.substr(i, j - i))) colour = pal.accent;
    } else {
      while (j < line.size() && !is_word_char(line[j]) && line[j] != '#')
        ++j;
    }
    if (!out.empty() && out.back().colour == colour && out.back().end == i)
      out.back().end = j;
    else
      out.push_back({i, j, colour});
    i = j;
  }
  return out;
}

// [SECTION] numbers as text

std::string vec_text(std::span<const double> v, std::size_t shown) {
  std::string s = "(";
  for (std::size_t i = 0; i < std::min(shown, v.size()); ++i) {
    if (i > 0) s += ", ";
    s += format_number(v[i], NumberStyle::label, 4);
  }
  if (shown < v.size()) s += ", …";
  return s + ")";
}

std::string perm_text(std::span<const int> perm, std::size_t shown) {
  std::string s = "P = [";
  const std::size_t half = perm.size() / 2;
  const auto part = [&](std::size_t from) {
    for (std::size_t i = from; i < from + std::min(shown, half); ++i)
      s += (i > from ? ", " : "") + std::to_string(perm[i]);
    if (shown < half) s += ", …";
  };
  part(0);
  s += " | ";
  part(half);
  return s + "]";
}

}  // namespace

// [SECTION] inputs and compute

CodeView::Inputs CodeView::inputs_of(const Params& p) {
  return {effective_vector(p.query, p, false), effective_vector(p.key, p, true), p.position,
          p.key_position, p.base};
}

CodeView::Results CodeView::compute(const Inputs& in) {
  Results r;
  auto th = frequencies(static_cast<std::int64_t>(in.q.size()), in.base);
  if (!th) {
    r.problem = th.error().to_string();
    return r;
  }
  auto c = compare_codes(in.q, in.k, in.m, in.n, th.value());
  if (!c) {
    r.problem = c.error().to_string();
    return r;
  }
  r.codes = std::move(c).value();
  r.complex_ok = r.codes.rel_gap_complex <= kCodeScoreTolerance;
  r.permuted_ok = r.codes.rel_gap_permuted <= kCodeScoreTolerance;
  r.unpermuted_ok = r.codes.rel_gap_unpermuted <= kCodeScoreTolerance;
  if (r.unpermuted_ok) {
    const auto sq = apply_permutation(in.q, r.codes.perm).value();
    const auto sk = apply_permutation(in.k, r.codes.perm).value();
    if (in.q.size() == 2)
      r.accident = "d = 2, where P = I";
    else if (in.m == in.n)
      r.accident = "m = n: each gives q·k";
    else if (sq == in.q && sk == in.k)
      r.accident = "P q = q and P k = k";
    else
      r.accident = "by chance";
  }
  return r;
}

// [SECTION] layout: listings across or stacked, the equations and numbers beside or below

// A font drawn at a size of its own: the listings shrink (to 60 % of the body font) before
// they are left out, so a lesson in presentation mode still shows its code.
struct SizedFont {
  ImFont* font = nullptr;
  float px = 0;  // drawn size, px
  ImVec2 measure(const std::string& text) const {
    const ImVec2 t = text_size(font, text);
    return ImVec2(t.x * px / font->FontSize, px);
  }
  bool operator==(const ImFont* f) const { return font == f && px == f->FontSize; }
};

struct CodeView::Layout : Page {
  using Page::Page;
  int level = 0;
  SizedFont code;          // the equations and the numbers
  SizedFont listing;       // the listings' lines: the monospace font at code's size (review D17)
  ImFont* head = nullptr;  // listing titles
  int detail = 2;          // as Level::detail
  bool vectors = true;     // as Level::vectors
  bool comments = true;    // as Level::comments
  bool compact = false;    // fewer coordinates, no gap line
  float title_h = 0;
  float col_w = 0;    // one listing's column width
  float label_w = 0;  // the equation-number column of a listing
  float panel_x = 0, panel_y = 0, panel_w = 0;
  std::size_t shown = 0;  // coordinates shown per vector
  int hot = 0;            // equation under the mouse
  struct LineBox {
    ImVec2 min, max;
    int equation;
  };
  std::vector<LineBox> lines;      // every code line, where it goes
  std::vector<LineBox> equations;  // every equation line
  std::vector<ImVec2> listing_top;
};

namespace {

// A listing's comment lines (text starting with '#') go first when space is short.
bool drawn_line(const CodeLine& c, bool comments) {
  return comments || c.text[0] != '#';
}

float listing_height(const Listing& l, ImFont* head, const SizedFont& code, float s,
                     bool with_lines, bool comments) {
  float lines = 0.0f;
  if (with_lines)
    for (const CodeLine& c : l.lines)
      lines += drawn_line(c, comments) ? 1.0f : 0.0f;
  return head->FontSize + 6 * s + lines * (code.px + 2 * s);
}
float listing_width(const Listing& l, ImFont* head, const SizedFont& code, float label_w,
                    bool with_lines) {
  float w = text_size(head, l.title).x - label_w;
  if (with_lines)
    for (const CodeLine& c : l.lines)
      w = std::max(w, code.measure(c.text).x);
  return w + label_w;
}

// The lines of the number panel, in order (title lines start with '\x01': bold).
std::vector<std::string> panel_lines(const CodeView::Results& r, const Params& p, std::size_t shown,
                                     bool compact, bool vectors = true) {
  const CodeComparison& c = r.codes;
  // 10 significant digits, as the heading says: the three codes agree to 10⁻¹², so every digit
  // shown is one they share; 17 showed their rounding noise as a difference (review D19)
  const auto exact = [](double v) { return format_number(v, NumberStyle::label, 10); };
  std::vector<std::string> l;
  if (vectors) {
    l.push_back("\x01R_m q at m = " + format_number(p.position, NumberStyle::tooltip) +
                ", d = " + std::to_string(p.dim));
    l.push_back("A, B:  " + vec_text(c.rq_math, shown));
    l.push_back("C:  " + vec_text(c.rq_half, shown) + " = P (A)");
    l.push_back(perm_text(c.perm, shown));
  }
  l.push_back("\x01q·k at m = " + format_number(p.position, NumberStyle::tooltip) +
              ", n = " + format_number(p.key_position, NumberStyle::tooltip) +
              (compact ? "" : "  (10 digits)"));
  l.push_back("A  math  " + exact(c.score_math));
  l.push_back(std::string(r.complex_ok ? "✓" : "✗") + " B  Meta  " + exact(c.score_complex));
  l.push_back(std::string(r.permuted_ok ? "✓" : "✗") + " C  with P  " +
              exact(c.score_half_permuted));
  if (!compact)
    l.push_back("   relative gap to A: " +
                format_number(c.rel_gap_permuted, NumberStyle::label, 2) + " (≤ 10⁻¹² passes)");
  l.push_back(std::string(r.unpermuted_ok ? "=" : "✗") + " C  without P  " +
              exact(c.score_half_unpermuted));
  if (r.unpermuted_ok)
    l.push_back("   equal here: " + r.accident);
  else
    l.push_back("   differs from A by " +
                format_number(c.score_half_unpermuted - c.score_math, NumberStyle::label, 4));
  return l;
}

float panel_height(std::size_t lines, const SizedFont& code, float s, bool with_equations) {
  const float eq =
      with_equations ? static_cast<float>(kEquations.size()) * (code.px + 2 * s) : 0.0f;
  return eq + 14 * s + static_cast<float>(lines) * (code.px + 3 * s);
}

float panel_width(const std::vector<std::string>& lines, const SizedFont& code, float label_w,
                  bool with_equations) {
  float w = 0;
  for (const auto& l : lines)
    w = std::max(w, code.measure(l).x);
  if (with_equations)
    for (const char* e : kEquations)
      w = std::max(w, label_w + code.measure(e).x);
  return w;
}

}  // namespace

// Arrangements, fullest first: the listings across with the panel below; stacked on the left
// with the panel right; a 2 x 2 grid (A B / C panel); all stacked. Large font, then body, then
// compact (fewer coordinates, no gap line).
namespace {
enum class Arrange { across, left, grid, stacked };
struct Level {
  Arrange arrange;
  bool large;
  bool compact;
  int detail = 2;  // 2: listings and the equation list; 1: listings only; 0: listing titles only
  bool vectors = true;   // the R_m q and P lines of the panel
  bool comments = true;  // the listings' comment lines
  float shrink = 1.0f;   // the code drawn at this fraction of the body font
};
constexpr Level kLevelList[] = {
    {Arrange::across, true, false},
    {Arrange::left, true, false},
    {Arrange::grid, true, false},
    {Arrange::across, false, false},
    {Arrange::left, false, false},
    {Arrange::grid, false, false},
    {Arrange::grid, false, true},
    {Arrange::stacked, false, true},
    {Arrange::grid, false, true, 1},
    {Arrange::stacked, false, true, 1},
    {Arrange::stacked, false, true, 1, false},
    {Arrange::stacked, false, true, 1, false, false},
    {Arrange::stacked, false, true, 1, false, false, 0.85f},
    {Arrange::stacked, false, true, 1, false, false, 0.72f},
    {Arrange::stacked, false, true, 1, false, false, 0.6f},
    {Arrange::stacked, false, true, 0, false},
};
}  // namespace

CodeView::Layout CodeView::layout(const Results& r, const Params& p, const Canvas& canvas,
                                  const ViewEnv& env) {
  Layout lay(canvas, env, p.theme);
  const float s = lay.s;
  float gap = 24 * s;
  const auto set_level = [&](int lv) {
    const Level L = kLevelList[lv];
    gap = (L.compact ? 12.0f : 24.0f) * s;
    lay.level = lv;
    lay.code.font = L.large ? lay.f.large : lay.f.body;
    lay.code.px = lay.code.font->FontSize * L.shrink;
    lay.head = L.large ? lay.f.large : lay.f.bold;
    lay.listing = {lay.f.mono, lay.code.px};
    lay.label_w = lay.code.measure("(5)").x + 10 * s;
    lay.title_h = (lv == 0 ? lay.f.title : lay.f.heading)->FontSize + 10 * s;
    lay.shown = L.compact ? 3 : (L.large ? 4 : 6);
    lay.compact = L.compact;
    lay.detail = L.detail;
    lay.vectors = L.vectors;
    lay.comments = L.comments;
    std::array<float, 3> w{}, h{};
    for (std::size_t i = 0; i < 3; ++i) {
      w[i] = listing_width(kListings[i], lay.head, lay.listing, lay.label_w, L.detail >= 1);
      h[i] = listing_height(kListings[i], lay.head, lay.listing, s, L.detail >= 1, L.comments);
    }
    const auto pl = panel_lines(r, p, lay.shown, L.compact, L.vectors);
    const float pw = panel_width(pl, lay.code, lay.label_w, L.detail == 2);
    const float ph = panel_height(pl.size(), lay.code, s, L.detail == 2);
    const float top = lay.y0 + lay.title_h;
    lay.listing_top.clear();
    switch (L.arrange) {
      case Arrange::across: {
        lay.col_w = (lay.width - 2 * gap) / 3;
        for (std::size_t i = 0; i < 3; ++i)
          lay.listing_top.push_back(
              ImVec2(lay.x0 + static_cast<float>(i) * (lay.col_w + gap), top));
        lay.panel_x = lay.x0;
        lay.panel_y = top + std::max({h[0], h[1], h[2]}) + gap;
        lay.panel_w = lay.width;
        return std::max({w[0], w[1], w[2]}) <= lay.col_w && pw <= lay.width &&
               lay.panel_y + ph <= lay.bottom;
      }
      case Arrange::left: {
        lay.col_w = std::max({w[0], w[1], w[2]});
        float y = top;
        for (std::size_t i = 0; i < 3; ++i) {
          lay.listing_top.push_back(ImVec2(lay.x0, y));
          y += h[i] + gap;
        }
        lay.panel_x = lay.x0 + lay.col_w + gap;
        lay.panel_y = top;
        lay.panel_w = lay.width - lay.col_w - gap;
        return pw <= lay.panel_w && y - gap <= lay.bottom && top + ph <= lay.bottom;
      }
      case Arrange::grid: {
        lay.col_w = (lay.width - gap) / 2;
        const float row2 = top + std::max(h[0], h[1]) + gap;
        lay.listing_top = {ImVec2(lay.x0, top), ImVec2(lay.x0 + lay.col_w + gap, top),
                           ImVec2(lay.x0, row2)};
        lay.panel_x = lay.x0 + lay.col_w + gap;
        lay.panel_y = row2;
        lay.panel_w = lay.col_w;
        return std::max({w[0], w[1], w[2], pw}) <= lay.col_w &&
               row2 + std::max(h[2], ph) <= lay.bottom;
      }
      case Arrange::stacked: {
        lay.col_w = lay.width;
        float y = top;
        for (std::size_t i = 0; i < 3; ++i) {
          lay.listing_top.push_back(ImVec2(lay.x0, y));
          y += h[i] + gap;
        }
        lay.panel_x = lay.x0;
        lay.panel_y = y;
        lay.panel_w = lay.width;
        return std::max({w[0], w[1], w[2], pw}) <= lay.width && y + ph <= lay.bottom;
      }
    }
    return false;
  };
  lay.level = first_fitting(static_cast<int>(std::size(kLevelList)), set_level);
  set_level(lay.level);
  // where every code line and equation goes
  for (std::size_t i = 0; i < kListings.size(); ++i) {
    const ImVec2 at = lay.listing_top[i];
    float ly = at.y + lay.head->FontSize + 6 * s;
    if (lay.detail == 0) continue;
    for (const CodeLine& c : kListings[i].lines) {
      if (!drawn_line(c, lay.comments)) continue;
      lay.lines.push_back(
          {ImVec2(at.x, ly), ImVec2(at.x + lay.col_w, ly + lay.code.px), c.equation});
      ly += lay.code.px + 2 * s;
    }
  }
  float ey = lay.panel_y;
  for (std::size_t i = 0; i < (lay.detail == 2 ? kEquations.size() : 0); ++i) {
    lay.equations.push_back({ImVec2(lay.panel_x, ey),
                             ImVec2(lay.panel_x + lay.panel_w, ey + lay.code.px),
                             static_cast<int>(i) + 1});
    ey += lay.code.px + 2 * s;
  }
  if (canvas.hovered) {
    const auto inside = [&](const Layout::LineBox& b) {
      return canvas.mouse.x >= b.min.x && canvas.mouse.x < b.max.x && canvas.mouse.y >= b.min.y &&
             canvas.mouse.y < b.max.y;
    };
    for (const auto* boxes : {&lay.lines, &lay.equations})
      for (const auto& b : *boxes)
        if (b.equation > 0 && inside(b)) lay.hot = b.equation;
  }
  return lay;
}

// [SECTION] paint

void CodeView::paint(const Results& r, const Layout& lay, const Canvas& canvas, const Params& p) {
  ImDrawList* dl = canvas.draw_list;
  const float s = lay.s;
  const Pen& pen = canvas.pen;
  pen.text(lay.level == 0 ? lay.f.title : lay.f.heading, ImVec2(lay.x0, lay.y0), lay.pal.text,
           "The same RoPE, three codes");
  const ImU32 highlight = with_alpha(lay.pal.accent, 0.22f);
  // text in the code font at its drawn size, logged like the pen's own text (layout tests)
  const auto code_text = [&](ImVec2 at, ImU32 colour, const std::string& text) {
    dl->AddText(lay.code.font, lay.code.px, at, colour, text.c_str());
    if (pen.log) {
      const ImVec2 size = lay.code.measure(text);
      pen.log->add(at, ImVec2(at.x + size.x, at.y + size.y), text);
    }
  };
  // listings: title, then per line the equation number and the coloured tokens
  std::size_t li = 0;
  for (std::size_t k = 0; k < kListings.size(); ++k) {
    const Listing& l = kListings[k];
    pen.text(lay.head, lay.listing_top[k], lay.pal.text, l.title);
    if (lay.detail == 0) continue;
    for (const CodeLine& c : l.lines) {
      if (!drawn_line(c, lay.comments)) continue;
      const auto& b = lay.lines[li++];
      if (c.equation > 0 && c.equation == lay.hot)
        dl->AddRectFilled(ImVec2(b.min.x - 4 * s, b.min.y - 1 * s),
                          ImVec2(b.max.x, b.max.y + 1 * s), highlight, 3 * s);
      if (c.equation > 0)
        code_text(b.min, c.equation == lay.hot ? lay.pal.accent : lay.pal.text_dim,
                  "(" + std::to_string(c.equation) + ")");
      const std::string text = c.text;
      const ImVec2 at(b.min.x + lay.label_w, b.min.y);
      for (const Token& t : tokens(text, lay.pal)) {
        const float dx = lay.listing.measure(text.substr(0, t.begin)).x;
        const std::string piece = text.substr(t.begin, t.end - t.begin);
        dl->AddText(lay.listing.font, lay.listing.px, ImVec2(at.x + dx, at.y), t.colour,
                    piece.c_str());
      }
      if (pen.log)
        pen.log->add(at, ImVec2(at.x + lay.listing.measure(text).x, at.y + lay.listing.px), text);
    }
  }
  // equations
  for (const auto& e : lay.equations) {
    const bool hot = e.equation == lay.hot;
    if (hot)
      dl->AddRectFilled(ImVec2(e.min.x - 4 * s, e.min.y - 1 * s), ImVec2(e.max.x, e.max.y + 1 * s),
                        highlight, 3 * s);
    code_text(e.min, hot ? lay.pal.accent : lay.pal.text_dim,
              "(" + std::to_string(e.equation) + ")");
    code_text(ImVec2(e.min.x + lay.label_w, e.min.y), lay.pal.text,
              kEquations[static_cast<std::size_t>(e.equation - 1)]);
  }
  // numbers
  float y = lay.equations.empty() ? lay.panel_y : lay.equations.back().max.y + 14 * s;
  for (const std::string& line : panel_lines(r, p, lay.shown, lay.compact, lay.vectors)) {
    const bool head = !line.empty() && line[0] == '\x01';
    const std::string text = head ? line.substr(1) : line;
    ImU32 colour = head ? lay.pal.text : lay.pal.text;
    if (text.starts_with("✓")) colour = lay.pal.good;
    if (text.starts_with("✗")) colour = lay.pal.bad;
    if (text.starts_with("=") || text.starts_with("   ")) colour = lay.pal.text_dim;
    if (head && lay.code == lay.f.body)
      pen.text(lay.f.bold, ImVec2(lay.panel_x, y), colour, text);
    else
      code_text(ImVec2(lay.panel_x, y), colour, text);  // the large font has no bold: as is
    y += lay.code.px + 3 * s;
  }
}

// [SECTION] hover: the equation and the lines that implement it

void CodeView::hover(const Results&, const Layout& lay) {
  if (lay.hot <= 0) return;
  ImGui::BeginTooltip();
  ImGui::Text("(%d) %s", lay.hot, kEquations[static_cast<std::size_t>(lay.hot - 1)]);
  for (std::size_t k = 0; k < kListings.size(); ++k)
    for (const CodeLine& c : kListings[k].lines)
      if (c.equation == lay.hot) ImGui::Text("%s   %s", kListings[k].title, c.text);
  ImGui::EndTooltip();
}

// [SECTION] Draw and DrawControls

void CodeView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Results& r = model_.get(inputs_of(p), compute);
  const Canvas canvas("code_canvas", &drawn_);  // clip pushed here, popped at every return
  if (!r.problem.empty()) {
    const Page pg(canvas, env, p.theme);
    canvas.pen.wrapped(pg.f.bold, ImVec2(pg.x0, pg.y0), pg.width, pg.pal.bad, r.problem);
    return;
  }
  const Layout lay = layout(r, p, canvas, env);
  level_ = lay.level;
  hot_equation_ = lay.hot;
  paint(r, lay, canvas, p);
  if (canvas.hovered) hover(r, lay);
}

void CodeView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  if (ImGui::Button("random q and k")) {
    p.query.preset = VectorPreset::random;
    p.key.preset = VectorPreset::random;
  }
  ImGui::SameLine();
  if (ImGui::Button("next seed")) p.seed = p.seed + 1;
  ImGui::TextWrapped("Hover a code line: the equation it implements lights up.");
}

}  // namespace rope::app
