// views/sinusoidal_view.cpp — the sinusoidal encoding as a heatmap (sinusoidal_view.h).
//
// [SECTION] inputs and compute: the table, the rows m and m + k
// [SECTION] layout: header, the table, PE_m under it
// [SECTION] paint: the table, the marked rows, PE_m
// [SECTION] hover: position, dimension, exact value
#include "views/sinusoidal_view.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <span>

#include "io/number_format.h"
#include "rope/frequencies.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "rope/sinusoidal.h"
#include "state/actions.h"
#include "ui/param_widgets.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

// Five levels, tried in order until the table gets a useful height: full size; smaller
// formula; no note; no title (the lesson names the step); without the formula and the PE_m
// plot. The title, while shown, keeps one font whatever the level (title_font): the same view
// in two steps of a lesson has the same title (classroom review D20: bold 38 px in 2-1, regular
// 26 px in 2-3).
struct Level {
  bool title;
  ImFont *formula, *dot;
  bool note, row_plot;
};
constexpr int kLevels = 5;
Level level_of(const Fonts& f, int level) {
  const Level levels[kLevels] = {{true, f.large, f.large, true, true},
                                 {true, f.body, f.large, true, true},
                                 {true, f.body, f.body, false, true},
                                 {false, f.body, f.body, false, true},
                                 {false, nullptr, f.body, false, false}};
  return levels[std::clamp(level, 0, kLevels - 1)];
}

// The title's font on a canvas `width` px wide: the title font when the title fits one line,
// else the heading (bold as well, two lines at most).
ImFont* title_font(const Fonts& f, const std::string& title, float width) {
  return fit_font({f.title, f.heading}, title, width, 1);
}

// The table's x axis: one column per dimension j.
plot::Axis dimension_axis(int cols) {
  plot::Axis ax;
  ax.lo = -0.5;
  ax.hi = cols - 0.5;
  ax.label = "dimension j  (even j: sin, odd j: cos)";
  ax.short_label = "dimension j";
  ax.grid = false;
  return ax;
}

// The row r of the table framed in `col`; returns where its label goes (x0, y0, x1, y1), above
// or below the row, inside the figure.
ImVec4 mark_row(ImDrawList* dl, const plot::Style& st, const plot::Frame& fr, ImFont* font, int r,
                ImU32 col, const std::string& label, bool label_above, float thick, float s) {
  const float y0 = fr.y.to_px(r - 0.5);
  const float y1 = fr.y.to_px(r + 0.5);
  const float grow = std::max(0.0f, 3.0f * s - 0.5f * (y1 - y0));
  dl->AddRect(ImVec2(fr.area_min.x - thick, y0 - grow), ImVec2(fr.area_max.x + thick, y1 + grow),
              col, 0, 0, thick);
  const ImVec2 lp = plot::label_box_padding(st);
  const float h = font->FontSize;
  float ly = label_above ? y0 - grow - 4 * s - lp.y - h : y1 + grow + 4 * s + lp.y;
  ly = std::clamp(ly, fr.area_min.y + lp.y, std::max(fr.area_min.y, fr.area_max.y - h - lp.y));
  return ImVec4(fr.area_min.x + 8 * s, ly, fr.area_min.x + 8 * s + text_size(font, label).x,
                ly + h);
}

}  // namespace

// [SECTION] inputs and compute: the table, the rows m and m + k

SinusoidalView::Inputs SinusoidalView::inputs_of(const Params& p) {
  return Inputs{p.pe_positions, p.pe_dim, p.base, p.learned_positions,
                p.learned_positions > 0 ? p.seed : 0};
}

