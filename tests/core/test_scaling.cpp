// Tests for rope/scaling.h: θ′ and the attention factor of each context-extension method.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "rope/frequencies.h"
#include "rope/random.h"
#include "rope/scaling.h"
#include "test_support.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using rope::ScalingMethod;
using rope::ScalingParams;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

ScalingParams params(ScalingMethod m, double factor, std::int64_t context = 4096) {
  ScalingParams p;
  p.method = m;
  p.factor = factor;
  p.original_context = context;
  return p;
}

rope::ScaledFrequencies compute(int dim, double base, const ScalingParams& p) {
  auto r = rope::scaled_frequencies(dim, base, p);
  if (!r) FAIL("scaled_frequencies failed: " << r.error().to_string());
  return r.value();
}

// The error scaled_frequencies reports, checked to agree with validate_scaling's.
rope::Error error_of(int dim, double base, const ScalingParams& p) {
  const auto r = rope::scaled_frequencies(dim, base, p);
  const auto s = rope::validate_scaling(dim, base, p);
  REQUIRE_FALSE(r.ok());
  REQUIRE_FALSE(s.ok());
  CHECK(r.error().to_string() == s.error().to_string());
  return r.error();
}

std::vector<double> constant_list(std::size_t n, double v) {
  return std::vector<double>(n, v);
}

}  // namespace

// --- Names ------------------------------------------------------------------------------------

TEST_CASE("scaling: names round-trip and unknown names are rejected", "[scaling]") {
  const char* names[] = {"none", "linear", "ntk",      "dynamic",
                         "yarn", "llama3", "longrope", "proportional"};
  int k = 0;
  for (ScalingMethod m : rope::kScalingMethods) {
    CHECK(std::string(rope::scaling_name(m)) == names[k++]);
    REQUIRE(rope::parse_scaling(rope::scaling_name(m)).has_value());
    CHECK(*rope::parse_scaling(rope::scaling_name(m)) == m);
  }
  CHECK(k == 8);
  CHECK_FALSE(rope::parse_scaling("default").has_value());  // transformers' name for none
  CHECK_FALSE(rope::parse_scaling("YaRN").has_value());
  CHECK_FALSE(rope::parse_scaling("").has_value());
  // An out-of-range enum value (e.g. a corrupt cast) is named and rejected, never indexed.
  const auto bogus = static_cast<ScalingMethod>(42);
  CHECK(std::string(rope::scaling_name(bogus)) == "unknown");
  ScalingParams p;
  p.method = bogus;
  const auto e = rope::validate_scaling(64, 10000.0, p);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().parameter == "scaling");
  CHECK(e.error().message ==
        "must be one of none, linear, ntk, dynamic, yarn, llama3, longrope or proportional, got "
        "method number 42");
  CHECK_FALSE(rope::scaled_frequencies(64, 10000.0, p).ok());
}

TEST_CASE("scaling: ScalingParams compares by value", "[scaling]") {
  ScalingParams a, b;
  CHECK(a == b);
  b.long_factor = {1.0};
  CHECK_FALSE(a == b);
  a.long_factor = {1.0};
  CHECK(a == b);
  a.truncate = false;
  CHECK_FALSE(a == b);
}

// --- Exact small cases ------------------------------------------------------------------------

TEST_CASE("scaling: none returns theta unchanged with attention factor 1", "[scaling]") {
  const auto r = compute(8, 100.0, ScalingParams{});
  REQUIRE(r.theta.size() == 4);
  CHECK(r.theta == rope::frequencies(8, 100.0).value());
  CHECK(r.theta_scaled == r.theta);
  CHECK(r.attention_factor == 1.0);
  CHECK(r.base_used == 100.0);
  CHECK(r.ramp.empty());
  CHECK(r.ramp_low == 0.0);
  CHECK(r.ramp_high == 0.0);
}

TEST_CASE("scaling: linear divides every theta by s (d = 4, b = 100, s = 2)", "[scaling]") {
  const auto r = compute(4, 100.0, params(ScalingMethod::linear, 2.0));
  CHECK(r.theta_scaled[0] == 0.5);
  CHECK_THAT(r.theta_scaled[1], WithinRel(0.05, 1e-15));
  CHECK(r.attention_factor == 1.0);
  CHECK(r.base_used == 100.0);
  CHECK(r.ramp.empty());
}

TEST_CASE("scaling: ntk d = 4, b = 100, s = 4 gives b' = 100 * 4^2 = 1600", "[scaling]") {
  const auto r = compute(4, 100.0, params(ScalingMethod::ntk, 4.0));
  CHECK_THAT(r.base_used, WithinRel(1600.0, 1e-15));
  CHECK(r.theta_scaled[0] == 1.0);                             // fastest pair unchanged
  CHECK_THAT(r.theta_scaled[1], WithinRel(0.1 / 4.0, 1e-15));  // slowest divided by exactly s
  CHECK(r.attention_factor == 1.0);
}

TEST_CASE("scaling: dynamic d = 4, b = 100, s = 2, L = 10, l = 20: b' = 100 * 3^2", "[scaling]") {
  auto p = params(ScalingMethod::dynamic, 2.0, 10);
  p.sequence_length = 20;  // bracket s*l/L - (s - 1) = 4 - 1 = 3
  const auto r = compute(4, 100.0, p);
  CHECK_THAT(r.base_used, WithinRel(900.0, 1e-15));
  CHECK(r.theta_scaled[0] == 1.0);
  CHECK_THAT(r.theta_scaled[1], WithinRel(1.0 / 30.0, 1e-15));
  // At l = s*L the effective NTK factor is s^2 - s + 1 (here 3), not s.
}

