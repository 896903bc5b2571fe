// rope/decay.h — RoPE's long-range decay bound (RoFormer section 3.4.3).
//
// With h_i = q_[2i:2i+1] k*_[2i:2i+1] (complex blocks) and S_j = sum_{i<j} e^{i r theta_i},
// summation by parts bounds |sum_i h_i e^{i r theta_i}| <= (max_i |h_{i+1} - h_i|) *
// sum_{j=1}^{d/2} |S_j|. The curve the article plots is the relative upper bound
//   D(r) = (1/(d/2)) * sum_{j=1}^{d/2} | sum_{i=0}^{j-1} e^{i r theta_i} |,
// which starts at D(0) = (d/2 + 1)/2 (32.5 for d = 128) and falls as r grows.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rope/conventions.h"

namespace rope {

// D(r) for r = 0 ... max_distance (max_distance + 1 values).
// Errors: invalid dim/base; max_distance outside 0 ... 1'000'000.
Result<std::vector<double>> decay_curve(std::int64_t dim, double base, std::int64_t max_distance);

// The mean RoPE score (R_0 q) . (R_r k) over `samples` seeded random pairs whose entries are
// uniform in [0, 1) (positive, so the mean does not cancel to 0), for r = 0 ... max_distance.
// Deterministic for a given seed on every platform (uses rope::SplitMix64). Each sample draws
// q[0 ... d-1], then k[0 ... d-1]; blocks are interleaved pairs. The mean is exact by linearity:
// mean_s (R_0 q_s).(R_r k_s) = sum_i Re(mean_s(conj(z_q,i) z_k,i) e^{i r theta_i}).
// Errors: as decay_curve, plus "samples" outside 1 ... 100'000.
Result<std::vector<double>> mean_random_score(std::int64_t dim, double base,
                                              std::int64_t max_distance, int samples,
                                              std::uint64_t seed);

// max_i |h̄_{i+1} − h̄_i| over i = 0 ... d/2 − 1 with h̄_{d/2} = 0, where h̄_i is the mean of
// h_i = conj(z_q,i) z_k,i over the draws mean_random_score makes for this dim, samples and seed.
// By summation by parts |mean score(r)| <= max_step * (d/2) * D(r) at every r, for any θ (the
// weights do not depend on θ): the factor that puts the mean score on D's scale honestly.
// Errors: invalid dim; "samples" outside 1 ... 100'000.
Result<double> mean_random_max_step(std::int64_t dim, int samples, std::uint64_t seed);

// The same two curves for any frequencies θ_i (radians per position, d/2 = thetas.size()
// entries, each finite and ≥ 0): the scaled θ′_i of a context-extension method
// (rope/scaling.h), for example. decay_curve(d, b, R) equals decay_curve_thetas(θ(d, b), R)
// exactly, and likewise for the mean score (same draws for the same seed and d).
// Errors: "thetas" empty, longer than kMaxDim/2, or with an entry that is negative or not
// finite; max_distance and samples as above.
Result<std::vector<double>> decay_curve_thetas(std::span<const double> thetas,
                                               std::int64_t max_distance);
Result<std::vector<double>> mean_random_score_thetas(std::span<const double> thetas,
                                                     std::int64_t max_distance, int samples,
                                                     std::uint64_t seed);

}  // namespace rope