SinusoidalView::Model SinusoidalView::compute(const Inputs& in) {
  Model md;
  auto t = sinusoidal_table(in.pe_positions, in.pe_dim, in.base);
  if (!t) {
    md.error = t.error().to_string();
    return md;
  }
  md.table = std::move(t).value();
  if (in.learned > 0) {  // rows 0 ... L-1 from the seeded stand-in, the rest empty (0)
    const int kept = std::min(in.learned, in.pe_positions);
    const std::vector<double> learned = random_vectors(kept, in.pe_dim, in.seed);
    std::fill(md.table.begin(), md.table.end(), 0.0);
    std::copy(learned.begin(), learned.end(), md.table.begin());
  }
  md.texels.resize(md.table.size());
  std::transform(md.table.begin(), md.table.end(), md.texels.begin(),
                 [](double v) { return static_cast<float>(v); });
  md.rows = in.pe_positions;
  md.cols = in.pe_dim;
  return md;
}

SinusoidalView::RowInputs SinusoidalView::row_inputs_of(const Params& p) {
  return RowInputs{p.pe_dim, p.base, p.position, p.offset};
}

SinusoidalView::RowModel SinusoidalView::compute_rows(const RowInputs& in) {
  RowModel rm;
  const auto th = frequencies(in.pe_dim, in.base);
  if (!th) return rm;
  rm.valid = true;
  rm.pe_m = sinusoidal_vector(in.m, th.value());
  rm.pe_mk = sinusoidal_vector(in.m + in.k, th.value());
  for (std::size_t j = 0; j < rm.pe_m.size(); ++j)
    rm.dot_m_mk += rm.pe_m[j] * rm.pe_mk[j];
  for (double t : th.value())
    rm.dot_formula += std::cos(in.k * t);
  return rm;
}

const SinusoidalView::Model& SinusoidalView::model() const {
  return model_.model_or_empty();
}

const SinusoidalView::RowModel& SinusoidalView::row_model() const {
  return row_model_.model_or_empty();
}

// [SECTION] layout: header, the table, PE_m under it

struct SinusoidalView::Layout {
  const Fonts& f;
  const Palette& pal;
  plot::Style st;
  float s = 1.0f;
  float pad = 0.0f, x0 = 0.0f, width = 0.0f, top = 0.0f, bottom = 0.0f, right = 0.0f;
  bool show_k = false;  // k = offset is not 0: the row m + k and the dot product too
  std::string title{}, formula{}, dot{}, note{}, error{};
  std::array<plot::LegendEntry, 2> entries{};  // of the PE_m plot
  float legend_h = 0.0f;
  int level = 0;
  bool row_plot = true;     // PE_m plotted under the table
  float row_plot_h = 0.0f;  // its height with its legend, px
};

