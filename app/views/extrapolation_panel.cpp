#include "views/extrapolation_panel.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "io/number_format.h"
#include "rope/extrapolation.h"
#include "state/scaling_params.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

std::string num(double v, int digits = 3) {
  return format_number(v, NumberStyle::label, digits);
}

double max_abs(const std::vector<double>& v, std::size_t from, std::size_t to) {
  double m = 0.0;
  for (std::size_t i = from; i < std::min(to, v.size()); ++i)
    if (std::isfinite(v[i])) m = std::max(m, std::fabs(v[i]));
  return m;
}

struct Text {
  ImFont* title;
  ImFont* sub;
  bool note;
};

}  // namespace

ExtrapolationPanel::Inputs ExtrapolationPanel::inputs_of(const Params& p) {
  return Inputs{p.dim, p.base, p.extension.scaling.original_context, p.seed};
}

ExtrapolationPanel::Model ExtrapolationPanel::compute(const Inputs& in) {
  const auto start = std::chrono::steady_clock::now();
  Model m;
  auto fit = fit_random_target(in.dim, in.base, in.context, in.seed, kFitRankTolerance);
  if (!fit) {
    const Error& e = fit.error();
    m.error = (e.parameter == "context" ? std::string("original_context") : e.parameter) + ": " +
              e.message;
    return m;
  }
  const FitResult& f = fit.value();
  const int L = f.context();
  m.dim = in.dim;
  m.base = in.base;
  m.context = L;
  m.seed = in.seed;
  m.rank = f.rank;
  m.residual = f.residual_norm;
  // [0, 2L) step 1 once; [0, L) is its first half (the same s_k = k).
  m.a_beyond = evaluate_fit_range(f, 0.0, 2.0 * L, 1.0).value();
  for (int k = 0; k < 2 * L; ++k)
    m.s_beyond.push_back(k);
  m.s_inside.assign(m.s_beyond.begin(), m.s_beyond.begin() + L);
  m.a_inside.assign(m.a_beyond.begin(), m.a_beyond.begin() + L);
  m.max_inside = max_abs(m.a_beyond, 0, static_cast<std::size_t>(L));
  m.max_beyond = max_abs(m.a_beyond, static_cast<std::size_t>(L), m.a_beyond.size());
  // between the integers 25 … 75 (PI's third panel), inside [0, L) for small L
  const auto [from, to] = between_integers_range(L);
  m.a_between = evaluate_fit_range(f, from, to, kBetweenStep).value();
  for (std::size_t k = 0; k < m.a_between.size(); ++k)
    m.s_between.push_back(from + static_cast<double>(k) * kBetweenStep);
  for (auto s = static_cast<int>(from); s < static_cast<int>(std::ceil(to)); ++s) {
    m.s_targets.push_back(s);
    m.targets.push_back(f.targets[static_cast<std::size_t>(s)]);
  }
  m.b_over_d = b_over_d(in.dim, in.base, 2 * std::int64_t{L} - 1).value();
  for (std::size_t k = 0; k < m.b_over_d.size(); ++k)
    m.s_b.push_back(static_cast<double>(k));
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return m;
}

