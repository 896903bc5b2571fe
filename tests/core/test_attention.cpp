// Tests for rope/attention.h: score matrices (reference, fast, row ranges, shared content),
// score transforms and linear attention.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "rope/attention.h"
#include "rope/frequencies.h"
#include "rope/rotation.h"
#include "test_support.h"

using Catch::Matchers::WithinAbs;
using rope::Encoding;
using rope::Pairing;
using rope_test::tol;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

const Encoding kEncodings[] = {Encoding::none, Encoding::sinusoidal, Encoding::rope};

template <class T>
std::vector<T> repeat(const std::vector<T>& row, std::size_t times) {
  std::vector<T> out;
  for (std::size_t i = 0; i < times; ++i)
    out.insert(out.end(), row.begin(), row.end());
  return out;
}

template <class A, class B>
double max_abs_diff(const std::vector<A>& a, const std::vector<B>& b) {
  double worst = a.size() == b.size() ? 0.0 : kInf;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    worst = std::max(worst, std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
  }
  return worst;
}

template <class T>
std::vector<double> to_double(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// Largest |row| of a row-major [rows][d] buffer.
template <class T>
double max_row_norm(const std::vector<T>& x, std::size_t d) {
  double worst = 0.0;
  for (std::size_t r = 0; r * d < x.size(); ++r) {
    double s = 0.0;
    for (std::size_t j = 0; j < d; ++j)
      s += static_cast<double>(x[r * d + j] * x[r * d + j]);
    worst = std::max(worst, std::sqrt(s));
  }
  return worst;
}

// phi(x) = elu(x) + 1
double phi(double x) {
  return x > 0 ? x + 1 : std::exp(x);
}

// Linear attention written out pair by pair, O(N^2 d dv): the formula of the header, literally.
std::vector<double> linear_attention_direct(const std::vector<double>& q,
                                            const std::vector<double>& k,
                                            const std::vector<double>& v, std::size_t n,
                                            std::size_t d, std::size_t dv,
                                            const std::vector<double>& th, Pairing p, bool rope,
                                            bool causal) {
  std::vector<double> out(n * dv, 0.0);
  for (std::size_t m = 0; m < n; ++m) {
    std::vector<double> pq(d);
    for (std::size_t i = 0; i < d; ++i)
      pq[i] = phi(q[m * d + i]);
    std::vector<double> rq(d);
    rope::apply_rope<double>(pq, rq, rope ? static_cast<double>(m) : 0.0, th, p);
    double den = 0.0;
    for (std::size_t j = 0; j < (causal ? m + 1 : n); ++j) {
      std::vector<double> pk(d);
      for (std::size_t i = 0; i < d; ++i)
        pk[i] = phi(k[j * d + i]);
      std::vector<double> rk(d);
      rope::apply_rope<double>(pk, rk, rope ? static_cast<double>(j) : 0.0, th, p);
      const double w = rope_test::dot(rq, rk);
      den += rope_test::dot(pq, pk);
      for (std::size_t c = 0; c < dv; ++c)
        out[m * dv + c] += w * v[j * dv + c];
    }
    for (std::size_t c = 0; c < dv; ++c)
      out[m * dv + c] /= den;
  }
  return out;
}

}  // namespace

// --- Exact small cases ----------------------------------------------------------------------

TEST_CASE("attention: encoding names round-trip", "[attention]") {
  for (const auto e : kEncodings)
    CHECK(rope::parse_encoding(rope::encoding_name(e)) == e);
  CHECK_FALSE(rope::parse_encoding("RoPE").has_value());
}

TEST_CASE("attention: no encoding is the plain product Q K^T", "[attention]") {
  const std::vector<double> q = {1, 0, 0, 1};
  const std::vector<double> k = {1, 2, 3, 4};
  const auto s = rope::score_matrix(q, k, 2, 2, 10000.0, Encoding::none, Pairing::interleaved);
  REQUIRE(s.ok());
  CHECK(s.value() == std::vector<double>{1, 3, 2, 4});  // S[m][n] = q_m . k_n
}

TEST_CASE("attention: d = 2, q = k = (1, 0) under RoPE gives S[m][n] = cos(n - m)", "[attention]") {
  const std::size_t n = 5;
  const auto q = repeat<double>({1.0, 0.0}, n);
  const auto qf = repeat<float>({1.0f, 0.0f}, n);
  const auto ref = rope::score_matrix(q, q, 5, 2, 10000.0, Encoding::rope, Pairing::half_split);
  const auto fast =
      rope::score_matrix_fast(qf, qf, 5, 2, 10000.0, Encoding::rope, Pairing::interleaved);
  const std::vector<float> one = {1.0f, 0.0f};
  const auto shared =
      rope::score_matrix_shared(one, one, 5, 2, 10000.0, Encoding::rope, Pairing::interleaved);
  REQUIRE(ref.ok());
  REQUIRE(fast.ok());
  REQUIRE(shared.ok());
  for (std::size_t m = 0; m < n; ++m) {
    for (std::size_t j = 0; j < n; ++j) {
      const double expected = std::cos(static_cast<double>(j) - static_cast<double>(m));
      CHECK_THAT(ref.value()[m * n + j], WithinAbs(expected, 1e-15));
      CHECK_THAT(fast.value()[m * n + j], WithinAbs(expected, 1e-6));
      CHECK_THAT(shared.value()[m * n + j], WithinAbs(expected, 1e-6));
    }
  }
}

TEST_CASE("attention: sinusoidal with zero content is PE_m . PE_n", "[attention]") {
  const std::size_t n = 4;
  const std::size_t d = 6;
  const auto th = rope::frequencies(6, 100.0).value();
  const std::vector<double> zero(n * d, 0.0);
  const auto s =
      rope::score_matrix(zero, zero, 4, 6, 100.0, Encoding::sinusoidal, Pairing::interleaved);
  REQUIRE(s.ok());
  for (std::size_t m = 0; m < n; ++m) {
    for (std::size_t j = 0; j < n; ++j) {
      double expected = 0.0;  // sum_i cos((n - m) theta_i)
      for (const double t : th)
        expected += std::cos((double(j) - double(m)) * t);
      CHECK_THAT(s.value()[m * n + j], WithinAbs(expected, 1e-14));
    }
  }
}

