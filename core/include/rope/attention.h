// rope/attention.h — attention score matrices for three position encodings, row softmax with
// an optional causal mask, and RoPE in linear attention.
//
// Scores: S[m][n] = q_m' . k_n' for query position m and key position n, m, n = 0 ... N-1, where
//   Encoding::none        q_m' = q_m,                 k_n' = k_n
//   Encoding::sinusoidal  q_m' = q_m + PE_m,          k_n' = k_n + PE_n   (added before the
//                                                     projections; projections are the identity)
//   Encoding::rope        q_m' = R_m q_m,             k_n' = R_n k_n
// Inputs q, k are row-major [N][d]; S is row-major [N][N]. The pairing matters only for
// Encoding::rope; PE is always laid out (sin, cos) per block as in sinusoidal.h.
// Errors name "dim", "base", "positions" (N, 1 ... 4096) or the buffer ("q", "k", "v", "out").
//
// Usage:
//   auto s = rope::score_matrix(q, k, N, d, base, rope::Encoding::rope,
//                               rope::Pairing::interleaved);
//   rope::transform_scores(s.value(), N, d, {.scale = true, .softmax = true, .causal = true});
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
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

// Fast single-precision version for the heatmap (same conventions and errors). Encodes all
// rows once (angles and arithmetic in double, rounded to float), then forms Q' K'^T with a
// cache-blocked, register-tiled kernel (AVX-512 or AVX2+FMA when the CPU has it, chosen at run
// time). |S_fast − S| ≤ γ_{d+2} Σ_i |q'_i||k'_i| entry by entry, γ_n = n u/(1 − n u), u = 2^-24
// (7.75e-6 relative to that sum at d = 128): for colours, not for read-outs.
// Equivalent to encode_qk_fast followed by score_rows_fast over all rows.
Result<std::vector<float>> score_matrix_fast(std::span<const float> q, std::span<const float> k,
                                             std::int64_t n_positions, std::int64_t dim,
                                             double base, Encoding encoding, Pairing pairing);

// The encoded rows of score_matrix_fast, for splitting one score matrix across threads that the
// caller owns: encode once (O(N d)), then call score_rows_fast for disjoint row ranges. Calls
// on the same EncodedQK may run concurrently: it is only read.
struct EncodedQK {
  std::int64_t n_positions = 0;  // N
  std::int64_t dim = 0;          // d
  std::vector<float> q;          // q'_m, [N][d]
  std::vector<float> k;          // k'_n, [N][d]
  // k' once more, laid out as the multiply kernel reads it (panels of keys; attention.cpp),
  // packed once here instead of in every score_rows_fast call. Derived from k: code that
  // changes k must clear it (score_rows_fast then packs k itself, for that call).
  std::vector<float> k_panels;
};
// `position_step`: row m is at position m·step (the heatmap's stride: positions 0, s, 2s, …
// reach past N); finite and > 0, else Error "position_step". 1 everywhere else.
Result<EncodedQK> encode_qk_fast(std::span<const float> q, std::span<const float> k,
                                 std::int64_t n_positions, std::int64_t dim, double base,
                                 Encoding encoding, Pairing pairing, double position_step = 1.0);

// Rows m = row_begin ... row_end-1 of S = Q' K'^T: out is row-major [row_end - row_begin][N],
// out[(m - row_begin) * N + n] = S[m][n]. O((row_end - row_begin) N d).
// Errors: "dim"/"positions"/"q"/"k" if `encoded` is inconsistent; "row_begin" outside 0 ... N;
// "row_end" outside row_begin ... N; "out" with a size other than (row_end - row_begin) * N.
// On error `out` is left untouched.
Status score_rows_fast(const EncodedQK& encoded, std::int64_t row_begin, std::int64_t row_end,
                       std::span<float> out);

// For tests and benchmarks: the multiply kernels this CPU runs, best first (score_rows_fast
// uses the first): "avx512" (AVX-512F), "avx2" (AVX2 + FMA), "generic" (portable vectors;
// always present). score_rows_fast_with is score_rows_fast with the kernel named, and fails with
// Error "kernel" for a name not in that list.
namespace testing {
std::vector<std::string> score_kernels();
Status score_rows_fast_with(const EncodedQK& encoded, std::int64_t row_begin, std::int64_t row_end,
                            std::span<float> out, std::string_view kernel);
}  // namespace testing