TEST_CASE("scaling: dynamic returns the original theta when l <= L", "[scaling]") {
  for (std::int64_t length :
       {std::int64_t{0}, std::int64_t{1}, std::int64_t{5000}, std::int64_t{8192}}) {
    auto p = params(ScalingMethod::dynamic, 7.3, 8192);
    p.sequence_length = length;
    CAPTURE(length);
    const auto r = compute(128, 500000.0, p);
    CHECK(r.theta_scaled == r.theta);
    CHECK(r.base_used == 500000.0);
  }
  auto p = params(ScalingMethod::dynamic, 7.3, 8192);
  p.sequence_length = 8193;
  CHECK(compute(128, 500000.0, p).theta_scaled != compute(128, 500000.0, ScalingParams{}).theta);
}

// d = 16, b = 10000, L = 4096: c(32) = 2.618..., c(1) = 5.628..., so low = 2, high = 6 and the
// ramp is linear in the pair index: keep = 1, 1, 1, 3/4, 1/2, 1/4, 0, 0.
TEST_CASE("scaling: yarn ramp is linear in the pair index between floor and ceil", "[scaling]") {
  const auto r = compute(16, 10000.0, params(ScalingMethod::yarn, 4.0, 4096));
  CHECK(r.ramp_low == 2.0);
  CHECK(r.ramp_high == 6.0);
  const std::vector<double> keep = {1.0, 1.0, 1.0, 0.75, 0.5, 0.25, 0.0, 0.0};
  CHECK(r.ramp == keep);
  for (std::size_t i = 0; i < 8; ++i) {
    CAPTURE(i);
    const double expected = keep[i] * r.theta[i] + (1.0 - keep[i]) * r.theta[i] / 4.0;
    CHECK_THAT(r.theta_scaled[i], WithinRel(expected, 1e-15));
  }
  CHECK(r.theta_scaled[0] == r.theta[0]);
  CHECK(r.theta_scaled[7] == r.theta[7] / 4.0);
  CHECK(r.base_used == 10000.0);
  CHECK_THAT(r.attention_factor, WithinRel(0.1 * std::log(4.0) + 1.0, 1e-15));
}

TEST_CASE("scaling: yarn without truncate uses the real correction dims", "[scaling]") {
  auto p = params(ScalingMethod::yarn, 4.0, 4096);
  p.truncate = false;
  const auto r = compute(16, 10000.0, p);
  CHECK(r.ramp_low == rope::yarn_correction_dim(32.0, 16, 10000.0, 4096.0));
  CHECK(r.ramp_high == rope::yarn_correction_dim(1.0, 16, 10000.0, 4096.0));
  CHECK_THAT(r.ramp_low, WithinRel(2.6180602025795063, 1e-14));
  CHECK_THAT(r.ramp_high, WithinRel(5.628360159219318, 1e-14));
  CHECK_THAT(r.ramp[3], WithinRel(1.0 - (3.0 - r.ramp_low) / (r.ramp_high - r.ramp_low), 1e-15));
}

TEST_CASE("scaling: yarn adds 0.001 to high when the range is empty", "[scaling]") {
  SECTION("beta_fast = beta_slow without truncate") {
    auto p = params(ScalingMethod::yarn, 2.0, 4096);
    p.truncate = false;
    p.beta_fast = p.beta_slow = 4.0;
    const auto r = compute(16, 10000.0, p);
    const double c = rope::yarn_correction_dim(4.0, 16, 10000.0, 4096.0);
    CHECK(r.ramp_low == c);
    CHECK(r.ramp_high == c + 0.001);
    for (std::size_t i = 0; i < 8; ++i)
      CHECK(r.ramp[i] == (static_cast<double>(i) <= c ? 1.0 : 0.0));
  }
  SECTION("both ends clamped to 0: L = 4 < 2 pi, only pair 0 keeps theta") {
    // c(32) = -3.40, c(1) = -0.39: low = max(-4, 0) = 0, high = ceil(-0.39) = 0 -> 0.001.
    const auto r = compute(16, 10000.0, params(ScalingMethod::yarn, 2.0, 4));
    CHECK(r.ramp_low == 0.0);
    CHECK(r.ramp_high == 0.001);
    CHECK(r.ramp[0] == 1.0);
    for (std::size_t i = 1; i < 8; ++i)
      CHECK(r.theta_scaled[i] == r.theta[i] / 2.0);
  }
}

TEST_CASE("scaling: yarn quirks of transformers' clamping are reproduced", "[scaling]") {
  SECTION("L = 1: high = ceil(c(1)) = -1 < low = 0, so every theta is kept") {
    // Every pair turns less than once in L, yet the inverted range makes the ramp 0 everywhere.
    const auto r = compute(16, 10000.0, params(ScalingMethod::yarn, 2.0, 1));
    CHECK(r.ramp_low == 0.0);
    CHECK(r.ramp_high == -1.0);
    CHECK(r.theta_scaled == r.theta);
  }
  SECTION("high is clamped to d - 1, not d/2 - 1, and low is not clamped at all") {
    // d = 8, b = 10, L = 1e6: c(32) = 14.79, c(1) = 20.81 -> low = 14, high = min(21, 7) = 7.
    // Every pair turns more than 32 times, yet the inverted range interpolates all of them.
    const auto r = compute(8, 10.0, params(ScalingMethod::yarn, 2.0, 1000000));
    CHECK(r.ramp_low == 14.0);
    CHECK(r.ramp_high == 7.0);
    for (std::size_t i = 0; i < 4; ++i)
      CHECK(r.theta_scaled[i] == r.theta[i] / 2.0);
  }
}

