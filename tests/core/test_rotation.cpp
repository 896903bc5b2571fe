// Tests for rope/rotation.h: 2D rotation, dense and efficient RoPE, pairings, complex form,
// batched application.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "rope/frequencies.h"
#include "rope/rotation.h"
#include "test_support.h"

using Catch::Matchers::WithinAbs;
using rope::Pairing;
using rope_test::tol;

namespace {

constexpr double kPi = rope::kPi;

template <class T>
std::vector<T> rope_of(const std::vector<T>& x, double pos, const std::vector<double>& th,
                       Pairing p) {
  std::vector<T> y(x.size());
  rope::apply_rope<T>(x, y, pos, th, p);
  return y;
}

template <class T>
bool all_nan(const std::vector<T>& v) {
  for (T x : v) {
    if (!std::isnan(x)) return false;
  }
  return !v.empty();
}

std::vector<double> positions_from(int count, std::uint64_t seed) {
  return rope_test::random_vector<double>(static_cast<std::size_t>(count), seed, -5000.0, 5000.0);
}

}  // namespace

// --- Exact small cases ----------------------------------------------------------------------

TEST_CASE("rotation: R(pi/2) (1,0) = (0,1) and R(pi) (1,2) = (-1,-2)", "[rotation]") {
  const auto a = rope::rotate2d({1.0, 0.0}, kPi / 2);
  CHECK_THAT(a.x, WithinAbs(0.0, 1e-15));
  CHECK_THAT(a.y, WithinAbs(1.0, 1e-15));
  const auto b = rope::rotate2d({1.0, 2.0}, kPi);
  CHECK_THAT(b.x, WithinAbs(-1.0, 1e-15));
  CHECK_THAT(b.y, WithinAbs(-2.0, 1e-15));
}

TEST_CASE("rotation: dense matrix layout for both pairings", "[rotation]") {
  const std::vector<double> th = {1.0, 0.1};
  const double c0 = std::cos(2.0), s0 = std::sin(2.0), c1 = std::cos(0.2), s1 = std::sin(0.2);
  // Interleaved: blocks on (0,1) and (2,3).
  const std::vector<double> inter = {c0, -s0, 0,  0,    //
                                     s0, c0,  0,  0,    //
                                     0,  0,   c1, -s1,  //
                                     0,  0,   s1, c1};
  // Half-split: blocks on (0,2) and (1,3).
  const std::vector<double> half = {c0, 0,  -s0, 0,    //
                                    0,  c1, 0,   -s1,  //
                                    s0, 0,  c0,  0,    //
                                    0,  s1, 0,   c1};
  CHECK(rope::dense_rotation(2.0, th, Pairing::interleaved) == inter);
  CHECK(rope::dense_rotation(2.0, th, Pairing::half_split) == half);
}

TEST_CASE("rotation: d = 2, theta = 1, position pi/2 turns (1,0) into (0,1)", "[rotation]") {
  const std::vector<double> th = {1.0};
  for (const auto p : {Pairing::interleaved, Pairing::half_split}) {
    const auto y = rope_of<double>({1.0, 0.0}, kPi / 2, th, p);
    CHECK_THAT(y[0], WithinAbs(0.0, 1e-15));
    CHECK_THAT(y[1], WithinAbs(1.0, 1e-15));
  }
}

TEST_CASE("rotation: permutation, complex form and names", "[rotation]") {
  CHECK(rope::interleaved_to_half_permutation(6) == std::vector<int>{0, 2, 4, 1, 3, 5});
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};
  const auto perm = rope::interleaved_to_half_permutation(6);
  CHECK(rope::permute<double>(x, perm) == std::vector<double>{1, 3, 5, 2, 4, 6});

  const auto z = rope::to_complex(x);
  REQUIRE(z.size() == 3);
  CHECK(z[1] == std::complex<double>(3, 4));
  CHECK(rope::from_complex(z) == x);
  const std::vector<std::complex<double>> one = {{1.0, 0.0}};
  const auto r = rope::rotate_complex(one, kPi / 2, std::vector<double>{1.0});
  CHECK_THAT(r[0].real(), WithinAbs(0.0, 1e-15));
  CHECK_THAT(r[0].imag(), WithinAbs(1.0, 1e-15));

  CHECK(std::string(rope::pairing_name(Pairing::interleaved)) == "interleaved");
  CHECK(std::string(rope::pairing_name(Pairing::half_split)) == "half");
  CHECK(rope::parse_pairing("half") == Pairing::half_split);
  CHECK(rope::parse_pairing("interleaved") == Pairing::interleaved);
  CHECK_FALSE(rope::parse_pairing("Half").has_value());
}

