// Tests for rope/extrapolation.h: PI's Fig. 2 least-squares fit and Fig. 5's B(s)/d.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "rope/decay.h"
#include "rope/extrapolation.h"
#include "rope/frequencies.h"
#include "rope/random.h"
#include "test_support.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// sum_j c[2j] sin(s theta_j) + c[2j+1] cos(s theta_j), straight from the definition.
double combination(const std::vector<double>& c, const std::vector<double>& thetas, double s) {
  double v = 0.0;
  for (std::size_t j = 0; j < thetas.size(); ++j)
    v += c[2 * j] * std::sin(s * thetas[j]) + c[2 * j + 1] * std::cos(s * thetas[j]);
  return v;
}

// Targets y[s] = combination(c, s) for s = 0 ... context-1.
std::vector<double> targets_of(const std::vector<double>& c, const std::vector<double>& thetas,
                               int context) {
  std::vector<double> y(static_cast<std::size_t>(context));
  for (int s = 0; s < context; ++s)
    y[static_cast<std::size_t>(s)] = combination(c, thetas, s);
  return y;
}

double max_abs(const std::vector<double>& v, std::size_t begin, std::size_t end) {
  double m = 0.0;
  for (std::size_t i = begin; i < end; ++i)
    m = std::max(m, std::abs(v[i]));
  return m;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

}  // namespace

// --- Exact small cases ----------------------------------------------------------------------

TEST_CASE("extrapolation: d = 2, L = 2 is a 2 x 2 system solved by hand", "[extrapolation]") {
  // Rows s = 0: (sin 0, cos 0) = (0, 1); s = 1: (sin 1, cos 1). With targets (2, 3):
  // c_cos = 2 from the first row, c_sin = (3 - 2 cos 1) / sin 1 from the second.
  const std::vector<double> y{2.0, 3.0};
  const auto fit = rope::fit_targets(2, 10000.0, y);
  REQUIRE(fit.ok());
  const auto& f = fit.value();
  CHECK(f.rank == 2);
  CHECK(f.context() == 2);
  REQUIRE(f.coefficients.size() == 2);
  CHECK_THAT(f.coefficients[1], WithinAbs(2.0, 1e-15));
  CHECK_THAT(f.coefficients[0], WithinAbs((3.0 - 2.0 * std::cos(1.0)) / std::sin(1.0), 1e-15));
  CHECK(f.residual_norm < 1e-15);
  // theta_0 = 1, so a(s) = c_sin sin s + c_cos cos s everywhere.
  CHECK_THAT(rope::evaluate_fit(f, 2.5),
             WithinAbs(f.coefficients[0] * std::sin(2.5) + 2.0 * std::cos(2.5), 1e-15));
}

TEST_CASE("extrapolation: B(0)/d = (d/2 + 1)/4, 16.25 for d = 128", "[extrapolation]") {
  // B(0) = sum_{k=0}^{d/2-1} (k + 1) = (d/2)(d/2 + 1)/2.
  const auto b = rope::b_over_d(128, 10000.0, 0);
  REQUIRE(b.ok());
  REQUIRE(b.value().size() == 1);
  CHECK(b.value()[0] == 16.25);
  CHECK(rope::b_over_d(2, 10000.0, 0).value()[0] == 0.5);
}

TEST_CASE(
    "extrapolation: evaluate_fit_range counts the points from `from` up to but not including `to`",
    "[extrapolation]") {
  const auto fit = rope::fit_random_target(8, 10000.0, 64, 1).value();
  CHECK(rope::evaluate_fit_range(fit, 0.0, 2048.0, 1.0).value().size() == 2048);
  CHECK(rope::evaluate_fit_range(fit, 0.0, 4096.0, 1.0).value().size() == 4096);
  CHECK(rope::evaluate_fit_range(fit, 25.0, 75.0, 0.125).value().size() == 400);
  CHECK(rope::evaluate_fit_range(fit, 0.0, 1.0, 0.1).value().size() == 10);  // 10 * 0.1 == 1
  CHECK(rope::evaluate_fit_range(fit, -1.0, 1.0, 5.0).value().size() == 1);
  // 0.07 / 0.01 = 7.000000000000001 in double, but 0 + 7 * 0.01 = 0.07 is `to` itself: 7 points.
  CHECK(rope::evaluate_fit_range(fit, 0.0, 0.07, 0.01).value().size() == 7);
  // The range form is the scalar form at from + k step.
  const auto v = rope::evaluate_fit_range(fit, 25.0, 75.0, 0.125).value();
  for (std::size_t k = 0; k < v.size(); k += 7)
    CHECK(v[k] == rope::evaluate_fit(fit, 25.0 + static_cast<double>(k) * 0.125));
}

