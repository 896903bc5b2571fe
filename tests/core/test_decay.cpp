// Tests for rope/decay.h: the relative upper bound D(r) and the mean random score.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "rope/decay.h"
#include "rope/frequencies.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "test_support.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// D(r) straight from the definition, every phasor from std::polar.
double decay_direct(int dim, double base, int r) {
  const auto th = rope::frequencies(dim, base).value();
  std::complex<double> s = 0.0;
  double total = 0.0;
  for (const double t : th) {
    s += std::polar(1.0, r * t);
    total += std::abs(s);
  }
  return total / static_cast<double>(th.size());
}

}  // namespace

// --- Exact small cases ----------------------------------------------------------------------

TEST_CASE("decay: D(0) = 32.5 for d = 128", "[decay]") {
  const auto d = rope::decay_curve(128, 10000.0, 0);
  REQUIRE(d.ok());
  REQUIRE(d.value().size() == 1);
  CHECK(d.value()[0] == 32.5);
}

TEST_CASE("decay: d = 2 has a single unit phasor, D(r) = 1", "[decay]") {
  const auto d = rope::decay_curve(2, 10000.0, 50);
  REQUIRE(d.ok());
  for (const double v : d.value())
    CHECK_THAT(v, WithinAbs(1.0, 1e-15));
}

// --- Identities over seeded random (d, base) -------------------------------------------------

TEST_CASE("decay: D(0) = (d/2 + 1)/2, D(r) <= D(0), and the stepped phasors match std::polar",
          "[decay]") {
  const int index = GENERATE(range(0, 12));
  const auto c = rope_test::random_case(index, 512);
  CAPTURE(c.dim, c.base);
  const auto d = rope::decay_curve(c.dim, c.base, 2000);
  REQUIRE(d.ok());
  const auto& v = d.value();
  REQUIRE(v.size() == 2001);
  // S_j(0) = j, so D(0) = (1/(d/2)) sum_j j = (d/2 + 1)/2
  CHECK_THAT(v[0], WithinRel((c.dim / 2.0 + 1.0) / 2.0, 1e-15));
  for (int r = 0; r <= 2000; r += 37) {
    CAPTURE(r);
    CHECK(v[static_cast<std::size_t>(r)] <= v[0] * (1 + 1e-15));  // |S_j| <= j
    // D(r) from the phasor recurrence = D(r) from exact phasors
    CHECK_THAT(v[static_cast<std::size_t>(r)], WithinAbs(decay_direct(c.dim, c.base, r), 1e-11));
  }
}

TEST_CASE("decay: mean_random_score = the mean of brute-force RoPE scores", "[decay]") {
  const int index = GENERATE(range(0, 6));
  const auto c = rope_test::random_case(index, 64);
  const int samples = 1 + index * 5;
  const std::uint64_t seed = rope_test::kSeed + static_cast<std::uint64_t>(index);
  CAPTURE(c.dim, c.base, samples);
  const auto mean = rope::mean_random_score(c.dim, c.base, 40, samples, seed);
  REQUIRE(mean.ok());
  const auto th = rope::frequencies(c.dim, c.base).value();
  const auto d = static_cast<std::size_t>(c.dim);
  // The same draws: per sample q[0 ... d-1] then k[0 ... d-1], uniform in [0, 1).
  rope::SplitMix64 rng(seed);
  std::vector<std::vector<double>> qs, ks;
  for (int s = 0; s < samples; ++s) {
    std::vector<double> q(d), k(d);
    for (double& x : q)
      x = rng.uniform();
    for (double& x : k)
      x = rng.uniform();
    qs.push_back(q);
    ks.push_back(k);
  }
  for (int r = 0; r <= 40; r += 3) {
    double total = 0.0;
    for (int s = 0; s < samples; ++s) {
      // (R_0 q) . (R_r k)
      std::vector<double> rk(d);
      rope::apply_rope<double>(ks[static_cast<std::size_t>(s)], rk, r, th,
                               rope::Pairing::interleaved);
      total += rope_test::dot(qs[static_cast<std::size_t>(s)], rk);
    }
    CHECK_THAT(mean.value()[static_cast<std::size_t>(r)],
               WithinAbs(total / samples, 1e-12 * c.dim));
  }
  // Same seed, same numbers; another seed, other numbers.
  CHECK(rope::mean_random_score(c.dim, c.base, 40, samples, seed).value() == mean.value());
  CHECK(rope::mean_random_score(c.dim, c.base, 40, samples, seed + 1).value() != mean.value());
}

// --- Reference values (mpmath, 40 digits) -----------------------------------------------------

