#include "views/sinusoidal_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rope/frequencies.h"
#include "rope/sinusoidal.h"
#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/theme.h"

namespace rope::app {

void SinusoidalView::update(const Params& p) {
  if (p.pe_positions == cached_rows && p.pe_dim == cached_cols && p.base == cached_base) return;
  cached_rows = p.pe_positions;
  cached_cols = p.pe_dim;
  cached_base = p.base;
  auto t = sinusoidal_table(p.pe_positions, p.pe_dim, p.base);
  if (!t) {
    error = t.error().to_string();
    table.clear();
    texels.clear();
    rows = cols = 0;
    return;
  }
  error.clear();
  table = std::move(t).value();
  texels.resize(table.size());
  std::transform(table.begin(), table.end(), texels.begin(),
                 [](double v) { return static_cast<float>(v); });
  rows = p.pe_positions;
  cols = p.pe_dim;
  ++version;
}

void SinusoidalView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  update(p);
  const Palette& pal = palette(p.theme);
  const plot::Style st = plot::style(env, p.theme, &drawn);
  const float s = env.scale;
  const Fonts& f = *env.fonts;

  const CanvasArea area = begin_canvas("sinusoidal_canvas", &drawn);
  ImDrawList* dl = area.draw_list;
  const Pen& pen = area.pen;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] the rows m and m + k and their dot product, over the figure's d
  const double m = p.position;
  const double k = p.offset;
  const auto th = frequencies(p.pe_dim, p.base);
  dot_m_mk = 0.0;
  dot_formula = 0.0;
  if (th) {
    const std::vector<double> a = sinusoidal_vector(m, th.value());
    const std::vector<double> b = sinusoidal_vector(m + k, th.value());
    for (std::size_t j = 0; j < a.size(); ++j)
      dot_m_mk += a[j] * b[j];
    for (double t : th.value())
      dot_formula += std::cos(k * t);
  }

  // [SECTION] layout: header, the table, PE_m under it. Four levels, tried in order until the
  // table gets a useful height: full size; smaller fonts; no title and no note (the lesson names
  // the step); without the formula and the PE_m plot.
  struct Level {
    ImFont *title, *formula, *dot;
    bool note, row_plot;
  };
  const Level levels[] = {{f.title, f.large, f.large, true, true},
                          {f.large, f.body, f.large, true, true},
                          {nullptr, f.body, f.body, false, true},
                          {nullptr, nullptr, f.body, false, false}};
  constexpr int kLevels = 4;
  const float pad = std::round(18.0f * s);
  const float x0 = origin.x + pad;
  const float width = std::max(1.0f, size.x - 2 * pad);
  const float bottom = origin.y + size.y - pad;
  const bool show_k = k != 0.0;
  const std::string title = "Sinusoidal position encoding (added to the embedding)";
  const std::string formula = nobreak("PE[pos][2i] = sin(pos·θᵢ),") + "   " +
                              nobreak("PE[pos][2i+1] = cos(pos·θᵢ),") + "   " +
                              nobreak("θᵢ = base^(−2i/d)");
  const std::string dot = nobreak("PEₘ·PEₘ₊ₖ = " + format_number(dot_m_mk, 6)) + " " +
                          nobreak("= Σᵢ cos(k·θᵢ) = " + format_number(dot_formula, 6)) + "   " +
                          nobreak("(m = " + format_number(m, 6) + ",") + " " +
                          nobreak("k = " + format_number(k, 6) + ")");
  const std::string size_note =
      std::to_string(p.pe_positions) + " positions × d = " + std::to_string(p.pe_dim);
  const std::string note = p.pe_dim == p.dim
                               ? "This figure: " + size_note + " (the shared d), base " +
                                     plot::tick_label(p.base, false) + "."
                               : "This figure has its own size: " + size_note +
                                     " (pe_positions, pe_dim), with the shared base " +
                                     plot::tick_label(p.base, false) +
                                     ".  The RoPE views use d = " + std::to_string(p.dim) + ".";
  const plot::LegendEntry entries[] = {
      {"sin(m·θᵢ) at j = 2i, m = " + format_number(m, 6), pal.query, false, false},
      {"cos(m·θᵢ) at j = 2i+1", pal.key, false, false}};
  const float legend_h = plot::legend_row(nullptr, st, ImVec2(0, 0), width, entries);
  // Header (or with a measuring pen its height only); returns the y below it.
  const auto header = [&](const Pen& pn, const Level& lv) {
    float y = origin.y + pad;
    if (lv.title)
      y += pn.wrapped(fit_font({lv.title, f.large}, title, width, 2), ImVec2(x0, y), width,
                      pal.text, title) +
           2 * s;
    if (lv.formula) y += pn.wrapped(lv.formula, ImVec2(x0, y), width, pal.text, formula) + 2 * s;
    if (show_k) y += pn.wrapped(lv.dot, ImVec2(x0, y), width, pal.accent, dot) + 2 * s;
    if (lv.note) y += pn.wrapped(f.body, ImVec2(x0, y), width, pal.text_dim, note);
    if (!error.empty()) y += pn.wrapped(f.bold, ImVec2(x0, y), width, pal.bad, error);
    return y + 10 * s;
  };
  const auto row_plot_height = [&](const Level& lv, float top) {
    if (!lv.row_plot) return 0.0f;
    return std::round(std::clamp(0.26f * (bottom - top), 120.0f * s, 260.0f * s)) + legend_h +
           6 * s;
  };
  int level = 0;
  for (; level < kLevels - 1; ++level) {
    const float top = header(Pen{}, levels[level]);
    if (bottom - row_plot_height(levels[level], top) - top >= 280.0f * s) break;
  }
  const Level& lv = levels[level];
  const float y = header(pen, lv);
  if (rows == 0 || bottom - y < 100 * s) {
    dl->PopClipRect();
    return;
  }

  // [SECTION] the table as a heatmap, positions down, dimensions across
  const float bar_w = std::round(22.0f * s);
  const float right = bar_w + pad + plot::colour_bar_margin(st, true);
  const float row_plot_h = row_plot_height(lv, y);
  plot::Axis ax, ay;
  ax.lo = -0.5;
  ax.hi = cols - 0.5;
  ax.label = "dimension j  (even j: sin, odd j: cos)";
  ax.short_label = "dimension j";
  ax.grid = false;
  ay.lo = -0.5;
  ay.hi = rows - 0.5;
  ay.label = "position pos";
  ay.short_label = "pos";
  ay.down = true;
  ay.grid = false;
  const plot::Frame fr = plot::axes(
      dl, st, ImVec2(x0, y),
      ImVec2(origin.x + size.x - pad - right, bottom - row_plot_h - (lv.row_plot ? 8 * s : 0.0f)),
      ax, ay);
  cells_min = fr.area_min;
  cells_max = fr.area_max;
  bool drew = false;
  if (env.has_gl) {
    if (!renderer_) renderer_ = std::make_unique<HeatmapRenderer>();
    drew = renderer_->update(0, version, texels, rows, cols, -1.0f, 1.0f, pal.panel,
                             ImVec2(fr.area_max.x - fr.area_min.x, fr.area_max.y - fr.area_min.y));
    if (drew)
      renderer_->add_image(dl, 0, fr.area_min, fr.area_max);
    else
      pen.wrapped(f.bold, ImVec2(fr.area_min.x + 8 * s, fr.area_min.y + 8 * s),
                  fr.area_max.x - fr.area_min.x - 16 * s, pal.bad, renderer_->error());
  }
  if (!drew) dl->AddRect(fr.area_min, fr.area_max, pal.grid);
  plot::colour_bar(dl, st, ImVec2(fr.area_max.x + pad, fr.area_min.y),
                   ImVec2(fr.area_max.x + pad + bar_w, fr.area_max.y), -1.0, 1.0, "PE value", true);

  // the rows m and m + k, framed, with their labels inside the figure
  const float thick = std::max(1.0f, std::round(2.0f * s));
  const auto row_of = [&](double v) {
    return static_cast<int>(std::floor(std::clamp(v, -1.0, 1e7) + 0.5));
  };
  const auto mark_row = [&](int r, ImU32 col, const std::string& label, bool label_above) {
    const float y0 = fr.y.to_px(r - 0.5);
    const float y1 = fr.y.to_px(r + 0.5);
    const float grow = std::max(0.0f, 3.0f * s - 0.5f * (y1 - y0));
    dl->AddRect(ImVec2(fr.area_min.x - thick, y0 - grow), ImVec2(fr.area_max.x + thick, y1 + grow),
                col, 0, 0, thick);
    const ImVec2 lp = plot::label_box_padding(st);
    const float h = f.bold->FontSize;
    float ly = label_above ? y0 - grow - 4 * s - lp.y - h : y1 + grow + 4 * s + lp.y;
    ly = std::clamp(ly, fr.area_min.y + lp.y, std::max(fr.area_min.y, fr.area_max.y - h - lp.y));
    return ImVec4(fr.area_min.x + 8 * s, ly, fr.area_min.x + 8 * s + text_size(f.bold, label).x,
                  ly + h);
  };
  const int mr = row_of(m);
  const int kr = row_of(m + k);
  ImVec4 m_box(0, 0, 0, 0);
  bool m_labelled = false;
  if (mr >= 0 && mr < rows) {
    const std::string label = "m = " + std::to_string(mr);
    m_box = mark_row(mr, pal.accent, label, show_k && kr > mr);  // away from the row m + k
    plot::label_box(dl, st, f.bold, ImVec2(m_box.x, m_box.y), pal.accent, label);
    m_labelled = true;
  } else {
    const std::string label = "m = " + format_number(m, 8) + " is outside the figure (0 … " +
                              std::to_string(rows - 1) + ")";
    plot::label_box(dl, st,
                    fit_font({f.bold, f.body}, label, fr.area_max.x - fr.area_min.x - 16 * s),
                    ImVec2(fr.area_min.x + 8 * s, fr.area_max.y - 30 * s), pal.accent, label);
  }
  if (show_k && kr >= 0 && kr < rows && kr != mr) {
    const std::string label = "m + k = " + std::to_string(kr);
    ImVec4 box = mark_row(kr, pal.key, label, kr < mr);
    const ImVec2 lp = plot::label_box_padding(st);
    if (m_labelled && box.y < m_box.w + 2 * lp.y && m_box.y < box.w + 2 * lp.y) {
      // next to the label of m rather than on it
      const float shift = m_box.z - box.x + 3 * lp.x;
      box.x += shift;
      box.z += shift;
    }
    plot::label_box(dl, st, f.bold, ImVec2(box.x, box.y), pal.key, label);
  }

  // [SECTION] PE_m across the dimensions, computed for the real-valued m
  if (lv.row_plot) {
    const float ly = bottom - row_plot_h;
    plot::legend_row(dl, st, ImVec2(x0, ly), width, entries);
    plot::Axis bx = ax, by;
    bx.label = "dimension j";
    by.lo = -1.1;
    by.hi = 1.1;
    by.ticks = 2;
    by.label = "PEₘ";
    const plot::Frame rf = plot::axes(dl, st, ImVec2(x0, ly + legend_h + 6 * s),
                                      ImVec2(fr.area_max.x + 24 * s, bottom), bx, by);
    if (th) {
      // sin entries at even j and cos entries at odd j, as two lines
      const std::vector<double> pe = sinusoidal_vector(m, th.value());
      const std::size_t half = pe.size() / 2;
      std::vector<double> js(half), jc(half), vs(half), vc(half);
      for (std::size_t i = 0; i < half; ++i) {
        js[i] = static_cast<double>(2 * i);
        jc[i] = static_cast<double>(2 * i + 1);
        vs[i] = pe[2 * i];
        vc[i] = pe[2 * i + 1];
      }
      const float lt = std::max(1.0f, std::round(2.0f * s));
      plot::line(dl, rf, js, vs, pal.query, lt);
      plot::line(dl, rf, jc, vc, pal.key, lt);
    }
  }

  // [SECTION] hover: position, dimension, exact value
  if (hovered && fr.contains(mouse)) {
    const double jv = std::floor(fr.x.from_px(mouse.x) + 0.5);
    const double pv = std::floor(fr.y.from_px(mouse.y) + 0.5);
    if (jv >= 0 && jv < cols && pv >= 0 && pv < rows) {
      const auto j = static_cast<std::size_t>(jv);
      const auto pos = static_cast<std::size_t>(pv);
      const std::size_t i = j / 2;
      ImGui::BeginTooltip();
      ImGui::Text("position pos = %zu   dimension j = %zu (block i = %zu, %s)", pos, j, i,
                  j % 2 == 0 ? "sin" : "cos");
      ImGui::Text("θᵢ = %.17g rad per position", theta(static_cast<int>(i), p.pe_dim, p.base));
      ImGui::Text("PE[pos][j] = %s(pos·θᵢ) = %.17g", j % 2 == 0 ? "sin" : "cos",
                  table[pos * static_cast<std::size_t>(cols) + j]);
      ImGui::EndTooltip();
    }
  }
  dl->PopClipRect();
}

void SinusoidalView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  int n = p.pe_positions;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##pe_positions", &n, 1, 4096, "%d positions", ImGuiSliderFlags_Logarithmic))
    p.pe_positions = std::clamp(n, 1, 4096);
  int d = p.pe_dim;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##pe_dim", &d, 2, 4096, "d = %d", ImGuiSliderFlags_Logarithmic))
    p.pe_dim = std::clamp(d + (d & 1), 2, 4096);
  if (ImGui::Button("128 × 256 (paper)")) {
    p.pe_positions = 128;
    p.pe_dim = 256;
  }
  ImGui::SameLine();
  if (ImGui::Button("use the shared d")) p.pe_dim = p.dim;
}

}  // namespace rope::app
