// views/linear_panel.cpp — linear attention's shared sums (linear_panel.h).
//
// Draw's passes: inputs (inputs_of) -> compute (core's linear_attention_sums, cached) -> layout
// (the header, then the two grids side by side at one cell size) -> paint -> hover.
#include "views/linear_panel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

#include "imgui.h"
#include "lessons/quantities.h"
#include "rope/attention.h"
#include "ui/page.h"
#include "ui/plot.h"
#include "ui/theme.h"
#include "views/view_scaling.h"

namespace rope::app {
namespace {

constexpr int kMaxPanelDim = 128;  // d × d cells: above this they are under a pixel each

// The first `count` entries of v as "(a, b, c, d, …)".
// The last entry shown stays with what closes the vector: "…)" alone on a line read as a stray
// bracket (review D11).
std::string vector_text(std::span<const double> v, std::size_t count = 4) {
  const std::size_t shown = std::min(count, v.size());
  std::string s = "(";
  for (std::size_t j = 0; j + 1 < shown; ++j)
    s += format_number(v[j], NumberStyle::label, 4) + ", ";
  const std::string last = shown > 0 ? format_number(v[shown - 1], NumberStyle::label, 4) : "";
  return s + nobreak(last + (v.size() > count ? ", …)" : ")"));
}

// A grid of rows × cols cells from `top_left`, each `cell` px, coloured by value from −big
// (symmetric) or 0 to big, the largest |value|; returns big.
double grid(ImDrawList* dl, ImVec2 top_left, float cell, int rows, int cols,
            std::span<const double> values, ImU32 frame, bool symmetric) {
  double big = 0.0;
  for (double v : values)
    big = std::max(big, std::fabs(v));
  if (big == 0.0) big = 1.0;
  const double lo = symmetric ? -big : 0.0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const double v = values[static_cast<std::size_t>(r * cols + c)];
      const ImVec2 a(top_left.x + static_cast<float>(c) * cell,
                     top_left.y + static_cast<float>(r) * cell);
      dl->AddRectFilled(a, ImVec2(a.x + cell, a.y + cell),
                        plot::colour_map_u32(plot::colour_t(v, lo, big)));
    }
  dl->AddRect(top_left,
              ImVec2(top_left.x + static_cast<float>(cols) * cell,
                     top_left.y + static_cast<float>(rows) * cell),
              frame);
  return big;
}

// Under the grids: query m's numerator, its denominator and output, the colour ranges.
std::array<std::string, 3> readout_lines(const LinearPanel::Model& m, double big_s, double big_z) {
  const std::string mm = std::to_string(m.row);
  return {
      "query m = " + mm + ":  numerator " + nobreak(m.rope ? "(Rₘφ(qₘ))⊤S =" : "φ(qₘ)⊤S =") + " " +
          vector_text(m.numerator),
      "denominator " + nobreak("φ(qₘ)⊤z = " + format_number(m.denominator, NumberStyle::label, 6)) +
          (m.reuse    ? std::string(" (z: the keys' features summed, not rotated)")
           : m.causal ? " (z of row " + mm + ")"
                      : " (z: the last row)") +
          ",  output = " + vector_text(m.output),
      "colour: dark violet to yellow, S from " +
          nobreak(format_number(-big_s, NumberStyle::label, 4) + " to " +
                  format_number(big_s, NumberStyle::label, 4)) +
          (m.reuse
               ? ", the rows from " + nobreak(format_number(-big_z, NumberStyle::label, 4) +
                                              " to " + format_number(big_z, NumberStyle::label, 4))
               : ", z from " + nobreak("0 to " + format_number(big_z, NumberStyle::label, 4)))};
}

}  // namespace

const LinearPanel::Model& LinearPanel::model() const {
  return model_.model_or_empty();
}

LinearPanel::Inputs LinearPanel::inputs_of(const Params& p) {
  const double row = std::isfinite(p.position) ? std::round(p.position) : 0.0;
  return {p.dim,
          p.base,
          p.pairing,
          p.seed,
          static_cast<int>(std::clamp(row, 0.0, 1e6)),
          p.causal,
          p.encoding == Encoding::rope,
          p.linear_reuse,
          view_extension(p)};
}

