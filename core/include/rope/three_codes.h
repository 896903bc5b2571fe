// rope/three_codes.h — the same RoPE computed the three ways code is written: the math (one 2x2
// rotation per block), Meta's complex form (interleaved pairs as complex numbers) and the
// transformers-style rotate_half form (pairs (x_i, x_{i+d/2})), and the row permutation that
// converts weights from the first layout to the second (convert_llama_weights_to_hf.py's
// "permute for sliced rotary", model-presets.md).
//
// Conventions: rope/conventions.h. Each function follows its listing step by step rather than
// calling apply_rope, so comparing them checks the listings against one another:
//   rotate_math      interleaved layout; block i = (x[2i], x[2i+1]) times R(m theta_i)
//   rotate_complex_interleaved
//                    interleaved layout; z_i = x[2i] + i x[2i+1], z_i * e^{i m theta_i}
//   rotate_half_form half-split layout; y = x * cat(cos, cos) + rotate_half(x) * cat(sin, sin),
//                    rotate_half(x) = cat(-x[d/2:], x[:d/2])
// The identity the code view proves: with P = interleaved_to_half_permutation(d) (rotation.h:
// half[j] = inter[P[j]]; as a matrix it permutes the rows of one head's W_q and W_k),
//   rotate_half_form(P q, m) . rotate_half_form(P k, n) = rotate_math(q, m) . rotate_math(k, n)
// and in fact rotate_half_form(P x, m) = P rotate_math(x, m) (same numbers, other order).
// Leaving P out feeds interleaved-trained coordinates to a code that pairs (x_i, x_{i+d/2}): it
// computes the interleaved score of the shuffled vectors P^T q, P^T k, which differs in general
// (equal only by accident: d = 2, where P = I, m = n, or q, k with P^T q = q and P^T k = k).
//
// Usage:
//   auto th = rope::frequencies(d, base).value();
//   auto c = rope::compare_codes(q, k, m, n, th);           // Result<CodeComparison>
//   if (c) use(c.value().score_half_permuted, c.value().score_half_unpermuted);
//   auto rows = rope::checkpoint_row_permutation(32, 128);  // W_hf[r] = W_meta[rows[r]]
#pragma once

#include <span>
#include <vector>

#include "rope/conventions.h"

namespace rope {

// R_m x by the three listings. x: [d], d = 2 * thetas.size() (thetas from rope::frequencies);
// position finite. Errors name "x", "thetas" or "position".
Result<std::vector<double>> rotate_math(std::span<const double> x, double position,
                                        std::span<const double> thetas);
Result<std::vector<double>> rotate_complex_interleaved(std::span<const double> x, double position,
                                                       std::span<const double> thetas);
Result<std::vector<double>> rotate_half_form(std::span<const double> x, double position,
                                             std::span<const double> thetas);

// The whole-matrix row permutation transformers applies to Meta's W_q or W_k: n_heads heads of
// head_dim rows each; new row r = old row rows[r], i.e. w.view(n_heads, head_dim/2, 2,
// model_dim).transpose(1, 2).reshape(n_heads*head_dim, model_dim). 1 <= n_heads <= 1024,
// head_dim even 2 ... 4096 (at most 2^22 rows). Errors name "n_heads" or "head_dim".
Result<std::vector<int>> checkpoint_row_permutation(int n_heads, int head_dim);

// out[j] = x[perm[j]] (apply P) and out[perm[j]] = x[j] (apply P^T). perm must be a permutation
// of 0 ... x.size()-1. Errors name "perm".
Result<std::vector<double>> apply_permutation(std::span<const double> x, std::span<const int> perm);
Result<std::vector<double>> apply_permutation_transposed(std::span<const double> x,
                                                         std::span<const int> perm);

// Everything the code view shows for one q, k, m, n. Vectors are [d].
struct CodeComparison {
  std::vector<int> perm;               // P, interleaved -> half-split
  std::vector<double> rq_math;         // rotate_math(q, m)
  std::vector<double> rk_math;         // rotate_math(k, n)
  std::vector<double> rq_complex;      // rotate_complex_interleaved(q, m)
  std::vector<double> rk_complex;      // rotate_complex_interleaved(k, n)
  std::vector<double> rq_half;         // rotate_half_form(P q, m)
  std::vector<double> rk_half;         // rotate_half_form(P k, n)
  std::vector<double> rq_half_nop;     // rotate_half_form(q, m): P left out
  std::vector<double> rk_half_nop;     // rotate_half_form(k, n)
  double score_math = 0.0;             // rq_math . rk_math
  double score_complex = 0.0;          // rq_complex . rk_complex
  double score_half_permuted = 0.0;    // rq_half . rk_half
  double score_half_unpermuted = 0.0;  // rq_half_nop . rk_half_nop
  // |a - b| / max(|a|, |b|, |q| |k|): the scale |q| |k| bounds every score, so a score that is
  // near 0 by cancellation is not judged by its own tiny size. 0 when q or k is 0.
  double rel_gap_permuted = 0.0;    // score_half_permuted vs score_math
  double rel_gap_unpermuted = 0.0;  // score_half_unpermuted vs score_math
  double rel_gap_complex = 0.0;     // score_complex vs score_math
};

// The tolerance the view's check mark uses for "equal": 1e-12 relative (as rel_gap_* measure).
inline constexpr double kCodeScoreTolerance = 1e-12;

// q, k: [d]; thetas: d/2 entries; positions finite. Errors name "q", "k", "thetas", "position"
// or "key_position".
Result<CodeComparison> compare_codes(std::span<const double> q, std::span<const double> k, double m,
                                     double n, std::span<const double> thetas);

}  // namespace rope