TEST_CASE("scaling: yarn attention factor", "[scaling]") {
  // YaRN Eq. 25: sqrt(1/t) = 0.1 ln s + 1 = 1.2079441541679836 at s = 8.
  CHECK_THAT(rope::yarn_mscale(8.0), WithinRel(1.2079441541679836, 1e-15));
  CHECK_THAT(compute(128, 10000.0, params(ScalingMethod::yarn, 8.0)).attention_factor,
             WithinRel(1.2079441541679836, 1e-15));
  CHECK(rope::yarn_mscale(1.0) == 1.0);
  CHECK(rope::yarn_mscale(0.5, 3.0) == 1.0);
  CHECK(compute(128, 10000.0, params(ScalingMethod::yarn, 0.5)).attention_factor == 1.0);

  auto p = params(ScalingMethod::yarn, 40.0);
  p.attention_factor = 1.5;
  CHECK(compute(64, 10000.0, p).attention_factor == 1.5);

  p.attention_factor = 0.0;
  p.mscale = 0.707;
  p.mscale_all_dim = 1.0;
  const double ln40 = std::log(40.0);
  CHECK_THAT(compute(64, 10000.0, p).attention_factor,
             WithinRel((0.0707 * ln40 + 1.0) / (0.1 * ln40 + 1.0), 1e-15));
  p.mscale = p.mscale_all_dim = 1.0;  // DeepSeek-V3's config: the ratio is exactly 1
  CHECK(compute(64, 10000.0, p).attention_factor == 1.0);
  p.mscale_all_dim = 0.0;  // only one set: transformers falls back to 0.1 ln s + 1
  CHECK_THAT(compute(64, 10000.0, p).attention_factor, WithinRel(0.1 * ln40 + 1.0, 1e-15));
}

TEST_CASE("scaling: Llama 3.1 (b 500000, d 128, s 8, low 1, high 4, L 8192)", "[scaling]") {
  ScalingParams p = params(ScalingMethod::llama3, 8.0, 8192);
  p.low_freq_factor = 1.0;
  p.high_freq_factor = 4.0;
  const auto r = compute(128, 500000.0, p);
  REQUIRE(r.ramp.size() == 64);
  int kept = 0, divided = 0, blended = 0;
  for (std::size_t i = 0; i < 64; ++i) {
    CAPTURE(i);
    const double lambda = rope::wavelength(r.theta[i]);
    if (lambda < 2048.0) {
      ++kept;
      CHECK(r.theta_scaled[i] == r.theta[i]);
      CHECK(r.ramp[i] == 1.0);
    } else if (lambda > 8192.0) {
      ++divided;
      CHECK(r.theta_scaled[i] == r.theta[i] / 8.0);
      CHECK(r.ramp[i] == 0.0);
    } else {
      ++blended;
      const double smooth = (8192.0 / lambda - 1.0) / 3.0;
      CHECK_THAT(r.ramp[i], WithinRel(smooth, 1e-15));
      CHECK(r.ramp[i] >= 0.0);
      CHECK(r.ramp[i] <= 1.0);
      CHECK_THAT(r.theta_scaled[i],
                 WithinRel((1.0 - smooth) * r.theta[i] / 8.0 + smooth * r.theta[i], 1e-14));
    }
    if (i > 0) CHECK(r.ramp[i] <= r.ramp[i - 1]);
  }
  // Pairs 0-28 keep theta, 29-34 blend, 35-63 are divided by 8.
  CHECK(kept == 29);
  CHECK(blended == 6);
  CHECK(divided == 29);
  CHECK(r.attention_factor == 1.0);
  CHECK(r.base_used == 500000.0);
}

TEST_CASE("scaling: longrope picks long_factor only when l > L", "[scaling]") {
  // Phi-3-mini-128k's shape: d = 96 (48 factors), L = 4096, s = 131072/4096 = 32.
  ScalingParams p = params(ScalingMethod::longrope, 32.0, 4096);
  p.short_factor = constant_list(48, 1.0);
  p.long_factor.resize(48);
  for (std::size_t i = 0; i < 48; ++i)
    p.long_factor[i] = 1.0 + static_cast<double>(i);
  // sqrt(1 + ln 32 / ln 4096) = sqrt(1 + 5/12) = sqrt(17/12), with either list.
  const double attention = std::sqrt(17.0 / 12.0);

  for (std::int64_t length : {std::int64_t{0}, std::int64_t{100}, std::int64_t{4096}}) {
    p.sequence_length = length;
    const auto r = compute(96, 10000.0, p);
    CHECK(r.theta_scaled == r.theta);  // short factors are all 1 here
    CHECK_THAT(r.attention_factor, WithinRel(attention, 1e-15));
    CHECK(r.ramp.empty());
  }
  p.sequence_length = 4097;
  const auto r = compute(96, 10000.0, p);
  for (std::size_t i = 0; i < 48; ++i)
    CHECK(r.theta_scaled[i] == r.theta[i] / (1.0 + static_cast<double>(i)));
  CHECK_THAT(r.attention_factor, WithinRel(attention, 1e-15));

  p.attention_factor = 1.25;
  CHECK(compute(96, 10000.0, p).attention_factor == 1.25);
  p.attention_factor = 0.0;
  p.factor = 1.0;  // s <= 1: attention factor 1
  CHECK(compute(96, 10000.0, p).attention_factor == 1.0);
}

