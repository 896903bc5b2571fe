#include "views/decay_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rope/decay.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

constexpr int kSamples = 256;  // random pairs averaged by the mean-score overlay

std::string curve_label(int dim, double base) {
  return "D(r), d = " + std::to_string(dim) + ", base " + plot::tick_label(base, false);
}

}  // namespace

void DecayView::update(const Params& p) {
  const Key k{p.dim, p.compare_dim, p.max_distance, p.base, p.compare_base, p.mean_score, p.seed};
  if (computed && k == key) return;
  key = k;
  computed = true;
  curves.clear();
  error.clear();
  distances.resize(static_cast<std::size_t>(p.max_distance) + 1);
  for (std::size_t r = 0; r < distances.size(); ++r)
    distances[r] = static_cast<double>(r);
  const auto add = [&](int dim, double base, bool mean, bool dashed) {
    auto v = mean ? mean_random_score(dim, base, p.max_distance, kSamples, p.seed)
                  : decay_curve(dim, base, p.max_distance);
    if (!v) {
      error = v.error().to_string();
      return;
    }
    Curve c;
    c.label = mean ? "mean score of random q, k ≥ 0 (d = " + std::to_string(dim) + ")"
                   : curve_label(dim, base);
    c.dim = dim;
    c.base = base;
    c.mean = mean;
    c.values = std::move(v).value();
    c.dashed = dashed;
    curves.push_back(std::move(c));
  };
  add(p.dim, p.base, false, false);
  if (p.compare_base != 0.0 && p.compare_base != p.base) add(p.dim, p.compare_base, false, false);
  if (p.compare_dim != 0 && p.compare_dim != p.dim) add(p.compare_dim, p.base, false, false);
  if (p.mean_score) add(p.dim, p.base, true, true);
}

