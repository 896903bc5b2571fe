// Tests for rope/sinusoidal.h: PE vectors and table, the offset matrix M(k), 2D trajectories.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "rope/frequencies.h"
#include "rope/sinusoidal.h"
#include "test_support.h"

using Catch::Matchers::WithinAbs;
using rope_test::tol;

// --- Exact small cases ----------------------------------------------------------------------

TEST_CASE("sinusoidal: PE_0 = (0, 1, 0, 1, ...) and a d = 4 vector", "[sinusoidal]") {
  const auto th = rope::frequencies(8, 10000.0).value();
  CHECK(rope::sinusoidal_vector(0.0, th) == std::vector<double>{0, 1, 0, 1, 0, 1, 0, 1});
  const auto pe = rope::sinusoidal_vector(1.0, rope::frequencies(4, 100.0).value());
  REQUIRE(pe.size() == 4);
  CHECK(pe[0] == std::sin(1.0));
  CHECK(pe[1] == std::cos(1.0));
  CHECK_THAT(pe[2], WithinAbs(std::sin(0.1), 1e-16));
  CHECK_THAT(pe[3], WithinAbs(std::cos(0.1), 1e-16));
}

TEST_CASE("sinusoidal: table rows are PE_0 ... PE_{N-1}", "[sinusoidal]") {
  const auto table = rope::sinusoidal_table(5, 6, 10000.0);
  REQUIRE(table.ok());
  REQUIRE(table.value().size() == 30);
  const auto th = rope::frequencies(6, 10000.0).value();
  for (int p = 0; p < 5; ++p) {
    const auto pe = rope::sinusoidal_vector(p, th);
    for (std::size_t j = 0; j < 6; ++j)
      CHECK(table.value()[static_cast<std::size_t>(p) * 6 + j] == pe[j]);
  }
}