TEST_CASE("rotation: pair_indices names the coordinates of block i", "[rotation]") {
  using rope::pair_indices;
  using rope::PairIndices;
  // d = 6 by hand: interleaved (0,1) (2,3) (4,5); half-split (0,3) (1,4) (2,5)
  CHECK(pair_indices(0, 6, Pairing::interleaved) == PairIndices{0, 1});
  CHECK(pair_indices(2, 6, Pairing::interleaved) == PairIndices{4, 5});
  CHECK(pair_indices(0, 6, Pairing::half_split) == PairIndices{0, 3});
  CHECK(pair_indices(2, 6, Pairing::half_split) == PairIndices{2, 5});
  CHECK(pair_indices(2047, 4096, Pairing::half_split) == PairIndices{2047, 4095});
  // outside the block range or an invalid d: {-1, -1}
  for (const auto p : {Pairing::interleaved, Pairing::half_split}) {
    CHECK(pair_indices(-1, 6, p) == PairIndices{});
    CHECK(pair_indices(3, 6, p) == PairIndices{});
    CHECK(pair_indices(0, 7, p) == PairIndices{});
    CHECK(pair_indices(0, 0, p) == PairIndices{});
    CHECK(pair_indices(0, 4098, p) == PairIndices{});
    CHECK(pair_indices(0, 6, p) != PairIndices{});
  }
}

TEST_CASE("rotation: pair_indices tiles 0 ... d-1 and is where dense_rotation puts block i",
          "[rotation]") {
  for (int c = 0; c < 20; ++c) {
    const auto rc = rope_test::random_case(c, 64);
    const auto th = rope::frequencies(rc.dim, rc.base).value();
    const auto perm = rope::interleaved_to_half_permutation(rc.dim);
    const auto d = static_cast<std::size_t>(rc.dim);
    const int half = rc.dim / 2;
    INFO("d = " << rc.dim << ", base " << rc.base << ", m = " << rc.m);
    for (const auto p : {Pairing::interleaved, Pairing::half_split}) {
      // every coordinate belongs to exactly one block
      std::vector<int> count(d, 0);
      for (int i = 0; i < half; ++i) {
        const auto [a, b] = rope::pair_indices(i, rc.dim, p);
        REQUIRE((a >= 0 && a < rc.dim && b >= 0 && b < rc.dim));
        ++count[static_cast<std::size_t>(a)];
        ++count[static_cast<std::size_t>(b)];
      }
      CHECK(count == std::vector<int>(d, 1));
      // the dense matrix rotates exactly those two coordinates by m theta_i:
      // R[a][a] = R[b][b] = cos, R[b][a] = sin, R[a][b] = -sin
      const auto r = rope::dense_rotation(rc.m, th, p);
      for (int i = 0; i < half; ++i) {
        const auto [a, b] = rope::pair_indices(i, rc.dim, p);
        const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
        const double angle = rc.m * th[static_cast<std::size_t>(i)];
        CHECK_THAT(r[ua * d + ua], WithinAbs(std::cos(angle), tol<double>(1.0, 1.0, rc.m)));
        CHECK_THAT(r[ub * d + ua], WithinAbs(std::sin(angle), tol<double>(1.0, 1.0, rc.m)));
        CHECK_THAT(r[ua * d + ub], WithinAbs(-std::sin(angle), tol<double>(1.0, 1.0, rc.m)));
      }
    }
    // the permutation between the pairings carries block i's half-split coordinates to its
    // interleaved ones
    for (int i = 0; i < half; ++i) {
      const auto h = rope::pair_indices(i, rc.dim, Pairing::half_split);
      const auto n = rope::pair_indices(i, rc.dim, Pairing::interleaved);
      CHECK(perm[static_cast<std::size_t>(h.first)] == n.first);
      CHECK(perm[static_cast<std::size_t>(h.second)] == n.second);
    }
  }
}

