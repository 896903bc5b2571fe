// views/extrapolation_panel.h — why extrapolating RoPE past the trained context fails and why
// interpolating inside it is safe: Position Interpolation's Fig. 2 and Fig. 5 (Chen, Wong, Chen,
// Tian 2023, arXiv 2306.15595; rope/extrapolation.h), the extension view's second mode.
//
// Four plots: the least-squares fit a(s) of the d basis functions sin(sθ_j), cos(sθ_j) to N(0, 1)
// targets at s = 0 … L−1 (seeded), (1) on [0, L), (2) the same fit on [0, 2L) — it explodes
// beyond L, (3) on [25, 75) in steps of 1/8 with the targets at the integers — smooth between
// them, (4) B(s)/d for s = 0 … 2L−1 (the factor in PI's extrapolation bound, Fig. 5).
// Inputs: dim, base, original_context (L) and seed (R and Re-roll draw new targets).
//
// The rank tolerance is fixed at kFitRankTolerance = 1e-6 and said on screen: the size of the
// explosion beyond L depends on it (rope/extrapolation.h); 1e-6 gives the paper's scale (about
// 10^4), NumPy's default gives about 10^10.
//
// Cost: the fit is one QR of an [L][d] matrix plus 3L + 400 evaluations of d terms: 24 + 9 ms
// for d = 128, L = 2048 on an idle core (rope/extrapolation.h), 93 ms measured in the app at load
// 11 on this 2-core machine. That is too slow for a frame, so it runs on a worker thread
// (views/background_model.h): the previous picture stays, marked "computing", until the new
// fit is ready; only the very first fit is waited for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/view_env.h"
#include "views/background_model.h"

namespace rope::app {

struct ExtrapolationPanel {
  void Draw(AppState& state, const ViewEnv& env);

  struct Model {
    std::string error;  // the core's message; nothing else is set then
    int dim = 0;
    double base = 0.0;
    int context = 0;  // L
    std::uint64_t seed = 0;
    int rank = 0;  // numerical rank of the [L][d] basis matrix at kFitRankTolerance
    double residual = 0.0;
    std::vector<double> s_inside, a_inside;     // s = 0 … L−1
    std::vector<double> s_beyond, a_beyond;     // s = 0 … 2L−1
    std::vector<double> s_between, a_between;   // s = 25, 25.125, … < 75 (clipped to [0, 2L))
    std::vector<double> s_targets, targets;     // the integers of that range and their targets
    std::vector<double> s_b, b_over_d;          // s = 0 … 2L−1
    double max_inside = 0.0, max_beyond = 0.0;  // max |a(s)| on [0, L) and on [L, 2L)
    double seconds = 0.0;                       // wall time of compute()
  };

  const DrawnText& drawn() const { return drawn_; }
  const Model* model() const { return model_.model(); }  // the one drawn last
  bool computing() const { return model_.busy(); }
  bool wait_for_model(double seconds = 30.0) { return model_.wait_idle(seconds); }
  const plot::Frame& frame(int panel) const { return frames_[panel]; }  // 0 … 3 as above

 private:
  struct Inputs {
    int dim = 0;
    double base = 0.0;
    std::int64_t context = 0;
    std::uint64_t seed = 0;
    bool operator==(const Inputs&) const = default;
  };
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);
  void paint(const Model& m, const Canvas& canvas, const ViewEnv& env, const Params& p, int level);

  BackgroundModel<Inputs, Model> model_;
  plot::Frame frames_[4]{};
  DrawnText drawn_;
};

}  // namespace rope::app
