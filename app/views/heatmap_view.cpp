// views/heatmap_view.cpp — the attention score heatmap (heatmap_view.h).
//
// Draw's passes: inputs (inputs_of) -> compute (update: at once or on the worker) -> layout
// (the header's level, the matrix side, where the read-out goes) -> paint (panels, read-out) ->
// hover (a tooltip for the cell under the mouse).
#include "views/heatmap_view.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "imgui.h"
#include "state/actions.h"
#include "state/params.h"
#include "ui/page.h"
#include "ui/param_widgets.h"
#include "ui/theme.h"
#include "views/view_scaling.h"

namespace rope::app {
namespace {

// Matrices cheaper than this many multiply-adds are computed at once (well under a
// millisecond); larger ones go to the worker thread.
constexpr double kInlineCost = 4e6;
constexpr double kFirstWaitSeconds = 3.0;

const char* encoding_title(Encoding e) {
  switch (e) {
    case Encoding::none:
      return "no position encoding";
    case Encoding::sinusoidal:
      return "sinusoidal (added)";
    case Encoding::rope:
      return "RoPE (rotated)";
  }
  return "?";
}

// `encoded`: a position encoding is drawn (one, or the three side by side)
std::string mode_text(ScoreMode m, bool encoded) {
  const std::string plain = encoded ? "" : ", no position encoding";
  switch (m) {
    case ScoreMode::raw:
      return encoded ? "raw scores q′ₘ·k′ₙ (′: encoded)" : "raw scores qₘ·kₙ" + plain;
    case ScoreMode::scaled:
      return encoded ? "scaled scores q′ₘ·k′ₙ/√d (′: encoded)" : "scaled scores qₘ·kₙ/√d" + plain;
    case ScoreMode::softmax:
      return "softmax over each row" + plain;
    case ScoreMode::cosine:
      return (encoded ? "1 + cos(q′ₘ, k′ₙ) (′: encoded), from 0 to 2"
                      : "1 + cos(qₘ, kₙ), from 0 to 2") +
             plain;
  }
  return "?";
}

std::string content_text(const Params& p) {
  switch (p.content) {
    case Content::shared:
      return "shared content: the same q = " +
             std::string(
                 p.query.preset == VectorPreset::custom
                     ? "custom"
                     : (p.query.preset == VectorPreset::ones
                            ? "all ones"
                            : (p.query.preset == VectorPreset::unit ? "unit" : "seeded random"))) +
             " and k at every position, so only the positions differ";
    case Content::random:
      return "seeded random qₘ, kₙ at every position (seed " + std::to_string(p.seed) + ")";
    case Content::sentence:
      return p.sentence_pair && !p.compare
                 ? "left sentence A, right sentence B; qₘ = kₘ = a seeded hash of the word (d, "
                   "seed), not a trained embedding. Framed: the query's word and the key's in "
                   "each"
                 : "the words of sentence B; qₘ = kₘ = a seeded hash of the word (d, seed), not a "
                   "trained embedding";
  }
  return "";
}

// The cell at px: the axes are in positions, cell i at position i·stride.
int cell_index(const plot::Scale& sc, float px, int n, int stride) {
  const double v = std::floor(sc.from_px(px) / stride + 0.5);
  if (!(v >= 0.0) || v >= n) return -1;
  return static_cast<int>(v);
}

// What every level of the layout shares: the header's lines, the panels and their colour bars,
// the cell of the current positions.
struct Scene : Page {
  using Page::Page;
  std::string head, sub, content;
  std::string scaling;  // with a scaling on: the method, θ′ and a² (RoPE only)
  std::string msg;      // the error, or the note that a new matrix is being computed
  ImU32 msg_colour = 0;
  int count = 0;        // panels: 1, or 3 in compare mode, or 2 for a sentence pair
  bool pair = false;    // sentence A and sentence B (sentence_pair): the titles say which
  bool mirror = false;  // B is A reversed: B's framed cell is (T - 1 - m, T - 1 - n)
  bool single = false;
  float bar_w = 0, bar_margin = 0;  // the colour bar and its labels
  int m_cell = -1, n_cell = -1;     // the cell of the current positions m, n
  bool rounded = false;             // a stride that m or n falls between: the nearest cells
};

// The header and read-out at one level of the layout, from full size to compact.
struct Level {
  ImFont *head, *sub;
  bool content, compact_readout;
};
constexpr int kLevels = 4;
Level level_at(const Fonts& f, int level) {
  const Level levels[kLevels] = {{f.title, f.large, true, false},
                                 {f.heading, f.body, true, false},
                                 {f.heading, f.body, false, true},
                                 {f.bold, f.body, false, true}};
  return levels[level];
}

// The header from the top of the canvas; returns the y under it, with room for the message
// line even when there is none, so the picture does not jump. A Pen{} only measures.
float header(const Pen& pen, const Scene& sn, const Level& lv) {
  const Fonts& f = sn.f;
  const float s = sn.s;
  float y = sn.y0;
  y += pen.wrapped(fit_font({lv.head, f.heading}, sn.head, sn.width, 2), ImVec2(sn.x0, y), sn.width,
                   sn.pal.text, sn.head) +
       2.0f * s;
  y += pen.wrapped(lv.sub, ImVec2(sn.x0, y), sn.width, sn.pal.text, sn.sub) + 2.0f * s;
  if (lv.content)
    y += pen.wrapped(f.body, ImVec2(sn.x0, y), sn.width, sn.pal.text_dim, sn.content) + 4.0f * s;
  if (!sn.scaling.empty())
    y += pen.wrapped(f.bold, ImVec2(sn.x0, y), sn.width, sn.pal.accent, sn.scaling) + 4.0f * s;
  if (!sn.msg.empty())
    y += pen.wrapped(f.bold, ImVec2(sn.x0, y), sn.width, sn.msg_colour, sn.msg) - f.bold->FontSize;
  return y + f.bold->FontSize + 8.0f * s;
}

// The read-out of one panel at `pos` in a column `w` wide: cell (m, n) (the hovered one, else
// the current positions'), its words, its score, the diagonal's note when it did not fit inside
// the matrix, and why diagonals are or are not constant. Returns its height; a Pen{} only
// measures (and reserves the diagonal's line).
float readout(const Pen& pen, const Scene& sn, const HeatmapScores& sc, ImVec2 pos, float w, int m,
              int n, const std::string& score, bool use_hover, bool compact,
              const std::string& diagonal_note) {
  const Fonts& f = sn.f;
  const Palette& pal = sn.pal;
  const float s = sn.s;
  float ry = pos.y;
  const float rx = pos.x;
  if (!compact)
    ry += pen.wrapped(f.bold, ImVec2(rx, ry), w, pal.text_dim,
                      use_hover    ? "cell under the mouse"
                      : sn.rounded ? "cell nearest the current m, n (framed; the stride skips them)"
                                   : "cell of the current m, n (framed)") +
          6 * s;
  if (m >= 0 && n >= 0 && m < sc.n && n < sc.n) {
    // positions, not cells: cell i is position i·stride
    const long long st = sc.inputs.stride;
    const std::string l1 = nobreak("m = " + format_number(double(m * st), NumberStyle::tick)) +
                           "   " +
                           nobreak("n = " + format_number(double(n * st), NumberStyle::tick));
    // "−8" with the minus sign, not an ASCII hyphen (review D15)
    const std::string l2 =
        nobreak("n − m = " + format_number(double((n - m) * st), NumberStyle::label, 8));
    const float w1 = text_size(f.large, l1).x;
    const float gap = 24 * s;
    pen.text(f.large, ImVec2(rx, ry), pal.text, l1);
    if (w1 + gap + text_size(f.large, l2).x <= w) {
      pen.text(f.large, ImVec2(rx + w1 + gap, ry), pal.accent, l2);
    } else {
      ry += f.large->FontSize + 2 * s;
      pen.text(f.large, ImVec2(rx, ry), pal.accent, l2);
    }
    ry += f.large->FontSize + 2 * s;
    if (!sc.words.empty()) {
      const std::string words = nobreak("“" + sc.words[static_cast<std::size_t>(m)] + "”") + " → " +
                                nobreak("“" + sc.words[static_cast<std::size_t>(n)] + "”");
      ry += pen.wrapped(f.large, ImVec2(rx, ry), w, pal.text, words) + 2 * s;
    }
    const std::string l3 = nobreak("S = " + score);
    ry += pen.wrapped(compact ? f.large : fit_font({f.title, f.large}, l3, w), ImVec2(rx, ry), w,
                      pal.text, l3) +
          10 * s;
  } else {
    ry +=
        pen.wrapped(f.body, ImVec2(rx, ry), w, pal.text_dim, "m or n is outside 0 … N−1") + 10 * s;
  }
  if (sc.inputs.content == Content::shared) {  // the diagonal's line, reserved when measuring
    if (!pen.dl || !diagonal_note.empty())
      ry += pen.wrapped(f.body, ImVec2(rx, ry), w, pal.accent,
                        pen.dl ? diagonal_note : nobreak("n − m = 0: every cell = 0.000000")) +
            4 * s;
  }
  if (sc.inputs.content == Content::shared && !compact) {
    // softmax divides each row by its own sum, over a row's own keys: a RoPE diagonal's
    // weights then differ where rows see different sets of offsets (near the edges)
    const bool weights = sc.inputs.score_mode == ScoreMode::softmax;
    const char* why = sc.inputs.encoding == Encoding::rope
                          ? (weights ? "RoPE: the scores q·R(n−m)k depend on n − m only; the "
                                       "softmax divides each row by its own sum, over its own "
                                       "keys, so a diagonal's weights differ from row to row."
                                     : "RoPE: S[m][n] = q·R(n−m)k depends on n − m only, so "
                                       "every diagonal holds one value.")
                          : (sc.inputs.encoding == Encoding::sinusoidal
                                 ? "Sinusoidal: S = q·k + q·PEₙ + k·PEₘ + PEₘ·PEₙ; the middle "
                                   "terms depend on m and n themselves, so diagonals vary."
                                 : "No encoding: every position holds the same q and k, so "
                                   "every score is the same.");
    ry += pen.wrapped(f.body, ImVec2(rx, ry), w, pal.text_dim, why);
  }
  return ry - pos.y;
}

// The axes of a panel: key positions across, query positions down, the words as ticks when
// there are at most 32.
std::pair<plot::Axis, plot::Axis> panel_axes(const HeatmapScores& sc) {
  plot::Axis ax, ay;
  // in positions: cell i spans (i ± 0.5)·stride
  const double st = sc.inputs.stride;
  ax.lo = ay.lo = -0.5 * st;
  ax.hi = ay.hi = (sc.n - 0.5) * st;
  ax.label = "key position n";
  ay.label = "query position m";
  ax.short_label = "n";
  ay.short_label = "m";
  ax.grid = ay.grid = false;
  ay.down = true;
  if (!sc.words.empty() && sc.n <= 32) ax.categories = ay.categories = sc.words;
  return {ax, ay};
}

// The header's height and the matrix side at one level, and where the read-out goes.
struct Fit {
  float top = 0.0f, side = 0.0f, readout_w = 0.0f, cells_bottom = 0.0f;
  bool below = false;  // the read-out under the matrix (else right of it; single panel only)
};

// Three panels share the width; one panel puts the read-out right of the matrix or under it,
// whichever leaves the matrix more room.
Fit fit_at(const Scene& sn, const Level& lv, const HeatmapScores& first) {
  const float s = sn.s;
  Fit out;
  out.top = header(Pen{}, sn, lv);
  out.cells_bottom = sn.bottom;
  const auto [ax, ay] = panel_axes(first);  // the margins read the labels and ticks only
  const plot::Margins mg = plot::margins(sn.st, ax, ay);
  if (!sn.single) {
    out.side = std::min(sn.width / static_cast<float>(sn.count) - mg.left - mg.right,
                        sn.bottom - out.top - sn.f.large->FontSize - mg.top - mg.bottom - sn.bar_w -
                            sn.bar_margin - sn.pad);
    return out;
  }
  const float extra_w = sn.bar_w + 2.0f * sn.pad + sn.bar_margin;
  const float right_w = std::min(std::round(380.0f * s), 0.45f * sn.width);
  const float side_right = std::min(sn.width - right_w - mg.left - mg.right - extra_w,
                                    sn.bottom - out.top - mg.top - mg.bottom);
  // measured with the widest score a 6-digit label gives, so the layout does not follow the value
  const float below_h = readout(Pen{}, sn, first, ImVec2(0, 0), sn.width, sn.m_cell, sn.n_cell,
                                "−0.000123456", false, lv.compact_readout, "") +
                        10 * s;
  const float side_below = std::min(sn.width - mg.left - mg.right - extra_w,
                                    sn.bottom - out.top - below_h - mg.top - mg.bottom);
  out.below = side_below > side_right;
  out.side = std::max(side_right, side_below);
  if (out.below) {
    out.cells_bottom = sn.bottom - below_h;
  } else {
    out.readout_w = right_w;
  }
  return out;
}

// Everything the paint passes read: what the levels share, the chosen level and its fit.
struct Sheet : Scene, Fit {
  using Scene::Scene;
  Level lv{};
  float panel_w = 0.0f;  // each panel's share of the width left of the read-out
};

// A panel's title (compare mode) and axes at column `px0`.
struct PanelBox {
  plot::Frame fr;
  float rect_bottom = 0.0f;  // of the axes with their labels
  float bottom = 0.0f;       // of the panel with its colour bar
};
PanelBox panel_box(ImDrawList* dl, const Pen& pen, const Sheet& sh, const HeatmapScores& sc,
                   float px0, int index) {
  const auto [ax, ay] = panel_axes(sc);
  const plot::Margins mg = plot::margins(sh.st, ax, ay);
  const float s = sh.s;
  const float title_h = sh.single ? 0.0f : sh.f.large->FontSize + 6.0f * s;
  const float extra_w = sh.single ? sh.bar_w + 2.0f * sh.pad + sh.bar_margin : 0.0f;
  const float extra_h = sh.single ? 0.0f : sh.bar_w + sh.bar_margin + sh.pad;
  const float side = std::max(16.0f, std::floor(std::min(sh.panel_w - mg.left - mg.right - extra_w,
                                                         sh.cells_bottom - sh.top - title_h -
                                                             mg.top - mg.bottom - extra_h)));
  if (!sh.single) {
    // the panel's own width: a title wider than that would run into its neighbour's
    const float room = std::min(sh.panel_w, mg.left + side + mg.right);
    std::string t;
    ImFont* font = nullptr;
    if (sh.pair) {
      t = index == 0 ? "sentence A" : "sentence B";
      font = fit_font({sh.f.large, sh.f.body}, t, room);
    } else {
      // one font and one wording for every panel, chosen by the longest title
      const std::string longest = encoding_title(Encoding::none);
      font = fit_font({sh.f.large, sh.f.body}, longest, room);
      const bool short_titles = text_size(font, longest).x > room;
      t = short_titles ? encoding_name(sc.inputs.encoding)  // "none", "rope"
                       : encoding_title(sc.inputs.encoding);
    }
    pen.centred(font, ImVec2(px0 + mg.left + 0.5f * side, sh.top), sh.pal.text, t);
  }
  const ImVec2 r0(px0, sh.top + title_h);
  const ImVec2 r1(px0 + mg.left + side + mg.right, r0.y + mg.top + side + mg.bottom);
  return {plot::axes(dl, sh.st, r0, r1, ax, ay), r1.y, r1.y + extra_h};
}

// With shared content, the diagonal n - m = r of the current positions and a note of its
// value(s): inside the cells, on one or two lines, beside the diagonal away from the framed
// cell. Returns the note instead when it does not fit there.
std::string paint_diagonal(ImDrawList* dl, const Sheet& sh, const HeatmapScores& sc,
                           const plot::Frame& fr, double r) {
  const int n = sc.n;
  const double st = sc.inputs.stride;
  // r in positions: a diagonal of cells only when the stride divides it
  if (sc.inputs.content != Content::shared || std::fmod(r, st) != 0.0 || !(std::fabs(r / st) < n))
    return "";
  const float s = sh.s;
  const int ri = static_cast<int>(r / st);
  const int m0 = std::max(0, -ri), m1 = std::min(n - 1, n - 1 - ri);
  const ImVec2 a(fr.x.to_px((m0 + ri - 0.5) * st), fr.y.to_px((m0 - 0.5) * st));
  const ImVec2 b(fr.x.to_px((m1 + ri + 0.5) * st), fr.y.to_px((m1 + 0.5) * st));
  dl->AddLine(a, b, with_alpha(sh.pal.accent, 0.9f), std::max(1.0f, std::round(2.0f * s)));
  float vmin = INFINITY, vmax = -INFINITY;
  for (int m = m0; m <= m1; ++m) {
    const float v = sc.s[static_cast<std::size_t>(m) * static_cast<std::size_t>(n) +
                         static_cast<std::size_t>(m + ri)];
    vmin = std::min(vmin, v);
    vmax = std::max(vmax, v);
  }
  std::string note = nobreak("n − m = " + format_number(r, NumberStyle::label, 6) + ":") + " ";
  if (!std::isfinite(vmin) || !std::isfinite(vmax))
    note += "masked";
  else if (vmin == vmax)
    note +=
        nobreak("every cell = " + format_number(static_cast<double>(vmin), NumberStyle::label, 6));
  else
    note += nobreak("varies " + format_number(static_cast<double>(vmin), NumberStyle::label, 4) +
                    " … " + format_number(static_cast<double>(vmax), NumberStyle::label, 4));
  const ImVec2 lp = plot::label_box_padding(sh.st);
  const float inner = fr.area_max.x - fr.area_min.x - 12 * s - 2 * lp.x;
  ImFont* nf = fit_font({sh.single ? sh.f.large : sh.f.body, sh.f.body}, note, inner, 2);
  const std::vector<std::string> lines = wrap_text(nf, note, inner);
  const ImVec2 ts = wrapped_size(nf, note, inner);
  if (ts.x > inner || ts.y > 0.35f * (fr.area_max.y - fr.area_min.y)) return note;
  const float t =
      m1 > m0
          ? std::clamp(static_cast<float>(sh.m_cell - m0) / static_cast<float>(m1 - m0), 0.0f, 1.0f)
          : 0.5f;
  const float ta = t < 0.5f ? 0.75f : 0.25f;
  const ImVec2 anchor(a.x + (b.x - a.x) * ta, a.y + (b.y - a.y) * ta);
  const float lx =
      std::clamp(anchor.x + 10 * s, fr.area_min.x + 6 * s + lp.x,
                 std::max(fr.area_min.x + 6 * s + lp.x, fr.area_max.x - ts.x - 6 * s - lp.x));
  float ly = std::clamp(anchor.y - ts.y - 10 * s, fr.area_min.y + 6 * s + lp.y,
                        std::max(fr.area_min.y + 6 * s, fr.area_max.y - ts.y - 6 * s - lp.y));
  for (const std::string& line : lines) {
    plot::label_box(dl, sh.st, nf, ImVec2(lx, ly), sh.pal.accent, line);
    ly += nf->FontSize;
  }
  return "";
}

// With a scaling on, the positions the model was not trained on (m ≥ L or n ≥ L) under a veil,
// the edge at L dashed and named. Two rectangles: blended fills are what llvmpipe pays for.
void paint_beyond(ImDrawList* dl, const Sheet& sh, const HeatmapScores& sc, const plot::Frame& fr) {
  const ScalingParams& sp = sc.inputs.scaling;
  const auto L = static_cast<double>(sp.original_context);
  // the first cell at a position ≥ L, and its edge (cell i spans (i ± 0.5)·stride)
  const double st = sc.inputs.stride;
  const double first = std::ceil(L / st);
  if (!scaling_on(sp) || !(first < sc.n)) return;
  const double edge = (first - 0.5) * st;
  const float s = sh.s;
  const float xl = fr.x.to_px(edge);
  const float yl = fr.y.to_px(edge);
  const ImU32 veil = with_alpha(sh.pal.canvas, 0.55f);
  dl->AddRectFilled(ImVec2(xl, fr.area_min.y), fr.area_max, veil);
  dl->AddRectFilled(ImVec2(fr.area_min.x, yl), ImVec2(xl, fr.area_max.y), veil);
  const float w = std::max(1.0f, std::round(2.0f * s));
  plot::vline(dl, fr, edge, sh.pal.accent, w, true);
  plot::hline(dl, fr, edge, sh.pal.accent, w, true);
  const std::string label = nobreak("m or n ≥ L = " + format_number(L, NumberStyle::tick) + ":") +
                            " " + "beyond the original context";
  const ImVec2 lp = plot::label_box_padding(sh.st);
  ImFont* font = fit_font({sh.f.large, sh.f.body}, label, fr.area_max.x - fr.area_min.x - 4 * lp.x);
  const float tw = text_size(font, label).x;
  // in the bottom left corner (m ≥ L, n < L), away from the diagonals near the framed cell;
  // when that strip is too thin for it, at the top of the right strip (n ≥ L)
  const float h = font->FontSize + 2 * lp.y + 8 * s;
  const bool bottom = fr.area_max.y - yl >= h;
  const float lx = bottom ? fr.area_min.x + lp.x + 6 * s
                          : std::max(fr.area_min.x + lp.x, fr.area_max.x - tw - lp.x - 6 * s);
  const float ly =
      bottom ? fr.area_max.y - font->FontSize - lp.y - 6 * s : fr.area_min.y + lp.y + 6 * s;
  plot::label_box(dl, sh.st, font, ImVec2(lx, ly), sh.pal.accent, label);
}

// The frame around the cell of the current positions, and the panel's colour bar (right of a
// single matrix, under each of three).
// The framed cell (m_cell, n_cell) and the colour bar.
void paint_marks(ImDrawList* dl, const Sheet& sh, const HeatmapScores& sc, const PanelBox& box,
                 const std::string& bar_label, int m_cell, int n_cell) {
  const plot::Frame& fr = box.fr;
  const float s = sh.s;
  const int n = sc.n;
  if (m_cell >= 0 && m_cell < n && n_cell >= 0 && n_cell < n) {
    const float cell = (fr.area_max.x - fr.area_min.x) / static_cast<float>(n);
    const double st = sc.inputs.stride;
    const ImVec2 c0(fr.x.to_px((n_cell - 0.5) * st), fr.y.to_px((m_cell - 0.5) * st));
    const ImVec2 c1(fr.x.to_px((n_cell + 0.5) * st), fr.y.to_px((m_cell + 0.5) * st));
    const float grow = std::max(0.0f, 6.0f * s - 0.5f * cell);
    dl->AddRect(ImVec2(c0.x - grow, c0.y - grow), ImVec2(c1.x + grow, c1.y + grow), sh.pal.text, 0,
                0, std::max(1.0f, std::round(2.0f * s)));
  }
  if (sh.single) {
    const ImVec2 b0(fr.area_max.x + 2 * sh.pad, fr.area_min.y);
    plot::colour_bar(dl, sh.st, b0, ImVec2(b0.x + sh.bar_w, fr.area_max.y), sc.lo, sc.hi, bar_label,
                     true);
  } else {
    const ImVec2 b0(fr.area_min.x, box.rect_bottom + 4 * s);
    plot::colour_bar(dl, sh.st, b0, ImVec2(fr.area_max.x, b0.y + sh.bar_w), sc.lo, sc.hi, bar_label,
                     false);
  }
}

bool same_inputs(const std::vector<HeatmapScores>& matrices,
                 const std::vector<HeatmapInputs>& inputs) {
  return std::equal(matrices.begin(), matrices.end(), inputs.begin(), inputs.end(),
                    [](const HeatmapScores& m, const HeatmapInputs& in) { return m.inputs == in; });
}

// Every matrix on the calling thread, or the first error.
Result<std::vector<HeatmapScores>> compute_now(const std::vector<HeatmapInputs>& inputs) {
  std::vector<HeatmapScores> out;
  for (const HeatmapInputs& in : inputs) {
    auto r = compute_heatmap_scores(in, 1);
    if (!r) return r.error();
    out.push_back(std::move(r).value());
  }
  return out;
}

}  // namespace

// The Sheet, under the name heatmap_view.h declares.
struct HeatmapView::Layout : Sheet {
  using Sheet::Sheet;
};

// [SECTION] inputs and compute

HeatmapView::Inputs HeatmapView::inputs_of(const Params& p) {
  Inputs in;
  if (p.compare) {
    for (Encoding e : {Encoding::none, Encoding::sinusoidal, Encoding::rope})
      in.panels.push_back(heatmap_inputs(p, e));
  } else if (p.sentence_pair && p.content == Content::sentence) {
    // sentence A first (the matrix of its own words), then sentence B as a single panel has it
    HeatmapInputs a = heatmap_inputs(p, p.encoding);
    a.sentence = p.sentence_a;
    a.positions = static_cast<int>(std::max<std::size_t>(1, sentence_words(p.sentence_a).size()));
    in.panels.push_back(std::move(a));
    in.panels.push_back(heatmap_inputs(p, p.encoding));
  } else {
    in.panels.push_back(heatmap_inputs(p, p.encoding));
  }
  return in;
}

const HeatmapScores* HeatmapView::scores(Encoding e) const {
  for (const auto& s : shown_)
    if (s.inputs.encoding == e) return &s;
  return nullptr;
}

void HeatmapView::accept(std::vector<HeatmapScores> matrices) {
  shown_ = std::move(matrices);
  versions_.clear();
  for (std::size_t i = 0; i < shown_.size(); ++i)
    versions_.push_back(next_version_++);
  error_.clear();
}

void HeatmapView::update(const Inputs& in) {
  if (!(in == wanted_)) {
    wanted_ = in;
    double cost = 0.0;
    for (const HeatmapInputs& panel : in.panels)
      cost += heatmap_cost(panel);
    if (cost <= kInlineCost) {
      if (auto r = compute_now(in.panels))
        accept(std::move(r).value());
      else
        error_ = r.error().to_string();
    } else {
      job_.submit(in.panels);
      // Before the first matrix there is no previous picture to keep showing: wait for it (a
      // screenshot or export then shows the matrix, not a "computing" note), up to a bound.
      if (shown_.empty()) job_.wait_idle(kFirstWaitSeconds);
    }
  }
  if (auto out = job_.take()) {
    if (!out->error.empty()) error_ = out->error;
    if (out->error.empty() && same_inputs(out->panels, wanted_.panels))
      accept(std::move(out->panels));
  }
  computing_ = !same_inputs(shown_, wanted_.panels) && error_.empty();
}

// [SECTION] layout: the first level whose matrix is at least 240 px at scale 1, else the level
// with the largest; the read-out right of the matrix or under it

HeatmapView::Layout HeatmapView::layout(const Params& p, const Canvas& canvas,
                                        const ViewEnv& env) const {
  Layout lay(canvas, env, p.theme);
  const float s = lay.s;
  const int n_shown = shown_.empty() ? 0 : shown_.front().n;
  // the base only matters with an encoding; softmax rows are weights, not scores
  const bool encoded = p.compare || p.encoding != Encoding::none;
  lay.head =
      std::string(p.score_mode == ScoreMode::softmax ? "Attention weights " : "Attention scores ") +
      nobreak("S[m][n]:") + "  " +
      nobreak("N = " + std::to_string(p.content == Content::sentence ? n_shown : p.positions) +
              ",") +
      (p.stride > 1 && p.content != Content::sentence
           ? "  " + nobreak("positions 0, " + std::to_string(p.stride) + ", " +
                            std::to_string(2 * p.stride) + ", …,")
           : std::string()) +
      "  " + nobreak("d = " + std::to_string(p.dim) + (encoded ? "," : "")) +
      (encoded ? "  " + nobreak("base = " + format_number(p.base, NumberStyle::tick)) : "");
  lay.sub = mode_text(p.score_mode, encoded) +
            (p.causal ? ",  causal mask (keys after the query hidden)" : "") +
            (p.attention_window > 0
                 ? ",  " +
                       nobreak("window " + format_number(static_cast<double>(p.attention_window),
                                                         NumberStyle::tick)) +
                       " (keys m − n ≥ W hidden)"
                 : "") +
            (p.attention_chunk > 0
                 ? ",  " +
                       nobreak("chunks of " + format_number(static_cast<double>(p.attention_chunk),
                                                            NumberStyle::tick)) +
                       " (keys in other chunks hidden)"
                 : "");
  lay.content = content_text(p);
  if (p.pair_band != PairBand::all) {  // on the mode's line, which every level keeps
    const BlockRange b = band_blocks(p.dim / 2, p.pair_band);
    lay.sub += ",  " +
               nobreak(std::string(p.pair_band == PairBand::fast ? "fastest" : "slowest") +
                       " pairs only: i = " + std::to_string(b.first) + " … " +
                       std::to_string(b.last - 1)) +
               " " + nobreak("of " + std::to_string(p.dim / 2));
  }
  const ScalingParams sp = view_scaling(p);
  if (scaling_on(sp) && (p.compare || p.encoding == Encoding::rope)) {
    const HeatmapScores* rope = nullptr;
    for (const auto& sc : shown_)
      if (sc.inputs.encoding == Encoding::rope) rope = &sc;
    const double a = rope ? rope->attention_factor : 1.0;
    lay.scaling =
        scaling_words(sp) + ":  " +
        (nope(sp) ? std::string(p.compare ? "the RoPE panel rotates nothing: " : "") +
                        "S[m][n] = q_m·k_n, so only the content and the masks tell positions apart"
         : p.compare ? "RoPE rotates at θ′ᵢ"
                     : "rotated at θ′ᵢ");
    if (a != 1.0)
      lay.scaling += ",  " +
                     nobreak("cos, sin × a = " + format_number(a, NumberStyle::label, 5) + ",") +
                     " so " + nobreak("S × a² = " + format_number(a * a, NumberStyle::label, 5));
    if (static_cast<double>(sp.original_context) <
        (p.content == Content::sentence ? n_shown : p.positions))
      lay.scaling += ";  positions ≥ L shaded";
  }
  // a partial rotation (drawn_frequencies): the pairs past it keep θ = 0 in the RoPE matrix
  const double fraction = p.extension.scaling.rotary_fraction;
  if (fraction < 1.0 && sp.method != ScalingMethod::proportional &&
      (p.compare || p.encoding == Encoding::rope)) {
    const RotaryStyle style = p.extension.rotary_style;
    const std::string partial =
        nobreak("rotary p = " + format_number(fraction, NumberStyle::label, 4)) + " " +
        rotary_style_name(style) + ":  " +
        nobreak(std::to_string(rotated_pairs(p.dim, fraction, style)) + " of " +
                std::to_string(p.dim / 2) + " pairs rotate");
    lay.scaling = lay.scaling.empty() ? partial : lay.scaling + ";  " + partial;
  }
  lay.msg = !error_.empty() ? error_
            : computing_    ? "computing the new matrix… (the previous one is shown)"
                            : "";
  lay.msg_colour = error_.empty() ? lay.pal.accent : lay.pal.bad;
  lay.lv = level_at(lay.f, 0);
  lay.count = static_cast<int>(shown_.size());
  if (lay.count == 0 || canvas.size.x < 50) return lay;  // the header alone
  lay.single = lay.count == 1;
  lay.pair = p.sentence_pair && p.content == Content::sentence && !p.compare && lay.count == 2;
  if (lay.pair) {
    std::vector<std::string> reversed = sentence_words(p.sentence_a);
    std::reverse(reversed.begin(), reversed.end());
    lay.mirror = reversed == sentence_words(p.sentence_b);
  }
  lay.bar_w = std::round(22.0f * s);
  lay.bar_margin = plot::colour_bar_margin(lay.st, !lay.single);
  // the cells nearest the current positions (cell i is position i·stride)
  const double stride = p.content == Content::sentence ? 1.0 : p.stride;
  lay.m_cell = static_cast<int>(std::lround(std::clamp(p.position / stride, -1.0, 1e6)));
  lay.n_cell = static_cast<int>(std::lround(std::clamp(p.key_position / stride, -1.0, 1e6)));
  lay.rounded = std::fmod(p.position, stride) != 0.0 || std::fmod(p.key_position, stride) != 0.0;
  const HeatmapScores& first = shown_.front();
  const std::array<Fit, kLevels> fits = {
      fit_at(lay, level_at(lay.f, 0), first), fit_at(lay, level_at(lay.f, 1), first),
      fit_at(lay, level_at(lay.f, 2), first), fit_at(lay, level_at(lay.f, 3), first)};
  const auto roomy = [&](int level) {
    return fits[static_cast<std::size_t>(level)].side >= 240.0f * s;
  };
  int level = first_fitting(kLevels, roomy);
  if (!roomy(level))  // none is: the largest matrix (the fullest of equals)
    level = static_cast<int>(
        std::max_element(fits.begin(), fits.end(),
                         [](const Fit& a, const Fit& b) { return a.side < b.side; }) -
        fits.begin());
  lay.lv = level_at(lay.f, level);
  static_cast<Fit&>(lay) = fits[static_cast<std::size_t>(level)];
  lay.panel_w = (lay.width - lay.readout_w) / static_cast<float>(lay.count);
  return lay;
}

// [SECTION] paint: the panels, then the read-out; returns the cell under the mouse

void HeatmapView::paint_cells(int i, const HeatmapScores& sc, const plot::Frame& fr,
                              const Layout& lay, const Canvas& canvas, bool has_gl) {
  // one textured quad
  bool drew = false;
  if (renderer_) {
    drew = renderer_->update(i, versions_[static_cast<std::size_t>(i)], sc.s, sc.n, sc.n,
                             static_cast<float>(sc.lo), static_cast<float>(sc.hi), lay.pal.panel,
                             ImVec2(fr.area_max.x - fr.area_min.x, fr.area_max.y - fr.area_min.y));
    if (drew)
      renderer_->add_image(canvas.draw_list, i, fr.area_min, fr.area_max);
    else if (error_.empty())
      error_ = renderer_->error();
  }
  if (drew) return;
  const float s = lay.s;
  canvas.draw_list->AddRect(fr.area_min, fr.area_max, lay.pal.grid, 0, 0,
                            std::max(1.0f, std::round(s)));
  if (has_gl)
    canvas.pen.wrapped(lay.f.body, ImVec2(fr.area_min.x + 8 * s, fr.area_min.y + 8 * s),
                       fr.area_max.x - fr.area_min.x - 16 * s, lay.pal.bad,
                       "cells not drawn: see the message above");
}

HeatmapView::Cell HeatmapView::paint(const Layout& lay, const Canvas& canvas, const ViewEnv& env,
                                     const Params& p) {
  const double r = std::round(p.key_position - p.position);  // the diagonal n - m
  const std::string bar_label = p.score_mode == ScoreMode::softmax  ? "weight"
                                : p.score_mode == ScoreMode::cosine ? "1 + cos"
                                                                    : "score";
  float panels_bottom = lay.top;
  std::string diagonal_note;  // a single matrix's, when it does not fit inside the cells
  Cell hovered;
  for (int i = 0; i < lay.count; ++i) {
    const HeatmapScores& sc = shown_[static_cast<std::size_t>(i)];
    const PanelBox box = panel_box(canvas.draw_list, canvas.pen, lay, sc,
                                   lay.x0 + lay.panel_w * static_cast<float>(i), i);
    panels_bottom = std::max(panels_bottom, box.bottom);
    paint_cells(i, sc, box.fr, lay, canvas, env.has_gl);
    panels_.push_back(Panel{sc.inputs.encoding, box.fr.area_min, box.fr.area_max, sc.n});
    paint_beyond(canvas.draw_list, lay, sc, box.fr);
    const std::string note = paint_diagonal(canvas.draw_list, lay, sc, box.fr, r);
    if (lay.single && !note.empty()) diagonal_note = note;
    // a sentence pair's B when it is A reversed: the same two words stand at T - 1 - m, T - 1 - n
    const bool mirrored = lay.mirror && i == 1;
    paint_marks(canvas.draw_list, lay, sc, box, bar_label,
                mirrored ? sc.n - 1 - lay.m_cell : lay.m_cell,
                mirrored ? sc.n - 1 - lay.n_cell : lay.n_cell);
    if (canvas.hovered && box.fr.contains(canvas.mouse))
      hovered = {i, cell_index(box.fr.y, canvas.mouse.y, sc.n, sc.inputs.stride),
                 cell_index(box.fr.x, canvas.mouse.x, sc.n, sc.inputs.stride)};
  }
  if (!lay.single) return hovered;
  // the read-out: the hovered cell, else the cell of the current positions
  const bool use_hover = hovered.panel == 0 && hovered.m >= 0 && hovered.n >= 0;
  const int m = use_hover ? hovered.m : lay.m_cell;
  const int n = use_hover ? hovered.n : lay.n_cell;
  // the canvas shows 6 significant digits, the hover every digit (the number format policy)
  const std::string score = exact_text(shown_.front(), m, n, NumberStyle::label);
  if (lay.below)
    readout(canvas.pen, lay, shown_.front(), ImVec2(lay.x0, panels_bottom + 10 * lay.s), lay.width,
            m, n, score, use_hover, lay.lv.compact_readout, diagonal_note);
  else
    readout(
        canvas.pen, lay, shown_.front(),
        ImVec2(canvas.max().x - lay.pad - lay.readout_w + 10 * lay.s, panels_.front().cells_min.y),
        lay.readout_w - 10 * lay.s, m, n, score, use_hover, lay.lv.compact_readout, diagonal_note);
  return hovered;
}

// [SECTION] hover: the cell under the mouse, exactly

std::string HeatmapView::exact_text(const HeatmapScores& sc, int m, int n, NumberStyle style) {
  if (m < 0 || n < 0 || m >= sc.n || n >= sc.n) return "—";
  auto v = exact_.at(sc.inputs, m, n);
  if (!v) return v.error().to_string();
  if (std::isnan(v.value()) && !visible_keys(m, sc.n, score_transform(sc.inputs)).contains(n))
    return mask_text(sc.inputs, m, n);
  return style == NumberStyle::label ? format_number(v.value(), style, 6)
                                     : format_number(v.value(), style);
}

void HeatmapView::hover(const Cell& cell, const Layout& lay) {
  const HeatmapScores& sc = shown_[static_cast<std::size_t>(cell.panel)];
  ImGui::BeginTooltip();
  ImGui::PushFont(lay.f.bold);
  ImGui::Text("%s", encoding_title(sc.inputs.encoding));
  ImGui::PopFont();
  const long long st = sc.inputs.stride;  // positions, not cells
  ImGui::Text("query m = %lld   key n = %lld   n − m = %s", cell.m * st, cell.n * st,
              format_number(double((cell.n - cell.m) * st), NumberStyle::label, 8).c_str());
  if (!sc.words.empty())
    ImGui::Text("words: “%s” → “%s”", sc.words[static_cast<std::size_t>(cell.m)].c_str(),
                sc.words[static_cast<std::size_t>(cell.n)].c_str());
  ImGui::Text("S[m][n] = %s", exact_text(sc, cell.m, cell.n, NumberStyle::tooltip).c_str());
  if (scaling_on(sc.inputs.scaling)) {
    ImGui::Text("%s: at θ′, × a² = %.9g", scaling_words(sc.inputs.scaling).c_str(),
                sc.attention_factor * sc.attention_factor);
    if (std::max(cell.m, cell.n) * st >= sc.inputs.scaling.original_context)
      ImGui::TextUnformatted("beyond the original context L");
  }
  ImGui::TextDisabled("exact (double precision); the colours are single precision, range %s … %s",
                      format_number(sc.lo, NumberStyle::label, 6).c_str(),
                      format_number(sc.hi, NumberStyle::label, 6).c_str());
  ImGui::EndTooltip();
}

void HeatmapView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  linear_on_ = p.linear_sums;
  fit_on_ = !linear_on_ && p.diagonal_fit;
  if (linear_on_) {
    linear_.Draw(state, env);
    return;
  }
  if (fit_on_) {
    fit_.Draw(state, env);
    return;
  }
  update(inputs_of(p));
  const Canvas canvas("heatmap_canvas", &drawn_);  // clip pushed here, popped at every return
  const Layout lay = layout(p, canvas, env);
  header(canvas.pen, lay, lay.lv);
  panels_.clear();
  if (lay.count == 0 || canvas.size.x < 50) return;
  if (env.has_gl && !renderer_) renderer_ = std::make_unique<HeatmapRenderer>();
  const Cell cell = paint(lay, canvas, env, p);
  report_problem(state, error_);  // a shader that could not be read or compiled
  if (cell.panel >= 0 && cell.m >= 0 && cell.n >= 0) hover(cell, lay);
}

