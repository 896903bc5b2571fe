// views/decay_view.h — RoPE's long-range decay (RoFormer sec. 3.4.3).
//
// Plots the relative upper bound D(r) = (1/(d/2)) sum_j |sum_{i<j} e^{i r theta_i}| against the
// relative distance r = 0 ... max_distance for the current d and base, with overlays: the same
// d at compare_base, compare_dim at the current base, and (off by default: mean_score) the mean
// score (R_0 q).(R_r k) of seeded random positive q, k (rope::mean_random_score). D is the bound
// divided by max|h_{i+1} − h_i|·(d/2), so the mean score is drawn divided by the same factor of
// its own mean weights h̄ (rope::mean_random_max_step): on that scale the summation-by-parts bound
// says it stays within ±D(r), and the header says so. The current distance |n - m| is marked
// with D there on the current curve. Hovering reads every curve at r.
// With a context-extension scaling on (views/view_scaling.h) the current curve is D(r) at θ′_i
// (rope::decay_curve_thetas), the unscaled D(r) is drawn dashed beside it, and the mean score
// uses θ′ and carries the attention factor's square (cos and sin × a). D itself has no a: it is
// the bound divided by max|h_{i+1} − h_i|, and both scale by a².
// Todo / limits: the curves are computed on the UI thread, and at d = 4096, R = 100 000 that
// takes seconds (measured here: decay_curve 1.9 s, the mean score 1.1 s).
//
// Usage: DecayView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rope/scaling.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/math_text.h"
#include "ui/plot.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct DecayView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // One plotted curve, over r = 0 ... max_distance.
  struct Curve {
    std::string label;
    int dim = 0;
    double base = 0.0;
    bool mean = false;  // mean random score rather than D(r)
    bool dashed = false;
    std::vector<double> values;  // the curve's own values (the mean score unscaled)
    double scale = 1.0;  // drawn as values × scale: 1/((d/2)·max|h̄ᵢ₊₁ − h̄ᵢ|) for the mean score
  };
  // Read-only results, for tests and exports (empty before the first Draw)
  const std::vector<Curve>& curves() const { return model().curves; }
  const std::vector<double>& distances() const { return model().distances; }  // r = 0 ... R
  const std::string& error() const { return model().error; }
  double attention_factor() const { return model().attention_factor; }  // 1 without scaling
  const DrawnText& drawn() const { return drawn_; }
  // The plot's frame in the last Draw (empty when the plot had no room): where r and D(r) are.
  const plot::Frame& frame() const { return frame_; }

 private:
  struct Inputs {  // the Params fields compute() reads: the cache key
    int dim = 0, compare_dim = 0, max_distance = 0;
    double base = 0.0, compare_base = 0.0;
    bool mean_score = false;
    std::uint64_t seed = 0;
    ScalingParams scaling;         // view_scaling(p): method none when no scaling is on
    double rotary_fraction = 1.0;  // the partial rotation (drawn_frequencies)
    RotaryStyle rotary_style = RotaryStyle::neox;  // what it means (only when fraction < 1)
    bool operator==(const Inputs&) const = default;
  };
  struct Model {
    std::vector<double> distances;
    std::vector<Curve> curves;  // the current curve first, then the overlays
    std::string error;
    bool scaled = false;            // the current curve is at θ′
    bool partial = false;           // the curves at d and base rotate only part of the head
    double attention_factor = 1.0;  // a, on the mean score (× a²)
    double mean_factor = 0.0;  // (d/2)·max|h̄ᵢ₊₁ − h̄ᵢ| (× a²): the mean score is ÷ this; 0 off
  };
  struct Layout;  // decay_view.cpp: fonts, the header's level, where the legend and plot go
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);
  Layout layout(const Model& m, const Params& p, const Canvas& canvas, const ViewEnv& env);
  static plot::Frame paint(const Model& m, const Layout& lay, const Canvas& canvas,
                           const Params& p);
  static void hover(const Model& m, const Layout& lay, const plot::Frame& fr, const Canvas& canvas);
  const Model& model() const;  // the cached model, or an empty one before the first Draw

  ViewCache<Inputs, Model> model_;  // ui/view_cache.h
  DrawnText drawn_;                 // every line of text of the last Draw
  plot::Frame frame_{};             // the plot's, in the last Draw
  // the formula under the title: ViewEnv::math, or (drawn alone, in tests) its own
  MathText own_math_;
  MathText* math_ = &own_math_;
};

}  // namespace rope::app