// --- Problems with a known solution -----------------------------------------------------------

TEST_CASE("extrapolation: known coefficients are recovered on a well-conditioned basis",
          "[extrapolation]") {
  // d <= 32, base <= 50, L = 512: the slowest wavelength is below 2 pi 50 = 314 < L, so every
  // basis function turns at least once and the columns are far from dependent.
  const int index = GENERATE(range(0, 8));
  rope::SplitMix64 rng(rope_test::seed(100 + index));
  const int dim = 2 * (1 + static_cast<int>(rng.next() % 16));
  const double base = rng.uniform(2.0, 50.0);
  CAPTURE(dim, base);
  const auto thetas = rope::frequencies(dim, base).value();
  std::vector<double> c(static_cast<std::size_t>(dim));
  for (double& x : c)
    x = rng.uniform(-3.0, 3.0);
  const auto fit = rope::fit_targets(dim, base, targets_of(c, thetas, 512));
  REQUIRE(fit.ok());
  CHECK(fit.value().rank == dim);
  CHECK(max_abs_diff(fit.value().coefficients, c) < 1e-9);
  CHECK(fit.value().residual_norm < 1e-9);
}

TEST_CASE("extrapolation: on a rank-deficient basis the fit reproduces consistent targets",
          "[extrapolation]") {
  // d = 128, base 10^4, L = 2048: the 23 pairs with wavelength above L make the basis matrix
  // rank-deficient to working precision, so the coefficients cannot be recovered; the fitted
  // function on [0, L) can, and the minimum-norm answer is no longer than the true one (which
  // also solves the problem the fit keeps).
  const auto thetas = rope::frequencies(128, 10000.0).value();
  rope::SplitMix64 rng(rope_test::seed(200));
  std::vector<double> c(128);
  for (double& x : c)
    x = rng.uniform(-1.0, 1.0);
  const auto y = targets_of(c, thetas, 2048);
  const auto fit = rope::fit_targets(128, 10000.0, y);
  REQUIRE(fit.ok());
  const auto& f = fit.value();
  CHECK(f.rank < 128);
  CHECK(f.rank >= 64);
  double worst = 0.0;
  for (int s = 0; s < 2048; ++s)
    worst = std::max(worst, std::abs(rope::evaluate_fit(f, s) - y[static_cast<std::size_t>(s)]));
  CHECK(worst < 1e-9);
  CHECK(f.residual_norm < 1e-9 * std::sqrt(2048.0));
  CHECK(rope_test::norm(f.coefficients) <= rope_test::norm(c) * (1 + 1e-9));
  CHECK(max_abs_diff(f.coefficients, c) > 1e-3);  // not recovered: the basis is deficient
}

// --- Random targets: PI's Fig. 2 --------------------------------------------------------------

TEST_CASE("extrapolation: the targets are the seeded N(0, 1) draws, in order", "[extrapolation]") {
  const auto f = rope::fit_random_target(16, 10000.0, 4096, 9).value();
  rope::SplitMix64 rng(9);
  for (const double t : f.targets)
    REQUIRE(t == rng.normal());
  CHECK(rope::fit_random_target(16, 10000.0, 4096, 9).value().coefficients == f.coefficients);
  CHECK(rope::fit_random_target(16, 10000.0, 4096, 10).value().targets != f.targets);
  // Mean 0 and variance 1 within 5 standard errors (deterministic for this seed).
  double mean = 0.0;
  double square = 0.0;
  for (const double t : f.targets) {
    mean += t;
    square += t * t;
  }
  mean /= 4096.0;
  square /= 4096.0;
  CHECK(std::abs(mean) < 5.0 / 64.0);
  CHECK(std::abs(square - 1.0) < 5.0 * std::sqrt(2.0) / 64.0);
}

