// lessons/model_quantities.h — the lesson quantities of partial rotary and of DeepSeek's
// decoupled RoPE (lesson 13), computed from the current Params with the core.
//
//   rotary_fraction        p (parameter rotary_fraction)
//   pairs_neox, pairs_proportional     pairs that rotate in each meaning (0: p leaves none)
//   slowest_neox, slowest_proportional the slowest kept wavelength 2π/θ in each meaning, from
//                          rope::partial_frequencies (0 when that meaning has nothing to rotate)
//   slowest_neox_formula, slowest_proportional_formula   the same written out: 2π·b^((R−2)/R)
//                          with R = int(d·p) (even, ≥ 2, else 0), and 2π·b^(2(k−1)/d) with
//                          k = int(d·p) div 2 (≥ 1, else 0)
//   turning_pairs          pairs whose angle at position 1 is not 0 under the θ′ every view
//                          draws (drawn_frequencies, rotary_style as the state says), counted;
//                          0 when p leaves no whole pair (as pairs_neox)
//   slowest_turning        2π/θ′ of the slowest of those pairs, positions (0: none turns)
//   effective_score, effective_relative   (R_m q)·(R_n k) and q·(R_{n−m} k) with the θ′ every view
//                          uses (state/scaling_params.h: partial rotary and scaling applied; a
//                          fraction with no whole pair to rotate counts as 1, as in the pointers)
//   visible_keys           keys the query at m (rounded) sees under the causal mask and a
//                          layer's window and chunks (rope::visible_keys, the heatmap's rule);
//                          rows hold positions 0, 1, ...: 0 for a negative m or n (so are the
//                          two below)
//   uniform_weight         1 / visible_keys at a visible key n, 0 at a masked one
//   row_weight             the heatmap's softmax weight of key n in row m with shared content:
//                          scores a²(R_m q)·(R_j k)/√d at θ′ over the visible keys j
//   row_entropy            −Σ w ln w over that row's weights, nats; row_entropy_plain the same
//                          without a² (a = 1), row_entropy_drop the plain one minus row_entropy
//   mm_pairs_t, _h, _w     multimodal (lesson 17): pairs that turn with each axis under mm_layout
//   mm_fastest_t, _h, _w   the wavelength of each axis's fastest pair (0: the axis has none)
//   mm_t.N, mm_h.N, mm_w.N the ids of token N of mm_sequence; mm_next_id.N: 1 + the largest id
//                          before token N; mm_pair_score.A.B: token A's query against token B's key
//   mla_nope_score         q_C·k_C: the 128 dimensions without RoPE (seeded random q_C, k_C)
//   mla_rope_score         (R_m q)·(R_n k) over the current d with θ′ (the RoPE part; its key is
//                          the one every head shares)
//   mla_rope_relative      q·(R_{n−m} k): the RoPE part depends on n − m only
//   mla_scale              (128 + d)^(−1/2)·mscale², mscale = 0.1·mscale_all_dim·ln s + 1 under
//                          yarn with mscale_all_dim > 0 and s > 1 (rope::yarn_mscale), else 1
//   mla_scale_formula      the same written out with std::log
//   mla_score              mla_scale·(mla_nope_score + mla_rope_score)
//   mla_concat_score       mla_scale times one dot product of the concatenated 128 + d vectors
//
// Usage: if (auto v = model_quantity(params, q, k, name)) return *v;  (nullopt: not one of these)
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "rope/conventions.h"
#include "state/app_state.h"

namespace rope::lessons {

inline constexpr int kMlaNopeDims = 128;  // DeepSeek-V3's qk_nope_head_dim

std::optional<Result<std::vector<double>>> model_quantity(const app::Params& p,
                                                          const std::vector<double>& q,
                                                          const std::vector<double>& k,
                                                          std::string_view name);

}  // namespace rope::lessons