LinearPanel::Model LinearPanel::compute(const Inputs& in) {
  Model m;
  if (in.dim > kMaxPanelDim) {
    m.error = "the panel draws the d × d summary for d up to " + std::to_string(kMaxPanelDim) +
              " (d is " + std::to_string(in.dim) + ")";
    return m;
  }
  const lessons::LinearExample ex = lessons::linear_example(in.dim, in.seed);
  m.n = ex.n;
  m.d = ex.d;
  m.row = std::min(in.row, ex.n - 1);
  m.causal = in.causal;
  m.rope = in.rope;
  m.reuse = in.reuse;
  const auto ud = static_cast<std::size_t>(ex.d);
  // θ′ of drawn_frequencies; an invalid extension (the heatmap says why) leaves the whole head's
  auto f = drawn_frequencies(in.dim, in.base, in.extension);
  if (!f) {
    m.error = f.error().to_string();
    return m;
  }
  const std::vector<double>& thetas = f.value().theta_drawn;
  // The sums row m reads: all n tokens, or with causal on the first m + 1 (core's running sums)
  const auto sums_of = [&](int tokens) {
    const auto len = static_cast<std::size_t>(tokens) * ud;
    return linear_attention_sums(std::span(ex.q).first(len), std::span(ex.k).first(len),
                                 std::span(ex.v).first(len), tokens, ex.d, ex.d, thetas, in.pairing,
                                 in.rope, false);
  };
  auto all = linear_attention_sums(ex.q, ex.k, ex.v, ex.n, ex.d, ex.d, thetas, in.pairing, in.rope,
                                   in.causal);
  if (!all) {
    m.error = all.error().to_string();
    return m;
  }
  const auto row = static_cast<std::size_t>(m.row);
  m.numerator.assign(all.value().numerator.begin() + static_cast<std::ptrdiff_t>(row * ud),
                     all.value().numerator.begin() + static_cast<std::ptrdiff_t>((row + 1) * ud));
  m.denominator = all.value().denominator[row];
  m.output = m.numerator;
  for (double& x : m.output)
    x /= m.denominator;
  m.summary = all.value().kv;
  m.rows = all.value().numerator;
  for (int t = 0; t < ex.n; ++t) {
    auto s = sums_of(t + 1);
    if (!s) {
      m.error = s.error().to_string();
      return m;
    }
    m.running_z.insert(m.running_z.end(), s.value().z.begin(), s.value().z.end());
    if (in.causal && t == m.row) m.summary = s.value().kv;
  }
  return m;
}