TEST_CASE("rotation: mat_vec and mat_transpose_mul", "[rotation]") {
  const std::vector<double> a = {1, 2, 3, 4, 5, 6};  // [2][3]
  CHECK(rope::mat_vec(a, std::vector<double>{1, 0, -1}) == std::vector<double>{-2, -2});
  const std::vector<double> b = {1, 2, 3, 4};  // [2][2]
  // [[1,3],[2,4]] [[1,2],[3,4]] = [[10,14],[14,20]]
  CHECK(rope::mat_transpose_mul(b, b, 2) == std::vector<double>{10, 14, 14, 20});
}

// --- Identities over seeded random cases, float and double -----------------------------------

TEMPLATE_TEST_CASE("rotation: dense = efficient, norms kept, relative positions", "[rotation]",
                   float, double) {
  using T = TestType;
  const int index = GENERATE(range(0, 30));
  const auto c = rope_test::random_case(index);
  const Pairing p = index % 2 == 0 ? Pairing::interleaved : Pairing::half_split;
  CAPTURE(c.dim, c.base, c.m, c.n, c.t, rope::pairing_name(p));
  const auto th = rope::frequencies(c.dim, c.base).value();
  const auto d = static_cast<std::size_t>(c.dim);
  const auto q = rope_test::random_vector<T>(d, rope_test::seed(100 + index));
  const auto k = rope_test::random_vector<T>(d, rope_test::seed(200 + index));
  const double qn = rope_test::norm(q);
  const double kn = rope_test::norm(k);

  // R_m q (dense, double) = q (*) cos + rotate(q) (*) sin (efficient, T)
  const auto dense =
      rope::mat_vec(rope::dense_rotation(c.m, th, p), std::vector<double>(q.begin(), q.end()));
  const auto eff = rope_of(q, c.m, th, p);
  for (std::size_t j = 0; j < d; ++j) {
    CHECK_THAT(static_cast<double>(eff[j]), WithinAbs(dense[j], tol<T>(qn, 4, c.m)));
  }
  // |R_m q| = |q|
  CHECK_THAT(rope_test::norm(eff), WithinAbs(qn, tol<T>(qn, c.dim, c.m)));

  // (R_m q) . (R_n k) = (R_{m+t} q) . (R_{n+t} k): the score depends only on n - m
  const double s = rope_test::dot(eff, rope_of(k, c.n, th, p));
  const double shifted = rope_test::dot(rope_of(q, c.m + c.t, th, p), rope_of(k, c.n + c.t, th, p));
  const double pos = std::abs(c.m) + std::abs(c.n) + std::abs(c.t);
  CHECK_THAT(shifted, WithinAbs(s, tol<T>(qn * kn, c.dim, pos)));
  // ... and equals q . R_{n-m} k
  CHECK_THAT(rope_test::dot(q, rope_of(k, c.n - c.m, th, p)),
             WithinAbs(s, tol<T>(qn * kn, c.dim, pos)));
}

TEST_CASE("rotation: R_m^T R_n = R_{n-m}", "[rotation]") {
  const int index = GENERATE(range(0, 20));
  const auto c = rope_test::random_case(index, 64);
  const Pairing p = index % 2 == 0 ? Pairing::interleaved : Pairing::half_split;
  CAPTURE(c.dim, c.base, c.m, c.n);
  const auto th = rope::frequencies(c.dim, c.base).value();
  const auto prod = rope::mat_transpose_mul(rope::dense_rotation(c.m, th, p),
                                            rope::dense_rotation(c.n, th, p), c.dim);
  const auto rel = rope::dense_rotation(c.n - c.m, th, p);
  REQUIRE(prod.size() == rel.size());
  for (std::size_t j = 0; j < rel.size(); ++j) {
    CHECK_THAT(prod[j], WithinAbs(rel[j], tol<double>(1.0, 2, std::abs(c.m) + std::abs(c.n))));
  }
}