SinusoidalView::Layout SinusoidalView::layout(const Model& m, const RowModel& rm, const Params& p,
                                              const Canvas& canvas, const ViewEnv& env,
                                              DrawnText* log) {
  Layout lay{*env.fonts, palette(p.theme), plot::style(env, p.theme, log)};
  const Palette& pal = lay.pal;
  const float s = lay.s = env.scale;
  lay.pad = std::round(18.0f * s);
  lay.x0 = canvas.origin.x + lay.pad;
  lay.width = std::max(1.0f, canvas.size.x - 2 * lay.pad);
  lay.top = canvas.origin.y + lay.pad;
  lay.bottom = canvas.origin.y + canvas.size.y - lay.pad;
  lay.right = canvas.origin.x + canvas.size.x - lay.pad;
  const double mp = p.position;
  const double k = p.offset;
  lay.show_k = k != 0.0;
  lay.title = "Sinusoidal position encoding (added to the embedding)";
  lay.formula =
      "$\\mathrm{PE}[\\mathit{pos}][2i] = \\sin(\\mathit{pos}\\cdot\\theta_i)$,   "
      "$\\mathrm{PE}[\\mathit{pos}][2i+1] = \\cos(\\mathit{pos}\\cdot\\theta_i)$,   "
      "$\\theta_i = \\mathrm{base}^{-2i/d}$";
  lay.dot = nobreak("PEₘ·PEₘ₊ₖ = " + format_number(rm.dot_m_mk, NumberStyle::label, 6)) + " " +
            nobreak("= Σᵢ cos(k·θᵢ) = " + format_number(rm.dot_formula, NumberStyle::label, 6)) +
            "   " + nobreak("(m = " + format_number(mp, NumberStyle::label, 6) + ",") + " " +
            nobreak("k = " + format_number(k, NumberStyle::label, 6) + ")");
  const std::string size_note =
      std::to_string(p.pe_positions) + " positions × d = " + std::to_string(p.pe_dim);
  lay.note = p.pe_dim == p.dim ? "This figure: " + size_note + " (the shared d), base " +
                                     format_number(p.base, NumberStyle::tick) + "."
                               : "This figure has its own size: " + size_note +
                                     " (pe_positions, pe_dim), with the shared base " +
                                     format_number(p.base, NumberStyle::tick) +
                                     ".  The RoPE views use d = " + std::to_string(p.dim) + ".";
  lay.error = m.error;
  lay.entries = {{{"sin(m·θᵢ) at j = 2i, m = " + format_number(mp, NumberStyle::label, 6),
                   pal.query, false, false},
                  {"cos(m·θᵢ) at j = 2i+1", pal.key, false, false}}};
  if (p.learned_positions > 0) {
    lay.title = "A learned position table (added to the embedding)";
    lay.formula =
        nobreak("P[pos] trained for pos = 0 … " + std::to_string(p.learned_positions - 1) + ",") +
        "  " + nobreak("none for pos ≥ L = " + std::to_string(p.learned_positions)) +
        "   (seeded values stand in for trained ones)";
    lay.show_k = false;
    lay.note = "This figure: " + std::to_string(p.pe_positions) +
               " positions × d = " + std::to_string(p.pe_dim) +
               "; the table has L = " + std::to_string(p.learned_positions) + " rows.";
    lay.entries = {{{"P[m] across the dimensions, m = " + format_number(mp, NumberStyle::label, 6),
                     pal.query, false, false},
                    {"", pal.key, false, false}}};
  } else if (p.pe_add_ones) {
    const auto length = [](const std::vector<double>& pe) {
      double s2 = 0.0;
      for (double v : pe)
        s2 += (1.0 + v) * (1.0 + v);
      return std::sqrt(s2);
    };
    lay.entries = {
        {{"x + PEₘ, m = " + format_number(mp, NumberStyle::label, 6) +
              ",  |x + PEₘ| = " + format_number(length(rm.pe_m), NumberStyle::label, 4),
          pal.query, false, false},
         {"x + PEₘ₊ₖ, m + k = " + format_number(mp + k, NumberStyle::label, 6) +
              ",  |x + PEₘ₊ₖ| = " + format_number(length(rm.pe_mk), NumberStyle::label, 4),
          pal.key, false, false}}};
  }
  lay.legend_h = plot::legend_row(nullptr, lay.st, ImVec2(0, 0), lay.width, lay.entries);
  // the first level that leaves the table 280 px (at scale 1) beside the header and PE_m
  const auto row_plot_height = [&](int level, float top) {
    if (!level_of(lay.f, level).row_plot) return 0.0f;
    return std::round(std::clamp(0.26f * (lay.bottom - top), 120.0f * s, 260.0f * s)) +
           lay.legend_h + 6 * s;
  };
  const Pen measure = canvas.pen.measuring();  // the formula line as it will be drawn
  lay.level = first_fitting(kLevels, [&](int level) {
    const float top = header(lay, level, measure);
    return lay.bottom - row_plot_height(level, top) - top >= 280.0f * s;
  });
  lay.row_plot = level_of(lay.f, lay.level).row_plot;
  lay.row_plot_h = row_plot_height(lay.level, header(lay, lay.level, measure));
  return lay;
}