TEMPLATE_TEST_CASE("attention: transform_scores on a 2 x 2 example", "[attention]", float, double) {
  using T = TestType;
  const T ln3 = static_cast<T>(std::log(3.0));
  std::vector<T> s = {0, ln3, 5, 5};
  rope::transform_scores<T>(s, 2, 4, {.softmax = true});
  CHECK_THAT(static_cast<double>(s[0]), WithinAbs(0.25, 1e-6));
  CHECK_THAT(static_cast<double>(s[1]), WithinAbs(0.75, 1e-6));
  CHECK_THAT(static_cast<double>(s[2]), WithinAbs(0.5, 1e-6));

  s = {0, ln3, 5, 5};
  rope::transform_scores<T>(s, 2, 4, {.softmax = true, .causal = true});
  CHECK(s == std::vector<T>{1, 0, T(0.5), T(0.5)});

  s = {2, ln3, 5, 6};
  rope::transform_scores(s, 2, 4, {.scale = true, .causal = true});  // no template argument
  CHECK(s == std::vector<T>{1, -std::numeric_limits<T>::infinity(), T(2.5), 3});
}

// --- Identities over seeded random cases ------------------------------------------------------

TEST_CASE("attention: score_matrix_fast ~ score_matrix, row ranges = full matrix", "[attention]") {
  const int index = GENERATE(range(0, 18));
  const std::int64_t dims[] = {2, 6, 64, 130, 514, 16};
  const std::int64_t dim = dims[index % 6];
  const std::int64_t n = 1 + (index * 13) % 70;  // edge tiles: N not a multiple of 6 or 16
  const Encoding enc = kEncodings[index % 3];
  const Pairing p = (index / 3) % 2 == 0 ? Pairing::interleaved : Pairing::half_split;
  const double base = index % 4 == 0 ? 500000.0 : 10000.0;
  CAPTURE(dim, n, rope::encoding_name(enc), rope::pairing_name(p), base);
  const auto size = static_cast<std::size_t>(n * dim);
  const auto qf = rope_test::random_vector<float>(size, rope_test::seed(700 + index));
  const auto kf = rope_test::random_vector<float>(size, rope_test::seed(800 + index));

  const auto ref = rope::score_matrix(to_double(qf), to_double(kf), n, dim, base, enc, p);
  const auto fast = rope::score_matrix_fast(qf, kf, n, dim, base, enc, p);
  REQUIRE(ref.ok());
  REQUIRE(fast.ok());
  // |S_fast - S| <~ d eps_float |q'||k'|, |q'| <= |q| + |PE| = |q| + sqrt(d/2)
  const double row = std::max(max_row_norm(qf, static_cast<std::size_t>(dim)),
                              max_row_norm(kf, static_cast<std::size_t>(dim))) +
                     std::sqrt(static_cast<double>(dim) / 2.0);
  CHECK(max_abs_diff(fast.value(), ref.value()) <=
        tol<float>(row * row, 4.0 * std::sqrt(static_cast<double>(dim))));

  // Rows [b, e) from score_rows_fast are bit-identical to the same rows of the full matrix.
  const auto encoded = rope::encode_qk_fast(qf, kf, n, dim, base, enc, p);
  REQUIRE(encoded.ok());
  const std::int64_t cut1 = n / 3;
  const std::int64_t cut2 = (2 * n) / 3 + 1 > n ? n : (2 * n) / 3 + 1;
  std::vector<float> pieces;
  for (const auto& [b, e] :
       {std::pair{std::int64_t{0}, cut1}, std::pair{cut1, cut2}, std::pair{cut2, n}}) {
    std::vector<float> part(static_cast<std::size_t>((e - b) * n));
    REQUIRE(rope::score_rows_fast(encoded.value(), b, e, part).ok());
    pieces.insert(pieces.end(), part.begin(), part.end());
  }
  CHECK(pieces == fast.value());
}

// x'_m in double with exact angles, from float rows x ([n][d]): the rows the fp32 bound of
// score_rows_fast is stated for (written here again, not taken from the library's encoder).
std::vector<double> exact_encoded(const std::vector<float>& x, std::size_t n, std::size_t d,
                                  double base, Encoding e, Pairing p) {
  const auto thetas = rope::frequencies(static_cast<int>(d), base).value();
  std::vector<double> out(x.begin(), x.end());
  for (std::size_t m = 0; m < n && e != Encoding::none; ++m) {
    double* y = out.data() + m * d;
    for (std::size_t i = 0; i < d / 2; ++i) {
      const double angle = static_cast<double>(m) * thetas[i];
      if (e == Encoding::sinusoidal) {  // PE = (sin, cos) per block
        y[2 * i] += std::sin(angle);
        y[2 * i + 1] += std::cos(angle);
        continue;
      }
      const std::size_t a = p == Pairing::interleaved ? 2 * i : i;
      const std::size_t b = p == Pairing::interleaved ? 2 * i + 1 : i + d / 2;
      const double xa = y[a];
      const double xb = y[b];
      y[a] = xa * std::cos(angle) - xb * std::sin(angle);
      y[b] = xa * std::sin(angle) + xb * std::cos(angle);
    }
  }
  return out;
}

