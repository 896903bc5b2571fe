// Tests for rope/axial.h: axial 2D RoPE, half the blocks with the row, half with the column.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "rope/axial.h"
#include "test_support.h"

using Catch::Matchers::WithinAbs;
using rope::Pairing;
using rope::Patch;

namespace {

// R(r, c) as a dense [d][d] matrix, built entry by entry from its definition (block i of the
// pairing turns by r theta_i for i < d/4, by c theta_{i-d/4} after; theta_j = base^(-4j/d)).
std::vector<double> dense_rotation(int d, double base, Patch at, Pairing pairing) {
  const auto n = static_cast<std::size_t>(d);
  std::vector<double> m(n * n, 0.0);
  const int half = d / 2, quarter = d / 4;
  for (int i = 0; i < half; ++i) {
    const int j = i < quarter ? i : i - quarter;
    const double theta = std::pow(base, -4.0 * j / d);
    const double angle = (i < quarter ? at.row : at.column) * theta;
    const auto a = static_cast<std::size_t>(pairing == Pairing::interleaved ? 2 * i : i);
    const auto b = static_cast<std::size_t>(pairing == Pairing::interleaved ? 2 * i + 1 : i + half);
    m[a * n + a] = std::cos(angle);
    m[a * n + b] = -std::sin(angle);
    m[b * n + a] = std::sin(angle);
    m[b * n + b] = std::cos(angle);
  }
  return m;
}

// q^T A^T B k with both dense products formed.
double dense_score(const std::vector<double>& q, const std::vector<double>& k,
                   const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = q.size();
  double s = 0.0;
  for (std::size_t row = 0; row < n; ++row) {
    double aq = 0.0, bk = 0.0;
    for (std::size_t col = 0; col < n; ++col) {
      aq += a[row * n + col] * q[col];
      bk += b[row * n + col] * k[col];
    }
    s += aq * bk;
  }
  return s;
}

double norm(const std::vector<double>& x) {
  double s = 0.0;
  for (double v : x)
    s += v * v;
  return std::sqrt(s);
}

}  // namespace

// --- Exact small cases ----------------------------------------------------------------------

TEST_CASE("axial: d must be a multiple of 4 from 4 to 4096", "[axial]") {
  CHECK(rope::validate_axial_dim(4));
  CHECK(rope::validate_axial_dim(16));
  CHECK(rope::validate_axial_dim(4096));
  for (const std::int64_t bad : {0LL, 2LL, 6LL, 10LL, 4098LL, 4100LL, -4LL}) {
    const rope::Status s = rope::validate_axial_dim(bad);
    REQUIRE_FALSE(s);
    CHECK(s.error().parameter == "dim");
    CHECK(s.error().message ==
          "must be a multiple of 4 from 4 to 4096 for axial 2D RoPE, got " + std::to_string(bad));
  }
  const std::vector<double> six(6, 1.0);
  auto r = rope::axial_rotate(six, {0, 0}, 100.0, Pairing::interleaved);
  REQUIRE_FALSE(r);
  CHECK(r.error().to_string() ==
        "dim: must be a multiple of 4 from 4 to 4096 for axial 2D RoPE, "
        "got 6");
  const std::vector<double> four(4, 1.0), eight(8, 1.0);
  auto mismatch = rope::axial_score(four, eight, {0, 0}, {0, 0}, 100.0, Pairing::interleaved);
  REQUIRE_FALSE(mismatch);
  CHECK(mismatch.error().parameter == "key");
  auto nan_row =
      rope::axial_score(four, four, {std::nan(""), 0}, {0, 0}, 100.0, Pairing::interleaved);
  REQUIRE_FALSE(nan_row);
  CHECK(nan_row.error().to_string() == "query_row: must be a finite number, got nan");
  auto bad_base = rope::axial_frequencies(8, 1.0);
  REQUIRE_FALSE(bad_base);
  CHECK(bad_base.error().parameter == "base");
  auto bad_grid = rope::axial_score_grid(four, four, {0, 0}, 0, 8, 100.0, Pairing::interleaved);
  REQUIRE_FALSE(bad_grid);
  CHECK(bad_grid.error().to_string() == "rows: must be an integer from 1 to 1024, got 0");
}

TEST_CASE("axial: frequencies are the 1D ones of a head of size d/2", "[axial]") {
  // d = 8, base 100: theta_j = 100^(-4j/8) = 100^(-j/2): 1, 0.1.
  auto th = rope::axial_frequencies(8, 100.0);
  REQUIRE(th);
  REQUIRE(th.value().size() == 2);
  CHECK(th.value()[0] == 1.0);
  CHECK_THAT(th.value()[1], WithinAbs(0.1, 1e-16));
  // Angles at (r, c) = (3, -2): rows first (3, 0.3), then columns (-2, -0.2).
  auto a = rope::axial_angles(8, 100.0, {3, -2});
  REQUIRE(a);
  REQUIRE(a.value().size() == 4);
  CHECK(a.value()[0] == 3.0);
  CHECK_THAT(a.value()[1], WithinAbs(0.3, 1e-15));
  CHECK(a.value()[2] == -2.0);
  CHECK_THAT(a.value()[3], WithinAbs(-0.2, 1e-15));
}