TEST_CASE("scaling: proportional keeps the first floor(p d/2) pairs, theta = 0 after",
          "[scaling]") {
  SECTION("d = 8, p = 0.5: two pairs") {
    auto p = params(ScalingMethod::proportional, 1.0);
    p.rotary_fraction = 0.5;
    const auto r = compute(8, 10000.0, p);
    CHECK(r.theta_scaled[0] == 1.0);
    CHECK(r.theta_scaled[1] == r.theta[1]);
    CHECK_THAT(r.theta_scaled[1], WithinRel(0.1, 1e-15));  // 10000^(-2/8)
    CHECK(r.theta_scaled[2] == 0.0);
    CHECK(r.theta_scaled[3] == 0.0);
    CHECK(r.attention_factor == 1.0);
  }
  SECTION("d = 6, p = 0.5: floor(1.5) = 1 pair") {
    auto p = params(ScalingMethod::proportional, 1.0);
    p.rotary_fraction = 0.5;
    const auto r = compute(6, 10000.0, p);
    CHECK(r.theta_scaled == std::vector<double>{1.0, 0.0, 0.0});
  }
  SECTION("d = 256, p = 0.25 (Gemma-style): 32 pairs, theta over the whole head") {
    auto p = params(ScalingMethod::proportional, 1.0);
    p.rotary_fraction = 0.25;
    const auto r = compute(256, 10000.0, p);
    for (std::size_t i = 0; i < 128; ++i)
      CHECK(r.theta_scaled[i] == (i < 32 ? rope::theta(static_cast<int>(i), 256, 10000.0) : 0.0));
  }
  SECTION("p = 0 rotates nothing, p = 1 everything; factor divides the kept pairs") {
    auto p = params(ScalingMethod::proportional, 1.0);
    p.rotary_fraction = 0.0;
    CHECK(compute(8, 100.0, p).theta_scaled == std::vector<double>(4, 0.0));
    p.rotary_fraction = 1.0;
    CHECK(compute(8, 100.0, p).theta_scaled == rope::frequencies(8, 100.0).value());
    p.rotary_fraction = 0.5;
    p.factor = 2.0;
    const auto r = compute(8, 100.0, p);
    CHECK(r.theta_scaled == std::vector<double>{0.5, r.theta[1] / 2.0, 0.0, 0.0});
  }
}

TEST_CASE("scaling: helpers", "[scaling]") {
  CHECK(rope::rotations_per_context(1.0, rope::kTwoPi) == 1.0);
  CHECK_THAT(rope::rotations_per_context(0.01, 4096.0), WithinRel(40.96 / rope::kTwoPi, 1e-15));
  CHECK(rope::rotations_per_context(0.0, 4096.0) == 0.0);
  // c(n) for d = 16, b = 10000, L = 4096 (worked out above).
  CHECK_THAT(rope::yarn_correction_dim(32.0, 16, 10000.0, 4096.0),
             WithinRel(2.6180602025795063, 1e-14));
  CHECK(std::isnan(rope::yarn_correction_dim(0.0, 16, 10000.0, 4096.0)));
  CHECK(std::isnan(rope::yarn_correction_dim(1.0, 16, 1.0, 4096.0)));
  CHECK(std::isnan(rope::yarn_correction_dim(1.0, 16, 10000.0, -1.0)));
}

// --- Identities over seeded random parameters ---------------------------------------------------

namespace {

// A random valid parameter set for method m (d and base come from rope_test::random_case).
ScalingParams random_params(ScalingMethod m, int dim, rope::SplitMix64& rng) {
  ScalingParams p;
  p.method = m;
  p.factor = std::exp(rng.uniform(std::log(0.5), std::log(64.0)));
  p.original_context = static_cast<std::int64_t>(std::exp(rng.uniform(0.0, std::log(1e6))));
  p.beta_slow = rng.uniform(0.25, 4.0);
  p.beta_fast = p.beta_slow + rng.uniform(0.0, 60.0);
  p.truncate = rng.uniform() < 0.5;
  if (rng.uniform() < 0.3) {
    p.mscale = rng.uniform(0.1, 2.0);
    p.mscale_all_dim = rng.uniform(0.1, 2.0);
  }
  if (rng.uniform() < 0.3) p.attention_factor = rng.uniform(0.5, 2.0);
  p.low_freq_factor = rng.uniform(0.25, 4.0);
  p.high_freq_factor = p.low_freq_factor + rng.uniform(0.01, 8.0);
  p.sequence_length = rng.uniform() < 0.2
                          ? 0
                          : static_cast<std::int64_t>(
                                rng.uniform(1.0, 4.0 * static_cast<double>(p.original_context)));
  if (m == ScalingMethod::longrope)
    p.original_context = std::max<std::int64_t>(2, p.original_context);
  const auto half = static_cast<std::size_t>(dim / 2);
  p.short_factor.resize(half);
  p.long_factor.resize(half);
  for (std::size_t i = 0; i < half; ++i) {
    p.short_factor[i] = rng.uniform(0.8, 1.5);
    p.long_factor[i] = rng.uniform(1.0, 40.0);
  }
  p.rotary_fraction = rng.uniform();
  return p;
}

}  // namespace