TEST_CASE("attention: every multiply kernel this CPU runs stays within the fp32 error bound",
          "[attention][kernels]") {
  // Ragged shapes: N not a multiple of any tile (4, 8 rows; 16, 24, 48 keys), d = 2 and 6 below
  // one vector, 130 and 258 past a depth chunk of 256 only for 258 (two chunks: the second adds
  // to S), 514 three chunks.
  const int index = GENERATE(range(0, 12));
  const std::int64_t ns[] = {1, 3, 7, 13, 29, 50, 53, 97, 101, 131, 5, 61};
  const std::int64_t dims[] = {2, 6, 130, 258, 514, 64};
  const std::int64_t n = ns[index];
  const std::int64_t dim = dims[index % 6];
  const Encoding enc = kEncodings[(index + 2) % 3];
  const Pairing p = (index / 3) % 2 == 0 ? Pairing::interleaved : Pairing::half_split;
  const double base = 10000.0;
  CAPTURE(n, dim, rope::encoding_name(enc), rope::pairing_name(p));
  const auto nu = static_cast<std::size_t>(n);
  const auto d = static_cast<std::size_t>(dim);
  const auto qf = rope_test::random_vector<float>(nu * d, rope_test::seed(1100 + index));
  const auto kf = rope_test::random_vector<float>(nu * d, rope_test::seed(1200 + index));
  const auto qe = exact_encoded(qf, nu, d, base, enc, p);
  const auto ke = exact_encoded(kf, nu, d, base, enc, p);

  // |ŝ − s| ≤ γ_{d+2} Σ_i |q'_i||k'_i| (attention.cpp, "Error bound"); the double reference
  // and the double rotation add about 1e-15 of that sum, 1e-12 here.
  const double u = std::ldexp(1.0, -24);
  const double gamma = static_cast<double>(d + 2) * u / (1.0 - static_cast<double>(d + 2) * u);
  std::vector<double> exact(nu * nu), bound(nu * nu);
  for (std::size_t m = 0; m < nu; ++m)
    for (std::size_t c = 0; c < nu; ++c) {
      double dot = 0.0, abs_dot = 0.0;
      for (std::size_t i = 0; i < d; ++i) {
        dot += qe[m * d + i] * ke[c * d + i];
        abs_dot += std::abs(qe[m * d + i]) * std::abs(ke[c * d + i]);
      }
      exact[m * nu + c] = dot;
      bound[m * nu + c] = (gamma + 1e-12) * abs_dot;
    }

  const auto encoded = rope::encode_qk_fast(qf, kf, n, dim, base, enc, p);
  REQUIRE(encoded.ok());
  auto repacked = encoded.value();
  repacked.k_panels.clear();  // score_rows_fast packs k itself
  const auto kernels = rope::testing::score_kernels();
  REQUIRE(!kernels.empty());
  CHECK(kernels.back() == "generic");
  for (const auto& kernel : kernels) {
    INFO("kernel " << kernel);
    // rows in three ragged ranges, as threads would ask for them
    const std::int64_t cut1 = n / 3;
    const std::int64_t cut2 = std::min(n, (2 * n) / 3 + 1);
    std::vector<float> s;
    for (const auto& [b, e] :
         {std::pair{std::int64_t{0}, cut1}, std::pair{cut1, cut2}, std::pair{cut2, n}}) {
      std::vector<float> part(static_cast<std::size_t>((e - b) * n), -1.0f);
      REQUIRE(rope::testing::score_rows_fast_with(encoded.value(), b, e, part, kernel).ok());
      s.insert(s.end(), part.begin(), part.end());
    }
    REQUIRE(s.size() == exact.size());
    std::size_t outside = 0;
    double worst = 0.0;  // largest |ŝ − s| / bound
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double err = std::abs(static_cast<double>(s[i]) - exact[i]);
      if (err > bound[i]) ++outside;
      if (bound[i] > 0.0) worst = std::max(worst, err / bound[i]);
    }
    CAPTURE(worst);
    CHECK(outside == 0);
    // the packing of its own gives the same bits as encode_qk_fast's
    std::vector<float> again(nu * nu);
    REQUIRE(rope::testing::score_rows_fast_with(repacked, 0, n, again, kernel).ok());
    CHECK(again == s);
  }
  // score_rows_fast is the first kernel
  std::vector<float> best(nu * nu), first(nu * nu);
  REQUIRE(rope::score_rows_fast(encoded.value(), 0, n, best).ok());
  REQUIRE(rope::testing::score_rows_fast_with(encoded.value(), 0, n, first, kernels.front()).ok());
  CHECK(best == first);
}

TEST_CASE("attention: the fp32 error at N = 256, d = 128 is far inside its bound",
          "[attention][kernels]") {
  // Random content as the heatmap draws it; the worst entry is reported beside the bound.
  constexpr std::size_t n = 256, d = 128;
  const auto qf = rope_test::random_vector<float>(n * d, rope_test::seed(1300));
  const auto kf = rope_test::random_vector<float>(n * d, rope_test::seed(1301));
  const auto ref = rope::score_matrix(to_double(qf), to_double(kf), n, d, 10000.0, Encoding::rope,
                                      Pairing::interleaved);
  const auto fast =
      rope::score_matrix_fast(qf, kf, n, d, 10000.0, Encoding::rope, Pairing::interleaved);
  REQUIRE(ref.ok());
  REQUIRE(fast.ok());
  const double u = std::ldexp(1.0, -24);
  const double gamma = 130.0 * u / (1.0 - 130.0 * u);  // 7.75e-6
  // Σ|q'_i||k'_i| <= |q'||k'| = |q||k| <= d for entries in [-1, 1): a bound for every entry
  const double worst = max_abs_diff(fast.value(), ref.value());
  CAPTURE(worst, gamma * static_cast<double>(d));
  CHECK(worst <= gamma * static_cast<double>(d));
  CHECK(worst <= 2e-5);  // about 1e-5 measured at N = 2048 (README): ~4 % of the bound
}

TEST_CASE("attention: score_rows_fast_with names the kernel it does not know",
          "[attention][errors]") {
  const std::vector<float> q(12, 0.25f);
  const auto enc = rope::encode_qk_fast(q, q, 3, 4, 10000.0, Encoding::rope, Pairing::interleaved);
  REQUIRE(enc.ok());
  std::vector<float> out(9, 7.0f);
  const auto st = rope::testing::score_rows_fast_with(enc.value(), 0, 3, out, "sse9");
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().parameter == "kernel");
  CHECK(out == std::vector<float>(9, 7.0f));
}

TEST_CASE("attention: the pairings give the same scores after the permutation", "[attention]") {
  const int index = GENERATE(range(0, 10));
  const auto c = rope_test::random_case(index, 64);
  const std::size_t n = 9;
  const auto d = static_cast<std::size_t>(c.dim);
  CAPTURE(c.dim, c.base);
  const auto q = rope_test::random_vector<double>(n * d, rope_test::seed(900 + index));
  const auto k = rope_test::random_vector<double>(n * d, rope_test::seed(950 + index));
  const auto perm = rope::interleaved_to_half_permutation(c.dim);
  std::vector<double> pq;
  std::vector<double> pk;
  for (std::size_t r = 0; r < n; ++r) {
    const std::span<const double> qr(q.data() + r * d, d);
    const std::span<const double> kr(k.data() + r * d, d);
    const auto a = rope::permute<double>(qr, perm);
    const auto b = rope::permute<double>(kr, perm);
    pq.insert(pq.end(), a.begin(), a.end());
    pk.insert(pk.end(), b.begin(), b.end());
  }
  const auto inter =
      rope::score_matrix(q, k, 9, c.dim, c.base, Encoding::rope, Pairing::interleaved);
  const auto half =
      rope::score_matrix(pq, pk, 9, c.dim, c.base, Encoding::rope, Pairing::half_split);
  // S_inter(q, k) = S_half(P q, P k)
  CHECK(max_abs_diff(inter.value(), half.value()) <= tol<double>(double(d), double(d)));
}