// The same q and k at every position. For RoPE, S[m][n] = g(n - m) with
// g(r) = sum_i |q_i||k_i| cos(r theta_i + phase_i) (blocks as complex numbers), so the matrix is
// built from 2N-1 values in O(N d + N^2). For sinusoidal, PE_m . PE_n = sum_i cos((n-m) theta_i)
// makes S[m][n] = q.k + q.PE_n + k.PE_m + c(n - m), also O(N d + N^2). q, k: d entries each.
// Errors as score_matrix, with q and k expected to hold d entries.
// `position_step` as for encode_qk_fast: S[m][n] is at positions m·step and n·step.
Result<std::vector<float>> score_matrix_shared(std::span<const float> q, std::span<const float> k,
                                               std::int64_t n_positions, std::int64_t dim,
                                               double base, Encoding encoding, Pairing pairing,
                                               double position_step = 1.0);

struct ScoreTransform {
  bool scale = false;    // multiply by 1/sqrt(d)
  bool softmax = false;  // row softmax (numerically stable: subtract the row max)
  bool causal = false;   // keys n > m masked: -inf before softmax, so weight 0; NaN-free
  // Sliding-window attention (Mistral, Gemma 2/3 local layers, gpt-oss): keys more than
  // window - 1 positions behind the query masked, m - n >= window; 0: no window. transformers'
  // sliding-window mask keeps kv_idx > q_idx - sliding_window, the same keys.
  std::int64_t window = 0;
  // Chunked attention (Llama 4's RoPE layers, attention_chunk_size): keys in another chunk of
  // `chunk` positions masked, floor(n / chunk) != floor(m / chunk); 0: no chunks.
  std::int64_t chunk = 0;
  // Row and column i stand for position i * step (a heatmap of every s-th position); window
  // and chunk are in positions. 1 ... 2^31.
  std::int64_t step = 1;
};
// The keys row m sees under `t`: n in [first, last) (every key when no mask is on). The one rule
// of the masks, for transform_scores and for the app's exact hover. m in [0, N).
struct VisibleKeys {
  std::int64_t first = 0, last = 0;
  bool contains(std::int64_t n) const { return n >= first && n < last; }
};
inline VisibleKeys visible_keys(std::int64_t m, std::int64_t n_positions, const ScoreTransform& t) {
  const std::int64_t step = t.step >= 1 ? t.step : 1;
  const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  VisibleKeys v{0, n_positions};
  if (t.causal) v.last = m + 1;
  // (m - n) step < window  <=>  n > m - window / step  <=>  n >= m - ceil(window / step) + 1
  if (t.window > 0) v.first = std::max(v.first, m - ceil_div(t.window, step) + 1);
  if (t.chunk > 0) {  // n step in the chunk [c C, (c + 1) C) of the query's position m step
    const std::int64_t c = m * step / t.chunk;
    v.first = std::max(v.first, ceil_div(c * t.chunk, step));
    v.last = std::min(v.last, ceil_div((c + 1) * t.chunk, step));
  }
  return v;
}
// In place on a row-major [N][N] matrix, in the order scale, mask, softmax. With a mask and no
// softmax, masked cells become -inf (display code shows them as masked). A softmax row whose
// visible entries are all -inf becomes all zeros; a row containing NaN becomes all NaN.
// dim is used (and must be valid) only when t.scale is set. If s.size() != N*N, N < 1, or dim
// is needed and invalid, every entry of s is set to NaN.
template <class T>
void transform_scores(std::span<T> s, std::int64_t n_positions, std::int64_t dim, ScoreTransform t);
// The same without template arguments, so that a std::vector converts: transform_scores(v, ...).
inline void transform_scores(std::span<float> s, std::int64_t n_positions, std::int64_t dim,
                             ScoreTransform t) {
  transform_scores<float>(s, n_positions, dim, t);
}
inline void transform_scores(std::span<double> s, std::int64_t n_positions, std::int64_t dim,
                             ScoreTransform t) {
  transform_scores<double>(s, n_positions, dim, t);
}
// transform_scores on rows [first_row, end_row) of the [N][N] matrix s only (the others are left
// as they are): a row's transform reads that row alone, so a large matrix can be transformed a
// slice at a time between frames with the same result. Invalid arguments, as transform_scores's
// or a range outside 0 <= first_row <= end_row <= N, set every entry of s to NaN.
void transform_score_rows(std::span<float> s, std::int64_t n_positions, std::int64_t dim,
                          ScoreTransform t, std::int64_t first_row, std::int64_t end_row);