TEST_CASE("scaling: identities over random parameters for every method", "[scaling]") {
  const int index = GENERATE(range(0, 48));
  const ScalingMethod m = rope::kScalingMethods[index % 8];
  auto c = rope_test::random_case(index, 512);
  if ((m == ScalingMethod::ntk || m == ScalingMethod::dynamic) && c.dim < 4) c.dim = 4;
  rope::SplitMix64 rng(rope_test::seed(1000 + index));
  const ScalingParams p = random_params(m, c.dim, rng);
  CAPTURE(rope::scaling_name(m), c.dim, c.base, p.factor, p.original_context, p.sequence_length);

  REQUIRE(rope::validate_scaling(c.dim, c.base, p).ok());
  const auto r = compute(c.dim, c.base, p);
  const auto half = static_cast<std::size_t>(c.dim / 2);
  REQUIRE(r.theta.size() == half);
  REQUIRE(r.theta_scaled.size() == half);
  CHECK(r.theta == rope::frequencies(c.dim, c.base).value());
  CHECK(std::isfinite(r.attention_factor));
  CHECK(r.attention_factor > 0.0);
  CHECK(std::isfinite(r.base_used));
  CHECK(std::isfinite(r.ramp_low));
  CHECK(std::isfinite(r.ramp_high));
  for (double t : r.theta_scaled) {
    CHECK(std::isfinite(t));
    CHECK(t >= 0.0);
  }
  const double s = p.factor;
  const double lo = std::min(1.0, 1.0 / s) * (1.0 - 1e-15);
  const double hi = std::max(1.0, 1.0 / s) * (1.0 + 1e-15);

  switch (m) {
    case ScalingMethod::none:
      CHECK(r.theta_scaled == r.theta);
      break;
    case ScalingMethod::linear:
      for (std::size_t i = 0; i < half; ++i)
        CHECK_THAT(r.theta_scaled[i] * s, WithinRel(r.theta[i], 1e-15));  // θ′ s = θ
      break;
    case ScalingMethod::ntk:
    case ScalingMethod::dynamic: {
      // θ′_i/θ_i = σ^(−2i/(d−2)) with σ = b′/b to the power (d−2)/d: a geometric sequence from 1
      // (the fastest pair) to 1/σ (the slowest). For ntk σ = s; for dynamic σ = s ℓ/L − (s − 1).
      const double length = static_cast<double>(std::max(p.sequence_length, p.original_context));
      const double sigma = m == ScalingMethod::ntk
                               ? s
                               : s * length / static_cast<double>(p.original_context) - (s - 1.0);
      CHECK_THAT(r.base_used, WithinRel(c.base * std::pow(sigma, c.dim / (c.dim - 2.0)), 1e-13));
      CHECK(r.theta_scaled[0] == 1.0);
      CHECK_THAT(r.theta_scaled[half - 1] * sigma, WithinRel(r.theta[half - 1], 1e-12));
      for (std::size_t i = 0; i < half; ++i)
        CHECK_THAT(
            r.theta_scaled[i] / r.theta[i],
            WithinRel(std::pow(sigma, -2.0 * static_cast<double>(i) / (c.dim - 2.0)), 1e-12));
      break;
    }
    case ScalingMethod::yarn:
    case ScalingMethod::llama3:
      REQUIRE(r.ramp.size() == half);
      for (std::size_t i = 0; i < half; ++i) {
        CAPTURE(i);
        CHECK(r.ramp[i] >= 0.0);
        CHECK(r.ramp[i] <= 1.0);
        // θ′ = γ θ + (1 − γ) θ/s lies between θ and θ/s
        CHECK_THAT(r.theta_scaled[i],
                   WithinRel(r.ramp[i] * r.theta[i] + (1.0 - r.ramp[i]) * r.theta[i] / s, 1e-14));
        CHECK(r.theta_scaled[i] / r.theta[i] >= lo);
        CHECK(r.theta_scaled[i] / r.theta[i] <= hi);
        // γ never increases with i while the range is not inverted (always for llama3)
        if (i > 0 && r.ramp_low <= r.ramp_high) CHECK(r.ramp[i] <= r.ramp[i - 1]);
      }
      if (m == ScalingMethod::yarn) {
        CHECK(r.ramp_low >= 0.0);
        CHECK(r.ramp_high <= c.dim - 1 + 0.001);
        if (p.attention_factor == 0.0 && (p.mscale == 0.0 || p.mscale_all_dim == 0.0))
          CHECK(r.attention_factor == rope::yarn_mscale(s));
      } else {
        CHECK(r.attention_factor == 1.0);
      }
      break;
    case ScalingMethod::longrope: {
      const auto& ext = p.sequence_length > p.original_context ? p.long_factor : p.short_factor;
      for (std::size_t i = 0; i < half; ++i)
        CHECK_THAT(r.theta_scaled[i] * ext[i], WithinRel(r.theta[i], 1e-15));
      break;
    }
    case ScalingMethod::proportional: {
      const auto rotated = static_cast<std::size_t>(std::floor(p.rotary_fraction * c.dim / 2.0));
      CHECK(static_cast<std::size_t>(
                std::count(r.theta_scaled.begin(), r.theta_scaled.end(), 0.0)) == half - rotated);
      for (std::size_t i = 0; i < rotated; ++i)
        CHECK_THAT(r.theta_scaled[i] * s, WithinRel(r.theta[i], 1e-15));
      break;
    }
  }
}