void LinearPanel::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Model& m = model_.get(inputs_of(p), compute);
  const Canvas canvas("linear_canvas", &drawn_);
  const Page pg(canvas, env, p.theme);
  const Pen& pen = canvas.pen;
  const float s = pg.s;
  float y = pg.y0;
  y += pen.wrapped(pg.f.heading, ImVec2(pg.x0, y), pg.width, pg.pal.text,
                   "Linear attention: two sums instead of the N × N matrix") +
       4 * s;
  if (!m.error.empty()) {
    pen.wrapped(pg.f.bold, ImVec2(pg.x0, y), pg.width, pg.pal.bad, m.error);
    return;
  }
  const std::string n = std::to_string(m.n), d = std::to_string(m.d);
  const std::string intro =
      m.reuse
          ? n + " seeded tokens. S is summed once; every query m turns its own φ(qₘ) by Rₘ and " +
                "reads the same S. Rₘ depends on m alone, so it comes out of the sum over n " +
                "(linearity), whether or not it keeps lengths."
          : n + " seeded tokens, " + nobreak("φ = elu + 1,") +
                (m.rope ? " RoPE in the numerator only. " : " no positions. ") +
                "The keys are summed once into S (" + d + " × " + d + ") and " +
                nobreak("z (" + d + " numbers);") + " each query reads them: " +
                nobreak(std::to_string(m.d * m.d + m.d) + " numbers,") + " no " + n + " × " + n +
                " array.";
  y += pen.wrapped(pg.f.body, ImVec2(pg.x0, y), pg.width, pg.pal.text_dim, intro) + 10 * s;
  // Two columns of equal width: S on the left, the running sums on the right, titles on top
  const float gap = (m.reuse ? 90.0f : 40.0f) * s;  // reuse: room for the lines from S to the rows
  const float col_w = std::max(40 * s, 0.5f * (pg.width - gap));
  const std::string title_s =
      std::string(m.rope ? (m.causal ? "S = R₀φ(k₀)v₀⊤ + … + Rₘφ(kₘ)vₘ⊤" : "S = Σₙ Rₙφ(kₙ)vₙ⊤")
                         : (m.causal ? "S = φ(k₀)v₀⊤ + … + φ(kₘ)vₘ⊤" : "S = Σₙ φ(kₙ)vₙ⊤")) +
      "  " + nobreak("(" + d + " × " + d + ")");
  // the size kept whole: "(16 ×" at a line's end left "16)" alone on the next (review D11)
  const std::string title_z =
      m.reuse ? std::string(m.rope ? "(Rₘφ(qₘ))⊤S" : "φ(qₘ)⊤S") + ", one row per query m  " +
                    nobreak("(" + n + " × " + d + ")")
              : std::string("running sums zₜ = φ(k₀) + … + φ(kₜ), one row per t  ") +
                    nobreak("(" + n + " × " + d + ")");
  const float label_h = std::max(Pen{}.wrapped(pg.f.bold, ImVec2(0, 0), col_w, 0, title_s),
                                 Pen{}.wrapped(pg.f.bold, ImVec2(0, 0), col_w, 0, title_z)) +
                        6 * s;
  // The read-out under the grids, measured with the widest colour ranges it can show
  float readout_h = 0.0f;
  for (const std::string& t : readout_lines(m, -88888.8, -88888.8))
    readout_h += Pen{}.wrapped(pg.f.body, ImVec2(0, 0), pg.width, 0, t);
  const float room_h = pg.bottom - y - label_h - readout_h - 12 * s;
  // one cell size for both grids: d columns each; d (S) or n (running sums) rows
  const float rows = static_cast<float>(std::max(m.d, m.n));
  const float cell = std::floor(std::min(room_h / rows, col_w / static_cast<float>(m.d)));
  if (cell < 1.0f) return;
  const ImVec2 left(pg.x0, y + label_h);
  const ImVec2 right(pg.x0 + col_w + gap, y + label_h);
  pen.wrapped(pg.f.bold, ImVec2(left.x, y), col_w, pg.pal.text, title_s);
  pen.wrapped(pg.f.bold, ImVec2(right.x, y), col_w, pg.pal.text, title_z);
  ImDrawList* dl = canvas.draw_list;
  const double big_s = grid(dl, left, cell, m.d, m.d, m.summary, pg.pal.text_dim, true);
  const double big_z = m.reuse
                           ? grid(dl, right, cell, m.n, m.d, m.rows, pg.pal.text_dim, true)
                           : grid(dl, right, cell, m.n, m.d, m.running_z, pg.pal.text_dim, false);
  if (m.reuse) {  // one S, read by every row: a line from S to each row, query m's drawn bold
    const ImVec2 from(left.x + cell * static_cast<float>(m.d) + 4 * s,
                      left.y + 0.5f * cell * static_cast<float>(m.d));
    for (int r = 0; r < m.n; ++r) {
      const ImVec2 to(right.x - 6 * s, right.y + cell * (static_cast<float>(r) + 0.5f));
      if (r == m.row) continue;
      dl->AddLine(from, to, with_alpha(pg.pal.text_dim, 0.6f), std::max(1.0f, std::round(s)));
    }
    const ImVec2 to(right.x - 4 * s, right.y + cell * (static_cast<float>(m.row) + 0.5f));
    draw_arrow(dl, from, to, pg.pal.query, std::max(1.0f, std::round(2.5f * s)), 9 * s);
  }
  // the row the query reads: its numerator (reuse); else its running sums (causal), or the
  // last (all keys)
  const int z_row = m.reuse || m.causal ? m.row : m.n - 1;
  const float row_y = right.y + cell * static_cast<float>(z_row);
  dl->AddRect(ImVec2(right.x - 2 * s, row_y - 1 * s),
              ImVec2(right.x + cell * static_cast<float>(m.d) + 2 * s, row_y + cell + 1 * s),
              pg.pal.query, 0.0f, 0, std::max(1.0f, std::round(2 * s)));
  float ty = y + label_h + cell * rows + 10 * s;
  const std::array<ImU32, 3> colours = {pg.pal.query, pg.pal.text, pg.pal.text_dim};
  const std::array<std::string, 3> readout = readout_lines(m, big_s, big_z);
  for (std::size_t i = 0; i < readout.size(); ++i)
    ty += pen.wrapped(pg.f.body, ImVec2(pg.x0, ty), pg.width, colours[i], readout[i]);
  if (!canvas.hovered) return;
  const auto cell_at = [&](ImVec2 o, int r_count, int c_count, int& r, int& c) {
    r = static_cast<int>(std::floor((canvas.mouse.y - o.y) / cell));
    c = static_cast<int>(std::floor((canvas.mouse.x - o.x) / cell));
    return r >= 0 && c >= 0 && r < r_count && c < c_count;
  };
  int r = 0, c = 0;
  if (cell_at(left, m.d, m.d, r, c)) {
    ImGui::SetTooltip("S[%d][%d] = %s", r, c,
                      full_number(m.summary[static_cast<std::size_t>(r * m.d + c)]).c_str());
  } else if (m.reuse && cell_at(right, m.n, m.d, r, c)) {
    ImGui::SetTooltip("query %d's numerator, entry %d: %s", r, c,
                      full_number(m.rows[static_cast<std::size_t>(r * m.d + c)]).c_str());
  } else if (cell_at(right, m.n, m.d, r, c)) {
    ImGui::SetTooltip("z after position %d, entry %d: %s", r, c,
                      full_number(m.running_z[static_cast<std::size_t>(r * m.d + c)]).c_str());
  }
}

}  // namespace rope::app
