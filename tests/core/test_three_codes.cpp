// Tests for rope/three_codes.h: the math, Meta's complex/interleaved and the rotate_half forms,
// and the row permutation that makes them give the same scores.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "rope/frequencies.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "rope/three_codes.h"

using Catch::Matchers::WithinAbs;

namespace {

constexpr double kPi = rope::kPi;

void check_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("entry " << i);
    CHECK_THAT(got[i], WithinAbs(want[i], tol));
  }
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

}  // namespace

// --- Exact small cases, worked by hand ------------------------------------------------------

// thetas (pi/2, pi) at m = 1: block 0 turns a quarter, block 1 a half.
// interleaved blocks of x = (1,2,3,4): (1,2) -> (-2,1), (3,4) -> (-3,-4).
// half-split blocks: (x0,x2) = (1,3) -> (-3,1), (x1,x3) = (2,4) -> (-2,-4), i.e. (-3,-2,1,-4).
TEST_CASE("three codes: d = 4 by hand", "[three_codes]") {
  const std::vector<double> th{kPi / 2, kPi};
  const std::vector<double> x{1, 2, 3, 4};
  check_near(rope::rotate_math(x, 1.0, th).value(), {-2, 1, -3, -4}, 1e-15);
  check_near(rope::rotate_complex_interleaved(x, 1.0, th).value(), {-2, 1, -3, -4}, 1e-15);
  check_near(rope::rotate_half_form(x, 1.0, th).value(), {-3, -2, 1, -4}, 1e-15);
  const auto perm = rope::interleaved_to_half_permutation(4);
  CHECK(perm == std::vector<int>{0, 2, 1, 3});
  const auto px = rope::apply_permutation(x, perm).value();
  CHECK(px == std::vector<double>{1, 3, 2, 4});
  // with P: the interleaved result, reordered by P
  check_near(rope::rotate_half_form(px, 1.0, th).value(), {-2, -3, 1, -4}, 1e-15);
  CHECK(rope::apply_permutation_transposed(px, perm).value() == x);
}

TEST_CASE("three codes: d = 8 permutation and the checkpoint rows", "[three_codes]") {
  CHECK(rope::interleaved_to_half_permutation(8) == std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7});
  CHECK(rope::interleaved_to_half_permutation(2) == std::vector<int>{0, 1});
  // two heads of 4 rows: each head's rows reordered on their own
  CHECK(rope::checkpoint_row_permutation(2, 4).value() == std::vector<int>{0, 2, 1, 3, 4, 6, 5, 7});
  // one head: the same P as the rotation module's
  CHECK(rope::checkpoint_row_permutation(1, 8).value() == rope::interleaved_to_half_permutation(8));
  // d = 8, thetas (pi/2, pi, pi/2, pi), m = 1, x = e_1 (coordinate 1): block 0 of the interleaved
  // layout is (x0, x1) = (0, 1) -> (-1, 0); the half-split form pairs x1 with x5 under theta_1 =
  // pi.
  const std::vector<double> th{kPi / 2, kPi, kPi / 2, kPi};
  const std::vector<double> e1{0, 1, 0, 0, 0, 0, 0, 0};
  check_near(rope::rotate_math(e1, 1.0, th).value(), {-1, 0, 0, 0, 0, 0, 0, 0}, 1e-15);
  check_near(rope::rotate_half_form(e1, 1.0, th).value(), {0, -1, 0, 0, 0, 0, 0, 0}, 1e-15);
}

// q = (1,2,3,4), k = e_0, m = 1, n = 0, thetas (pi/2, pi): R_m q = (-2,1,-3,-4) so the score is
// -2; without P the half-split form gives (-3,-2,1,-4) . (1,0,0,0) = -3.
TEST_CASE("three codes: leaving P out changes the score (d = 4 by hand)", "[three_codes]") {
  const std::vector<double> th{kPi / 2, kPi};
  const auto c = rope::compare_codes(std::vector<double>{1, 2, 3, 4},
                                     std::vector<double>{1, 0, 0, 0}, 1.0, 0.0, th);
  REQUIRE(c.ok());
  CHECK_THAT(c.value().score_math, WithinAbs(-2.0, 1e-15));
  CHECK_THAT(c.value().score_complex, WithinAbs(-2.0, 1e-15));
  CHECK_THAT(c.value().score_half_permuted, WithinAbs(-2.0, 1e-15));
  CHECK_THAT(c.value().score_half_unpermuted, WithinAbs(-3.0, 1e-15));
  CHECK(c.value().rel_gap_permuted <= rope::kCodeScoreTolerance);
  // |q| |k| = sqrt(30) is the scale: gap 1 / sqrt(30)
  CHECK_THAT(c.value().rel_gap_unpermuted, WithinAbs(1.0 / std::sqrt(30.0), 1e-15));
}

// --- Identities over seeded random inputs ---------------------------------------------------