TEST_CASE("attention: shared content — RoPE is constant along diagonals, sinusoidal is not",
          "[attention]") {
  const int index = GENERATE(range(0, 12));
  const auto c = rope_test::random_case(index, 128);
  const std::int64_t n = 10 + index * 7;
  const Pairing p = index % 2 == 0 ? Pairing::interleaved : Pairing::half_split;
  const auto d = static_cast<std::size_t>(c.dim);
  const auto un = static_cast<std::size_t>(n);
  CAPTURE(c.dim, c.base, n, rope::pairing_name(p));
  const auto q = rope_test::random_vector<float>(d, rope_test::seed(1000 + index));
  const auto k = rope_test::random_vector<float>(d, rope_test::seed(1100 + index));
  const double scale =
      (rope_test::norm(q) + std::sqrt(c.dim / 2.0)) * (rope_test::norm(k) + std::sqrt(c.dim / 2.0));

  for (const auto enc : kEncodings) {
    CAPTURE(rope::encoding_name(enc));
    const auto shared = rope::score_matrix_shared(q, k, n, c.dim, c.base, enc, p);
    const auto ref = rope::score_matrix(repeat(to_double(q), un), repeat(to_double(k), un), n,
                                        c.dim, c.base, enc, p);
    REQUIRE(shared.ok());
    REQUIRE(ref.ok());
    // The O(N d + N^2) construction = the O(N^2 d) definition
    CHECK(max_abs_diff(shared.value(), ref.value()) <=
          tol<float>(scale, 4.0, static_cast<double>(n)));

    // Largest change along a diagonal: S[m+1][n+1] - S[m][n]
    double drift = 0.0;
    for (std::size_t m = 0; m + 1 < un; ++m) {
      for (std::size_t j = 0; j + 1 < un; ++j) {
        drift = std::max(drift, std::abs(static_cast<double>(shared.value()[(m + 1) * un + j + 1]) -
                                         static_cast<double>(shared.value()[m * un + j])));
      }
    }
    if (enc == Encoding::sinusoidal) {
      CHECK(drift > 1e-3);  // q.PE_n + k.PE_m depends on absolute positions
    } else {
      CHECK(drift == 0.0);  // S[m][n] = g(n - m)
    }
  }
  // The double reference shows the same: with shared content RoPE scores depend only on n - m.
  const auto ref = rope::score_matrix(repeat(to_double(q), un), repeat(to_double(k), un), n, c.dim,
                                      c.base, Encoding::rope, p);
  double drift = 0.0;
  for (std::size_t m = 0; m + 1 < un; ++m) {
    for (std::size_t j = 0; j + 1 < un; ++j) {
      drift =
          std::max(drift, std::abs(ref.value()[(m + 1) * un + j + 1] - ref.value()[m * un + j]));
    }
  }
  CHECK(drift <= tol<double>(scale, static_cast<double>(d), static_cast<double>(n)));
}

TEMPLATE_TEST_CASE("attention: softmax rows sum to 1, causal zeroes above the diagonal",
                   "[attention]", float, double) {
  using T = TestType;
  const int index = GENERATE(range(0, 10));
  const std::int64_t n = 1 + index * 9;
  const auto un = static_cast<std::size_t>(n);
  const auto raw = rope_test::random_vector<T>(un * un, rope_test::seed(1200 + index), -30, 30);
  for (const bool causal : {false, true}) {
    CAPTURE(n, causal);
    auto s = raw;
    rope::transform_scores<T>(s, n, 64, {.scale = true, .softmax = true, .causal = causal});
    // Adding a constant to each row does not change its softmax.
    auto shifted = raw;
    for (std::size_t m = 0; m < un; ++m) {
      for (std::size_t j = 0; j < un; ++j)
        shifted[m * un + j] += static_cast<T>(m % 7);
    }
    rope::transform_scores<T>(shifted, n, 64, {.scale = true, .softmax = true, .causal = causal});
    CHECK(max_abs_diff(s, shifted) <= 64 * rope_test::eps<T>());
    for (std::size_t m = 0; m < un; ++m) {
      double sum = 0.0;
      for (std::size_t j = 0; j < un; ++j) {
        const T w = s[m * un + j];
        sum += static_cast<double>(w);
        if (causal && j > m) {
          CHECK(w == T{0});  // masked: n > m
        } else {
          CHECK((w >= T{0} && w <= T{1}));
        }
      }
      CHECK_THAT(sum, WithinAbs(1.0, 4 * double(n) * rope_test::eps<T>()));  // sum_n w = 1
    }
    // Without softmax: scaled by 1/sqrt(64) on and below the diagonal, -inf above when causal.
    auto masked = raw;
    rope::transform_scores<T>(masked, n, 64, {.scale = true, .causal = causal});
    for (std::size_t m = 0; m < un; ++m) {
      for (std::size_t j = 0; j < un; ++j) {
        if (causal && j > m) {
          CHECK(masked[m * un + j] == -std::numeric_limits<T>::infinity());
        } else {
          CHECK(masked[m * un + j] == raw[m * un + j] * T(0.125));
        }
      }
    }
  }
}

TEST_CASE("attention: linear attention = the pairwise formula", "[attention]") {
  const int index = GENERATE(range(0, 16));
  const auto c = rope_test::random_case(index, 16);
  const std::size_t n = 1 + static_cast<std::size_t>(index);
  const std::size_t dv = 1 + static_cast<std::size_t>(index % 5);
  const auto d = static_cast<std::size_t>(c.dim);
  const Pairing p = index % 2 == 0 ? Pairing::interleaved : Pairing::half_split;
  const auto th = rope::frequencies(c.dim, c.base).value();
  const auto q = rope_test::random_vector<double>(n * d, rope_test::seed(1300 + index), -2, 2);
  const auto k = rope_test::random_vector<double>(n * d, rope_test::seed(1400 + index), -2, 2);
  const auto v = rope_test::random_vector<double>(n * dv, rope_test::seed(1500 + index));
  for (const bool with_rope : {false, true}) {
    for (const bool causal : {false, true}) {
      CAPTURE(c.dim, n, dv, with_rope, causal);
      const auto fast = rope::linear_attention(q, k, v, std::int64_t(n), c.dim, std::int64_t(dv),
                                               c.base, p, with_rope, causal);
      REQUIRE(fast.ok());
      const auto direct = linear_attention_direct(q, k, v, n, d, dv, th, p, with_rope, causal);
      // out_m = sum_n (R_m phi(q_m)).(R_n phi(k_n)) v_n / sum_n phi(q_m).phi(k_n)
      CHECK(max_abs_diff(fast.value(), direct) <= 1e-12);
    }
  }
}