void HeatmapView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "positions");
  // positions 0, s, 2s, …: past 4096 and any model's L (sentence content is its words)
  ImGui::BeginDisabled(p.content == Content::sentence);
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "stride");
  ImGui::EndDisabled();
  ImGui::Checkbox("linear attention: the shared sums", &p.linear_sums);
  if (p.linear_sums) {
    ImGui::Indent();
    ImGui::Checkbox("every query reads the one S", &p.linear_reuse);
    ImGui::Unindent();
  }
  if (p.content == Content::sentence && !p.compare)
    ImGui::Checkbox("sentence A beside sentence B", &p.sentence_pair);
  ImGui::Checkbox("one diagonal against q·k (random content)", &p.diagonal_fit);
  ImGui::Checkbox("compare all three encodings", &p.compare);
  if (!p.compare) {
    int e = static_cast<int>(p.encoding);
    ImGui::TextUnformatted("encoding");
    ImGui::SameLine();
    if (ImGui::RadioButton("none", &e, 0)) p.encoding = Encoding::none;
    ImGui::SameLine();
    if (ImGui::RadioButton("sinusoidal", &e, 1)) p.encoding = Encoding::sinusoidal;
    ImGui::SameLine();
    if (ImGui::RadioButton("RoPE", &e, 2)) p.encoding = Encoding::rope;
  }
  int c = static_cast<int>(p.content);
  ImGui::TextUnformatted("content");
  ImGui::SameLine();
  if (ImGui::RadioButton("shared", &c, 0)) p.content = Content::shared;
  ImGui::SameLine();
  if (ImGui::RadioButton("random", &c, 1)) p.content = Content::random;
  ImGui::SameLine();
  if (ImGui::RadioButton("words", &c, 2)) p.content = Content::sentence;
  int mode = static_cast<int>(p.score_mode);
  ImGui::TextUnformatted("scores");
  ImGui::SameLine();
  if (ImGui::RadioButton("raw", &mode, 0)) p.score_mode = ScoreMode::raw;
  ImGui::SameLine();
  if (ImGui::RadioButton("/√d", &mode, 1)) p.score_mode = ScoreMode::scaled;
  ImGui::SameLine();
  if (ImGui::RadioButton("softmax", &mode, 2)) p.score_mode = ScoreMode::softmax;
  ImGui::SameLine();
  if (ImGui::RadioButton("1 + cos", &mode, 3)) p.score_mode = ScoreMode::cosine;
  int band = static_cast<int>(p.pair_band);
  ImGui::TextUnformatted("pairs");
  ImGui::SameLine();
  if (ImGui::RadioButton("all", &band, 0)) p.pair_band = PairBand::all;
  ImGui::SameLine();
  if (ImGui::RadioButton("fastest ¼", &band, 1)) p.pair_band = PairBand::fast;
  ImGui::SameLine();
  if (ImGui::RadioButton("slowest ¼", &band, 2)) p.pair_band = PairBand::slow;
  ImGui::Checkbox("causal mask", &p.causal);
  // a model layer's masks (the model panel's layer strip sets them): 0 is off
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "attention_window");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("sliding-window attention: keys m − n ≥ window hidden (0: off)");
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "attention_chunk");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("chunked attention (Llama 4): keys in another chunk hidden (0: off)");
  if (p.content == Content::sentence) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s", p.sentence_b.c_str());
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputText("##sentence_b", buf, sizeof buf)) {
      Params trial = p;
      if (set_param(trial, "sentence_b", buf).ok()) p = trial;
    }
  }
}

}  // namespace rope::app