TEMPLATE_TEST_CASE("rotation: the pairings agree after the permutation", "[rotation]", float,
                   double) {
  using T = TestType;
  const int index = GENERATE(range(0, 25));
  const auto c = rope_test::random_case(index);
  CAPTURE(c.dim, c.base, c.m, c.n);
  const auto th = rope::frequencies(c.dim, c.base).value();
  const auto d = static_cast<std::size_t>(c.dim);
  const auto perm = rope::interleaved_to_half_permutation(c.dim);
  const auto q = rope_test::random_vector<T>(d, rope_test::seed(300 + index));
  const auto k = rope_test::random_vector<T>(d, rope_test::seed(400 + index));
  const auto pq = rope::permute<T>(q, perm);
  const auto pk = rope::permute<T>(k, perm);

  // P (R_m^inter q) = R_m^half (P q), exactly: the same products in the same order
  CHECK(rope::permute<T>(rope_of(q, c.m, th, Pairing::interleaved), perm) ==
        rope_of(pq, c.m, th, Pairing::half_split));
  // (R_m q) . (R_n k) under interleaved = (R_m Pq) . (R_n Pk) under half-split
  const double inter = rope_test::dot(rope_of(q, c.m, th, Pairing::interleaved),
                                      rope_of(k, c.n, th, Pairing::interleaved));
  const double half = rope_test::dot(rope_of(pq, c.m, th, Pairing::half_split),
                                     rope_of(pk, c.n, th, Pairing::half_split));
  CHECK_THAT(half, WithinAbs(inter, tol<T>(rope_test::norm(q) * rope_test::norm(k), c.dim)));
}

TEST_CASE("rotation: complex form z e^{i m theta} = matrix form", "[rotation]") {
  const int index = GENERATE(range(0, 20));
  const auto c = rope_test::random_case(index);
  CAPTURE(c.dim, c.base, c.m);
  const auto th = rope::frequencies(c.dim, c.base).value();
  const auto x =
      rope_test::random_vector<double>(static_cast<std::size_t>(c.dim), rope_test::seed(index));
  // from_complex(rotate_complex(to_complex(x))) = R_m x (interleaved)
  const auto via_complex = rope::from_complex(rope::rotate_complex(rope::to_complex(x), c.m, th));
  const auto via_matrix = rope::mat_vec(rope::dense_rotation(c.m, th, Pairing::interleaved), x);
  REQUIRE(via_complex.size() == via_matrix.size());
  for (std::size_t j = 0; j < x.size(); ++j) {
    CHECK_THAT(via_complex[j], WithinAbs(via_matrix[j], tol<double>(4.0, 4, c.m)));
  }
}