TEST_CASE("attention: linear_attention_sums are the sums the rows read", "[attention]") {
  const int index = GENERATE(range(0, 8));
  const auto c = rope_test::random_case(index, 16);
  const std::size_t n = 2 + static_cast<std::size_t>(index);
  const std::size_t dv = 1 + static_cast<std::size_t>(index % 3);
  const auto d = static_cast<std::size_t>(c.dim);
  const Pairing p = index % 2 == 0 ? Pairing::interleaved : Pairing::half_split;
  const auto q = rope_test::random_vector<double>(n * d, rope_test::seed(1600 + index), -2, 2);
  const auto k = rope_test::random_vector<double>(n * d, rope_test::seed(1700 + index), -2, 2);
  const auto v = rope_test::random_vector<double>(n * dv, rope_test::seed(1800 + index));
  const auto ls = rope::linear_attention_sums(q, k, v, std::int64_t(n), c.dim, std::int64_t(dv),
                                              c.base, p, true, false)
                      .value();
  const auto out = rope::linear_attention(q, k, v, std::int64_t(n), c.dim, std::int64_t(dv), c.base,
                                          p, true, false)
                       .value();
  REQUIRE(ls.kv.size() == d * dv);
  REQUIRE(ls.z.size() == d);
  for (std::size_t m = 0; m < n; ++m) {
    CHECK(ls.denominator[m] > 0.0);
    for (std::size_t c2 = 0; c2 < dv; ++c2)
      CHECK(ls.numerator[m * dv + c2] / ls.denominator[m] == out[m * dv + c2]);
  }
  // z = sum_n phi(k_n), summed here; phi(x) = x + 1 above 0, e^x below
  for (std::size_t i = 0; i < d; ++i) {
    double z = 0.0;
    for (std::size_t t = 0; t < n; ++t) {
      const double x = k[t * d + i];
      z += x > 0.0 ? x + 1.0 : std::exp(x);
    }
    CHECK(ls.z[i] == Approx(z).epsilon(1e-13));
  }
  CHECK_FALSE(
      rope::linear_attention_sums(q, k, v, std::int64_t(n), c.dim, 0, c.base, p, true, false).ok());
  // at given θ: base^(−2i/d) gives the same sums exactly; θ_i = 0 leaves pair i unrotated, so
  // with every θ zero the numerator is plain linear attention's
  const auto th = rope::frequencies(c.dim, c.base).value();
  const auto at = rope::linear_attention_sums(q, k, v, std::int64_t(n), c.dim, std::int64_t(dv), th,
                                              p, true, false)
                      .value();
  CHECK(at.numerator == ls.numerator);
  CHECK(at.kv == ls.kv);
  const std::vector<double> still(th.size(), 0.0);
  const auto none = rope::linear_attention_sums(q, k, v, std::int64_t(n), c.dim, std::int64_t(dv),
                                                still, p, true, false)
                        .value();
  const auto plain = rope::linear_attention_sums(q, k, v, std::int64_t(n), c.dim, std::int64_t(dv),
                                                 c.base, p, false, false)
                         .value();
  CHECK(none.numerator == plain.numerator);
  const std::vector<double> short_list(th.size() - 1, 0.5), negative(th.size(), -1.0);
  CHECK(rope::linear_attention_sums(q, k, v, std::int64_t(n), c.dim, std::int64_t(dv), short_list,
                                    p, true, false)
            .error()
            .parameter == "thetas");
  CHECK(rope::linear_attention_sums(q, k, v, std::int64_t(n), c.dim, std::int64_t(dv), negative, p,
                                    true, false)
            .error()
            .parameter == "thetas");
}

// --- Reference values (mpmath, 40 digits) -----------------------------------------------------

TEST_CASE("attention: reference values, q = k = ones, d = 8, base 10000",
          "[attention][reference]") {
  // h_i = conj(1 + i)(1 + i) = 2, so S[m][n] = g(n - m) = 2 sum_i cos((n - m) theta_i):
  // g(5) = 6.3199650155492137442, g(-3) = 3.9297790525550461553
  const std::vector<float> ones(8, 1.0f);
  const auto shared =
      rope::score_matrix_shared(ones, ones, 8, 8, 10000.0, Encoding::rope, Pairing::interleaved);
  const auto ref = rope::score_matrix(std::vector<double>(64, 1.0), std::vector<double>(64, 1.0), 8,
                                      8, 10000.0, Encoding::rope, Pairing::half_split);
  REQUIRE(shared.ok());
  REQUIRE(ref.ok());
  CHECK_THAT(shared.value()[0 * 8 + 5], WithinAbs(6.3199650155492137442, 4e-6));
  CHECK_THAT(shared.value()[3 * 8 + 0], WithinAbs(3.9297790525550461553, 4e-6));
  CHECK_THAT(ref.value()[2 * 8 + 7], WithinAbs(6.3199650155492137442, 1e-14));
  CHECK_THAT(ref.value()[7 * 8 + 4], WithinAbs(3.9297790525550461553, 1e-14));
}

// --- Bad input ------------------------------------------------------------------------------