TEST_CASE("scaling: yarn_correction_dim inverts rotations_per_context", "[scaling]") {
  const int index = GENERATE(range(0, 20));
  const auto c = rope_test::random_case(index, 4096);
  rope::SplitMix64 rng(rope_test::seed(2000 + index));
  const double n = std::exp(rng.uniform(std::log(0.01), std::log(100.0)));
  const double context = std::exp(rng.uniform(std::log(16.0), std::log(1e6)));
  // The (real) pair index x = c(n) has θ(x) = b^(−2x/d) turning exactly n times in L.
  const double x = rope::yarn_correction_dim(n, c.dim, c.base, context);
  const double theta_x = std::pow(c.base, -2.0 * x / c.dim);
  CHECK_THAT(rope::rotations_per_context(theta_x, context), WithinRel(n, 1e-12));
}

TEST_CASE("scaling: no NaN ever comes out of a validated call", "[scaling][errors]") {
  // Random values, many of them absurd; whatever passes validation must give finite numbers.
  const double wild[] = {kNan, kInf, -kInf, -1.0, 0.0, 1e-300, 1e-7, 1e-6,
                         0.5,  1.0,  2.0,   32.0, 1e5, 1e6,    1e7,  1e300};
  const std::int64_t counts[] = {
      -5, 0, 1, 2, 7, 4096, 1 << 20, std::int64_t{1} << 30, (std::int64_t{1} << 30) + 1};
  rope::SplitMix64 rng(rope_test::seed(3000));
  const auto pick = [&rng](const auto& list) {
    return list[rng.next() % (sizeof(list) / sizeof(list[0]))];
  };
  int accepted = 0;
  for (int k = 0; k < 4000; ++k) {
    ScalingParams p;
    p.method = rope::kScalingMethods[rng.next() % 8];
    const int dim = 2 * static_cast<int>(1 + rng.next() % 64);
    const double base = rng.uniform() < 0.8 ? std::exp(rng.uniform(0.1, 20.0)) : pick(wild);
    p.factor = pick(wild);
    p.original_context = pick(counts);
    p.sequence_length = pick(counts);
    p.beta_fast = pick(wild);
    p.beta_slow = pick(wild);
    p.truncate = rng.uniform() < 0.5;
    p.mscale = pick(wild);
    p.mscale_all_dim = pick(wild);
    p.attention_factor = rng.uniform() < 0.5 ? 0.0 : pick(wild);
    p.low_freq_factor = pick(wild);
    p.high_freq_factor = pick(wild);
    p.rotary_fraction = rng.uniform() < 0.5 ? rng.uniform() : pick(wild);
    const auto n = static_cast<std::size_t>(dim / 2 + (rng.uniform() < 0.8 ? 0 : 1));
    p.short_factor.assign(n, pick(wild));
    p.long_factor.assign(n, pick(wild));
    const auto r = rope::scaled_frequencies(dim, base, p);
    CHECK(r.ok() == rope::validate_scaling(dim, base, p).ok());
    if (!r) continue;
    ++accepted;
    const auto& v = r.value();
    bool finite = std::isfinite(v.attention_factor) && v.attention_factor > 0.0 &&
                  std::isfinite(v.base_used) && std::isfinite(v.ramp_low) &&
                  std::isfinite(v.ramp_high);
    for (double t : v.theta_scaled)
      finite = finite && std::isfinite(t) && t >= 0.0;
    for (double g : v.ramp)
      finite = finite && g >= 0.0 && g <= 1.0;
    CAPTURE(k, rope::scaling_name(p.method), dim, base, p.factor, p.original_context);
    CHECK(finite);
  }
  CHECK(accepted > 400);  // the loop must exercise valid calls too
}

// --- Every validation error ----------------------------------------------------------------------

TEST_CASE("scaling: dim and base are checked first", "[scaling][errors]") {
  auto e = error_of(7, 10000.0, params(ScalingMethod::linear, -1.0));
  CHECK(e.parameter == "dim");
  CHECK(e.message == "must be an even integer from 2 to 4096, got 7");
  e = error_of(8, 1.0, params(ScalingMethod::linear, -1.0));
  CHECK(e.parameter == "base");
  CHECK(e.message == "must be a finite number greater than 1, got 1");
  CHECK(error_of(8, kNan, ScalingParams{}).parameter == "base");  // none checks them too
}

TEST_CASE("scaling: ntk and dynamic need d >= 4", "[scaling][errors]") {
  CHECK(rope::validate_scaling(2, 10000.0, params(ScalingMethod::linear, 2.0)).ok());
  const auto e = error_of(2, 10000.0, params(ScalingMethod::ntk, 2.0));
  CHECK(e.parameter == "dim");
  CHECK(e.message ==
        "must be an even integer from 4 to 4096 for ntk (its exponent d/(d-2) needs d > 2), got 2");
  CHECK(error_of(2, 10000.0, params(ScalingMethod::dynamic, 2.0)).message ==
        "must be an even integer from 4 to 4096 for dynamic (its exponent d/(d-2) needs d > 2), "
        "got 2");
}

