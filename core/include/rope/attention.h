// rope/attention.h — attention score matrices for three position encodings, row softmax with
// an optional causal mask, and RoPE in linear attention.
//
// Scores: S[m][n] = q_m' . k_n' for query position m and key position n, m, n = 0 ... N-1, where
//   Encoding::none        q_m' = q_m,                 k_n' = k_n
//   Encoding::sinusoidal  q_m' = q_m + PE_m,          k_n' = k_n + PE_n   (added before the
//                                                     projections; projections are the identity)
//   Encoding::rope        q_m' = R_m q_m,             k_n' = R_n k_n
// Inputs q, k are row-major [N][d]; S is row-major [N][N].
//
// Usage:
//   auto s = rope::score_matrix(q, k, N, d, base, rope::Encoding::rope, rope::Pairing::interleaved);
//   rope::transform_scores(s.value(), N, d, {.scale = true, .softmax = true, .causal = true});
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rope/conventions.h"

namespace rope {

enum class Encoding { none, sinusoidal, rope };
const char* encoding_name(Encoding e);  // "none", "sinusoidal", "rope"
std::optional<Encoding> parse_encoding(std::string_view name);

// Reference implementation in double. Errors: invalid dim/base, N outside 1 ... 4096, or
// q/k sizes other than N*d.
Result<std::vector<double>> score_matrix(std::span<const double> q, std::span<const double> k,
                                         std::int64_t n_positions, std::int64_t dim, double base,
                                         Encoding encoding, Pairing pairing);

// Fast single-precision version for the heatmap (same conventions and errors). Rotates all
// rows once with a RopeTable, then forms Q' K'^T with cache-blocked, vectorisable loops.
Result<std::vector<float>> score_matrix_fast(std::span<const float> q, std::span<const float> k,
                                             std::int64_t n_positions, std::int64_t dim,
                                             double base, Encoding encoding, Pairing pairing);

// The same q and k at every position. For RoPE, S[m][n] = g(n - m) with
// g(r) = sum_i |q_i||k_i| cos(r theta_i + phase_i) (blocks as complex numbers), so the matrix is
// built from 2N-1 values in O(N d + N^2). q, k: d entries.
Result<std::vector<float>> score_matrix_shared(std::span<const float> q, std::span<const float> k,
                                               std::int64_t n_positions, std::int64_t dim,
                                               double base, Encoding encoding, Pairing pairing);

struct ScoreTransform {
  bool scale = false;    // multiply by 1/sqrt(d)
  bool softmax = false;  // row softmax (numerically stable: subtract the row max)
  bool causal = false;   // keys n > m masked: -inf before softmax, so weight 0; NaN-free
};
// In place on a row-major [N][N] matrix. With causal and no softmax, masked cells become -inf
// (display code shows them as masked).
template <class T>
void transform_scores(std::span<T> s, std::int64_t n_positions, std::int64_t dim,
                      ScoreTransform t);

// Linear attention (Katharopoulos et al.) with feature map phi(x) = elu(x) + 1, and RoPE applied
// in the numerator only (RoFormer eq. 19):
//   out_m = sum_n (R_m phi(q_m)) . (R_n phi(k_n)) v_n  /  sum_n phi(q_m) . phi(k_n)
// q, k: [N][d], v: [N][dv]; out: [N][dv]. causal restricts the sums to n <= m.
// with_rope = false gives plain linear attention. Errors as score_matrix, plus v's size.
Result<std::vector<double>> linear_attention(std::span<const double> q,
                                             std::span<const double> k,
                                             std::span<const double> v, std::int64_t n_positions,
                                             std::int64_t dim, std::int64_t dv, double base,
                                             Pairing pairing, bool with_rope, bool causal);

}  // namespace rope