TEST_CASE("extrapolation: the fit is a least-squares fit (residual orthogonal to the basis)",
          "[extrapolation]") {
  // d^T r = 0 for every basis column d at the least-squares solution; for a random residual the
  // cosine would be ~1/sqrt(L) = 0.022. Rounding leaves eps * ||A|| * ||c|| with ||c|| ~ 1e9
  // here (the kept near-dependent directions), so the bound is 1e-4 rather than 1e-12.
  const auto fit = rope::fit_random_target(128, 10000.0, 2048, 1).value();
  std::vector<double> r(2048);
  for (std::size_t s = 0; s < r.size(); ++s)
    r[s] = rope::evaluate_fit(fit, static_cast<double>(s)) - fit.targets[s];
  const double r_norm = rope_test::norm(r);
  CHECK_THAT(fit.residual_norm, WithinRel(r_norm, 1e-12));
  double worst_cosine = 0.0;
  for (const double theta : fit.thetas) {
    double sin_dot = 0.0, cos_dot = 0.0, sin_norm = 0.0, cos_norm = 0.0;
    for (std::size_t s = 0; s < r.size(); ++s) {
      const double angle = static_cast<double>(s) * theta;
      sin_dot += std::sin(angle) * r[s];
      cos_dot += std::cos(angle) * r[s];
      sin_norm += std::sin(angle) * std::sin(angle);
      cos_norm += std::cos(angle) * std::cos(angle);
    }
    worst_cosine = std::max({worst_cosine, std::abs(sin_dot) / std::sqrt(sin_norm) / r_norm,
                             std::abs(cos_dot) / std::sqrt(cos_norm) / r_norm});
  }
  CHECK(worst_cosine < 1e-4);
  // 128 functions explain about 128/2048 of the variance of 2048 independent targets.
  CHECK(r_norm < rope_test::norm(fit.targets));
  CHECK(r_norm > 0.9 * rope_test::norm(fit.targets));
}

TEST_CASE("extrapolation: the fit stays near +-1 below L and explodes from L to 2L",
          "[extrapolation]") {
  // Measured for seed 1 (d = 128, base 10^4, L = 2048): max |a| = 0.842 on [0, L) and 1.42e10
  // on [L, 2L), a ratio of 1.7e10; seeds 1 ... 5 give ratios 1.2e9 ... 4.4e10.
  const std::uint64_t seed = GENERATE(as<std::uint64_t>{}, 1, 2, 3, 4, 5);
  CAPTURE(seed);
  const auto fit = rope::fit_random_target(128, 10000.0, 2048, seed).value();
  CHECK(fit.rank == 80);
  const auto a = rope::evaluate_fit_range(fit, 0.0, 4096.0, 1.0).value();
  const double inside = max_abs(a, 0, 2048);
  const double beyond = max_abs(a, 2048, 4096);
  CAPTURE(inside, beyond);
  CHECK(inside < 1.5);
  CHECK(inside < max_abs(fit.targets, 0, 2048));
  CHECK(beyond > 1000.0 * inside);
  if (seed == 1) {
    CHECK_THAT(inside, WithinRel(0.842, 1e-3));
    CHECK_THAT(beyond, WithinRel(1.417e10, 1e-3));
  }
}

TEST_CASE("extrapolation: how far the fit explodes depends on the rank tolerance",
          "[extrapolation]") {
  // Measured for seed 1: max |a| on [L, 2L) is 0.67 at tolerance 1e-2 (rank 71), 3.7e4 at 1e-6
  // (rank 75, the paper's "beyond 8000" scale), 1.4e10 at the default 4.5e-13 (rank 80), while
  // the residual on [0, L) moves only from 44.08 to 43.93.
  const auto loose = rope::fit_random_target(128, 10000.0, 2048, 1, 1e-2).value();
  const auto medium = rope::fit_random_target(128, 10000.0, 2048, 1, 1e-6).value();
  const auto exact = rope::fit_random_target(128, 10000.0, 2048, 1).value();
  CHECK(loose.rank == 71);
  CHECK(medium.rank == 75);
  CHECK(exact.rank == 80);
  CHECK(exact.rank_tolerance == 2048 * std::numeric_limits<double>::epsilon());
  const auto beyond = [](const rope::FitResult& f) {
    return max_abs(rope::evaluate_fit_range(f, 2048.0, 4096.0, 1.0).value(), 0, 2048);
  };
  CHECK(beyond(loose) < 10.0);
  CHECK(beyond(medium) > 1000.0);
  CHECK(beyond(exact) > 1e3 * beyond(medium));
  CHECK(loose.residual_norm > exact.residual_norm);
  CHECK(loose.residual_norm < 1.01 * exact.residual_norm);
}