TEST_CASE("scaling: factor", "[scaling][errors]") {
  const auto check = [](double factor, const std::string& message) {
    for (ScalingMethod m : rope::kScalingMethods) {
      if (m == ScalingMethod::none) continue;
      ScalingParams p = params(m, factor);
      p.short_factor = p.long_factor = constant_list(64, 1.0);
      CAPTURE(rope::scaling_name(m), factor);
      const auto e = error_of(128, 10000.0, p);
      CHECK(e.parameter == "factor");
      CHECK(e.message == message);
    }
  };
  check(-1.0, "must be a finite number greater than 0, got -1");
  check(0.0, "must be a finite number greater than 0, got 0");
  check(kNan, "must be a finite number greater than 0, got nan");
  check(kInf, "must be a finite number greater than 0, got inf");
  check(1e7, "must be a number from 1e-06 to 1e+06, got 1e+07");
  check(1e-7, "must be a number from 1e-06 to 1e+06, got 1e-07");
  // none reads no field but dim and base
  CHECK(rope::validate_scaling(128, 10000.0, params(ScalingMethod::none, kNan, -5)).ok());
}

TEST_CASE("scaling: the NTK base must stay a finite number above 1", "[scaling][errors]") {
  auto e = error_of(4, 2.0, params(ScalingMethod::ntk, 0.5));  // b' = 2 * 0.5^2
  CHECK(e.parameter == "factor");
  CHECK(e.message ==
        "gives the base b' = 0.5 (factor 0.5, base 2), which must be a finite number greater "
        "than 1");
  e = error_of(4, 1e300, params(ScalingMethod::ntk, 1e6));
  CHECK(e.message ==
        "gives the base b' = inf (factor 1e+06, base 1e+300), which must be a finite number "
        "greater than 1");
  auto p = params(ScalingMethod::dynamic, 1e6, 1);
  p.sequence_length = std::int64_t{1} << 30;
  CHECK(error_of(4, 1e290, p).message.find("gives the base b' = inf") == 0);
  // s < 1 is allowed while b' stays above 1
  CHECK(rope::validate_scaling(128, 10000.0, params(ScalingMethod::ntk, 0.5)).ok());
}

TEST_CASE("scaling: original_context and sequence_length", "[scaling][errors]") {
  for (ScalingMethod m : {ScalingMethod::dynamic, ScalingMethod::yarn, ScalingMethod::llama3}) {
    CAPTURE(rope::scaling_name(m));
    auto e = error_of(128, 10000.0, params(m, 2.0, -5));
    CHECK(e.parameter == "original_context");
    CHECK(e.message == "must be an integer from 1 to 1073741824, got -5");
    CHECK(error_of(128, 10000.0, params(m, 2.0, 0)).message ==
          "must be an integer from 1 to 1073741824, got 0");
    CHECK(error_of(128, 10000.0, params(m, 2.0, (std::int64_t{1} << 30) + 1)).message ==
          "must be an integer from 1 to 1073741824, got 1073741825");
    CHECK(rope::validate_scaling(128, 10000.0, params(m, 2.0, 1)).ok());
  }
  // linear, ntk and proportional do not read L
  for (ScalingMethod m : {ScalingMethod::linear, ScalingMethod::ntk, ScalingMethod::proportional})
    CHECK(rope::validate_scaling(128, 10000.0, params(m, 2.0, -5)).ok());

  ScalingParams lr = params(ScalingMethod::longrope, 2.0, 1);
  lr.short_factor = lr.long_factor = constant_list(64, 1.0);
  auto e = error_of(128, 10000.0, lr);
  CHECK(e.parameter == "original_context");
  CHECK(e.message ==
        "must be an integer from 2 to 1073741824 for longrope (its attention factor divides by "
        "ln L), got 1");

  for (ScalingMethod m : {ScalingMethod::dynamic, ScalingMethod::longrope}) {
    ScalingParams p = params(m, 2.0);
    p.short_factor = p.long_factor = constant_list(64, 1.0);
    p.sequence_length = -1;
    e = error_of(128, 10000.0, p);
    CHECK(e.parameter == "sequence_length");
    CHECK(e.message == "must be 0 (unset) or an integer from 1 to 1073741824, got -1");
  }
  ScalingParams y = params(ScalingMethod::yarn, 2.0);
  y.sequence_length = -1;  // yarn does not read it
  CHECK(rope::validate_scaling(128, 10000.0, y).ok());
}