TEST_CASE("three codes: (R_m P q).(R_n P k) = (R_m q).(R_n k) to 1e-12, and P R = R P",
          "[three_codes]") {
  rope::SplitMix64 rng(20261124);
  int differ = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int d = 2 * (1 + static_cast<int>(rng.uniform() * 128));
    const double base = std::exp(rng.uniform(std::log(2.0), std::log(1e6)));
    const double m = rng.uniform(-5000, 5000), n = rng.uniform(-5000, 5000);
    const auto th = rope::frequencies(d, base).value();
    std::vector<double> q(static_cast<std::size_t>(d)), k(q.size());
    for (std::size_t i = 0; i < q.size(); ++i) {
      q[i] = rng.normal();
      k[i] = rng.normal();
    }
    INFO("trial " << trial << " d " << d << " base " << base << " m " << m << " n " << n);
    const auto c = rope::compare_codes(q, k, m, n, th);
    REQUIRE(c.ok());
    const auto& v = c.value();
    CHECK(v.rel_gap_permuted <= rope::kCodeScoreTolerance);
    CHECK(v.rel_gap_complex <= rope::kCodeScoreTolerance);
    // the rotated vectors themselves agree once reordered: rotate_half(P q) = P rotate_math(q)
    check_near(v.rq_half, rope::apply_permutation(v.rq_math, v.perm).value(), 1e-12);
    check_near(v.rq_complex, v.rq_math, 1e-12);
    // and the general rotation module agrees with the listings
    std::vector<double> y(q.size());
    rope::apply_rope<double>(q, y, m, th, rope::Pairing::interleaved);
    check_near(v.rq_math, y, 1e-9);
    // without P: the interleaved score of the shuffled vectors P^T q, P^T k
    const auto sq = rope::apply_permutation_transposed(q, v.perm).value();
    const auto sk = rope::apply_permutation_transposed(k, v.perm).value();
    const double shuffled =
        dot(rope::rotate_math(sq, m, th).value(), rope::rotate_math(sk, n, th).value());
    CHECK_THAT(v.score_half_unpermuted, WithinAbs(shuffled, 1e-9 * (1 + std::fabs(shuffled))));
    if (d > 2 && v.rel_gap_unpermuted > 1e-6) ++differ;
  }
  CHECK(differ > 190);  // d = 2 (P = I) is the only draw where the scores must agree
}

TEST_CASE("three codes: without P the scores agree only by accident", "[three_codes]") {
  const auto th = rope::frequencies(8, 10000.0).value();
  const std::vector<double> ones(8, 1.0);
  // ones is its own permutation: P q = q, so leaving P out changes nothing
  const auto c1 = rope::compare_codes(ones, ones, 3.0, 7.0, th).value();
  CHECK(c1.rel_gap_unpermuted <= 1e-15);
  // m = n: every score is q . k
  const std::vector<double> q{1, -2, 0.5, 3, -1, 0.25, 2, -0.75};
  const auto c2 = rope::compare_codes(q, ones, 5.0, 5.0, th).value();
  CHECK_THAT(c2.score_half_unpermuted, WithinAbs(dot(q, ones), 1e-12));
  CHECK(c2.rel_gap_unpermuted <= 1e-12);
  // m != n and q not symmetric: they differ
  const auto c3 = rope::compare_codes(q, ones, 3.0, 7.0, th).value();
  CHECK(c3.rel_gap_unpermuted > 1e-3);
  CHECK(c3.rel_gap_permuted <= rope::kCodeScoreTolerance);
}

// --- Errors ---------------------------------------------------------------------------------

TEST_CASE("three codes: bad input gives an Error naming the parameter", "[three_codes][errors]") {
  const std::vector<double> th{1.0, 0.1};
  const std::vector<double> x{1, 2, 3};
  const auto r = rope::rotate_math(x, 1.0, th);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().parameter == "x");
  CHECK(r.error().message == "must have 4 entries ([d], d = 2 * thetas), got 3");
  const std::vector<double> nan_x{1, NAN, 3, 4};
  CHECK(rope::rotate_half_form(nan_x, 1.0, th).error().message ==
        "entry 1 must be a finite number, got nan");
  CHECK(rope::rotate_complex_interleaved(std::vector<double>{1, 2, 3, 4}, INFINITY, th)
            .error()
            .parameter == "position");
  CHECK(rope::rotate_math(std::vector<double>{}, 1.0, std::vector<double>{}).error().parameter ==
        "thetas");
  CHECK(rope::interleaved_to_half_permutation(7).empty());
  CHECK(rope::checkpoint_row_permutation(0, 8).error().parameter == "n_heads");
  CHECK(rope::checkpoint_row_permutation(4, 6000).error().parameter == "head_dim");
  CHECK(rope::checkpoint_row_permutation(1025, 8).error().message ==
        "must be an integer from 1 to 1024, got 1025");
  CHECK(rope::checkpoint_row_permutation(1024, 4096).value().size() == (std::size_t{1} << 22));
  CHECK(
      rope::apply_permutation(std::vector<double>{1, 2}, std::vector<int>{0, 0}).error().message ==
      "must hold each index 0 to 1 once; entry 1 is 0");
  CHECK(rope::apply_permutation(std::vector<double>{1, 2}, std::vector<int>{0}).error().parameter ==
        "perm");
  const auto c =
      rope::compare_codes(std::vector<double>{1, 2, 3, 4}, std::vector<double>{1, 2}, 0.0, 1.0, th);
  CHECK(c.error().parameter == "k");
  CHECK(rope::compare_codes(std::vector<double>{1, 2, 3, 4}, std::vector<double>{1, 2, 3, 4}, 0.0,
                            NAN, th)
            .error()
            .parameter == "key_position");
}