TEST_CASE("decay: reference values for d = 128, base 10000", "[decay][reference]") {
  const auto d = rope::decay_curve(128, 10000.0, 256).value();
  CHECK_THAT(d[1], WithinAbs(31.538166142658084355, 1e-12));
  CHECK_THAT(d[2], WithinAbs(28.955988473564467696, 1e-12));
  CHECK_THAT(d[10], WithinAbs(17.954137137084833747, 1e-12));
  CHECK_THAT(d[100], WithinAbs(10.227329948505143376, 1e-12));
  CHECK_THAT(d[256], WithinAbs(6.5430973229789417782, 1e-12));
  // The curve falls: strictly for r = 0 ... 18, and below half of D(0) for 16 <= r <= 256.
  for (std::size_t r = 1; r <= 18; ++r)
    CHECK(d[r] < d[r - 1]);
  for (std::size_t r = 16; r <= 256; ++r)
    CHECK(d[r] < d[0] / 2);
}

// --- Bad input ------------------------------------------------------------------------------

TEST_CASE("decay: bad input names the parameter", "[decay][errors]") {
  CHECK(rope::decay_curve(127, 10000.0, 10).error().parameter == "dim");
  CHECK(rope::decay_curve(128, 1.0, 10).error().parameter == "base");
  CHECK(rope::decay_curve(128, std::numeric_limits<double>::infinity(), 10).error().parameter ==
        "base");
  CHECK(rope::decay_curve(128, 10000.0, -1).error().parameter == "max_distance");
  CHECK(rope::decay_curve(128, 10000.0, 1'000'001).error().message ==
        "must be an integer from 0 to 1000000, got 1000001");
  CHECK(rope::mean_random_score(0, 10000.0, 10, 5, 1).error().parameter == "dim");
  CHECK(rope::mean_random_score(8, -2.0, 10, 5, 1).error().parameter == "base");
  CHECK(rope::mean_random_score(8, 10000.0, std::numeric_limits<std::int64_t>::min(), 5, 1)
            .error()
            .parameter == "max_distance");
  for (const int samples : {0, -5, 100'001, std::numeric_limits<int>::max()}) {
    const auto r = rope::mean_random_score(8, 10000.0, 10, samples, 1);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().parameter == "samples");
  }
}

TEST_CASE("decay curves for any frequencies: equal to the d, base forms on θ, errors named",
          "[decay]") {
  const auto th = rope::frequencies(64, 10000.0).value();
  CHECK(rope::decay_curve_thetas(th, 200).value() == rope::decay_curve(64, 10000.0, 200).value());
  CHECK(rope::mean_random_score_thetas(th, 200, 32, 7).value() ==
        rope::mean_random_score(64, 10000.0, 200, 32, 7).value());
  // two pairs by hand: θ = (π/2, 0) at r = 1 gives S_1 = i, S_2 = 1 + i: D = (1 + √2)/2
  const std::vector<double> two{rope::kPi / 2, 0.0};
  CHECK(rope::decay_curve_thetas(two, 1).value()[1] == Approx((1.0 + std::sqrt(2.0)) / 2.0));
  const std::vector<double> bad{1.0, -0.5};
  const auto e = rope::decay_curve_thetas(bad, 10);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().parameter == "thetas");
  CHECK(e.error().message == "entry 1 must be a finite number of at least 0, got -0.5");
  CHECK_FALSE(rope::decay_curve_thetas(std::vector<double>{}, 10).ok());
  CHECK_FALSE(rope::mean_random_score_thetas(th, -1, 32, 7).ok());
}

TEST_CASE("mean_random_max_step: the summation-by-parts bound holds for the mean score",
          "[decay]") {
  for (int dim : {2, 8, 64, 128}) {
    for (double base : {100.0, 10000.0}) {
      const std::uint64_t seed = 7 + static_cast<std::uint64_t>(dim);
      const double step = rope::mean_random_max_step(dim, 256, seed).value();
      const auto mean = rope::mean_random_score(dim, base, 400, 256, seed).value();
      const auto d_r = rope::decay_curve(dim, base, 400).value();
      INFO("d = " << dim << ", base " << base);
      // the mean weights of uniform [0, 1) entries are near 0.5 each: the step to h_{d/2} = 0
      CHECK(step > 0.4);
      CHECK(step < 0.7);
      for (std::size_t r = 0; r < mean.size(); ++r)
        CHECK(std::fabs(mean[r]) <= step * 0.5 * dim * d_r[r] * (1 + 1e-12));
    }
  }
  // d = 2: one block, h̄_0 alone, the step is |h̄_0| and the score at r = 0 is Re h̄_0
  const double step2 = rope::mean_random_max_step(2, 1000, 3).value();
  const double at0 = rope::mean_random_score(2, 10000.0, 0, 1000, 3).value()[0];
  CHECK(step2 >= std::fabs(at0));
  CHECK_FALSE(rope::mean_random_max_step(3, 256, 1).ok());
  CHECK_FALSE(rope::mean_random_max_step(8, 0, 1).ok());
}