TEST_CASE("scaling: yarn parameters", "[scaling][errors]") {
  ScalingParams p = params(ScalingMethod::yarn, 8.0);
  p.beta_fast = 0.0;
  auto e = error_of(128, 10000.0, p);
  CHECK(e.parameter == "beta_fast");
  CHECK(e.message == "must be a finite number from 0.001 to 1e+05, got 0");
  p.beta_fast = 32.0;
  p.beta_slow = kNan;
  e = error_of(128, 10000.0, p);
  CHECK(e.parameter == "beta_slow");
  CHECK(e.message == "must be a finite number from 0.001 to 1e+05, got nan");
  p.beta_slow = 1e6;
  CHECK(error_of(128, 10000.0, p).message ==
        "must be a finite number from 0.001 to 1e+05, got 1e+06");
  p.beta_slow = 2.0;
  p.beta_fast = 1.0;
  e = error_of(128, 10000.0, p);
  CHECK(e.parameter == "beta_fast");
  CHECK(e.message == "must be at least beta_slow (2), got 1");
  p.beta_fast = 2.0;  // equal is allowed (a step ramp)
  CHECK(rope::validate_scaling(128, 10000.0, p).ok());

  p.mscale = -1.0;
  e = error_of(128, 10000.0, p);
  CHECK(e.parameter == "mscale");
  CHECK(e.message == "must be a finite number from 0 to 100 (0 = unset), got -1");
  p.mscale = 1.0;
  p.mscale_all_dim = kInf;
  e = error_of(128, 10000.0, p);
  CHECK(e.parameter == "mscale_all_dim");
  CHECK(e.message == "must be a finite number from 0 to 100 (0 = unset), got inf");
  p.mscale_all_dim = 1.0;
  p.attention_factor = -1.0;
  e = error_of(128, 10000.0, p);
  CHECK(e.parameter == "attention_factor");
  CHECK(e.message == "must be a finite number from 0 to 100 (0 = the method's default), got -1");
  p.attention_factor = 101.0;
  CHECK(error_of(128, 10000.0, p).message ==
        "must be a finite number from 0 to 100 (0 = the method's default), got 101");
}

TEST_CASE("scaling: llama3 parameters", "[scaling][errors]") {
  ScalingParams p = params(ScalingMethod::llama3, 8.0, 8192);
  p.low_freq_factor = 4.5;
  p.high_freq_factor = 4.0;
  auto e = error_of(128, 500000.0, p);
  CHECK(e.parameter == "low_freq_factor");
  CHECK(e.message == "must be at most high_freq_factor (4), got 4.5");
  p.low_freq_factor = 5.0;
  CHECK(error_of(128, 500000.0, p).message == "must be at most high_freq_factor (4), got 5");
  p.low_freq_factor = 0.0;
  e = error_of(128, 500000.0, p);
  CHECK(e.parameter == "low_freq_factor");
  CHECK(e.message == "must be a finite number greater than 0, got 0");
  p.low_freq_factor = 1.0;
  p.high_freq_factor = kNan;
  e = error_of(128, 500000.0, p);
  CHECK(e.parameter == "high_freq_factor");
  CHECK(e.message == "must be a finite number greater than 0, got nan");
  // attention_factor is not read by llama3
  p.high_freq_factor = 4.0;
  p.attention_factor = -3.0;
  CHECK(rope::validate_scaling(128, 500000.0, p).ok());
}

TEST_CASE("scaling: longrope lists", "[scaling][errors]") {
  ScalingParams p = params(ScalingMethod::longrope, 32.0, 4096);
  p.short_factor = constant_list(48, 1.0);
  p.long_factor = constant_list(47, 2.0);
  auto e = error_of(96, 10000.0, p);
  CHECK(e.parameter == "long_factor");
  CHECK(e.message == "must have d/2 = 48 entries, got 47");
  p.long_factor = constant_list(48, 2.0);
  p.short_factor.clear();
  e = error_of(96, 10000.0, p);
  CHECK(e.parameter == "short_factor");
  CHECK(e.message == "must have d/2 = 48 entries, got 0");
  p.short_factor = constant_list(48, 1.0);
  p.short_factor[2] = -1.0;
  e = error_of(96, 10000.0, p);
  CHECK(e.parameter == "short_factor");
  CHECK(e.message == "entry 3 must be a finite number greater than 0, got -1");
  p.short_factor[2] = 1.0;
  p.long_factor[0] = 1e7;
  e = error_of(96, 10000.0, p);
  CHECK(e.parameter == "long_factor");
  CHECK(e.message == "entry 1 must be a number from 1e-06 to 1e+06, got 1e+07");
  p.long_factor[0] = kNan;
  CHECK(error_of(96, 10000.0, p).message ==
        "entry 1 must be a finite number greater than 0, got nan");
  p.long_factor[0] = 2.0;
  p.attention_factor = kNan;
  e = error_of(96, 10000.0, p);
  CHECK(e.parameter == "attention_factor");
  p.attention_factor = 0.0;
  CHECK(rope::validate_scaling(96, 10000.0, p).ok());
  // Lists are read by longrope only
  ScalingParams y = params(ScalingMethod::yarn, 2.0);
  y.long_factor = {kNan};
  CHECK(rope::validate_scaling(96, 10000.0, y).ok());
}

TEST_CASE("scaling: proportional rotary_fraction", "[scaling][errors]") {
  ScalingParams p = params(ScalingMethod::proportional, 1.0);
  for (double bad : {1.5, -0.1, kNan, kInf}) {
    p.rotary_fraction = bad;
    CAPTURE(bad);
    const auto e = error_of(128, 10000.0, p);
    CHECK(e.parameter == "rotary_fraction");
    CHECK(e.message ==
          "must be a finite number from 0 to 1, got " + std::string(std::isnan(bad) ? "nan"
                                                                    : bad == kInf   ? "inf"
                                                                    : bad > 1       ? "1.5"
                                                                                    : "-0.1"));
  }
}