TEMPLATE_TEST_CASE("rotation: batch = per-vector, dense batch = efficient batch, in place",
                   "[rotation]", float, double) {
  using T = TestType;
  const int index = GENERATE(range(0, 12));
  const auto c = rope_test::random_case(index, 160);
  const Pairing p = index % 2 == 0 ? Pairing::interleaved : Pairing::half_split;
  CAPTURE(c.dim, c.base, rope::pairing_name(p));
  const auto th = rope::frequencies(c.dim, c.base).value();
  const auto d = static_cast<std::size_t>(c.dim);
  const int count = 1 + index * 3;
  const auto pos = positions_from(count, rope_test::seed(500 + index));
  const auto x = rope_test::random_vector<T>(d * pos.size(), rope_test::seed(600 + index));

  const rope::RopeTable<T> table(pos, th);
  REQUIRE(table.count == count);
  REQUIRE(table.half == c.dim / 2);
  std::vector<T> y(x.size());
  rope::apply_rope_batch<T>(table, x, y, p);
  std::vector<T> y_dense(x.size());
  std::vector<T> scratch(d * d);
  rope::apply_rope_batch_dense<T>(pos, th, x, y_dense, p, scratch);
  std::vector<T> in_place = x;
  rope::apply_rope_batch(table, in_place, in_place, p);  // T deduced from the table
  CHECK(in_place == y);  // y == x is allowed and gives the same numbers

  for (std::size_t r = 0; r < pos.size(); ++r) {
    const std::vector<T> xr(x.begin() + static_cast<std::ptrdiff_t>(r * d),
                            x.begin() + static_cast<std::ptrdiff_t>((r + 1) * d));
    const auto single = rope_of(xr, pos[r], th, p);
    const double scale = rope_test::norm(xr);
    for (std::size_t j = 0; j < d; ++j) {
      // Y[r] = R_{pos[r]} X[r] (table) = apply_rope (direct) = dense product
      CHECK_THAT(static_cast<double>(y[r * d + j]),
                 WithinAbs(static_cast<double>(single[j]), tol<T>(scale, 4, pos[r])));
      CHECK_THAT(static_cast<double>(y_dense[r * d + j]),
                 WithinAbs(static_cast<double>(single[j]), tol<T>(scale, c.dim, pos[r])));
    }
  }
}

// --- Reference values (mpmath, 40 digits) -----------------------------------------------------

TEMPLATE_TEST_CASE("rotation: reference values, d = 4, base 100, m = 3, x = (1,2,3,4)",
                   "[rotation][reference]", float, double) {
  using T = TestType;
  const auto th = rope::frequencies(4, 100.0).value();
  const std::vector<T> x = {1, 2, 3, 4};
  // interleaved: (cos3 - 2 sin3, sin3 + 2 cos3, 3 cos.3 - 4 sin.3, 3 sin.3 + 4 cos.3)
  const double inter[] = {-1.2722325127201799015, -1.8388649851410236924, 1.6839286407314597585,
                          4.7079065764864428039};
  // half-split: blocks (x0, x2) = (1, 3) at angle 3 and (x1, x3) = (2, 4) at angle 0.3
  const double half[] = {-1.4133525207800471236, 0.72859215160585373886, -2.8288574817414691497,
                         4.4123863698251032288};
  const auto yi = rope_of(x, 3.0, th, Pairing::interleaved);
  const auto yh = rope_of(x, 3.0, th, Pairing::half_split);
  for (std::size_t j = 0; j < 4; ++j) {
    CHECK_THAT(static_cast<double>(yi[j]), WithinAbs(inter[j], tol<T>(5.0, 4)));
    CHECK_THAT(static_cast<double>(yh[j]), WithinAbs(half[j], tol<T>(5.0, 4)));
  }
}

// --- Bad input: no crash, NaN-filled outputs or empty results ----------------------------------

TEMPLATE_TEST_CASE("rotation: wrong sizes fill the output with NaN", "[rotation][errors]", float,
                   double) {
  using T = TestType;
  const std::vector<double> th = {1.0, 0.1};
  std::vector<T> y(4, T{1});
  rope::apply_rope<T>(std::vector<T>(3, T{1}), y, 1.0, th, Pairing::interleaved);
  CHECK(all_nan(y));
  std::vector<T> y5(5, T{1});
  rope::apply_rope<T>(std::vector<T>(4, T{1}), y5, 1.0, th, Pairing::interleaved);
  CHECK(all_nan(y5));
  std::vector<T> y0(2, T{1});
  rope::apply_rope<T>(std::vector<T>(0), y0, 1.0, std::vector<double>{}, Pairing::half_split);
  CHECK(all_nan(y0));

  const std::vector<double> pos = {0.0, 1.0};
  const rope::RopeTable<T> table(pos, th);
  std::vector<T> yb(8, T{1});
  rope::apply_rope_batch<T>(table, std::vector<T>(7, T{1}), yb, Pairing::interleaved);
  CHECK(all_nan(yb));
  std::vector<T> scratch(15);  // needs 16
  std::vector<T> yd(8, T{1});
  rope::apply_rope_batch_dense<T>(pos, th, std::vector<T>(8, T{1}), yd, Pairing::interleaved,
                                  scratch);
  CHECK(all_nan(yd));
  rope::apply_rope_batch_dense<T>(pos, std::vector<double>{}, std::vector<T>(8, T{1}), yd,
                                  Pairing::interleaved, scratch);
  CHECK(all_nan(yd));

  // A table tampered with after construction is caught too.
  rope::RopeTable<T> broken(pos, th);
  broken.cos_tab.pop_back();
  std::vector<T> yt(8, T{1});
  rope::apply_rope_batch<T>(broken, std::vector<T>(8, T{1}), yt, Pairing::interleaved);
  CHECK(all_nan(yt));
  broken.count = -3;
  rope::apply_rope_batch<T>(broken, std::vector<T>(8, T{1}), yt, Pairing::interleaved);
  CHECK(all_nan(yt));
}

