// rope/extrapolation.h — why extrapolating RoPE past the trained context fails and why
// interpolating inside it is safe: the two pictures of Position Interpolation (Chen, Wong, Chen
// and Tian 2023, arXiv 2306.15595), Fig. 2 (recipe in App. C.1) and Fig. 5 (App. C.2).
//
// Fig. 2. An attention score is a(s) = Re sum_j h_j e^{i s theta_j} for relative position s, i.e.
// a combination of the d basis functions
//   phi_{2j}(s) = sin(s theta_j),  phi_{2j+1}(s) = cos(s theta_j),  theta_j = base^(-2j/d),
// j = 0 ... d/2-1 (d = 128: 128 functions). Fit a(s) = sum_k c_k phi_k(s) by least squares to
// N(0, 1) targets at the integers s = 0 ... L-1. On [0, L) the fit stays within about +-1; beyond
// L it explodes (extrapolation is unsafe); between integers it is smooth (interpolation is safe).
// Measured for d = 128, base 10^4, L = 2048, seed 1: max |a| is 0.84 on [0, L) and 1.4e10 on
// [L, 2L) with the default rank tolerance, 3.7e4 with rank_tolerance 1e-6 (the paper's Fig. 2
// shows "beyond 8000"); see fit_targets for why the tolerance sets the size of the explosion.
//
// Fig. 5. B(s)/d with B(s) = sum_{k=0}^{d/2-1} | sum_{j<=k} e^{i s theta_j} |, the factor in PI's
// extrapolation bound. It is RoFormer's decay curve up to a constant: B(s)/d = D(s)/2 with D
// from rope::decay_curve (decay.h), so B(0)/d = (d/2 + 1)/4 (16.25 for d = 128).
//
// Usage:
//   auto fit = rope::fit_random_target(128, 10000.0, 2048, seed);   // Result<FitResult>
//   double a = rope::evaluate_fit(fit.value(), 3000.5);
//   auto inside = rope::evaluate_fit_range(fit.value(), 0.0, 2048.0, 1.0);    // panel 1
//   auto beyond = rope::evaluate_fit_range(fit.value(), 0.0, 4096.0, 1.0);    // panel 2
//   auto between = rope::evaluate_fit_range(fit.value(), 25.0, 75.0, 0.125);  // panel 3
//   auto b = rope::b_over_d(128, 10000.0, 4095);   // s = 0 ... 4095
//
// Cost: the fit is one Householder QR of the [L][d] basis matrix, about 2 L d^2 flops. Measured
// with core_bench (Release, a shared 2-core machine under load): the d = 128, L = 2048 fit 24 ms,
// evaluating the three panels 9.4 ms, b_over_d to s = 4095 1.0 ms; cheap enough for a "Re-roll"
// click. The largest fits allowed (L d min(L, d) = 2^30) took 1.0 s (d = 128, L = 65536) and
// 1.6 s (d = 4096, L = 512).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rope/conventions.h"

namespace rope {

// Context lengths L accepted by the fits, and the cap on the fit's work L * d * min(L, d)
// (2^30: d = 128 allows every L up to 65536, d = 4096 allows L up to 512).
inline constexpr std::int64_t kMinFitContext = 2;
inline constexpr std::int64_t kMaxFitContext = 65536;
inline constexpr std::int64_t kMaxFitWork = std::int64_t{1} << 30;
// At most this many points from evaluate_fit_range.
inline constexpr std::int64_t kMaxFitPoints = 1'000'000;

struct FitResult {
  int dim = 0;                       // d: d/2 frequencies, d basis functions
  double base = 0.0;                 // theta_j = base^(-2j/d)
  std::vector<double> thetas;        // [d/2], radians per token
  std::vector<double> targets;       // [L]: the value to fit at s = 0 ... L-1
  std::vector<double> coefficients;  // [d]: [2j] multiplies sin(s theta_j), [2j+1] cos(s theta_j)
  double rank_tolerance = 0.0;       // the relative tolerance that decided the rank
  int rank = 0;                      // numerical rank of the [L][d] basis matrix (see .cpp)
  double residual_norm = 0.0;        // sqrt(sum_s (a(s) - targets[s])^2), s = 0 ... L-1
  int context() const { return static_cast<int>(targets.size()); }  // L
};

// Least-squares fit of the d basis functions to targets[s] at s = 0 ... L-1, L = targets.size().
// The basis matrix is numerically rank-deficient for the settings the app shows (d = 128,
// L = 2048: the slow pairs' sines and cosines are nearly dependent on [0, L)). A QR with column
// pivoting stops at the first column whose remaining norm is at most rank_tolerance times the
// first one's (default max(L, d) * eps, NumPy lstsq's default rcond), and the result is
// the minimum-norm least-squares solution over the kept directions. A larger tolerance gives a
// fit that is as good on [0, L) to plotting accuracy but far smaller beyond L (numbers in the
// .cpp): extrapolation is not determined by the data.
// Errors: dim, base invalid; "targets" with fewer than 2 or more than 65536 entries or a
// non-finite entry; "context" when L * d * min(L, d) exceeds kMaxFitWork; "rank_tolerance"
// outside (0, 1).
Result<FitResult> fit_targets(std::int64_t dim, double base, std::span<const double> targets,
                              std::optional<double> rank_tolerance = std::nullopt);

// PI's Fig. 2: targets[s] = N(0, 1) draws for s = 0 ... context-1, in that order, from
// rope::SplitMix64(seed).normal() (same numbers for a seed on every platform), then fit_targets.
// Errors: dim, base invalid; "context" outside 2 ... 65536, or too costly as above;
// "rank_tolerance" as above.
Result<FitResult> fit_random_target(std::int64_t dim, double base, std::int64_t context,
                                    std::uint64_t seed,
                                    std::optional<double> rank_tolerance = std::nullopt);

// a(s) = sum_j c_{2j} sin(s theta_j) + c_{2j+1} cos(s theta_j) at any real s (not only integers,
// not only inside [0, L)). NaN if s is not finite or `fit` is malformed (coefficients.size() !=
// 2 * thetas.size(), or no thetas).
double evaluate_fit(const FitResult& fit, double s);

// a(s_k) at s_k = from + k * step (computed as written, not accumulated) for every k >= 0 with
// s_k < to, i.e. the half-open range [from, to). [0, 2048) step 1 gives 2048 values, [25, 75) step
// 0.125 gives 400. Errors: "from"/"to" not finite, "to" not above from, "step" not a finite
// number > 0 or giving more than kMaxFitPoints points, "fit" malformed.
Result<std::vector<double>> evaluate_fit_range(const FitResult& fit, double from, double to,
                                               double step);

// PI's Fig. 5: B(s)/d for s = 0 ... max_s (max_s + 1 values), computed as decay_curve / 2.
// Errors: dim, base invalid; "max_s" outside 0 ... 1'000'000.
Result<std::vector<double>> b_over_d(std::int64_t dim, double base, std::int64_t max_s);

}  // namespace rope
