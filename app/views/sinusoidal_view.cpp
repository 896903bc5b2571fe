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
  const plot::Style st = plot::style(env, p.theme);
  const float s = env.scale;
  const Fonts& f = *env.fonts;

  const CanvasArea area = begin_canvas("sinusoidal_canvas");
  ImDrawList* dl = area.draw_list;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] header
  const float pad = std::round(18.0f * s);
  float y = origin.y + pad;
  dl->AddText(f.title, f.title->FontSize, ImVec2(origin.x + pad, y), pal.text,
              "Sinusoidal position encoding (added to the embedding)");
  y += f.title->FontSize + 2 * s;
  dl->AddText(f.large, f.large->FontSize, ImVec2(origin.x + pad, y), pal.text,
              "PE[pos][2i] = sin(pos·θᵢ),   PE[pos][2i+1] = cos(pos·θᵢ),   θᵢ = base^(−2i/d)");
  y += f.large->FontSize + 2 * s;
  const std::string note = "This figure has its own size: " + std::to_string(p.pe_positions) +
                           " positions × d = " + std::to_string(p.pe_dim) +
                           " (pe_positions, pe_dim), with the shared base " +
                           plot::tick_label(p.base, false) +
                           ".  The RoPE views use d = " + std::to_string(p.dim) + ".";
  dl->AddText(f.body, f.body->FontSize, ImVec2(origin.x + pad, y), pal.text_dim, note.c_str());
  y += f.body->FontSize + 10 * s;
  if (!error.empty()) {
    dl->AddText(f.bold, f.bold->FontSize, ImVec2(origin.x + pad, y), pal.bad, error.c_str());
    y += f.bold->FontSize + 6 * s;
  }
  if (rows == 0 || size.y - (y - origin.y) < 150 * s) {
    dl->PopClipRect();
    return;
  }

  // [SECTION] the table as a heatmap, positions down, dimensions across
  const float bar_w = std::round(22.0f * s);
  const float right = bar_w + pad + plot::colour_bar_margin(st, true);
  const float bottom = origin.y + size.y - pad;
  const float row_plot_h = std::round(std::clamp(0.26f * (bottom - y), 120.0f * s, 260.0f * s));
  plot::Axis ax, ay;
  ax.lo = -0.5;
  ax.hi = cols - 0.5;
  ax.label = "dimension j  (even j: sin, odd j: cos)";
  ax.grid = false;
  ay.lo = -0.5;
  ay.hi = rows - 0.5;
  ay.label = "position pos";
  ay.down = true;
  ay.grid = false;
  const plot::Frame fr =
      plot::axes(dl, st, ImVec2(origin.x + pad, y),
                 ImVec2(origin.x + size.x - pad - right, bottom - row_plot_h - 8 * s), ax, ay);
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
      dl->AddText(f.bold, f.bold->FontSize, ImVec2(fr.area_min.x + 8 * s, fr.area_min.y + 8 * s),
                  pal.bad, renderer_->error().c_str(), nullptr,
                  fr.area_max.x - fr.area_min.x - 16 * s);
  }
  if (!drew) dl->AddRect(fr.area_min, fr.area_max, pal.grid);
  plot::colour_bar(dl, st, ImVec2(fr.area_max.x + pad, fr.area_min.y),
                   ImVec2(fr.area_max.x + pad + bar_w, fr.area_max.y), -1.0, 1.0, "PE value", true);

  // the current position m
  const double m = p.position;
  const int mr = static_cast<int>(std::floor(std::clamp(m, -1.0, 1e7) + 0.5));
  const float thick = std::max(1.0f, std::round(2.0f * s));
  if (mr >= 0 && mr < rows) {
    const float y0 = fr.y.to_px(mr - 0.5);
    const float y1 = fr.y.to_px(mr + 0.5);
    const float grow = std::max(0.0f, 3.0f * s - 0.5f * (y1 - y0));
    dl->AddRect(ImVec2(fr.area_min.x - thick, y0 - grow), ImVec2(fr.area_max.x + thick, y1 + grow),
                pal.accent, 0, 0, thick);
    plot::label_box(dl, st, f.bold, ImVec2(fr.area_min.x + 8 * s, y1 + grow + 4 * s), pal.accent,
                    "m = " + std::to_string(mr));
  } else {
    plot::label_box(dl, st, f.bold, ImVec2(fr.area_min.x + 8 * s, fr.area_max.y - 30 * s),
                    pal.accent,
                    "m = " + format_number(m, 8) + " is outside the figure (0 … " +
                        std::to_string(rows - 1) + ")");
  }

  // [SECTION] PE_m across the dimensions, computed for the real-valued m
  {
    auto th = frequencies(p.pe_dim, p.base);
    plot::Axis bx = ax, by;
    bx.label = "dimension j";
    by.lo = -1.1;
    by.hi = 1.1;
    by.ticks = 2;
    by.label = "PEₘ";
    const plot::Frame rf = plot::axes(dl, st, ImVec2(origin.x + pad, bottom - row_plot_h),
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
      const plot::LegendEntry entries[] = {
          {"sin(m·θᵢ) at j = 2i, m = " + format_number(m, 6), pal.query, false, false},
          {"cos(m·θᵢ) at j = 2i+1", pal.key, false, false}};
      plot::legend(dl, st, rf, entries, 3);
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