// The title, the formula, the dot product of the rows m and m + k, the note and the error, at
// `level`, from the top; returns the y under them. A measuring() pen only measures.
float SinusoidalView::header(const Layout& lay, int level, const Pen& pn) {
  const Level lv = level_of(lay.f, level);
  const Palette& pal = lay.pal;
  const float s = lay.s;
  const float x0 = lay.x0;
  const float width = lay.width;
  float y = lay.top;
  if (lv.title)
    y +=
        pn.wrapped(title_font(lay.f, lay.title, width), ImVec2(x0, y), width, pal.text, lay.title) +
        2 * s;
  if (lv.formula)
    y += pn.rich_wrapped(lv.formula, ImVec2(x0, y), width, pal.text, lay.formula) + 2 * s;
  if (lay.show_k) y += pn.wrapped(lv.dot, ImVec2(x0, y), width, pal.accent, lay.dot) + 2 * s;
  if (lv.note) y += pn.wrapped(lay.f.body, ImVec2(x0, y), width, pal.text_dim, lay.note);
  if (!lay.error.empty()) y += pn.wrapped(lay.f.bold, ImVec2(x0, y), width, pal.bad, lay.error);
  return y + 10 * s;
}

// [SECTION] paint: the table, the marked rows, PE_m

// The table as a heatmap from y, positions down, dimensions across, with its colour bar;
// returns the frame of its cells.
plot::Frame SinusoidalView::paint_table(const Model& m, const Layout& lay, const Canvas& canvas,
                                        const ViewEnv& env, float y) {
  ImDrawList* dl = canvas.draw_list;
  const Palette& pal = lay.pal;
  const float s = lay.s;
  const float bar_w = std::round(22.0f * s);
  const float right = bar_w + lay.pad + plot::colour_bar_margin(lay.st, true);
  const plot::Axis ax = dimension_axis(m.cols);
  plot::Axis ay;
  ay.lo = -0.5;
  ay.hi = m.rows - 0.5;
  ay.label = "position pos";
  ay.short_label = "pos";
  ay.down = true;
  ay.grid = false;
  const plot::Frame fr = plot::axes(
      dl, lay.st, ImVec2(lay.x0, y),
      ImVec2(lay.right - right, lay.bottom - lay.row_plot_h - (lay.row_plot ? 8 * s : 0.0f)), ax,
      ay);
  cells_min_ = fr.area_min;
  cells_max_ = fr.area_max;
  bool drew = false;
  if (env.has_gl) {
    if (!renderer_) renderer_ = std::make_unique<HeatmapRenderer>();
    drew = renderer_->update(0, version_, m.texels, m.rows, m.cols, -1.0f, 1.0f, pal.panel,
                             ImVec2(fr.area_max.x - fr.area_min.x, fr.area_max.y - fr.area_min.y));
    if (drew)
      renderer_->add_image(dl, 0, fr.area_min, fr.area_max);
    else
      canvas.pen.wrapped(lay.f.bold, ImVec2(fr.area_min.x + 8 * s, fr.area_min.y + 8 * s),
                         fr.area_max.x - fr.area_min.x - 16 * s, pal.bad, renderer_->error());
  }
  if (!drew) dl->AddRect(fr.area_min, fr.area_max, pal.grid);
  plot::colour_bar(dl, lay.st, ImVec2(fr.area_max.x + lay.pad, fr.area_min.y),
                   ImVec2(fr.area_max.x + lay.pad + bar_w, fr.area_max.y), -1.0, 1.0, "PE value",
                   true);
  return fr;
}

