// views/decay_view.h — RoPE's long-range decay (RoFormer sec. 3.4.3).
//
// Plots the relative upper bound D(r) = (1/(d/2)) sum_j |sum_{i<j} e^{i r theta_i}| against the
// relative distance r = 0 ... max_distance for the current d and base, with overlays: the same
// d at compare_base, compare_dim at the current base, and the mean score (R_0 q).(R_r k) of
// seeded random positive q, k (rope::mean_random_score). The current distance |n - m| is marked
// with D there on the current curve. Hovering reads every curve at r.
//
// Usage: DecayView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <string>
#include <vector>

#include "imgui.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_env.h"

namespace rope::app {

struct DecayView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // read-only results: the curves drawn, each over r = 0 ... max_distance
  struct Curve {
    std::string label;
    int dim = 0;
    double base = 0.0;
    bool mean = false;  // mean random score rather than D(r)
    std::vector<double> values;
    ImU32 colour = 0;
    bool dashed = false;
  };
  std::vector<Curve> curves;
  std::vector<double> distances;  // r = 0 ... max_distance
  std::string error;
  DrawnText drawn;  // every line of text of the last Draw

  // internal: inputs the curves were computed for
  struct Key {
    int dim = 0, compare_dim = 0, max_distance = 0;
    double base = 0.0, compare_base = 0.0;
    bool mean_score = false;
    std::uint64_t seed = 0;
    bool operator==(const Key&) const = default;
  };
  Key key;
  bool computed = false;

 private:
  void update(const Params& p);
};

}  // namespace rope::app