TEST_CASE("extrapolation: between the integers from 25 to 75 the fit is smooth",
          "[extrapolation]") {
  // Interpolation is safe: every frequency is at most 1 radian per token, so between two
  // integers a(s) cannot swing. Measured for seeds 1 ... 5: max |a(s + 1/8) - a(s)| / (1/8) =
  // 0.113 ... 0.156, and max |a| between the integers exceeds max |a| at the integers 24 ... 76
  // by at most 1.7 %. The same slope estimate on [1.5 L, 1.5 L + 50) = [3072, 3122) is 2.6e6 ...
  // 8.1e7 (and only 1.5 ... 16 just past L, on [2048, 2098): the explosion builds up with s - L).
  const std::uint64_t seed = GENERATE(as<std::uint64_t>{}, 1, 2, 3, 4, 5);
  CAPTURE(seed);
  const auto fit = rope::fit_random_target(128, 10000.0, 2048, seed).value();
  const auto a = rope::evaluate_fit_range(fit, 25.0, 75.0, 0.125).value();
  REQUIRE(a.size() == 400);
  double slope = 0.0;
  for (std::size_t k = 0; k + 1 < a.size(); ++k)
    slope = std::max(slope, std::abs(a[k + 1] - a[k]) / 0.125);
  double at_integers = 0.0;
  for (int s = 24; s <= 76; ++s)
    at_integers = std::max(at_integers, std::abs(rope::evaluate_fit(fit, s)));
  CAPTURE(slope, at_integers);
  CHECK(slope < 0.5);
  CHECK(max_abs(a, 0, a.size()) < 1.1 * at_integers);
  const auto far = rope::evaluate_fit_range(fit, 3072.0, 3122.0, 0.125).value();
  double far_slope = 0.0;
  for (std::size_t k = 0; k + 1 < far.size(); ++k)
    far_slope = std::max(far_slope, std::abs(far[k + 1] - far[k]) / 0.125);
  CHECK(far_slope > 1e5 * slope);
}

// --- B(s)/d: PI's Fig. 5 -------------------------------------------------------------------

TEST_CASE("extrapolation: B(s)/d = D(s)/2 and matches PI's definition", "[extrapolation]") {
  const int index = GENERATE(range(0, 6));
  const auto c = rope_test::random_case(index, 256);
  CAPTURE(c.dim, c.base);
  const auto b = rope::b_over_d(c.dim, c.base, 600);
  const auto decay = rope::decay_curve(c.dim, c.base, 600);
  REQUIRE(b.ok());
  REQUIRE(b.value().size() == 601);
  const auto thetas = rope::frequencies(c.dim, c.base).value();
  for (std::size_t s = 0; s <= 600; ++s) {
    CAPTURE(s);
    CHECK(b.value()[s] == decay.value()[s] / 2);  // the relation, bit for bit
    if (s % 25 != 0) continue;
    // B(s) = sum_{k=0}^{d/2-1} | sum_{j<=k} e^{i s theta_j} |, every phasor from std::polar.
    std::complex<double> partial = 0.0;
    double big_b = 0.0;
    for (const double t : thetas) {
      partial += std::polar(1.0, static_cast<double>(s) * t);
      big_b += std::abs(partial);
    }
    CHECK_THAT(b.value()[s], WithinAbs(big_b / c.dim, 1e-12 * c.dim));
  }
}

TEST_CASE("extrapolation: B(s)/d stays above 1 for s < 4096 (PI Fig. 5)", "[extrapolation]") {
  // Measured: the minimum is 1.1159 at s = 3643, and B(4095)/d = 2.5818. (It does dip below 1
  // further out: 0.5897 at s = 70508.)
  const auto b = rope::b_over_d(128, 10000.0, 4095).value();
  REQUIRE(b.size() == 4096);
  const auto lowest = std::min_element(b.begin(), b.end());
  CHECK(lowest - b.begin() == 3643);
  CHECK_THAT(*lowest, WithinAbs(1.1159, 1e-4));
  CHECK_THAT(b[4095], WithinAbs(2.5818, 1e-4));
}

// --- Bad input ------------------------------------------------------------------------------

