// views/diagonal_fit_panel.h — can a RoPE score be written as content times a number for the
// distance? The heatmap view's mode with diagonal_fit on (lesson 7, the multiplicative bias
// e_ij = (q·k) a_ij of seed 001).
//
// For the heatmap's random content (N seeded q_j, k_j: rope::random_vectors with seed and
// seed + 1, positions j·stride) and the diagonal r = n − m of the current positions, it plots
// each cell (j, j + r) as a point: across, the plain score q_j·k_{j+r}; up, the RoPE score.
// A multiplicative bias would put every point on one line through 0 of slope a(r); the line
// drawn is the best such slope (rope::diagonal_fit), and the read-out says what it leaves.
// θ of the whole head (no scaling or partial rotation), as the lesson quantity bias_residual.
//
// Usage: DiagonalFitPanel panel;  in HeatmapView::Draw when p.diagonal_fit: panel.Draw(state, env);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rope/attention.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct DiagonalFitPanel {
  void Draw(AppState& state, const ViewEnv& env);

  struct Model {
    std::string error;  // core's message, or why there is no diagonal; nothing else is set then
    int n = 0, offset = 0;
    DiagonalFit fit;  // the plain and RoPE scores of the diagonal's cells, the factor, residual
  };
  // Read-only results, for tests
  const Model& model() const;
  const DrawnText& drawn() const { return drawn_; }

 private:
  struct Inputs {  // the Params fields compute() reads: the cache key
    int positions = 0, stride = 1, dim = 0;
    double base = 0.0, offset = 0.0;
    Pairing pairing = Pairing::interleaved;
    std::uint64_t seed = 0;
    bool operator==(const Inputs&) const = default;
  };
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);

  ViewCache<Inputs, Model> model_;  // ui/view_cache.h
  DrawnText drawn_;                 // every line of text of the last Draw
};

}  // namespace rope::app