TEST_CASE("axial: d = 4 by hand: block 0 turns by the row, block 1 by the column", "[axial]") {
  // d = 4: one block per axis, theta_0 = 1 whatever the base. x = (1, 2, 3, 4) at (r, c) = (1, 2):
  // interleaved  (x0, x1) by 1 rad, (x2, x3) by 2 rad;  half  (x0, x2) by 1, (x1, x3) by 2.
  const std::vector<double> x{1, 2, 3, 4};
  const double c1 = std::cos(1.0), s1 = std::sin(1.0), c2 = std::cos(2.0), s2 = std::sin(2.0);
  auto y = rope::axial_rotate(x, {1, 2}, 10000.0, Pairing::interleaved);
  REQUIRE(y);
  CHECK_THAT(y.value()[0], WithinAbs(1 * c1 - 2 * s1, 1e-15));
  CHECK_THAT(y.value()[1], WithinAbs(1 * s1 + 2 * c1, 1e-15));
  CHECK_THAT(y.value()[2], WithinAbs(3 * c2 - 4 * s2, 1e-15));
  CHECK_THAT(y.value()[3], WithinAbs(3 * s2 + 4 * c2, 1e-15));
  auto h = rope::axial_rotate(x, {1, 2}, 10000.0, Pairing::half_split);
  REQUIRE(h);
  CHECK_THAT(h.value()[0], WithinAbs(1 * c1 - 3 * s1, 1e-15));
  CHECK_THAT(h.value()[2], WithinAbs(1 * s1 + 3 * c1, 1e-15));
  CHECK_THAT(h.value()[1], WithinAbs(2 * c2 - 4 * s2, 1e-15));
  CHECK_THAT(h.value()[3], WithinAbs(2 * s2 + 4 * c2, 1e-15));
  // q = k = (1, 0, 1, 0): the score is cos(r2 - r1) + cos(c2 - c1). Query (2, 5), key (4, 4):
  // cos(2) + cos(-1).
  const std::vector<double> e{1, 0, 1, 0};
  auto s = rope::axial_score(e, e, {2, 5}, {4, 4}, 100.0, Pairing::interleaved);
  REQUIRE(s);
  CHECK_THAT(s.value(), WithinAbs(std::cos(2.0) + std::cos(1.0), 1e-15));
  // The same key at every patch of a 3 x 3 grid, query at (1, 1): the centre is |e|^2 = 2.
  auto g = rope::axial_score_grid(e, e, {1, 1}, 3, 3, 100.0, Pairing::interleaved);
  REQUIRE(g);
  REQUIRE(g.value().size() == 9);
  CHECK_THAT(g.value()[4], WithinAbs(2.0, 1e-15));
  CHECK_THAT(g.value()[0], WithinAbs(2 * std::cos(1.0), 1e-15));              // (0, 0)
  CHECK_THAT(g.value()[5], WithinAbs(1.0 + std::cos(1.0), 1e-15));            // (1, 2)
  CHECK_THAT(g.value()[6], WithinAbs(std::cos(1.0) + std::cos(1.0), 1e-15));  // (2, 0)
}

// --- Identities over seeded random inputs ---------------------------------------------------

TEST_CASE("axial: the score depends only on (r2 - r1, c2 - c1)", "[axial]") {
  for (int i = 0; i < 200; ++i) {
    rope::SplitMix64 rng(rope_test::seed(7000 + i));
    const int d = 4 * (1 + static_cast<int>(rng.next() % 64));  // 4 ... 256
    const double base = std::exp(rng.uniform(std::log(2.0), std::log(1e6)));
    const auto pairing = (i % 2 == 0) ? Pairing::interleaved : Pairing::half_split;
    const auto q =
        rope_test::random_vector<double>(static_cast<std::size_t>(d), rope_test::seed(i));
    const auto k =
        rope_test::random_vector<double>(static_cast<std::size_t>(d), rope_test::seed(i + 9999));
    const auto grid = [&] { return std::round(rng.uniform(-100.0, 100.0)); };
    const Patch a{grid(), grid()}, b{grid(), grid()}, shift{grid(), grid()};
    auto s = rope::axial_score(q, k, a, b, base, pairing);
    auto shifted = rope::axial_score(q, k, {a.row + shift.row, a.column + shift.column},
                                     {b.row + shift.row, b.column + shift.column}, base, pairing);
    auto rel =
        rope::axial_relative_score(q, k, {b.row - a.row, b.column - a.column}, base, pairing);
    REQUIRE(s);
    REQUIRE(shifted);
    REQUIRE(rel);
    // |q||k| bounds every score; angles up to ~200 rad carry ~200 eps of rounding.
    const double tol = rope_test::tol<double>(norm(q) * norm(k), d, 300.0);
    CHECK_THAT(shifted.value(), WithinAbs(s.value(), tol));
    CHECK_THAT(rel.value(), WithinAbs(s.value(), tol));
    // Rotations keep lengths.
    auto rq = rope::axial_rotate(q, a, base, pairing);
    REQUIRE(rq);
    CHECK_THAT(norm(rq.value()), WithinAbs(norm(q), 1e-12 * norm(q)));
  }
}