TEST_CASE("sinusoidal: M(0) is the identity", "[sinusoidal]") {
  const auto m = rope::sinusoidal_offset_matrix(0.0, std::vector<double>{1.0, 0.3});
  CHECK(m == std::vector<double>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
}

TEST_CASE("sinusoidal: 2D trajectories", "[sinusoidal]") {
  // Additive: x + (sin p, cos p) for p = 0, pi/2, pi.
  const auto add = rope::additive_trajectory({2.0, 3.0}, 0.0, rope::kPi / 2, 3);
  REQUIRE(add.size() == 3);
  CHECK_THAT(add[0].x, WithinAbs(2.0, 1e-15));
  CHECK_THAT(add[0].y, WithinAbs(4.0, 1e-15));
  CHECK_THAT(add[1].x, WithinAbs(3.0, 1e-15));
  CHECK_THAT(add[1].y, WithinAbs(3.0, 1e-15));
  CHECK_THAT(add[2].x, WithinAbs(2.0, 1e-15));
  CHECK_THAT(add[2].y, WithinAbs(2.0, 1e-15));
  // Rotary: R(p omega) x with omega = 2, p = 0, pi/4, pi/2.
  const auto rot = rope::rotary_trajectory({1.0, 0.0}, 0.0, rope::kPi / 4, 3, 2.0);
  REQUIRE(rot.size() == 3);
  CHECK_THAT(rot[1].x, WithinAbs(0.0, 1e-15));
  CHECK_THAT(rot[1].y, WithinAbs(1.0, 1e-15));
  CHECK_THAT(rot[2].x, WithinAbs(-1.0, 1e-15));
  CHECK_THAT(rot[2].y, WithinAbs(0.0, 1e-15));
  CHECK(rope::rotary_trajectory({1.0, 0.0}, 0.0, 1.0, 0).empty());
}

// --- Identities over seeded random (d, base, pos, k) ------------------------------------------

TEST_CASE("sinusoidal: offset identity PE_{pos+k} = M(k) PE_pos", "[sinusoidal]") {
  const int index = GENERATE(range(0, 30));
  const auto c = rope_test::random_case(index);
  const double pos = c.m;
  const double k = c.t;
  CAPTURE(c.dim, c.base, pos, k);
  const auto th = rope::frequencies(c.dim, c.base).value();
  const auto pe = rope::sinusoidal_vector(pos, th);
  const auto shifted = rope::sinusoidal_vector(pos + k, th);
  const auto mk = rope::sinusoidal_offset_matrix(k, th);
  const auto via_m = rope::mat_vec(mk, pe);
  for (std::size_t j = 0; j < pe.size(); ++j) {
    // PE_{pos+k}[j] = (M(k) PE_pos)[j], independent of pos
    CHECK_THAT(via_m[j], WithinAbs(shifted[j], tol<double>(1.0, 4, std::abs(pos) + std::abs(k))));
  }
  // M(k)^T M(k) = I: M(k) is orthogonal
  const auto d = static_cast<std::size_t>(c.dim);
  const auto gram = rope::mat_transpose_mul(mk, mk, c.dim);
  double worst = 0.0;
  for (std::size_t i = 0; i < d; ++i) {
    for (std::size_t j = 0; j < d; ++j) {
      worst = std::max(worst, std::abs(gram[i * d + j] - (i == j ? 1.0 : 0.0)));
    }
  }
  CHECK(worst < 1e-14);
}

TEST_CASE("sinusoidal: |PE|^2 = d/2 and PE_m . PE_n = sum_i cos((n-m) theta_i)", "[sinusoidal]") {
  const int index = GENERATE(range(0, 30));
  const auto c = rope_test::random_case(index);
  CAPTURE(c.dim, c.base, c.m, c.n);
  const auto th = rope::frequencies(c.dim, c.base).value();
  const auto pm = rope::sinusoidal_vector(c.m, th);
  const auto pn = rope::sinusoidal_vector(c.n, th);
  const double pos = std::abs(c.m) + std::abs(c.n);
  // |PE_m|^2 = sum_i sin^2 + cos^2 = d/2
  CHECK_THAT(rope_test::dot(pm, pm), WithinAbs(c.dim / 2.0, tol<double>(c.dim, 4)));
  double cos_sum = 0.0;
  for (const double t : th)
    cos_sum += std::cos((c.n - c.m) * t);
  // PE_m . PE_n = sum_i cos((n - m) theta_i): depends only on n - m
  CHECK_THAT(rope_test::dot(pm, pn), WithinAbs(cos_sum, tol<double>(c.dim, 4, pos)));
}

TEST_CASE("sinusoidal: additive points lie on the unit circle around x, rotary keep |x|",
          "[sinusoidal]") {
  const int index = GENERATE(range(0, 10));
  rope::SplitMix64 rng(rope_test::kSeed + static_cast<std::uint64_t>(index));
  const rope::Vec2 x{rng.uniform(-3, 3), rng.uniform(-3, 3)};
  const double omega = rng.uniform(0.01, 2.0);
  const auto add = rope::additive_trajectory(x, -10.0, 0.7, 50, omega);
  const auto rot = rope::rotary_trajectory(x, -10.0, 0.7, 50, omega);
  const double r = std::hypot(x.x, x.y);
  for (int j = 0; j < 50; ++j) {
    const auto& a = add[static_cast<std::size_t>(j)];
    const auto& b = rot[static_cast<std::size_t>(j)];
    // |(x + PE_p) - x| = 1
    CHECK_THAT(std::hypot(a.x - x.x, a.y - x.y), WithinAbs(1.0, 1e-14));
    // |R(p omega) x| = |x|
    CHECK_THAT(std::hypot(b.x, b.y), WithinAbs(r, 1e-14));
  }
}

// --- Reference values (mpmath, 40 digits) -----------------------------------------------------

TEST_CASE("sinusoidal: reference value, PE_100 block 1 for d = 128, base 10000",
          "[sinusoidal][reference]") {
  const auto pe = rope::sinusoidal_vector(100.0, rope::frequencies(128, 10000.0).value());
  // sin(100 * 10000^(-1/64)), cos(100 * 10000^(-1/64))
  CHECK_THAT(pe[2], WithinAbs(-0.97953981069117936206, 1e-13));
  CHECK_THAT(pe[3], WithinAbs(0.20125048887167578142, 1e-13));
}

// --- Bad input ------------------------------------------------------------------------------

TEST_CASE("sinusoidal: bad input", "[sinusoidal][errors]") {
  CHECK(rope::sinusoidal_table(10, 7, 10000.0).error().parameter == "dim");
  CHECK(rope::sinusoidal_table(10, 8, std::numeric_limits<double>::quiet_NaN()).error().parameter ==
        "base");
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{1'000'001},
                               std::numeric_limits<std::int64_t>::max()}) {
    const auto t = rope::sinusoidal_table(n, 8, 10000.0);
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().parameter == "positions");
  }
  // 1e6 positions are allowed only while positions * dim stays within 2^26 entries.
  const auto big = rope::sinusoidal_table(1'000'000, 4096, 10000.0);
  REQUIRE_FALSE(big.ok());
  CHECK(big.error().parameter == "positions");
  CHECK(big.error().message ==
        "must be an integer from 1 to 16384 for dim 4096 (at most 67108864 "
        "entries), got 1000000");

  CHECK(rope::sinusoidal_vector(1.0, std::vector<double>{}).empty());
  CHECK(rope::sinusoidal_offset_matrix(1.0, std::vector<double>(4000, 1.0)).empty());
  CHECK(rope::additive_trajectory({0, 0}, 0.0, 1.0, -1).empty());
  CHECK(rope::rotary_trajectory({0, 0}, 0.0, 1.0, std::numeric_limits<int>::max()).empty());
  const auto nan_pe =
      rope::sinusoidal_vector(std::numeric_limits<double>::infinity(), std::vector<double>{1.0});
  CHECK(std::isnan(nan_pe[0]));
}