TEST_CASE("attention: invalid parameters name the parameter", "[attention][errors]") {
  const std::vector<double> q(8, 0.5);
  const std::vector<float> qf(8, 0.5f);
  auto param = [](const auto& r) { return r.ok() ? std::string("(ok)") : r.error().parameter; };
  const auto e = Encoding::rope;
  const auto p = Pairing::interleaved;

  CHECK(param(rope::score_matrix(q, q, 2, 3, 10000.0, e, p)) == "dim");
  CHECK(param(rope::score_matrix(q, q, 2, 4, kNan, e, p)) == "base");
  CHECK(param(rope::score_matrix(q, q, 0, 4, 10000.0, e, p)) == "positions");
  CHECK(param(rope::score_matrix(q, q, 5000, 4, 10000.0, e, p)) == "positions");
  CHECK(param(rope::score_matrix(q, q, -3, 4, 10000.0, e, p)) == "positions");
  CHECK(param(rope::score_matrix(std::vector<double>(7), q, 2, 4, 10000.0, e, p)) == "q");
  CHECK(param(rope::score_matrix(q, std::vector<double>(9), 2, 4, 10000.0, e, p)) == "k");
  const auto msg = rope::score_matrix(std::vector<double>(7), q, 2, 4, 10000.0, e, p).error();
  CHECK(msg.message == "must have 8 entries ([positions][dim] = [2][4]), got 7");

  CHECK(param(rope::score_matrix_fast(qf, qf, 2, 4, 1.0, e, p)) == "base");
  CHECK(param(rope::score_matrix_fast(qf, std::vector<float>(3), 2, 4, 10000.0, e, p)) == "k");
  CHECK(param(rope::score_matrix_fast(qf, qf, 2, 1 << 20, 10000.0, e, p)) == "dim");
  CHECK(param(rope::score_matrix_shared(qf, qf, 2, 4, 10000.0, e, p)) == "q");  // d entries
  CHECK(param(rope::score_matrix_shared(std::vector<float>(4), qf, 2, 4, 10000.0, e, p)) == "k");
  CHECK(param(rope::score_matrix_shared(qf, qf, 2, 8, -kInf, e, p)) == "base");

  const std::vector<double> v(6, 1.0);
  CHECK(param(rope::linear_attention(q, q, v, 2, 4, 3, 10000.0, p, true, true)) == "(ok)");
  CHECK(param(rope::linear_attention(q, q, v, 2, 4, 0, 10000.0, p, true, true)) == "dv");
  CHECK(param(rope::linear_attention(q, q, v, 2, 4, 2, 10000.0, p, true, true)) == "v");
  CHECK(param(rope::linear_attention(q, q, v, 2, 6, 3, 10000.0, p, true, true)) == "q");
}

TEST_CASE("attention: score_rows_fast checks ranges and buffers", "[attention][errors]") {
  const std::vector<float> q(12, 0.25f);
  const auto enc = rope::encode_qk_fast(q, q, 3, 4, 10000.0, Encoding::rope, Pairing::interleaved);
  REQUIRE(enc.ok());
  std::vector<float> out(6, 7.0f);
  auto param = [](const rope::Status& s) {
    return s.ok() ? std::string("(ok)") : s.error().parameter;
  };
  CHECK(param(rope::score_rows_fast(enc.value(), 1, 3, out)) == "(ok)");
  CHECK(param(rope::score_rows_fast(enc.value(), 2, 2, std::span<float>())) == "(ok)");
  CHECK(param(rope::score_rows_fast(enc.value(), -1, 1, out)) == "row_begin");
  CHECK(param(rope::score_rows_fast(enc.value(), 4, 4, out)) == "row_begin");
  CHECK(param(rope::score_rows_fast(enc.value(), 2, 1, out)) == "row_end");
  CHECK(param(rope::score_rows_fast(enc.value(), 0, 4, out)) == "row_end");
  std::vector<float> untouched(5, 7.0f);
  CHECK(param(rope::score_rows_fast(enc.value(), 1, 3, untouched)) == "out");
  CHECK(untouched == std::vector<float>(5, 7.0f));

  auto broken = enc.value();
  broken.k.pop_back();
  CHECK(param(rope::score_rows_fast(broken, 0, 1, out)) == "k");
  broken = enc.value();
  broken.dim = 5;
  CHECK(param(rope::score_rows_fast(broken, 0, 1, out)) == "dim");
  broken = enc.value();
  broken.n_positions = std::numeric_limits<std::int64_t>::max();
  CHECK(param(rope::score_rows_fast(broken, 0, 1, out)) == "positions");
}

TEMPLATE_TEST_CASE("attention: transform_scores with bad shapes or odd values never crashes",
                   "[attention][errors]", float, double) {
  using T = TestType;
  constexpr T inf = std::numeric_limits<T>::infinity();
  std::vector<T> s(5, T{1});
  rope::transform_scores<T>(s, 2, 4, {.softmax = true});  // 5 != 2 * 2
  CHECK(std::all_of(s.begin(), s.end(), [](T x) { return std::isnan(x); }));
  s.assign(4, T{1});
  rope::transform_scores<T>(s, 2, 3, {.scale = true});  // dim 3 is invalid when scaling
  CHECK(std::all_of(s.begin(), s.end(), [](T x) { return std::isnan(x); }));
  s.assign(4, T{1});
  rope::transform_scores<T>(s, 2, 3, {.softmax = true});  // dim unused without scaling
  CHECK(s[0] == T(0.5));
  s.assign(1, T{1});
  rope::transform_scores<T>(s, std::numeric_limits<std::int64_t>::min(), 4, {});
  CHECK(std::isnan(s[0]));

  // Rows of -inf have no mass; +inf entries share it; NaN spreads through its row only.
  s = {-inf, -inf, inf, 3};
  rope::transform_scores<T>(s, 2, 4, {.softmax = true});
  CHECK(s == std::vector<T>{0, 0, 1, 0});
  s = {std::numeric_limits<T>::quiet_NaN(), 1, 1, 1};
  rope::transform_scores<T>(s, 2, 4, {.softmax = true});
  CHECK(std::isnan(s[0]));
  CHECK(std::isnan(s[1]));
  CHECK(s[2] == T(0.5));
}

TEST_CASE("attention: transform_score_rows a few rows at a time is transform_scores",
          "[attention]") {
  constexpr std::int64_t n = 7, d = 16;
  std::vector<float> s(static_cast<std::size_t>(n * n));
  for (std::size_t i = 0; i < s.size(); ++i)
    s[i] = static_cast<float>(std::sin(1.7 * static_cast<double>(i)) * 9.0);
  for (const rope::ScoreTransform t :
       {rope::ScoreTransform{.scale = true, .softmax = true, .causal = true},
        rope::ScoreTransform{.scale = true, .window = 3},
        rope::ScoreTransform{.softmax = true, .chunk = 4}}) {
    std::vector<float> whole = s, sliced = s;
    rope::transform_scores(whole, n, d, t);
    for (const auto& [a, b] : {std::pair{0, 2}, std::pair{2, 2}, std::pair{2, 5}, std::pair{5, 7}})
      rope::transform_score_rows(sliced, n, d, t, a, b);
    CHECK(sliced == whole);
    // rows outside the range are left as they were
    std::vector<float> part = s;
    rope::transform_score_rows(part, n, d, t, 3, 4);
    CHECK(std::equal(part.begin(), part.begin() + 3 * n, s.begin()));
    CHECK(std::equal(part.begin() + 3 * n, part.begin() + 4 * n, whole.begin() + 3 * n));
    CHECK(std::equal(part.begin() + 4 * n, part.end(), s.begin() + 4 * n));
  }
  for (const auto& [a, b] : {std::pair{-1, 2}, std::pair{3, 2}, std::pair{0, 8}}) {
    std::vector<float> bad = s;
    rope::transform_score_rows(bad, n, d, {.softmax = true}, a, b);
    CHECK(std::all_of(bad.begin(), bad.end(), [](float x) { return std::isnan(x); }));
  }
}