TEST_CASE("axial: moving along one axis leaves the other half of the blocks alone", "[axial]") {
  // Changing the column changes no row block: the rotated row-half coordinates are equal.
  const int d = 16;
  const auto x = rope_test::random_vector<double>(d, rope_test::seed(42));
  auto a = rope::axial_rotate(x, {3, 1}, 100.0, Pairing::interleaved);
  auto b = rope::axial_rotate(x, {3, 6}, 100.0, Pairing::interleaved);
  REQUIRE(a);
  REQUIRE(b);
  for (std::size_t i = 0; i < 8; ++i)  // blocks 0 ... 3 = coordinates 0 ... 7 (interleaved)
    CHECK(a.value()[i] == b.value()[i]);
  int changed = 0;
  for (std::size_t i = 8; i < 16; ++i)
    changed += a.value()[i] != b.value()[i] ? 1 : 0;
  CHECK(changed == 8);
}

// --- Reference values from an independent computation ---------------------------------------

TEST_CASE("axial: scores equal the dense block-diagonal matrix product", "[axial]") {
  for (int i = 0; i < 40; ++i) {
    rope::SplitMix64 rng(rope_test::seed(8000 + i));
    const int d = 4 * (1 + static_cast<int>(rng.next() % 32));  // 4 ... 128
    const double base = std::exp(rng.uniform(std::log(2.0), std::log(1e6)));
    const auto pairing = (i % 2 == 0) ? Pairing::half_split : Pairing::interleaved;
    const auto q =
        rope_test::random_vector<double>(static_cast<std::size_t>(d), rope_test::seed(i + 300));
    const auto k =
        rope_test::random_vector<double>(static_cast<std::size_t>(d), rope_test::seed(i + 600));
    const Patch a{std::round(rng.uniform(0, 31)), std::round(rng.uniform(0, 31))};
    const Patch b{std::round(rng.uniform(0, 31)), std::round(rng.uniform(0, 31))};
    const double ref =
        dense_score(q, k, dense_rotation(d, base, a, pairing), dense_rotation(d, base, b, pairing));
    auto s = rope::axial_score(q, k, a, b, base, pairing);
    REQUIRE(s);
    // Positions up to 31; the reference uses pow where the core uses theta(): both within a few
    // ulp. Tolerance 1e-12 |q||k|.
    CHECK_THAT(s.value(), WithinAbs(ref, 1e-12 * norm(q) * norm(k)));
    // The grid (row part + column part) agrees with the score at every patch.
    auto g = rope::axial_score_grid(q, k, a, 8, 5, base, pairing);
    REQUIRE(g);
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 5; ++c) {
        auto sc = rope::axial_score(q, k, a, {static_cast<double>(r), static_cast<double>(c)}, base,
                                    pairing);
        REQUIRE(sc);
        CHECK_THAT(g.value()[static_cast<std::size_t>(r * 5 + c)],
                   WithinAbs(sc.value(), 1e-12 * norm(q) * norm(k)));
      }
  }
}

TEST_CASE("axial: a fixed reference value", "[axial]") {
  // d = 8, base 100, q = (1 ... 8), k = (8 ... 1), query (1, 2), key (3, 5), interleaved.
  // Offset (2, 3): blocks turn by 2, 0.2 (rows) and 3, 0.3 (columns). By hand, block by block
  // q_a k_a + q_b k_b times cos, plus (q_a k_b - q_b k_a)... written out with the block formula
  // sum_i [ (q_a k_a + q_b k_b) cos(phi_i) + (q_b k_a - q_a k_b) sin(phi_i) ]:
  //   block 0 (1,2)(8,7): 22 cos 2 + 9 sin 2;   block 1 (3,4)(6,5): 38 cos 0.2 + 9 sin 0.2;
  //   block 2 (5,6)(4,3): 38 cos 3 + 9 sin 3;   block 3 (7,8)(2,1): 22 cos 0.3 + 9 sin 0.3.
  const std::vector<double> q{1, 2, 3, 4, 5, 6, 7, 8}, k{8, 7, 6, 5, 4, 3, 2, 1};
  const double expected = 22 * std::cos(2.0) + 9 * std::sin(2.0) + 38 * std::cos(0.2) +
                          9 * std::sin(0.2) + 38 * std::cos(3.0) + 9 * std::sin(3.0) +
                          22 * std::cos(0.3) + 9 * std::sin(0.3);
  auto s = rope::axial_score(q, k, {1, 2}, {3, 5}, 100.0, Pairing::interleaved);
  REQUIRE(s);
  CHECK_THAT(s.value(), WithinAbs(expected, 1e-13));
  // The same sum evaluated independently with Python's math module: 25.386450194953998.
  CHECK_THAT(s.value(), WithinAbs(25.386450194953998, 1e-13));
}