// The rows m and m + k framed, with their labels inside the figure (apart from each other), or
// a note that m is outside it.
void SinusoidalView::paint_marks(const Layout& lay, const plot::Frame& fr, ImDrawList* dl, int rows,
                                 const Params& p) {
  const Palette& pal = lay.pal;
  const plot::Style& st = lay.st;
  ImFont* bold = lay.f.bold;
  const float s = lay.s;
  const double m = p.position;
  const double k = p.offset;
  const float thick = std::max(1.0f, std::round(2.0f * s));
  const auto row_of = [&](double v) {
    return static_cast<int>(std::floor(std::clamp(v, -1.0, 1e7) + 0.5));
  };
  const int mr = row_of(m);
  const int kr = row_of(m + k);
  ImVec4 m_box(0, 0, 0, 0);
  bool m_labelled = false;
  if (mr >= 0 && mr < rows) {
    const std::string label = "m = " + std::to_string(mr);
    m_box = mark_row(dl, st, fr, bold, mr, pal.accent, label, lay.show_k && kr > mr, thick,
                     s);  // away from the row m + k
    plot::label_box(dl, st, bold, ImVec2(m_box.x, m_box.y), pal.accent, label);
    m_labelled = true;
  } else {
    const std::string label = "m = " + format_number(m, NumberStyle::label, 8) +
                              " is outside the figure (0 … " + std::to_string(rows - 1) + ")";
    plot::label_box(dl, st,
                    fit_font({bold, lay.f.body}, label, fr.area_max.x - fr.area_min.x - 16 * s),
                    ImVec2(fr.area_min.x + 8 * s, fr.area_max.y - 30 * s), pal.accent, label);
  }
  if (!(lay.show_k && kr >= 0 && kr < rows && kr != mr)) return;
  const std::string label = "m + k = " + std::to_string(kr);
  ImVec4 box = mark_row(dl, st, fr, bold, kr, pal.key, label, kr < mr, thick, s);
  const ImVec2 lp = plot::label_box_padding(st);
  if (m_labelled && box.y < m_box.w + 2 * lp.y && m_box.y < box.w + 2 * lp.y) {
    // next to the label of m rather than on it
    const float shift = m_box.z - box.x + 3 * lp.x;
    box.x += shift;
    box.z += shift;
  }
  plot::label_box(dl, st, bold, ImVec2(box.x, box.y), pal.key, label);
}

// PE_m across the dimensions under the table, computed for the real-valued m: the sin entries
// and the cos entries as two lines.
void SinusoidalView::paint_row_plot(const RowModel& rm, const Layout& lay, const plot::Frame& fr,
                                    ImDrawList* dl, int cols) {
  const float s = lay.s;
  const float ly = lay.bottom - lay.row_plot_h;
  plot::legend_row(dl, lay.st, ImVec2(lay.x0, ly), lay.width, lay.entries);
  plot::Axis bx = dimension_axis(cols), by;
  bx.label = "dimension j";
  by.lo = -1.1;
  by.hi = 1.1;
  by.ticks = 2;
  by.label = "PEₘ";
  const plot::Frame rf = plot::axes(dl, lay.st, ImVec2(lay.x0, ly + lay.legend_h + 6 * s),
                                    ImVec2(fr.area_max.x + 24 * s, lay.bottom), bx, by);
  if (!rm.valid) return;
  // block i of PE_m is laid out as the interleaved pairing's: sin at its first coordinate, cos
  // at its second
  const int dim = static_cast<int>(rm.pe_m.size());
  const auto half = rm.pe_m.size() / 2;
  std::vector<double> js(half), jc(half), vs(half), vc(half);
  for (std::size_t i = 0; i < half; ++i) {
    const PairIndices pi = pair_indices(static_cast<int>(i), dim, Pairing::interleaved);
    js[i] = static_cast<double>(pi.first);
    jc[i] = static_cast<double>(pi.second);
    vs[i] = rm.pe_m[static_cast<std::size_t>(pi.first)];
    vc[i] = rm.pe_m[static_cast<std::size_t>(pi.second)];
  }
  const float lt = std::max(1.0f, std::round(2.0f * s));
  plot::line(dl, rf, js, vs, lay.pal.query, lt);
  plot::line(dl, rf, jc, vc, lay.pal.key, lt);
}