void DecayView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  update(p);
  const Palette& pal = palette(p.theme);
  const plot::Style st = plot::style(env, p.theme, &drawn);
  const float s = env.scale;
  const Fonts& f = *env.fonts;
  // colours: the current curve in the query colour, overlays in the key and accent colours
  const ImU32 colours[] = {pal.query, pal.key, pal.accent, pal.good};
  for (std::size_t i = 0; i < curves.size(); ++i)
    curves[i].colour = curves[i].mean ? pal.text_dim : colours[std::min<std::size_t>(i, 3)];

  const CanvasArea area = begin_canvas("decay_canvas", &drawn);
  ImDrawList* dl = area.draw_list;
  const Pen& pen = area.pen;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] header, wrapped to the width; on short canvases smaller, then without the title
  // and the note (the lesson names the step)
  const float pad = std::round(18.0f * s);
  const float x0 = origin.x + pad;
  const float width = std::max(1.0f, size.x - 2 * pad);
  const float bottom = origin.y + size.y - pad;
  const std::string title = "Long-range decay of RoPE";
  const std::string formula = nobreak("D(r) = (2/d) Σⱼ |Σᵢ<ⱼ e^(i r θᵢ)|:") +
                              "  RoFormer’s relative upper bound on " + nobreak("|q·R(r)k|") +
                              " (§3.4.3)";
  const std::string note = "current " + nobreak("d = " + std::to_string(p.dim) + ",") + " " +
                           nobreak("base " + plot::tick_label(p.base, false) + ";") +
                           "  RoFormer's figure: " + nobreak("d = 128,") + " " +
                           nobreak("base 10 000,") + " " + nobreak("r up to 256.") + "  " +
                           nobreak("D(0) = (d/2 + 1)/2.");
  const auto header = [&](const Pen& pn, int level) {
    float y = origin.y + pad;
    if (level < 2)
      y +=
          pn.wrapped(level == 0 ? f.title : f.large, ImVec2(x0, y), width, pal.text, title) + 2 * s;
    y += pn.wrapped(level == 0 ? f.large : f.body, ImVec2(x0, y), width, pal.text, formula) + 2 * s;
    if (level < 2) y += pn.wrapped(f.body, ImVec2(x0, y), width, pal.text_dim, note);
    if (!error.empty()) y += pn.wrapped(f.bold, ImVec2(x0, y), width, pal.bad, error);
    return y + 10 * s;
  };
  // the legend: inside the plot's top right corner when that covers less than half the width,
  // else in a row above the plot
  std::vector<plot::LegendEntry> entries;
  for (const auto& c : curves)
    entries.push_back({c.label, c.colour, c.dashed, false});
  const bool legend_inside = plot::legend_size(st, entries).x <= 0.5f * width;
  const float legend_h =
      legend_inside ? 0.0f : plot::legend_row(nullptr, st, ImVec2(0, 0), width, entries) + 8 * s;
  int level = 0;
  while (level < 2 && bottom - header(Pen{}, level) - legend_h < 420.0f * s)
    ++level;
  float y = header(pen, level);
  if (curves.empty() || bottom - y < 80 * s) {
    dl->PopClipRect();
    return;
  }

  // [SECTION] the plot
  if (!legend_inside) {
    plot::legend_row(dl, st, ImVec2(x0, y), width, entries);
    y += legend_h;
  }
  double lo = 0.0, hi = 0.0;
  for (const auto& c : curves)
    for (double v : c.values)
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  plot::Axis ax, ay;
  ax.lo = 0.0;
  ax.hi = std::max(1, p.max_distance);
  ax.label = "relative distance r = n − m (positions)";
  ax.short_label = "distance r = n − m";
  ay.lo = lo;
  ay.hi = hi > lo ? hi * 1.05 : lo + 1.0;
  ay.label = "value";
  const plot::Frame fr =
      plot::axes(dl, st, ImVec2(x0, y), ImVec2(origin.x + size.x - pad, bottom), ax, ay);
  const float thick = std::max(1.0f, std::round(3.0f * s));
  if (lo < 0.0) plot::hline(dl, fr, 0.0, st.axis, std::max(1.0f, std::round(s)));
  for (auto it = curves.rbegin(); it != curves.rend(); ++it)
    plot::line(dl, fr, distances, it->values, it->colour, thick, it->dashed);
  float legend_bottom = fr.area_min.y;
  if (legend_inside) legend_bottom = plot::legend(dl, st, fr, entries, 1);
  // the current distance n - m, as in the other views, and D there on the current curve
  const double r_now = std::fabs(p.key_position - p.position);
  if (r_now <= p.max_distance) {
    const float lx_line = fr.x.to_px(r_now);
    plot::vline(dl, fr, r_now, with_alpha(pal.text, 0.5f), std::max(1.0f, std::round(s)), true);
    const ImVec2 lp = plot::label_box_padding(st);
    const auto beside = [&](const std::string& text, float ly, ImFont* font) {
      // right of the line, or left of it near the right edge
      const float w = text_size(font, text).x;
      const float lx = lx_line + 6 * s + w + lp.x <= fr.area_max.x ? lx_line + 6 * s + lp.x
                                                                   : lx_line - 6 * s - lp.x - w;
      return ImVec2(std::max(lx, fr.area_min.x + lp.x), ly);
    };
    const std::string dist = "|n − m| = " + format_number(r_now, 6);
    const float dist_y = fr.area_max.y - f.body->FontSize - 8 * s;
    plot::label_box(dl, st, f.body, beside(dist, dist_y, f.body), pal.text_dim, dist);
    const auto ri = static_cast<std::size_t>(r_now);
    if (r_now == std::floor(r_now) && !curves.empty() && ri < curves.front().values.size()) {
      const Curve& c = curves.front();
      const double v = c.values[ri];
      plot::marker(dl, fr, r_now, v, c.colour, 6 * s);
      const std::string label = "D(" + format_number(r_now, 6) + ") = " + format_number(v, 5);
      const float h = f.large->FontSize;
      const float py = fr.y.to_px(v);
      // above the point if that is clear of the legend, else below it if that is clear of the
      // distance's label, else just above that label
      float ly = py - h - 12 * s;
      if (ly - lp.y < legend_bottom + 6 * s) ly = py + 12 * s;
      if (ly + h + lp.y > dist_y - lp.y - 4 * s) ly = dist_y - 2 * lp.y - 4 * s - h;
      plot::label_box(dl, st, f.large, beside(label, ly, f.large), c.colour, label);
    }
  }

  // [SECTION] hover: every curve at the r under the mouse
  if (hovered && fr.contains(mouse)) {
    const double rx =
        std::clamp(std::round(fr.x.from_px(mouse.x)), 0.0, static_cast<double>(p.max_distance));
    plot::vline(dl, fr, rx, pal.text, std::max(1.0f, std::round(s)));
    const auto ri = static_cast<std::size_t>(rx);
    for (const auto& c : curves)
      if (ri < c.values.size()) plot::marker(dl, fr, rx, c.values[ri], c.colour, 5 * s);
    ImGui::BeginTooltip();
    ImGui::Text("r = %.0f", rx);
    for (const auto& c : curves)
      if (ri < c.values.size())
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c.colour), "%s: %.17g", c.label.c_str(),
                           c.values[ri]);
    ImGui::EndTooltip();
  }
  dl->PopClipRect();
}

void DecayView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  int r = p.max_distance;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##max_distance", &r, 16, 100000, "max distance R = %d",
                       ImGuiSliderFlags_Logarithmic))
    p.max_distance = std::clamp(r, 1, 100000);
  if (ImGui::Button("RoFormer figure (d 128, base 10 000, R 256)")) {
    p.dim = 128;
    p.base = 10000.0;
    p.max_distance = 256;
  }
  bool base_on = p.compare_base != 0.0;
  if (ImGui::Checkbox("overlay base", &base_on)) p.compare_base = base_on ? 500000.0 : 0.0;
  if (base_on) {
    ImGui::SameLine();
    float b = static_cast<float>(p.compare_base);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##compare_base", &b, 10.0f, 1e7f, "%.0f", ImGuiSliderFlags_Logarithmic))
      p.compare_base = std::clamp(std::round(static_cast<double>(b)), 10.0, 1e7);
  }
  bool dim_on = p.compare_dim != 0;
  if (ImGui::Checkbox("overlay d", &dim_on)) p.compare_dim = dim_on ? 128 : 0;
  if (dim_on) {
    ImGui::SameLine();
    int d = p.compare_dim;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderInt("##compare_dim", &d, 2, 512, "d = %d"))
      p.compare_dim = std::clamp(d + (d & 1), 2, 512);
  }
  ImGui::Checkbox("mean score of random q, k", &p.mean_score);
}

}  // namespace rope::app