TEST_CASE("rotation: bad shapes give empty results", "[rotation][errors]") {
  CHECK(rope::dense_rotation(1.0, std::vector<double>{}, Pairing::interleaved).empty());
  CHECK(rope::dense_rotation(1.0, std::vector<double>(2049, 1.0), Pairing::interleaved).empty());
  CHECK(rope::mat_vec(std::vector<double>(5), std::vector<double>(2)).empty());
  CHECK(rope::mat_vec(std::vector<double>(4), std::vector<double>{}).empty());
  CHECK(rope::mat_transpose_mul(std::vector<double>(4), std::vector<double>(4), 3).empty());
  CHECK(rope::mat_transpose_mul(std::vector<double>(4), std::vector<double>(4), -2).empty());
  CHECK(rope::mat_transpose_mul({}, {}, std::numeric_limits<int>::max()).empty());
  for (const int dim : {7, 0, -4, 4098, std::numeric_limits<int>::min()}) {
    CHECK(rope::interleaved_to_half_permutation(dim).empty());
  }
  const std::vector<double> x = {1, 2};
  CHECK(rope::permute<double>(x, std::vector<int>{0, 2}).empty());
  CHECK(rope::permute<double>(x, std::vector<int>{-1, 0}).empty());
  CHECK(rope::to_complex(std::vector<double>{1, 2, 3}).empty());
  CHECK(rope::rotate_complex(rope::to_complex(x), 1.0, std::vector<double>{1.0, 0.5}).empty());

  const rope::RopeTable<float> none(std::vector<double>{1.0}, std::vector<double>{});
  CHECK(none.count == 0);
  CHECK(none.cos_tab.empty());
  // 2^26 entries is the limit: 2^16 positions x 2048 frequencies is refused, not allocated.
  const rope::RopeTable<float> huge(std::vector<double>(std::size_t{1} << 16, 0.0),
                                    std::vector<double>(2048, 1.0));
  CHECK(huge.count == 0);
}

TEMPLATE_TEST_CASE("rotation: non-finite positions give NaN, huge ones stay bounded",
                   "[rotation][errors]", float, double) {
  using T = TestType;
  const std::vector<double> th = {1.0, 0.01};
  const std::vector<T> x = {1, 2, 3, 4};
  CHECK(all_nan(rope_of(x, std::numeric_limits<double>::quiet_NaN(), th, Pairing::interleaved)));
  CHECK(all_nan(rope_of(x, std::numeric_limits<double>::infinity(), th, Pairing::half_split)));
  const auto big = rope_of(x, 1e300, th, Pairing::interleaved);
  CHECK_THAT(rope_test::norm(big), WithinAbs(rope_test::norm(x), 1e-4));
}

// --- Bands of blocks by speed ---------------------------------------------------------------