// Under the table, across the dimensions j in order: x + PE_m and x + PE_{m+k}, x = (1, ..., 1)
// (pe_add_ones), or the learned table's row m alone (rm.pe_m, no pe_mk), or a note that the
// learned table has no row m.
void SinusoidalView::paint_sum_plot(const RowModel& rm, const Layout& lay, const plot::Frame& fr,
                                    ImDrawList* dl, int cols) {
  const float s = lay.s;
  const float ly = lay.bottom - lay.row_plot_h;
  const bool learned = rm.pe_mk.empty();
  if (learned)
    plot::legend_row(dl, lay.st, ImVec2(lay.x0, ly), lay.width,
                     std::span<const plot::LegendEntry>(lay.entries.data(), 1));
  else
    plot::legend_row(dl, lay.st, ImVec2(lay.x0, ly), lay.width, lay.entries);
  plot::Axis bx = dimension_axis(cols), by;
  bx.label = "dimension j";
  by.lo = learned ? -1.1 : -0.1;
  by.hi = learned ? 1.1 : 2.1;
  by.ticks = 2;
  by.label = learned ? "P[m]" : "x + PE";
  const plot::Frame rf = plot::axes(dl, lay.st, ImVec2(lay.x0, ly + lay.legend_h + 6 * s),
                                    ImVec2(fr.area_max.x + 24 * s, lay.bottom), bx, by);
  if (!rm.valid) {
    const float room =
        rf.area_max.x - rf.area_min.x - 16 * s - 2 * plot::label_box_padding(lay.st).x;
    std::string note = "no vector at this position: the table ends at L − 1";
    if (text_size(lay.f.body, note).x > room) note = "no vector here";
    plot::label_box(dl, lay.st, fit_font({lay.f.bold, lay.f.body}, note, room),
                    ImVec2(rf.area_min.x + 8 * s, 0.5f * (rf.area_min.y + rf.area_max.y)),
                    lay.pal.bad, note);
    return;
  }
  const float lt = std::max(1.0f, std::round(2.0f * s));
  const auto draw = [&](const std::vector<double>& pe, ImU32 col) {
    std::vector<double> js(pe.size()), vs(pe.size());
    for (std::size_t j = 0; j < pe.size(); ++j) {
      js[j] = static_cast<double>(j);
      vs[j] = learned ? pe[j] : 1.0 + pe[j];
    }
    plot::line(dl, rf, js, vs, col, lt);
  };
  if (!learned) draw(rm.pe_mk, lay.pal.key);
  draw(rm.pe_m, lay.pal.query);
}

// The rows from L on covered: a learned table has no vector there.
void SinusoidalView::paint_learned_end(const Layout& lay, const plot::Frame& fr, ImDrawList* dl,
                                       int learned, int rows) {
  if (learned >= rows) return;
  const float s = lay.s;
  const float y0 = std::max(fr.area_min.y, fr.y.to_px(learned - 0.5));
  dl->AddRectFilled(ImVec2(fr.area_min.x, y0), fr.area_max, lay.pal.panel);
  const float step = std::round(14.0f * s);
  for (float x = fr.area_min.x - (fr.area_max.y - y0); x < fr.area_max.x; x += step) {
    // hatching, clipped to the covered rectangle
    const float x0 = std::max(x, fr.area_min.x);
    const float x1 = std::min(x + (fr.area_max.y - y0), fr.area_max.x);
    if (x1 <= x0) continue;
    dl->AddLine(ImVec2(x0, fr.area_max.y - (x0 - x)), ImVec2(x1, fr.area_max.y - (x1 - x)),
                lay.pal.grid, std::max(1.0f, s));
  }
  dl->AddLine(ImVec2(fr.area_min.x, y0), ImVec2(fr.area_max.x, y0), lay.pal.bad,
              std::max(2.0f, std::round(3.0f * s)));
  // the longest wording that fits inside the cells (the colour bar's ticks are right of them)
  const float room = fr.area_max.x - fr.area_min.x - 16 * s - 2 * plot::label_box_padding(lay.st).x;
  std::string label = "pos ≥ L = " + std::to_string(learned) + ": no vector (never trained)";
  for (const std::string& shorter :
       {"no vector for pos ≥ " + std::to_string(learned), "none ≥ " + std::to_string(learned)})
    if (text_size(lay.f.body, label).x > room) label = shorter;
  plot::label_box(dl, lay.st, fit_font({lay.f.bold, lay.f.body}, label, room),
                  ImVec2(fr.area_min.x + 8 * s, y0 + 8 * s), lay.pal.bad, label);
}

// [SECTION] hover: position, dimension, exact value