// Linear attention (Katharopoulos et al.) with feature map phi(x) = elu(x) + 1, and RoPE applied
// in the numerator only (RoFormer eq. 19):
//   out_m = sum_n (R_m phi(q_m)) . (R_n phi(k_n)) v_n  /  sum_n phi(q_m) . phi(k_n)
// q, k: [N][d], v: [N][dv]; out: [N][dv]. causal restricts the sums to n <= m.
// with_rope = false gives plain linear attention. O(N d dv): the N x N matrix is never formed.
// Errors as score_matrix, plus "dv" outside 1 ... 4096 and "v" of another size. A denominator
// that underflows to 0 (entries of q, k below about -700) gives NaN outputs, not a crash.
Result<std::vector<double>> linear_attention(std::span<const double> q, std::span<const double> k,
                                             std::span<const double> v, std::int64_t n_positions,
                                             std::int64_t dim, std::int64_t dv, double base,
                                             Pairing pairing, bool with_rope, bool causal);

// What linear_attention computes on the way, for showing it: the two sums every query reuses,
// and each row's numerator and denominator before the division (out_m = numerator_m /
// denominator_m, exactly as linear_attention divides them).
//   kv = sum_n (R_n phi(k_n)) v_n^T   [d][dv]   (without RoPE: phi(k_n) v_n^T)
//   z  = sum_n phi(k_n)               [d]
// With causal the sums run over n <= m for row m, and kv, z hold the last row's (all N).
struct LinearSums {
  std::vector<double> phi_q, phi_k;  // [N][d]: the features, all > 0
  std::vector<double> rot_q;         // [N][d]: R_m phi(q_m) (phi(q_m) without RoPE)
  std::vector<double> kv;            // [d][dv]
  std::vector<double> z;             // [d]
  std::vector<double> numerator;     // [N][dv]: rot_q_m^T kv
  std::vector<double> denominator;   // [N]: phi(q_m)^T z, > 0
};
Result<LinearSums> linear_attention_sums(std::span<const double> q, std::span<const double> k,
                                         std::span<const double> v, std::int64_t n_positions,
                                         std::int64_t dim, std::int64_t dv, double base,
                                         Pairing pairing, bool with_rope, bool causal);
// The same at given frequencies θ_i (radians per position, [dim/2], each finite and >= 0: the θ′
// of a scaled or partial RoPE, 0 for a pair that does not rotate) instead of base^(−2i/d).
// Errors as above, "thetas" of another length or with a negative or non-finite entry.
Result<LinearSums> linear_attention_sums(std::span<const double> q, std::span<const double> k,
                                         std::span<const double> v, std::int64_t n_positions,
                                         std::int64_t dim, std::int64_t dv,
                                         std::span<const double> thetas, Pairing pairing,
                                         bool with_rope, bool causal);

// One diagonal of a RoPE score matrix against the plain dot products (lesson 7: can the score be
// written as content times a number for the distance, e_ij = (q·k) a_ij?). For rows q, k [N][d]
// at positions j·step, the cells (j, j + r) with 0 <= j, j + r < N:
//   plain[t]   = q_j · k_{j+r}                              (t = 0, 1, ...: j from max(0, -r) up)
//   rotated[t] = (R_{j·step} q_j) · (R_{(j+r)·step} k_{j+r}) at base^(-2i/d)
//   factor     = the least-squares a of rotated ≈ a plain: Σ s c / Σ c² (0 when every c is 0)
//   residual   = |rotated − factor·plain| / |rotated|, 0 ... 1 (0 when rotated is 0): what one
//                factor leaves unexplained; 0 whenever the scores are content times a number.
// Errors as score_matrix, "offset" when |r| >= N, "position_step" unless finite and > 0.
struct DiagonalFit {
  std::vector<double> plain, rotated;
  double factor = 0.0;
  double residual = 0.0;
};
Result<DiagonalFit> diagonal_fit(std::span<const double> q, std::span<const double> k,
                                 std::int64_t n_positions, std::int64_t dim, double base,
                                 Pairing pairing, std::int64_t offset, double position_step = 1.0);

}  // namespace rope