TEST_CASE("rotation: band_blocks keeps all, the fastest quarter or the slowest quarter",
          "[rotation][band]") {
  using rope::PairBand;
  CHECK(rope::band_blocks(64, PairBand::all) == rope::BlockRange{0, 64});
  CHECK(rope::band_blocks(64, PairBand::fast) == rope::BlockRange{0, 16});
  CHECK(rope::band_blocks(64, PairBand::slow) == rope::BlockRange{48, 64});
  CHECK(rope::band_blocks(5, PairBand::fast) == rope::BlockRange{0, 2});  // ceil(5/4)
  CHECK(rope::band_blocks(5, PairBand::slow) == rope::BlockRange{3, 5});
  CHECK(rope::band_blocks(1, PairBand::slow) == rope::BlockRange{0, 1});  // one block: itself
  CHECK(rope::band_blocks(0, PairBand::fast) == rope::BlockRange{});
  CHECK(rope::band_blocks(-3, PairBand::all) == rope::BlockRange{});
}

TEMPLATE_TEST_CASE("rotation: keep_band zeroes the other blocks, under either pairing",
                   "[rotation][band]", float, double) {
  using rope::PairBand;
  // d = 8: blocks 0 ... 3; fast keeps block 0, slow keeps block 3
  const std::vector<TestType> x{1, 2, 3, 4, 5, 6, 7, 8};
  auto fast = x;
  rope::keep_band<TestType>(fast, PairBand::fast, Pairing::interleaved);
  CHECK(fast == std::vector<TestType>{1, 2, 0, 0, 0, 0, 0, 0});
  auto slow = x;
  rope::keep_band<TestType>(slow, PairBand::slow, Pairing::half_split);  // block 3: (x3, x7)
  CHECK(slow == std::vector<TestType>{0, 0, 0, 4, 0, 0, 0, 8});
  auto all = x;
  rope::keep_band<TestType>(all, PairBand::all, Pairing::interleaved);
  CHECK(all == x);
  std::vector<TestType> odd{1, 2, 3};  // not a head dimension: left alone
  rope::keep_band<TestType>(odd, PairBand::fast, Pairing::interleaved);
  CHECK(odd == std::vector<TestType>{1, 2, 3});
}

// Identity: the score of the band-kept vectors is the sum of the band's blocks of the full score,
// (R_m q_B)^T (R_n k_B) = sum_{i in B} (R(m theta_i) q_i)^T (R(n theta_i) k_i), and the fast and
// slow bands with the middle blocks add up to the whole score.
TEST_CASE("rotation: band scores are partial sums of the block-wise score", "[rotation][band]") {
  using rope::PairBand;
  const int d = 24;
  const auto th = rope::frequencies(d, 10000.0).value();
  const auto q = rope_test::random_vector<double>(d, 11);
  const auto k = rope_test::random_vector<double>(d, 12);
  for (Pairing p : {Pairing::interleaved, Pairing::half_split}) {
    const double m = 7.5, n = -3.0;
    const auto band_score = [&](PairBand b) {
      auto qb = q, kb = k;
      rope::keep_band<double>(qb, b, p);
      rope::keep_band<double>(kb, b, p);
      return rope::dot(rope_of(qb, m, th, p), rope_of(kb, n, th, p));
    };
    double fast = 0.0, slow = 0.0, all = 0.0;
    const auto rq = rope_of(q, m, th, p), rk = rope_of(k, n, th, p);
    for (int i = 0; i < d / 2; ++i) {
      const auto ab = rope::pair_indices(i, d, p);
      const auto a = static_cast<std::size_t>(ab.first), b = static_cast<std::size_t>(ab.second);
      const double block = rq[a] * rk[a] + rq[b] * rk[b];
      all += block;
      if (i < 3) fast += block;  // ceil(12/4) = 3
      if (i >= 9) slow += block;
    }
    CHECK_THAT(band_score(PairBand::fast), WithinAbs(fast, tol<double>(10.0, 48.0, 8.0)));
    CHECK_THAT(band_score(PairBand::slow), WithinAbs(slow, tol<double>(10.0, 48.0, 8.0)));
    CHECK_THAT(band_score(PairBand::all), WithinAbs(all, tol<double>(10.0, 48.0, 8.0)));
  }
}
