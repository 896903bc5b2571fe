// views/decay_view.cpp — RoPE's long-range decay D(r) and its overlays (decay_view.h).
//
// [SECTION] helpers: labels, colours, the formula line and the header
// [SECTION] the Layout record; inputs and compute: D(r) for each curve, the mean score
// [SECTION] layout: the fullest header that leaves the plot room, the legend
// [SECTION] paint: legend, axes, curves, the current distance
// [SECTION] hover: every curve at the r under the mouse
// [SECTION] Draw and the control panel's part
#include "views/decay_view.h"

#include <algorithm>
#include <cmath>

#include "imgui.h"
#include "rope/decay.h"
#include "state/params.h"
#include "ui/math_text.h"
#include "ui/page.h"
#include "ui/param_widgets.h"
#include "ui/theme.h"
#include "views/view_scaling.h"

namespace rope::app {
namespace {

// [SECTION] helpers: labels, colours, the formula line and the header

constexpr int kSamples = 256;  // random pairs averaged by the mean-score overlay
constexpr int kHeaderLevels = 3;

std::string curve_label(int dim, double base) {
  return "D(r), d = " + std::to_string(dim) + ", base " + format_number(base, NumberStyle::tick);
}

// The current curve in the query colour, overlays in the key, accent and good colours, the
// mean score dimmed.
ImU32 curve_colour(const Palette& pal, const DecayView::Curve& c, std::size_t i) {
  const ImU32 colours[] = {pal.query, pal.key, pal.accent, pal.good};
  return c.mean ? pal.text_dim : colours[std::min<std::size_t>(i, 3)];
}

// D(r) and S_j(r) as RoFormer §3.4.3 writes them (text style: the limits beside the sums, so the
// formula takes about one line and a half).
constexpr const char* kDecayTex =
    "D(r) = \\frac{2}{d}\\sum_{j=1}^{d/2} \\left|S_j(r)\\right|, \\qquad "
    "S_j(r) = \\sum_{i=0}^{j-1} e^{\\mathrm{i}\\,r\\,\\theta_i}";

// The formula line: typeset by `math` when it has a font (shrunk to the width if needed), else
// the same in plain Unicode. Returns its height. With a Pen{} (no draw list) it only measures.
float formula_line(const Pen& pen, const Page& pg, MathText* math, bool has_gl, ImFont* font) {
  if (math == nullptr || math->font() == nullptr) {
    const std::string plain = nobreak("D(r) = (2/d) Σⱼ |Sⱼ(r)|,") + "  " +
                              nobreak("Sⱼ(r) = Σᵢ₌₀…ⱼ₋₁ exp(i·r·θᵢ),") + "  " +
                              nobreak("j = 1 … d/2");
    return pen.wrapped(font, ImVec2(pg.x0, pg.y0), pg.width, pg.pal.text, plain);
  }
  // the math's em at the line height of the text it replaces: its limits and fraction need the
  // room, and a class reads it from the back
  float px = font->FontSize;
  MathText::Formula f = math->typeset(kDecayTex, {}, px, pg.pal.text, true);
  if (f.list.width > pg.width && f.list.width > 0.0f) {  // narrow canvas: a smaller formula
    px *= pg.width / f.list.width;
    f = math->typeset(kDecayTex, {}, px, pg.pal.text, true);
  }
  const float height = f.list.height + f.list.depth;
  if (pen.dl != nullptr) {
    math->paint(pen.dl, f.list, ImVec2(pg.x0, pg.y0 + f.list.height), pg.pal.text, has_gl);
    if (pen.log != nullptr)  // tests see the formula as its TeX, where it was drawn
      pen.log->add(ImVec2(pg.x0, pg.y0), ImVec2(pg.x0 + f.list.width, pg.y0 + height), kDecayTex);
  }
  return height;
}

// The title (levels 0, 1), the formula with what it is, the note (levels 0, 1) and the error,
// from the top of the canvas; returns the y under them. A Pen{} only measures.
float header(const Pen& pen, const Page& pg, int level, const Params& p, const std::string& error,
             const std::string& mean_note, MathText* math, bool has_gl) {
  float y = pg.y0;
  const Fonts& f = pg.f;
  const auto line = [&](ImFont* font, ImU32 colour, const std::string& text) {
    return pen.wrapped(font, ImVec2(pg.x0, y), pg.width, colour, text);
  };
  const std::string what =
      "RoFormer’s relative upper bound on " + nobreak("|q·R(r)k|") + " (§3.4.3)";
  const ScalingParams sp = view_scaling(p);
  const std::string scaled =
      nope(sp) ? scaling_words(sp) + ":  D(r) = (d/2 + 1)/2 at every r (solid): no decay; " +
                     "the original θᵢ dashed" +
                     (p.mean_score ? std::string("; the mean score") : std::string())
      : scaling_on(sp) ? scaling_words(sp) + ":  D(r) at " + nobreak("θ′ᵢ") +
                             " (solid) beside the original θᵢ (dashed)" +
                             // only what is drawn: the mean curve is an overlay (review D18)
                             (p.mean_score ? std::string("; the mean score × a²") : std::string())
                       : std::string();
  const std::string note = "current " + nobreak("d = " + std::to_string(p.dim) + ",") + " " +
                           nobreak("base " + format_number(p.base, NumberStyle::tick) + ";") +
                           "  RoFormer's figure: " + nobreak("d = 128,") + " " +
                           nobreak("base 10 000,") + " " + nobreak("r up to 256.") + "  " +
                           nobreak("D(0) = (d/2 + 1)/2.");
  if (level < 2)
    y += line(level == 0 ? f.title : f.heading, pg.pal.text, "Long-range decay of RoPE") + 2 * pg.s;
  Page at = pg;
  at.y0 = y;
  y += formula_line(pen, at, math, has_gl, level == 0 ? f.large : f.body) + 4 * pg.s;
  y += line(f.body, pg.pal.text, what) + 2 * pg.s;
  if (level < 2) y += line(f.body, pg.pal.text_dim, note);
  if (!scaled.empty()) y += line(f.bold, pg.pal.accent, scaled);
  if (!mean_note.empty()) y += line(f.body, pg.pal.text_dim, mean_note);
  if (!error.empty()) y += line(f.bold, pg.pal.bad, error);
  return y + 10 * pg.s;
}

// What the mean-score overlay is divided by and why, or "" when it is off.
std::string mean_note(double factor) {
  if (factor <= 0.0) return {};
  return "Mean score (dashed grey) ÷ " +
         nobreak("(d/2)·max|⟨h⟩ᵢ₊₁ − ⟨h⟩ᵢ| = " + format_number(factor, NumberStyle::label, 4)) +
         ", ⟨h⟩ the mean weights: on this scale the bound keeps it within " + nobreak("±D(r).");
}

// Where a label `text` goes at height y beside the vertical line at x: right of it, or left of
// it near the plot's right edge.
ImVec2 beside(const Page& pg, const plot::Frame& fr, float x, ImFont* font, const std::string& text,
              float y) {
  const ImVec2 lp = plot::label_box_padding(pg.st);
  const float w = text_size(font, text).x;
  const float s = pg.s;
  const float lx = x + 6 * s + w + lp.x <= fr.area_max.x ? x + 6 * s + lp.x : x - 6 * s - lp.x - w;
  // clear of the y axis too, where D(r) falls steeply from D(0)
  return ImVec2(std::max(lx, fr.area_min.x + lp.x + 6 * s), y);
}

// The vertical extent, in px, of every curve drawn between x0 and x1 px: what a label there
// would cover. {max, lowest} when no curve reaches that span.
std::pair<float, float> curves_between(const std::vector<DecayView::Curve>& curves,
                                       const plot::Frame& fr, float x0, float x1) {
  float top = fr.area_max.y, bottom = fr.area_min.y;
  const double r0 = std::max(0.0, std::floor(fr.x.from_px(x0))), r1 = std::ceil(fr.x.from_px(x1));
  for (const DecayView::Curve& c : curves)
    for (double r = r0; r <= r1 && r < static_cast<double>(c.values.size()); r += 1.0) {
      const float y = fr.y.to_px(c.values[static_cast<std::size_t>(r)] * c.scale);
      top = std::min(top, y);
      bottom = std::max(bottom, y);
    }
  return {top, bottom};
}

// The current distance r = |n - m| as a dashed line with its label at the foot of the plot, or
// at its top (under the legend) where the curves pass through the foot (classroom review D12:
// at r = 5000 of 20 000 the label sat on the curve); and D(r) there on the current curve:
// above the point if that is clear of the legend and the distance's label, else below it if
// that is clear of them, else just beside the distance's label; and where the other curves pass
// under the label's place, above them all or below them all instead, when either fits.
void mark_distance(const std::vector<DecayView::Curve>& curves, const Page& pg,
                   const plot::Frame& fr, float legend_bottom, ImDrawList* dl, double r) {
  const DecayView::Curve& c = curves.front();
  const Fonts& f = pg.f;
  const float s = pg.s;
  const float lx = fr.x.to_px(r);
  plot::vline(dl, fr, r, with_alpha(pg.pal.text, 0.5f), std::max(1.0f, std::round(s)), true);
  const ImVec2 lp = plot::label_box_padding(pg.st);
  const std::string dist = "|n − m| = " + format_number(r, NumberStyle::label, 6);
  const float dist_h = f.body->FontSize;
  const float dist_w = text_size(f.body, dist).x;
  const auto clear_of_curves = [&](ImVec2 at) {
    const auto [top, bottom] = curves_between(curves, fr, at.x - lp.x, at.x + dist_w + lp.x);
    return at.y - lp.y >= bottom + 4 * s || at.y + dist_h + lp.y <= top - 4 * s;
  };
  const ImVec2 foot = beside(pg, fr, lx, f.body, dist, fr.area_max.y - dist_h - 8 * s);
  const ImVec2 head = beside(pg, fr, lx, f.body, dist, legend_bottom + 6 * s + lp.y);
  const bool at_head =
      !clear_of_curves(foot) && clear_of_curves(head) && head.y + dist_h + lp.y < foot.y - lp.y;
  const ImVec2 dist_at = at_head ? head : foot;
  plot::label_box(dl, pg.st, f.body, dist_at, pg.pal.text_dim, dist);
  // the room D(r)'s label has: between the legend (or the distance's label at the top) and the
  // distance's label (or the plot's foot)
  const float upper = at_head ? dist_at.y + dist_h + lp.y + 4 * s : legend_bottom + 6 * s;
  const float lower = at_head ? fr.area_max.y - 4 * s : dist_at.y - lp.y - 4 * s;
  const auto ri = static_cast<std::size_t>(r);
  if (r != std::floor(r) || ri >= c.values.size()) return;
  const double v = c.values[ri];
  const ImU32 colour = curve_colour(pg.pal, c, 0);
  plot::marker(dl, fr, r, v, colour, 6 * s);
  const std::string label = "D(" + format_number(r, NumberStyle::label, 6) +
                            ") = " + format_number(v, NumberStyle::label, 5);
  const float h = f.large->FontSize;
  const float py = fr.y.to_px(v);
  float ly = py - h - 12 * s;
  if (ly - lp.y < upper) ly = py + 12 * s;
  if (ly + h + lp.y > lower) ly = lower - lp.y - h;
  const ImVec2 at = beside(pg, fr, lx, f.large, label, ly);
  const float w = text_size(f.large, label).x;
  const auto [top, bottom] = curves_between(curves, fr, at.x - lp.x, at.x + w + lp.x);
  const bool covers = ly - lp.y < bottom + 4 * s && ly + h + lp.y > top - 4 * s;
  if (covers && curves.size() > 1) {
    const float above = top - 8 * s - h - lp.y;  // over every curve
    const float below = bottom + 8 * s + lp.y;   // under every curve
    const float moved = above - lp.y >= upper ? above : below + h + lp.y <= lower ? below : ly;
    if (moved != ly) {  // a thin leader from the point to the label that left it
      ly = moved;
      const float edge = ly > py ? ly - lp.y : ly + h + lp.y;
      dl->AddLine(ImVec2(lx, py), ImVec2(std::clamp(lx, at.x - lp.x, at.x + w + lp.x), edge),
                  with_alpha(colour, 0.7f), std::max(1.0f, std::round(1.5f * s)));
    }
  }
  plot::label_box(dl, pg.st, f.large, ImVec2(at.x, ly), colour, label);
}

}  // namespace

// [SECTION] the Layout record; inputs and compute: D(r) for each curve, the mean score

// Where the parts go: the header's level, the legend, the plot's top.
struct DecayView::Layout : Page {
  using Page::Page;
  int level = 0;  // of the header: 0 fullest, 1 smaller, 2 the formula only
  float top = 0;  // under the header
  std::vector<plot::LegendEntry> legend;
  bool legend_inside = false;  // in the plot's corner, else in a row above it
  float legend_h = 0;          // that row's height
};

DecayView::Inputs DecayView::inputs_of(const Params& p) {
  const ExtensionParams ext = view_extension(p);
  return {p.dim,           p.compare_dim,  p.max_distance,
          p.base,          p.compare_base, p.mean_score,
          p.seed,          ext.scaling,    ext.scaling.rotary_fraction,
          ext.rotary_style};
}

DecayView::Model DecayView::compute(const Inputs& in) {
  Model m;
  m.distances.resize(static_cast<std::size_t>(in.max_distance) + 1);
  for (std::size_t r = 0; r < m.distances.size(); ++r)
    m.distances[r] = static_cast<double>(r);
  // θ and θ′ of drawn_frequencies, with a, when a scaling or a partial rotation is on (validated
  // with the params; an error is shown and the curves stay those of the whole head, unscaled).
  // The overlays of another d or base keep the same partial rotation, unscaled.
  const ExtensionParams ext = drawn_extension(in.scaling, in.rotary_fraction, in.rotary_style);
  ExtensionParams unscaled_ext = ext;
  unscaled_ext.scaling.method = ScalingMethod::none;
  const bool partial = partial_rotary(ext) && in.scaling.method != ScalingMethod::proportional;
  std::vector<double> scaled;
  if (scaling_on(in.scaling) || partial) {
    auto f = drawn_frequencies(in.dim, in.base, ext);
    if (f && f.value().error) {
      m.error = f.value().error->to_string();
    } else if (f) {
      scaled = f.value().theta_drawn;
      m.attention_factor = f.value().attention_factor;
      m.scaled = f.value().scaled;
      m.partial = partial;
    }
  }
  // θ of a partial rotation at (dim, base), or empty: the whole head's, from d and base
  const auto partial_thetas = [&](int dim, double base) {
    if (!m.partial) return std::vector<double>{};
    auto f = drawn_frequencies(dim, base, unscaled_ext);
    return f && !f.value().error ? std::move(f.value().theta) : std::vector<double>{};
  };
  const std::string unscaled = m.scaled ? " (no scaling)" : "";
  const auto add = [&](int dim, double base, bool mean, bool at_scaled, bool dashed) {
    const std::vector<double> th = at_scaled ? scaled : partial_thetas(dim, base);
    auto v = !th.empty() ? (mean ? mean_random_score_thetas(th, in.max_distance, kSamples, in.seed)
                                 : decay_curve_thetas(th, in.max_distance))
                         : (mean ? mean_random_score(dim, base, in.max_distance, kSamples, in.seed)
                                 : decay_curve(dim, base, in.max_distance));
    if (!v) {
      m.error = v.error().to_string();
      return;
    }
    std::vector<double> values = std::move(v).value();
    double scale = 1.0;
    if (mean) {  // on D's scale: ÷ (d/2)·max|⟨h⟩ᵢ₊₁ − ⟨h⟩ᵢ| (× a² with θ′, like the score)
      auto step = mean_random_max_step(dim, kSamples, in.seed);
      if (!step) {
        m.error = step.error().to_string();
        return;
      }
      const double a2 = at_scaled ? m.attention_factor * m.attention_factor : 1.0;
      const double factor = a2 * step.value() * 0.5 * static_cast<double>(dim);
      scale = factor > 0.0 ? 1.0 / factor : 1.0;
      m.mean_factor = factor;
    }
    std::string label = mean ? "mean score of random q, k ≥ 0 ÷ " +
                                   format_number(1.0 / scale, NumberStyle::label, 4) +
                                   " (d = " + std::to_string(dim) + ")"
                             : curve_label(dim, base);
    if (m.partial && !th.empty())
      label += ", " + nobreak("p = " + format_number(in.rotary_fraction, NumberStyle::label, 4)) +
               " " + rotary_style_name(in.rotary_style);
    if (at_scaled) {
      const double a2 = m.attention_factor * m.attention_factor;
      if (mean)
        for (double& x : values)
          x *= a2;
      label =
          (mean ? "mean score at θ′, × a², ÷ " + format_number(1.0 / scale, NumberStyle::label, 4) +
                      ", d = " + std::to_string(dim)
                : "D(r) at θ′, d = " + std::to_string(dim)) +
          ", " +
          (in.scaling.method == ScalingMethod::proportional
               ? scaling_words(in.scaling)  // p-RoPE has p, not a factor; p = 0 is NoPE
               : scaling_method_names(in.scaling.method).words + std::string(" ") +
                     nobreak("s = " + format_number(in.scaling.factor, NumberStyle::label, 6)));
    } else if (m.scaled) {
      label += unscaled;
    }
    m.curves.push_back(Curve{label, dim, base, mean, dashed, std::move(values), scale});
  };
  add(in.dim, in.base, false, m.scaled, false);
  if (m.scaled) add(in.dim, in.base, false, false, true);  // the original θ, dashed beside it
  if (in.compare_base != 0.0 && in.compare_base != in.base)
    add(in.dim, in.compare_base, false, false, false);
  if (in.compare_dim != 0 && in.compare_dim != in.dim)
    add(in.compare_dim, in.base, false, false, false);
  if (in.mean_score) add(in.dim, in.base, true, m.scaled, true);
  return m;
}

const DecayView::Model& DecayView::model() const {
  return model_.model_or_empty();
}

// [SECTION] layout: the fullest header that leaves the plot room, the legend

// The fullest header that leaves the plot 420 px (at scale 1); the legend inside the plot's
// top right corner when that covers at most half the width, else in a row above the plot.
DecayView::Layout DecayView::layout(const Model& m, const Params& p, const Canvas& canvas,
                                    const ViewEnv& env) {
  const float s = env.scale;
  const bool has_gl = env.has_gl;
  Layout lay(canvas, env, p.theme);
  for (std::size_t i = 0; i < m.curves.size(); ++i) {
    const Curve& c = m.curves[i];
    lay.legend.push_back({c.label, curve_colour(lay.pal, c, i), c.dashed, false});
  }
  lay.legend_inside = plot::legend_size(lay.st, lay.legend).x <= 0.5f * lay.width;
  if (!lay.legend_inside)
    lay.legend_h = plot::legend_row(nullptr, lay.st, {}, lay.width, lay.legend) + 8 * s;
  lay.level = first_fitting(kHeaderLevels, [&](int level) {
    return lay.bottom -
               header(Pen{}, lay, level, p, m.error, mean_note(m.mean_factor), math_, has_gl) -
               lay.legend_h >=
           420.0f * s;
  });
  lay.top = header(Pen{}, lay, lay.level, p, m.error, mean_note(m.mean_factor), math_, has_gl);
  return lay;
}

// [SECTION] paint: legend, axes, curves, the current distance

// The legend, the axes, the curves (the current one on top) and the current distance; returns
// the plot's frame.
plot::Frame DecayView::paint(const Model& m, const Layout& lay, const Canvas& canvas,
                             const Params& p) {
  ImDrawList* dl = canvas.draw_list;
  const float s = lay.s;
  float y = lay.top;
  if (!lay.legend_inside) {
    plot::legend_row(dl, lay.st, ImVec2(lay.x0, y), lay.width, lay.legend);
    y += lay.legend_h;
  }
  double lo = 0.0, hi = 0.0;
  for (const Curve& c : m.curves)
    for (double v : c.values)
      if (std::isfinite(v * c.scale)) {
        lo = std::min(lo, v * c.scale);
        hi = std::max(hi, v * c.scale);
      }
  plot::Axis ax, ay;
  ax.hi = std::max(1, p.max_distance);
  ax.label = "relative distance r = n − m (positions)";
  ax.short_label = "distance r = n − m";
  ay.lo = lo;
  ay.hi = hi > lo ? hi * 1.05 : lo + 1.0;
  ay.label = m.mean_factor > 0.0 ? "D(r); mean score ÷ its factor" : "D(r)";
  const plot::Frame fr = plot::axes(dl, lay.st, ImVec2(lay.x0, y),
                                    ImVec2(canvas.max().x - lay.pad, lay.bottom), ax, ay);
  if (lo < 0.0) plot::hline(dl, fr, 0.0, lay.st.axis, std::max(1.0f, std::round(s)));
  for (std::size_t i = m.curves.size(); i-- > 0;) {
    const Curve& c = m.curves[i];
    std::vector<double> drawn = c.values;
    for (double& v : drawn)
      v *= c.scale;
    plot::line(dl, fr, m.distances, drawn, curve_colour(lay.pal, c, i),
               std::max(1.0f, std::round(3.0f * s)), c.dashed);
  }
  const float legend_bottom =
      lay.legend_inside ? plot::legend(dl, lay.st, fr, lay.legend, 1) : fr.area_min.y;
  const double r_now = std::fabs(p.key_position - p.position);
  if (r_now <= p.max_distance) mark_distance(m.curves, lay, fr, legend_bottom, dl, r_now);
  return fr;
}

// [SECTION] hover: every curve at the r under the mouse

// Every curve at the r under the mouse: markers and a tooltip.
void DecayView::hover(const Model& m, const Layout& lay, const plot::Frame& fr,
                      const Canvas& canvas) {
  const double r = std::clamp(std::round(fr.x.from_px(canvas.mouse.x)), 0.0,
                              static_cast<double>(m.distances.size() - 1));
  plot::vline(canvas.draw_list, fr, r, lay.pal.text, std::max(1.0f, std::round(lay.s)));
  const auto ri = static_cast<std::size_t>(r);
  for (std::size_t i = 0; i < m.curves.size(); ++i)
    if (ri < m.curves[i].values.size())
      plot::marker(canvas.draw_list, fr, r, m.curves[i].values[ri] * m.curves[i].scale,
                   curve_colour(lay.pal, m.curves[i], i), 5 * lay.s);
  ImGui::BeginTooltip();
  ImGui::Text("r = %.0f", r);
  for (std::size_t i = 0; i < m.curves.size(); ++i)
    if (ri < m.curves[i].values.size())
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(curve_colour(lay.pal, m.curves[i], i)),
                         "%s: %s", m.curves[i].label.c_str(),
                         full_number(m.curves[i].values[ri] * m.curves[i].scale).c_str());
  ImGui::EndTooltip();
}

