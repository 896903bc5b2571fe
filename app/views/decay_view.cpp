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
  const plot::Style st = plot::style(env, p.theme);
  const float s = env.scale;
  const Fonts& f = *env.fonts;
  // colours: the current curve in the query colour, overlays in the key and accent colours
  const ImU32 colours[] = {pal.query, pal.key, pal.accent, pal.good};
  for (std::size_t i = 0; i < curves.size(); ++i)
    curves[i].colour = curves[i].mean ? pal.text_dim : colours[std::min<std::size_t>(i, 3)];

  const CanvasArea area = begin_canvas("decay_canvas");
  ImDrawList* dl = area.draw_list;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] header
  const float pad = std::round(18.0f * s);
  float y = origin.y + pad;
  dl->AddText(f.title, f.title->FontSize, ImVec2(origin.x + pad, y), pal.text,
              "Long-range decay of RoPE");
  y += f.title->FontSize + 2 * s;
  dl->AddText(
      f.large, f.large->FontSize, ImVec2(origin.x + pad, y), pal.text,
      "D(r) = (2/d) Σⱼ |Σᵢ<ⱼ e^(i r θᵢ)|:  RoFormer’s relative upper bound on |q·R(r)k| (§3.4.3)");
  y += f.large->FontSize + 2 * s;
  const std::string note =
      "current d = " + std::to_string(p.dim) + ", base " + plot::tick_label(p.base, false) +
      ";  RoFormer's figure: d = 128, base 10 000, r up to 256.  D(0) = (d/2 + 1)/2.";
  dl->AddText(f.body, f.body->FontSize, ImVec2(origin.x + pad, y), pal.text_dim, note.c_str());
  y += f.body->FontSize + 10 * s;
  if (!error.empty()) {
    dl->AddText(f.bold, f.bold->FontSize, ImVec2(origin.x + pad, y), pal.bad, error.c_str());
    y += f.bold->FontSize + 6 * s;
  }
  if (curves.empty() || size.y - (y - origin.y) < 80 * s) {
    dl->PopClipRect();
    return;
  }

  // [SECTION] the plot
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
  ay.lo = lo;
  ay.hi = hi > lo ? hi * 1.05 : lo + 1.0;
  ay.label = "value";
  const plot::Frame fr =
      plot::axes(dl, st, ImVec2(origin.x + pad, y),
                 ImVec2(origin.x + size.x - pad, origin.y + size.y - pad), ax, ay);
  const float thick = std::max(1.0f, std::round(3.0f * s));
  if (lo < 0.0) plot::hline(dl, fr, 0.0, st.axis, std::max(1.0f, std::round(s)));
  for (auto it = curves.rbegin(); it != curves.rend(); ++it)
    plot::line(dl, fr, distances, it->values, it->colour, thick, it->dashed);
  // the current distance n - m, as in the other views
  const double r_now = std::fabs(p.key_position - p.position);
  if (r_now <= p.max_distance) {
    plot::vline(dl, fr, r_now, with_alpha(pal.text, 0.5f), std::max(1.0f, std::round(s)), true);
    plot::label_box(dl, st, f.body,
                    ImVec2(fr.x.to_px(r_now) + 6 * s, fr.area_max.y - f.body->FontSize - 8 * s),
                    pal.text_dim, "|n − m| = " + format_number(r_now, 6));
  }
  std::vector<plot::LegendEntry> entries;
  for (const auto& c : curves)
    entries.push_back({c.label, c.colour, c.dashed, false});
  plot::legend(dl, st, fr, entries, 1);

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