void SinusoidalView::hover(const Model& m, const plot::Frame& fr, ImVec2 mouse, const Params& p) {
  const double jv = std::floor(fr.x.from_px(mouse.x) + 0.5);
  const double pv = std::floor(fr.y.from_px(mouse.y) + 0.5);
  if (!(jv >= 0 && jv < m.cols && pv >= 0 && pv < m.rows)) return;
  const auto j = static_cast<std::size_t>(jv);
  const auto pos = static_cast<std::size_t>(pv);
  const std::size_t i = j / 2;
  if (p.learned_positions > 0) {
    ImGui::BeginTooltip();
    ImGui::Text("position pos = %zu   dimension j = %zu", pos, j);
    if (pv < p.learned_positions)
      ImGui::Text("P[pos][j] = %s (a seeded stand-in for a trained value)",
                  full_number(m.table[pos * static_cast<std::size_t>(m.cols) + j]).c_str());
    else
      ImGui::TextUnformatted("no vector: the table ends at L − 1");
    ImGui::EndTooltip();
    return;
  }
  ImGui::BeginTooltip();
  ImGui::Text("position pos = %zu   dimension j = %zu (block i = %zu, %s)", pos, j, i,
              j % 2 == 0 ? "sin" : "cos");
  ImGui::Text("θᵢ = %s rad per position",
              full_number(theta(static_cast<int>(i), p.pe_dim, p.base)).c_str());
  ImGui::Text("PE[pos][j] = %s(pos·θᵢ) = %s", j % 2 == 0 ? "sin" : "cos",
              full_number(m.table[pos * static_cast<std::size_t>(m.cols) + j]).c_str());
  ImGui::EndTooltip();
}

void SinusoidalView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Model& m = model_.get(inputs_of(p), [this](const Inputs& in) {
    ++version_;  // a new table for the renderer to upload
    return compute(in);
  });
  const RowModel& rm = row_model_.get(row_inputs_of(p), compute_rows);
  const MathScope math(env, own_math_);
  const Canvas canvas("sinusoidal_canvas", &drawn_, math.pen());  // clip popped at every return
  const Layout lay = layout(m, rm, p, canvas, env, &drawn_);
  const float y = header(lay, lay.level, canvas.pen);
  if (m.rows == 0 || lay.bottom - y < 100 * lay.s) return;
  const plot::Frame fr = paint_table(m, lay, canvas, env, y);
  if (renderer_) report_problem(state, renderer_->error());
  if (p.learned_positions > 0)
    paint_learned_end(lay, fr, canvas.draw_list, p.learned_positions, m.rows);
  paint_marks(lay, fr, canvas.draw_list, m.rows, p);
  if (lay.row_plot && p.learned_positions > 0) {
    RowModel learned;  // the table's row m, or nothing past L
    const double row = std::floor(p.position + 0.5);
    learned.valid = row >= 0 && row < std::min(p.learned_positions, m.rows);
    if (learned.valid) {
      const auto at = static_cast<std::ptrdiff_t>(row) * m.cols;
      learned.pe_m.assign(m.table.begin() + at, m.table.begin() + at + m.cols);
    }
    paint_sum_plot(learned, lay, fr, canvas.draw_list, m.cols);
  } else if (lay.row_plot && p.pe_add_ones) {
    paint_sum_plot(rm, lay, fr, canvas.draw_list, m.cols);
  } else if (lay.row_plot) {
    paint_row_plot(rm, lay, fr, canvas.draw_list, m.cols);
  }
  if (canvas.hovered && fr.contains(canvas.mouse)) hover(m, fr, canvas.mouse, p);
}

void SinusoidalView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "pe_positions");
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "pe_dim");
  if (ImGui::Button("128 × 256 (paper)")) {
    p.pe_positions = 128;
    p.pe_dim = 256;
  }
  ImGui::SameLine();
  if (ImGui::Button("use the shared d")) p.pe_dim = p.dim;
  ImGui::Checkbox("plot x + PE at m and m + k", &p.pe_add_ones);
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "learned_positions");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("a learned table of L rows instead of the formula: none past L (0: off)");
}

}  // namespace rope::app
