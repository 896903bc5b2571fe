// views/diagonal_fit_panel.cpp — one diagonal's RoPE scores against q·k (diagonal_fit_panel.h).
//
// Draw's passes: inputs (inputs_of) -> compute (core's diagonal_fit, cached) -> header -> the
// scatter plot with the best line through 0 -> the read-out under it.
#include "views/diagonal_fit_panel.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "io/number_format.h"
#include "rope/random.h"
#include "ui/page.h"
#include "ui/plot.h"
#include "ui/theme.h"

namespace rope::app {

const DiagonalFitPanel::Model& DiagonalFitPanel::model() const {
  return model_.model_or_empty();
}

DiagonalFitPanel::Inputs DiagonalFitPanel::inputs_of(const Params& p) {
  const double r = p.key_position - p.position;
  return {p.positions, p.stride, p.dim, p.base, std::isfinite(r) ? std::round(r) : 0.0,
          p.pairing,   p.seed};
}

DiagonalFitPanel::Model DiagonalFitPanel::compute(const Inputs& in) {
  Model m;
  m.n = in.positions;
  if (!(std::fabs(in.offset) < in.positions)) {
    m.error = "n − m must lie between −N and N = " + std::to_string(in.positions) +
              " for the diagonal to have cells";
    return m;
  }
  m.offset = static_cast<int>(in.offset);
  const std::vector<double> q = random_vectors(in.positions, in.dim, in.seed);
  const std::vector<double> k = random_vectors(in.positions, in.dim, in.seed + 1);
  auto f = diagonal_fit(q, k, in.positions, in.dim, in.base, in.pairing, m.offset,
                        static_cast<double>(in.stride));
  if (!f) {
    m.error = f.error().to_string();
    return m;
  }
  m.fit = std::move(f).value();
  return m;
}

void DiagonalFitPanel::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Model& m = model_.get(inputs_of(p), compute);
  const Canvas canvas("diagonal_fit_canvas", &drawn_);
  const Page pg(canvas, env, p.theme);
  const Pen& pen = canvas.pen;
  const float s = pg.s;
  float y = pg.y0;
  const std::string r = std::to_string(m.offset);
  y += pen.wrapped(fit_font({pg.f.heading, pg.f.bold}, "One factor per distance?", pg.width),
                   ImVec2(pg.x0, y), pg.width, pg.pal.text,
                   "One factor per distance?  " + nobreak("n − m = " + r)) +
       4 * s;
  if (!m.error.empty()) {
    pen.wrapped(pg.f.bold, ImVec2(pg.x0, y), pg.width, pg.pal.bad, m.error);
    return;
  }
  y += pen.wrapped(pg.f.body, ImVec2(pg.x0, y), pg.width, pg.pal.text_dim,
                   "Each point is a cell (j, j + " + r + ") of the heatmap's " +
                       nobreak(std::to_string(m.n) + " seeded random") +
                       " q, k: across its plain score q·k, up its RoPE score. If the score were "
                       "content times a number for the distance, every point would lie on one "
                       "line through 0.") +
       10 * s;
  // the read-out, measured first so that the plot takes the rest
  const DiagonalFit& f = m.fit;
  const std::array<std::string, 2> lines = {
      "best single factor " + nobreak("a = " + format_number(f.factor, NumberStyle::label, 4)) +
          " (the line)",
      "it leaves " +
          nobreak("|s − a c| / |s| = " + format_number(f.residual, NumberStyle::label, 4)) +
          " of the RoPE scores unexplained; a multiplicative bias leaves 0"};
  float readout_h = 0.0f;
  for (const std::string& t : lines)
    readout_h += Pen{}.wrapped(pg.f.large, ImVec2(0, 0), pg.width, 0, t);
  // a square plot with symmetric axes, so that the line's slope reads as it is
  double big = 0.0;
  for (std::size_t t = 0; t < f.plain.size(); ++t)
    big = std::max({big, std::fabs(f.plain[t]), std::fabs(f.rotated[t])});
  if (!(big > 0.0)) big = 1.0;
  plot::Axis ax, ay;
  ax.lo = ay.lo = -1.08 * big;
  ax.hi = ay.hi = 1.08 * big;
  ax.label = "plain score  c = q·k";
  ax.short_label = "q·k";
  ay.label = "RoPE score  s = (Rq)·(Rk)";
  ay.short_label = "RoPE score";
  const std::array<plot::LegendEntry, 2> legend = {
      plot::LegendEntry{"cells of the diagonal", pg.pal.query, false, true},
      plot::LegendEntry{"s = a c, the best single factor", pg.pal.key, false, false}};
  ImDrawList* dl = canvas.draw_list;
  y += plot::legend_row(dl, pg.st, ImVec2(pg.x0, y), pg.width, legend) + 6 * s;
  const plot::Margins mg = plot::margins(pg.st, ax, ay);
  const float side = std::floor(std::min(pg.width - mg.left - mg.right,
                                         pg.bottom - y - readout_h - 10 * s - mg.top - mg.bottom));
  if (side < 40 * s) return;
  const plot::Frame fr =
      plot::axes(dl, pg.st, ImVec2(pg.x0, y),
                 ImVec2(pg.x0 + mg.left + side + mg.right, y + mg.top + side + mg.bottom), ax, ay);
  plot::hline(dl, fr, 0.0, pg.pal.grid, std::max(1.0f, s));
  plot::vline(dl, fr, 0.0, pg.pal.grid, std::max(1.0f, s));
  const std::array<double, 2> xs = {ax.lo, ax.hi};
  const std::array<double, 2> ys = {f.factor * ax.lo, f.factor * ax.hi};
  plot::line(dl, fr, xs, ys, pg.pal.key, std::max(1.0f, std::round(2.5f * s)));
  for (std::size_t t = 0; t < f.plain.size(); ++t)
    plot::marker(dl, fr, f.plain[t], f.rotated[t], pg.pal.query, std::round(5.0f * s));
  float ty = fr.area_max.y + mg.bottom + 10 * s;
  const std::array<ImU32, 2> colours = {pg.pal.key, pg.pal.text};
  for (std::size_t i = 0; i < lines.size(); ++i)
    ty += pen.wrapped(pg.f.large, ImVec2(pg.x0, ty), pg.width, colours[i], lines[i]);
}

}  // namespace rope::app