TEST_CASE("attention: NaN and huge inputs give numbers or NaN, never a crash",
          "[attention][errors]") {
  std::vector<float> q(4 * 8, 1.0f);
  q[3] = std::numeric_limits<float>::quiet_NaN();
  q[9] = std::numeric_limits<float>::infinity();
  for (const auto enc : kEncodings) {
    const auto fast = rope::score_matrix_fast(q, q, 4, 8, 10000.0, enc, Pairing::half_split);
    REQUIRE(fast.ok());
    CHECK(std::isnan(fast.value()[0]));  // row 0 holds the NaN
    const auto shared = rope::score_matrix_shared(std::span<const float>(q).first(8),
                                                  std::span<const float>(q).first(8), 4, 8, 10000.0,
                                                  enc, Pairing::interleaved);
    REQUIRE(shared.ok());
  }
  const std::vector<double> big(2 * 4, -1e308);
  const auto lin = rope::linear_attention(big, big, std::vector<double>(2, 1.0), 2, 4, 1, 10000.0,
                                          Pairing::interleaved, true, false);
  REQUIRE(lin.ok());  // phi underflows to 0: the documented NaN, not a crash
  CHECK(std::isnan(lin.value()[0]));
}

// The heatmap's stride (issue 28, review D8): rows at positions 0, s, 2s, ... . Against the
// definition in double: S[m][n] = (R_{m·s} q_m)·(R_{n·s} k_n) for RoPE, (q_m + PE_{m·s})·(k_n +
// PE_{n·s}) for the sinusoidal encoding, from apply_rope and frequencies directly.
TEST_CASE("score matrices at a position step equal the definition at positions m·step",
          "[attention]") {
  constexpr std::int64_t n = 9, d = 8;
  constexpr double base = 100.0, step = 7.0;
  const auto th = rope::frequencies(d, base).value();
  const auto du = static_cast<std::size_t>(d), nu = static_cast<std::size_t>(n);
  std::vector<float> q1(du), k1(du), q(nu * du), k(nu * du);
  for (std::int64_t j = 0; j < d; ++j) {
    q1[static_cast<std::size_t>(j)] = 0.25f * static_cast<float>(j) - 0.5f;
    k1[static_cast<std::size_t>(j)] = 1.0f - 0.125f * static_cast<float>(j * j % 5);
  }
  for (std::int64_t m = 0; m < n; ++m)
    for (std::int64_t j = 0; j < d; ++j) {
      q[static_cast<std::size_t>(m * d + j)] =
          static_cast<float>(std::sin(1.0 + 0.7 * static_cast<double>(m) + static_cast<double>(j)));
      k[static_cast<std::size_t>(m * d + j)] =
          static_cast<float>(std::cos(2.0 + 0.3 * static_cast<double>(m) - static_cast<double>(j)));
    }
  const auto encoded = [&](const std::vector<float>& x, std::int64_t row, rope::Encoding e) {
    std::vector<double> v(x.begin() + row * d, x.begin() + (row + 1) * d), out(du);
    const double pos = static_cast<double>(row) * step;
    if (e == rope::Encoding::rope) {
      rope::apply_rope<double>(v, out, pos, th, rope::Pairing::interleaved);
      return out;
    }
    if (e == rope::Encoding::sinusoidal)
      for (std::size_t i = 0; i < th.size(); ++i) {  // (sin, cos) per block
        v[2 * i] += std::sin(pos * th[i]);
        v[2 * i + 1] += std::cos(pos * th[i]);
      }
    return v;
  };
  for (rope::Encoding e :
       {rope::Encoding::none, rope::Encoding::sinusoidal, rope::Encoding::rope}) {
    INFO("encoding " << rope::encoding_name(e));
    const auto fast =
        rope::score_matrix_fast(q, k, n, d, base, e, rope::Pairing::interleaved);  // step 1
    REQUIRE(fast.ok());
    auto enc = rope::encode_qk_fast(q, k, n, d, base, e, rope::Pairing::interleaved, step);
    REQUIRE(enc.ok());
    std::vector<float> s(nu * nu);
    REQUIRE(rope::score_rows_fast(enc.value(), 0, n, s).ok());
    std::vector<float> q_shared(nu * du), k_shared(nu * du);
    for (std::int64_t m = 0; m < n; ++m)
      for (std::int64_t j = 0; j < d; ++j) {
        q_shared[static_cast<std::size_t>(m * d + j)] = q1[static_cast<std::size_t>(j)];
        k_shared[static_cast<std::size_t>(m * d + j)] = k1[static_cast<std::size_t>(j)];
      }
    auto shared =
        rope::score_matrix_shared(q1, k1, n, d, base, e, rope::Pairing::interleaved, step);
    REQUIRE(shared.ok());
    for (std::int64_t m = 0; m < n; ++m)
      for (std::int64_t c = 0; c < n; ++c) {
        const auto a = encoded(q, m, e), b = encoded(k, c, e);
        const auto as = encoded(q_shared, m, e), bs = encoded(k_shared, c, e);
        double want = 0.0, want_shared = 0.0;
        for (std::int64_t j = 0; j < d; ++j) {
          want += a[static_cast<std::size_t>(j)] * b[static_cast<std::size_t>(j)];
          want_shared += as[static_cast<std::size_t>(j)] * bs[static_cast<std::size_t>(j)];
        }
        const auto at = static_cast<std::size_t>(m * n + c);
        CHECK(static_cast<double>(s[at]) == Approx(want).epsilon(1e-5).margin(1e-5));
        CHECK(static_cast<double>(shared.value()[at]) ==
              Approx(want_shared).epsilon(1e-5).margin(1e-5));
      }
  }
  CHECK_FALSE(
      rope::encode_qk_fast(q, k, n, d, base, rope::Encoding::rope, rope::Pairing::interleaved, 0.0)
          .ok());
  CHECK_FALSE(rope::score_matrix_shared(q1, k1, n, d, base, rope::Encoding::rope,
                                        rope::Pairing::interleaved,
                                        std::numeric_limits<double>::quiet_NaN())
                  .ok());
}