void ExtrapolationPanel::paint(const Model& m, const Canvas& canvas, const ViewEnv& env,
                               const Params& p, int level) {
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  const Palette& pal = palette(p.theme);
  const plot::Style st = plot::style(env, p.theme, &drawn_);
  ImDrawList* dl = canvas.draw_list;
  const Pen& pen = canvas.pen;
  const float pad = std::round(16.0f * s);
  const float x0 = canvas.origin.x + pad, width = std::max(1.0f, canvas.size.x - 2 * pad);
  const float bottom = canvas.origin.y + canvas.size.y - pad;
  const auto L = static_cast<double>(m.context);
  const std::string title = "Why extrapolation fails: Position Interpolation, Fig. 2 and 5";
  const std::string sub = nobreak("a(s) = Σⱼ αⱼ sin(sθⱼ) + βⱼ cos(sθⱼ)") +
                          " fitted by least squares to " + nobreak("N(0, 1)") + " targets at " +
                          nobreak("s = 0 … L − 1:") + "  " +
                          nobreak("d = " + std::to_string(m.dim)) + " " +
                          nobreak("(" + std::to_string(m.dim) + " functions),") + " " +
                          nobreak("base " + format_number(m.base, NumberStyle::tick) + ",") + " " +
                          nobreak("L = " + format_number(L, NumberStyle::tick) + ",") + " " +
                          nobreak("seed " + std::to_string(m.seed));
  const std::string note =
      "Rank tolerance " + nobreak("10⁻⁶:") + " the paper's scale " +
      nobreak("(rank " + std::to_string(m.rank) + " of " + std::to_string(m.dim) + ").") +
      " NumPy's default tolerance gives about " + nobreak("10¹⁰") +
      " beyond L: the data do not determine a(s) past L. R or Re-roll: "
      "new targets.";
  const Text texts[] = {
      {f.title, f.large, true}, {f.heading, f.body, true}, {f.heading, f.body, false}};
  const Text& t = texts[std::min(level, 2)];
  float y = canvas.origin.y + pad;
  y += pen.wrapped(fit_font({t.title, f.heading, f.bold}, title, width, 1), ImVec2(x0, y), width,
                   pal.text, title) +
       2 * s;
  y += pen.wrapped(t.sub, ImVec2(x0, y), width, pal.text_dim, sub) + 2 * s;
  const std::string busy = model_.busy() ? "  Computing the new fit …" : "";
  y += pen.wrapped(
      f.body, ImVec2(x0, y), width, pal.accent,
      (t.note ? note : "Rank tolerance " + nobreak("10⁻⁶") + " (the paper's scale).") + busy);
  y += 8 * s;

  // 2 x 2 plots, each with its title above it
  const float gap = std::round(20.0f * s);
  const float cw = std::floor(0.5f * (width - gap)), ch = std::floor(0.5f * (bottom - y - gap));
  const std::string titles[4] = {
      "The fit on [0, L): " + nobreak("|a| ≤ " + num(m.max_inside)),
      "The same fit on [0, 2L): " + nobreak("|a| up to " + num(m.max_beyond)) + " beyond L",
      "Between integers " +
          nobreak("(s = " + num(m.s_between.front()) + " … " +
                  num(m.s_between.back() + kBetweenStep) + ",") +
          " " + nobreak("steps of 1/8):") + " smooth",
      "B(s)/d, the factor in PI's extrapolation bound (Fig. 5)"};
  ImFont* tf[4];
  float title_h[2] = {0, 0};  // the taller title of each row (titles wrap to two lines)
  for (int k = 0; k < 4; ++k) {
    tf[k] = fit_font({f.large, f.bold}, titles[k], cw, 2);
    title_h[k / 2] = std::max(title_h[k / 2], wrapped_size(tf[k], titles[k], cw).y);
  }
  for (int k = 0; k < 4; ++k) {
    const float cx = x0 + static_cast<float>(k % 2) * (cw + gap);
    const float cy = y + static_cast<float>(k / 2) * (ch + gap);
    pen.wrapped(tf[k], ImVec2(cx, cy), cw, pal.text, titles[k]);
    plot::Axis ax, ay;
    ax.label = "s (relative position)";
    ax.short_label = "s";
    ax.ticks = 5;
    ay.ticks = 4;
    const double lim[4] = {m.max_inside, m.max_beyond, 0.0, 0.0};
    ax.lo = k == 2 ? m.s_between.front() : 0.0;
    ax.hi = k == 0 ? L : (k == 2 ? m.s_between.back() + kBetweenStep : 2.0 * L);
    if (k == 2) {
      const double a = std::max(max_abs(m.a_between, 0, m.a_between.size()),
                                max_abs(m.targets, 0, m.targets.size()));
      // room at the bottom for the legend of the targets, under the lowest of them (it sat on
      // the points: review D12)
      ay.lo = -1.7 * a;
      ay.hi = 1.15 * a;
    } else if (k == 3) {
      ay.lo = 0.0;
      ay.hi = 1.05 * max_abs(m.b_over_d, 0, m.b_over_d.size());
    } else {
      ay.lo = -1.15 * std::max(lim[k], 1e-12);
      ay.hi = -ay.lo;
    }
    ay.label = k == 3 ? "B(s)/d" : "a(s)";
    frames_[k] = plot::axes(dl, st, ImVec2(cx, cy + title_h[k / 2] + 4 * s),
                            ImVec2(cx + cw, cy + ch), ax, ay);
  }
  const float thin = std::max(1.0f, std::round(2.0f * s));
  const float one = std::max(1.0f, std::round(s));
  plot::hline(dl, frames_[0], 0.0, st.axis, one);
  plot::line(dl, frames_[0], m.s_inside, m.a_inside, pal.key, one);
  plot::hline(dl, frames_[1], 0.0, st.axis, one);
  plot::line(dl, frames_[1], m.s_beyond, m.a_beyond, pal.bad, one);
  plot::vline(dl, frames_[1], L, pal.text, thin, true);
  plot::label_box(dl, st, f.large,
                  ImVec2(frames_[1].x.to_px(L) - text_size(f.large, "L").x - 10 * s,
                         frames_[1].area_min.y + 6 * s),
                  pal.text, "L");
  plot::hline(dl, frames_[2], 0.0, st.axis, one);
  plot::line(dl, frames_[2], m.s_between, m.a_between, pal.key, thin);
  for (std::size_t i = 0; i < m.targets.size(); ++i)
    plot::marker(dl, frames_[2], m.s_targets[i], m.targets[i], pal.query, 4.0f * s);
  plot::vline(dl, frames_[3], L, pal.text, thin, true);
  plot::line(dl, frames_[3], m.s_b, m.b_over_d, pal.accent, thin);
  const ImVec2 lp = plot::label_box_padding(st);
  plot::label_box(dl, st, f.body,
                  ImVec2(frames_[2].area_min.x + lp.x + 6 * s,
                         frames_[2].area_max.y - f.body->FontSize - lp.y - 4 * s),
                  pal.query, "● targets at the integers");
}