TEST_CASE("extrapolation: bad input names the parameter", "[extrapolation][errors]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(rope::fit_random_target(7, 10000.0, 64, 1).error().to_string() ==
        "dim: must be an even integer from 2 to 4096, got 7");
  CHECK(rope::fit_random_target(8, 1.0, 64, 1).error().parameter == "base");
  CHECK(rope::fit_random_target(8, nan, 64, 1).error().parameter == "base");
  CHECK(rope::fit_random_target(8, 10000.0, 1, 1).error().to_string() ==
        "context: must be an integer from 2 to 65536, got 1");
  CHECK(rope::fit_random_target(8, 10000.0, 65537, 1).error().message ==
        "must be an integer from 2 to 65536, got 65537");
  CHECK(rope::fit_random_target(8, 10000.0, std::numeric_limits<std::int64_t>::min(), 1)
            .error()
            .parameter == "context");
  CHECK(rope::fit_random_target(4096, 10000.0, 513, 1).error().to_string() ==
        "context: must be an integer from 2 to 512 for dim 4096 (the fit costs context x dim x "
        "min(context, dim), at most 1073741824), got 513");
  CHECK(rope::fit_random_target(256, 10000.0, 16385, 1).error().message.find("2 to 16384") !=
        std::string::npos);
  CHECK(rope::fit_random_target(4096, 10000.0, 512, 1, 0.5).ok());  // the largest d: fine
  CHECK(rope::fit_random_target(128, 10000.0, 64, 1, 0.0).error().to_string() ==
        "rank_tolerance: must be a number greater than 0 and less than 1, got 0");
  CHECK(rope::fit_random_target(128, 10000.0, 64, 1, 1.0).error().parameter == "rank_tolerance");
  CHECK(rope::fit_random_target(128, 10000.0, 64, 1, nan).error().parameter == "rank_tolerance");

  const std::vector<double> one{1.0};
  CHECK(rope::fit_targets(8, 10000.0, one).error().to_string() ==
        "targets: must have from 2 to 65536 entries, got 1");
  const std::vector<double> with_nan{1.0, 2.0, 3.0, nan};
  CHECK(rope::fit_targets(8, 10000.0, with_nan).error().to_string() ==
        "targets: entry 3 must be a finite number, got nan");

  const auto fit = rope::fit_random_target(8, 10000.0, 64, 1).value();
  CHECK(std::isnan(rope::evaluate_fit(fit, inf)));
  CHECK(std::isnan(rope::evaluate_fit(fit, nan)));
  CHECK(std::isnan(rope::evaluate_fit(rope::FitResult{}, 1.0)));
  auto broken = fit;
  broken.coefficients.pop_back();
  CHECK(std::isnan(rope::evaluate_fit(broken, 1.0)));
  CHECK(rope::evaluate_fit_range(broken, 0.0, 1.0, 0.5).error().to_string() ==
        "fit: must hold 1 to 2048 frequencies and twice as many coefficients, got 4 and 7");
  CHECK(rope::evaluate_fit_range(fit, nan, 1.0, 0.5).error().parameter == "from");
  CHECK(rope::evaluate_fit_range(fit, 0.0, inf, 0.5).error().parameter == "to");
  CHECK(rope::evaluate_fit_range(fit, 1.0, 1.0, 0.5).error().to_string() ==
        "to: must be greater than from (1), got 1");
  CHECK(rope::evaluate_fit_range(fit, 0.0, 1.0, 0.0).error().to_string() ==
        "step: must be a finite number greater than 0, got 0");
  CHECK(rope::evaluate_fit_range(fit, 0.0, 1.0, -1.0).error().parameter == "step");
  CHECK(rope::evaluate_fit_range(fit, 0.0, 1.0, nan).error().parameter == "step");
  CHECK(rope::evaluate_fit_range(fit, 0.0, 1.0, 1e-7).error().to_string() ==
        "step: gives more than 1000000 points from 0 to 1, got step 1e-07");
  CHECK(rope::evaluate_fit_range(fit, 0.0, 1.0, 1e-6).value().size() == 1'000'000);

  CHECK(rope::b_over_d(127, 10000.0, 10).error().parameter == "dim");
  CHECK(rope::b_over_d(128, 0.5, 10).error().parameter == "base");
  CHECK(rope::b_over_d(128, 10000.0, -1).error().to_string() ==
        "max_s: must be an integer from 0 to 1000000, got -1");
  CHECK(rope::b_over_d(128, 10000.0, 1'000'001).error().parameter == "max_s");
}