TEMPLATE_TEST_CASE("attention: a sliding window and chunks mask the keys the models hide",
                   "[attention]", float, double) {
  // N = 6, window 2: row m sees keys m - 1 and m (causal); chunks of 4: rows 0-3 see keys 0-3
  constexpr std::int64_t n = 6;
  std::vector<TestType> s(n * n, TestType{1});
  rope::ScoreTransform t;
  t.causal = true;
  t.window = 2;
  rope::transform_scores(std::span<TestType>(s), n, 8, t);
  for (std::int64_t m = 0; m < n; ++m)
    for (std::int64_t k = 0; k < n; ++k) {
      const bool seen = k <= m && m - k < 2;
      CHECK(std::isinf(s[static_cast<std::size_t>(m * n + k)]) == !seen);
    }
  rope::ScoreTransform c;
  c.chunk = 4;
  c.softmax = true;
  CHECK(rope::visible_keys(2, n, c).first == 0);
  CHECK(rope::visible_keys(2, n, c).last == 4);
  CHECK(rope::visible_keys(5, n, c).first == 4);
  CHECK(rope::visible_keys(5, n, c).last == 6);
  std::vector<TestType> w(n * n, TestType{0});
  rope::transform_scores(std::span<TestType>(w), n, 8, c);
  CHECK(w[2 * n + 3] == Approx(0.25));  // four keys in its chunk, equal scores
  CHECK(w[2 * n + 4] == TestType{0});
  // every s-th position: rows are positions 0, 3, 6, ...; window 7 positions = rows m-2 ... m
  rope::ScoreTransform stepped;
  stepped.window = 7;
  stepped.step = 3;
  CHECK(rope::visible_keys(4, n, stepped).first == 2);
  // chunks of 8 positions at step 3: position 12 (row 4) is in chunk [8, 16) = rows 3 ... 5
  rope::ScoreTransform chunked;
  chunked.chunk = 8;
  chunked.step = 3;
  CHECK(rope::visible_keys(4, n, chunked).first == 3);
  CHECK(rope::visible_keys(4, n, chunked).last == 6);
}

// --- diagonal_fit: one factor per distance? ---------------------------------------------------

// Reference: the diagonal read off score_matrix (RoPE and no encoding) and the least-squares
// factor formed here.
TEST_CASE("diagonal_fit: the diagonal of score_matrix, its best factor and residual",
          "[attention][diagonal]") {
  const int n = 9, d = 6;
  const auto q = rope_test::random_vector<double>(static_cast<std::size_t>(n * d), 31);
  const auto k = rope_test::random_vector<double>(static_cast<std::size_t>(n * d), 32);
  const auto rope_s =
      rope::score_matrix(q, k, n, d, 100.0, rope::Encoding::rope, rope::Pairing::half_split);
  const auto plain_s =
      rope::score_matrix(q, k, n, d, 100.0, rope::Encoding::none, rope::Pairing::half_split);
  REQUIRE(rope_s.ok());
  REQUIRE(plain_s.ok());
  for (int r : {-8, -3, 0, 2, 8}) {
    const auto f = rope::diagonal_fit(q, k, n, d, 100.0, rope::Pairing::half_split, r);
    REQUIRE(f.ok());
    const auto& fit = f.value();
    REQUIRE(fit.plain.size() == static_cast<std::size_t>(n - std::abs(r)));
    double sc = 0.0, cc = 0.0;
    for (std::size_t t = 0; t < fit.plain.size(); ++t) {
      const int j = std::max(0, -r) + static_cast<int>(t);
      const auto at = static_cast<std::size_t>(j * n + j + r);
      CHECK_THAT(fit.plain[t], WithinAbs(plain_s.value()[at], 1e-13));
      CHECK_THAT(fit.rotated[t], WithinAbs(rope_s.value()[at], 1e-13));
      sc += fit.rotated[t] * fit.plain[t];
      cc += fit.plain[t] * fit.plain[t];
    }
    CHECK_THAT(fit.factor, WithinAbs(sc / cc, 1e-12));
    CHECK(fit.residual >= 0.0);
    CHECK(fit.residual <= 1.0 + 1e-12);
    // on the main diagonal R_m q . R_m k = q . k: one factor 1 explains everything
    if (r == 0) {
      CHECK_THAT(fit.factor, WithinAbs(1.0, 1e-12));
      CHECK_THAT(fit.residual, WithinAbs(0.0, 1e-7));
    } else if (fit.plain.size() == 1) {
      CHECK_THAT(fit.residual, WithinAbs(0.0, 1e-12));  // one point: always on a line
    } else {
      CHECK(fit.residual > 0.05);  // RoPE's scores are not content times a number
    }
  }
}

TEST_CASE("diagonal_fit: positions step apart, and its errors", "[attention][diagonal]") {
  const int n = 5, d = 4;
  const auto q = rope_test::random_vector<double>(static_cast<std::size_t>(n * d), 41);
  const auto k = rope_test::random_vector<double>(static_cast<std::size_t>(n * d), 42);
  const auto th = rope::frequencies(d, 10.0).value();
  const auto f = rope::diagonal_fit(q, k, n, d, 10.0, rope::Pairing::interleaved, 1, 3.0);
  REQUIRE(f.ok());
  // cell (0, 1) is at positions 0 and 3
  std::vector<double> rq(4), rk(4);
  rope::apply_rope<double>(std::span<const double>(q).first(4), rq, 0.0, th,
                           rope::Pairing::interleaved);
  rope::apply_rope<double>(std::span<const double>(k).subspan(4, 4), rk, 3.0, th,
                           rope::Pairing::interleaved);
  CHECK_THAT(f.value().rotated[0], WithinAbs(rope::dot(rq, rk), 1e-14));
  const auto bad = [&](std::int64_t r, double step, const char* parameter) {
    const auto e = rope::diagonal_fit(q, k, n, d, 10.0, rope::Pairing::interleaved, r, step);
    REQUIRE_FALSE(e.ok());
    CHECK(e.error().parameter == parameter);
  };
  bad(5, 1.0, "offset");
  bad(-5, 1.0, "offset");
  bad(1, 0.0, "position_step");
  bad(1, std::nan(""), "position_step");
  CHECK_FALSE(rope::diagonal_fit(std::span<const double>(q).first(7), k, n, d, 10.0,
                                 rope::Pairing::interleaved, 1)
                  .ok());
}