void ExtrapolationPanel::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Model* shown = model_.get(inputs_of(p), compute);
  const Canvas canvas("extrapolation_canvas", &drawn_);
  const float s = env.scale;
  if (!shown) {
    canvas.pen.text(env.fonts->large, ImVec2(canvas.origin.x + 16 * s, canvas.origin.y + 16 * s),
                    palette(p.theme).text_dim, "Computing the fit …");
    return;
  }
  const Model& m = *shown;
  if (!m.error.empty()) {
    const float pad = std::round(16.0f * s);
    canvas.pen.wrapped(env.fonts->large, ImVec2(canvas.origin.x + pad, canvas.origin.y + pad),
                       std::max(1.0f, canvas.size.x - 2 * pad), palette(p.theme).bad, m.error);
    return;
  }
  // the fullest header that leaves each of the four plots 150 px (at scale 1) of height
  const int level = first_fitting(3, [&](int lv) {
    const float h = lv == 0 ? 38 + 26 * 2 + 19 * 2 : (lv == 1 ? 26 + 19 * 2 + 19 * 2 : 26 + 38);
    return canvas.size.y - h * s - 70 * s >= 2 * 190 * s;
  });
  paint(m, canvas, env, p, level);
  if (!canvas.hovered) return;
  for (int k = 0; k < 4; ++k) {
    const plot::Frame& fr = frames_[k];
    if (!fr.contains(canvas.mouse)) continue;
    const double x = fr.x.from_px(canvas.mouse.x);
    ImGui::BeginTooltip();
    if (k == 3) {
      const auto i = static_cast<std::size_t>(std::clamp(std::round(x), 0.0, m.s_b.back()));
      ImGui::Text("s = %zu:  B(s)/d = %s", i, full_number(m.b_over_d[i]).c_str());
    } else if (k == 2) {
      const double step = std::round((x - m.s_between.front()) / kBetweenStep);
      const auto i = static_cast<std::size_t>(
          std::clamp(step, 0.0, static_cast<double>(m.s_between.size() - 1)));
      ImGui::Text("s = %s:  a(s) = %s", full_number(m.s_between[i]).c_str(),
                  full_number(m.a_between[i]).c_str());
    } else {
      const auto& xs = k == 0 ? m.s_inside : m.s_beyond;
      const auto& ys = k == 0 ? m.a_inside : m.a_beyond;
      const auto i = static_cast<std::size_t>(std::clamp(std::round(x), 0.0, xs.back()));
      ImGui::Text("s = %zu:  a(s) = %s", i, full_number(ys[i]).c_str());
    }
    ImGui::Text("fit: rank %d of %d, residual norm %.6g, computed in %.1f ms", m.rank, m.dim,
                m.residual, 1e3 * m.seconds);
    ImGui::EndTooltip();
  }
}

}  // namespace rope::app
