// views/precision_view.h — what bf16 and fp16 do to RoPE at long positions, emulated exactly
// (rope/low_precision.h; the cast points and the documented cases: docs/precision.md).
//
// For the position m, d and base, with one format per cast point (position, theta, angle,
// cos / sin; state/precision_params.h), the view shows
//   - one small dial per pair: the exact angle m theta_i beside the angle as stored, and the
//     wrapped error between them (the first kMaxDials pairs when d/2 is larger);
//   - the largest wrapped error over the pairs against the position, 1 ... 10^7 on log axes,
//     for the chosen formats and for fp32 everywhere, with the marks 256 and 2048 (the last
//     integers bf16 and fp16 hold exactly) and 65 504 (the largest fp16);
//   - a strip of consecutive integer positions around m with the values they are stored as:
//     neighbours that collapse onto one value are bracketed together;
//   - the score (R_m q).(R_n k) exact and with the stored cos / sin (rope::rotate_emulated).
// Hovering a dial, the plot or the strip shows the exact values behind it.
//
// Usage: PrecisionView view;  each frame inside the canvas window: view.Draw(state, env);
// Limits: the error curve is sampled at log-spaced integer positions (2000 for d <= 256, fewer
// for larger d) and drawn as an upper envelope (the largest sample within 4 px), so it
// reads as "how large the error gets near m"; a spike between two samples may not show, and
// the exact value at m is always marked.
#pragma once

#include <string>
#include <vector>

#include "imgui.h"
#include "rope/low_precision.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct PrecisionView {
  static constexpr int kMaxDials = 64;         // pairs drawn as dials: the fastest 64
  static constexpr double kMaxPosition = 1e7;  // right end of the error plot
  static constexpr int kStripCells = 24;       // integers computed around m (fewer are drawn)

  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // The error sweep, recomputed when d, base or the formats change.
  struct Sweep {
    std::vector<double> positions;  // log-spaced integers 1 ... 10^7
    std::vector<double> error;      // largest |wrapped error| over the pairs, rad; NaN: overflow
    std::vector<int> worst_pair;    // the pair reaching it (-1 where NaN)
    std::vector<double> reference;  // the same for fp32 everywhere (empty when that is chosen)
    std::string problem;            // why nothing could be computed (empty when fine)
  };
  // Everything at the current positions, recomputed when anything it reads changes.
  struct Now {
    std::vector<EmulatedAngle> angles;  // [d/2] at m
    std::vector<double> thetas;         // [d/2] theta_i exact (rope::frequencies)
    double max_error = 0.0;             // max |wrapped error| over the pairs at m (NaN: overflow)
    int worst_pair = 0;
    double score_exact = 0.0;     // (R_m q).(R_n k) in double
    double score_emulated = 0.0;  // the same with the stored cos / sin at m and at n
    double strip_first = 0.0;     // the strip's first integer: round(m) - kStripCells / 2 + 1
    std::vector<double> stored;   // [kStripCells] each integer as the position format stores it
    int pair = 0;                 // precision.pair clamped to d/2 - 1
    std::string problem;
  };
  // Where the last Draw put each dial (tests read the pointer tips).
  struct Dial {
    int pair = 0;
    ImVec2 centre, exact_tip, stored_tip;
    float radius = 0.0f;
  };

  const Sweep* sweep() const { return sweep_.model(); }
  const Now* now() const { return now_.model(); }
  const std::vector<Dial>& dials() const { return dials_; }
  const DrawnText& drawn() const { return drawn_; }

  struct SweepInputs {
    int dim = 0;
    double base = 0.0;
    PrecisionFormats formats;
    bool operator==(const SweepInputs&) const = default;
  };
  struct NowInputs {
    int dim = 0;
    double base = 0.0;
    PrecisionFormats formats;
    double m = 0.0, n = 0.0;
    Pairing pairing = Pairing::interleaved;
    std::vector<double> q, k;  // the effective vectors (state/params.h)
    int pair = 0;
    bool operator==(const NowInputs&) const = default;
  };

 private:
  ViewCache<SweepInputs, Sweep> sweep_;
  ViewCache<NowInputs, Now> now_;
  std::vector<Dial> dials_;
  DrawnText drawn_;
};

}  // namespace rope::app