// [SECTION] Draw and the control panel's part

void DecayView::Draw(AppState& state, const ViewEnv& env) {
  math_ = env.math ? env.math : &own_math_;
  if (!env.math) own_math_.begin_frame();  // the shared one is begun by draw_frame
  const Params& p = state.params;
  const Model& m = model_.get(inputs_of(p), compute);
  const Canvas canvas("decay_canvas", &drawn_);  // clip pushed here, popped at every return
  const Layout lay = layout(m, p, canvas, env);
  header(canvas.pen, lay, lay.level, p, m.error, mean_note(m.mean_factor), math_, env.has_gl);
  frame_ = plot::Frame{};
  if (!m.curves.empty() && lay.bottom - lay.top >= 80 * lay.s) {
    const plot::Frame fr = frame_ = paint(m, lay, canvas, p);
    if (canvas.hovered && fr.contains(canvas.mouse)) hover(m, lay, fr, canvas);
  }
  if (!env.math) own_math_.end_frame(env.has_gl);
}

void DecayView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "max_distance");
  if (ImGui::Button("RoFormer figure (d 128, base 10 000, R 256)")) {
    (void)set_param_value(p, "dim", 128);  // through the table: typed q, k fit the new d
    p.base = 10000.0;
    p.max_distance = 256;
  }
  bool base_on = p.compare_base != 0.0;
  if (ImGui::Checkbox("overlay base", &base_on)) p.compare_base = base_on ? 500000.0 : 0.0;
  if (base_on) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    param_slider(p, "compare_base");
  }
  bool dim_on = p.compare_dim != 0;
  if (ImGui::Checkbox("overlay d", &dim_on)) p.compare_dim = dim_on ? 128 : 0;
  if (dim_on) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    param_slider(p, "compare_dim");
  }
  ImGui::Checkbox("mean score of random q, k", &p.mean_score);
}

}  // namespace rope::app
