// views/linear_panel.h — what linear attention computes instead of the N × N score matrix
// (Katharopoulos et al. 2020; RoPE in the numerator only, RoFormer eq. 19): the heatmap view's
// mode with linear_sums on.
//
// For lesson 9's example (lessons::linear_example: 16 seeded tokens, q, k, v of d entries,
// φ = elu + 1; RoPE in the numerator when encoding is rope, else none) it draws, from
// rope::linear_attention_sums:
//   left   the d × d summary S = Σₙ Rₙφ(kₙ) vₙᵀ that every query reads (with causal on: the
//          running S of query m, n ≤ m);
//   right  the running sums per position: row t is zₜ = Σ_{n≤t} φ(kₙ), the vector the
//          denominators read (its last row is z), the query's row m outlined;
//   below  query m's numerator (Rₘφ(qₘ))ᵀS, its denominator φ(qₘ)ᵀz and the output row.
// With linear_reuse on (lesson 9, step 3) the right grid is instead every query's numerator,
// row m = (Rₘφ(qₘ))ᵀS read from the one S (with causal on: the running S of that row), an arrow
// from S to it, and why Rₘ may leave the sum over n: it depends on m alone (linearity).
// No N × N array is formed: the panel holds d·d + N·d numbers. Hover reads a cell.
// Rₙ rotates at drawn_frequencies' θ′ (state/scaling_params.h: the partial rotation and the
// scaling method, as every view). Limit: the method's attention factor a is not applied (it
// would scale the numerator by a²; the softmax temperature it corrects has no counterpart here).
//
// Usage: LinearPanel panel;  in HeatmapView::Draw when p.linear_sums: panel.Draw(state, env);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct LinearPanel {
  void Draw(AppState& state, const ViewEnv& env);

  struct Model {
    std::string error;  // core's message; nothing else is set then
    int n = 0, d = 0;   // tokens, head dimension (= dv)
    int row = 0;        // the query m, clamped to 0 ... n − 1
    bool causal = false;
    bool rope = true;    // RoPE in the numerator (encoding rope), else plain linear attention
    bool reuse = false;  // the right grid shows every query's numerator (linear_reuse)
    std::vector<double> summary;    // [d][d]: S read by row m (core's kv)
    std::vector<double> running_z;  // [n][d]: z after each position (core's z of the first t + 1)
    std::vector<double> numerator;  // [d]: row m's numerator (core)
    std::vector<double> rows;       // [n][d]: every query's numerator (core), read from S
    double denominator = 0.0;       // row m's denominator (core)
    std::vector<double> output;     // [d]: numerator / denominator
  };
  // Read-only results, for tests
  const Model& model() const;
  const DrawnText& drawn() const { return drawn_; }

 private:
  struct Inputs {  // the Params fields compute() reads: the cache key
    int dim = 0;
    double base = 0.0;
    Pairing pairing = Pairing::interleaved;
    std::uint64_t seed = 0;
    int row = 0;
    bool causal = false;
    bool rope = true;
    bool reuse = false;
    ExtensionParams extension;  // view_extension(p): what drawn_frequencies reads
    bool operator==(const Inputs&) const = default;
  };
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);

  ViewCache<Inputs, Model> model_;  // ui/view_cache.h
  DrawnText drawn_;                 // every line of text of the last Draw
};

}  // namespace rope::app
