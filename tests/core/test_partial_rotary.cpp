// Tests for rope/partial_rotary.h: the neox and proportional meanings of a rotary fraction.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "rope/frequencies.h"
#include "rope/partial_rotary.h"
#include "test_support.h"

using Catch::Matchers::WithinRel;
using rope::RotaryStyle;

namespace {

int nonzero(const std::vector<double>& v) {
  int n = 0;
  for (const double x : v)
    n += x != 0.0 ? 1 : 0;
  return n;
}

}  // namespace

// --- Exact small cases ----------------------------------------------------------------------

TEST_CASE("partial rotary: names round-trip", "[partial_rotary]") {
  CHECK(std::string(rope::rotary_style_name(RotaryStyle::neox)) == "neox");
  CHECK(std::string(rope::rotary_style_name(RotaryStyle::proportional)) == "proportional");
  for (const auto style : {RotaryStyle::neox, RotaryStyle::proportional})
    CHECK(rope::parse_rotary_style(rope::rotary_style_name(style)) == style);
  CHECK_FALSE(rope::parse_rotary_style("NeoX").has_value());
  CHECK_FALSE(rope::parse_rotary_style("").has_value());
  CHECK_FALSE(rope::parse_rotary_style("partial").has_value());
}

TEST_CASE("partial rotary: head 128 at 25 %: slowest kept wavelength 35 333 vs 54.4 tokens",
          "[partial_rotary]") {
  // neox: rotary_dim = 32, theta_15 = 10^4^(-30/32), wavelength 2 pi 10^3.75 = 35332.9475...
  // proportional: theta_15 = 10^4^(-30/128), wavelength 2 pi 10^0.9375 = 54.4101...
  const auto neox = rope::partial_frequencies(128, 10000.0, 0.25, RotaryStyle::neox);
  const auto prop = rope::partial_frequencies(128, 10000.0, 0.25, RotaryStyle::proportional);
  REQUIRE(neox.ok());
  REQUIRE(prop.ok());
  REQUIRE(neox.value().size() == 64);
  REQUIRE(prop.value().size() == 64);
  CHECK(nonzero(neox.value()) == 16);
  CHECK(nonzero(prop.value()) == 16);
  CHECK_THAT(rope::wavelength(neox.value()[15]), WithinRel(35332.94752055899, 1e-12));
  CHECK_THAT(rope::wavelength(prop.value()[15]), WithinRel(54.41014313077675, 1e-12));
  CHECK(neox.value()[0] == 1.0);
  CHECK(prop.value()[0] == 1.0);
  CHECK(neox.value()[1] == std::pow(10000.0, -2.0 / 32.0));
  CHECK(prop.value()[1] == std::pow(10000.0, -2.0 / 128.0));
  for (std::size_t i = 16; i < 64; ++i) {
    CHECK(neox.value()[i] == 0.0);
    CHECK(prop.value()[i] == 0.0);
  }
  CHECK(std::isinf(rope::wavelength(neox.value()[16])));
}

TEST_CASE("partial rotary: the presets' rotary dimensions", "[partial_rotary]") {
  // int(head_dim * p), as GPT-NeoX and transformers compute it.
  CHECK(2 * rope::rotated_pairs(128, 0.25, RotaryStyle::neox) == 32);  // Pythia-6.9B
  CHECK(2 * rope::rotated_pairs(96, 0.25, RotaryStyle::neox) == 24);   // GPT-NeoX-20B
  CHECK(2 * rope::rotated_pairs(80, 0.4, RotaryStyle::neox) == 32);    // Phi-2
  // 100 * 0.29 = 28.999999999999996 in double: truncated to 28, as Python's int() does.
  CHECK(rope::rotated_pairs(100, 0.29, RotaryStyle::neox) == 14);
  // proportional: floor(p head_dim / 2) pairs; 64 * 0.3 / 2 = 9.6 -> 9.
  CHECK(rope::rotated_pairs(64, 0.3, RotaryStyle::proportional) == 9);
  CHECK(rope::rotated_pairs(80, 0.4, RotaryStyle::proportional) == 16);
  // Phi-2 under neox: theta over the 32 rotated dimensions.
  const auto phi2 = rope::partial_frequencies(80, 10000.0, 0.4, RotaryStyle::neox).value();
  REQUIRE(phi2.size() == 40);
  CHECK(phi2[15] == std::pow(10000.0, -30.0 / 32.0));
  CHECK(phi2[16] == 0.0);
}

// --- Identities over seeded random (head_dim, base) --------------------------------------------

TEST_CASE("partial rotary: p = 1 gives rope::frequencies under both meanings", "[partial_rotary]") {
  const int index = GENERATE(range(0, 12));
  const auto c = rope_test::random_case(index, 4096);
  CAPTURE(c.dim, c.base);
  const auto full = rope::frequencies(c.dim, c.base).value();
  CHECK(rope::partial_frequencies(c.dim, c.base, 1.0, RotaryStyle::neox).value() == full);
  CHECK(rope::partial_frequencies(c.dim, c.base, 1.0, RotaryStyle::proportional).value() == full);
  CHECK(rope::rotated_pairs(c.dim, 1.0, RotaryStyle::neox) == c.dim / 2);
}

TEST_CASE(
    "partial rotary: neox is the full frequency list of the reduced head, proportional a "
    "prefix of the full head's",
    "[partial_rotary]") {
  const int index = GENERATE(range(0, 12));
  const auto c = rope_test::random_case(index, 512);
  rope::SplitMix64 rng(rope_test::seed(300 + index));
  const double p = rng.uniform(0.05, 1.0);
  CAPTURE(c.dim, c.base, p);
  const auto rotary_dim = static_cast<int>(c.dim * p);
  const auto neox = rope::partial_frequencies(c.dim, c.base, p, RotaryStyle::neox);
  if (rotary_dim >= 2 && rotary_dim % 2 == 0) {
    REQUIRE(neox.ok());
    const auto reduced = rope::frequencies(rotary_dim, c.base).value();
    for (std::size_t i = 0; i < neox.value().size(); ++i)
      CHECK(neox.value()[i] == (i < reduced.size() ? reduced[i] : 0.0));
  } else {
    CHECK(neox.error().parameter == "rotary_fraction");
  }
  const auto prop = rope::partial_frequencies(c.dim, c.base, p, RotaryStyle::proportional);
  const int pairs = static_cast<int>(std::floor(p * c.dim / 2));
  if (pairs >= 1) {
    REQUIRE(prop.ok());
    CHECK(rope::rotated_pairs(c.dim, p, RotaryStyle::proportional) == pairs);
    const auto full = rope::frequencies(c.dim, c.base).value();
    for (std::size_t i = 0; i < full.size(); ++i)
      CHECK(prop.value()[i] == (i < static_cast<std::size_t>(pairs) ? full[i] : 0.0));
  } else {
    CHECK(prop.error().parameter == "rotary_fraction");
  }
}

// --- Bad input ------------------------------------------------------------------------------

TEST_CASE("partial rotary: bad input names the parameter", "[partial_rotary][errors]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const auto style : {RotaryStyle::neox, RotaryStyle::proportional}) {
    CHECK(rope::partial_frequencies(127, 10000.0, 0.5, style).error().parameter == "dim");
    CHECK(rope::partial_frequencies(128, 1.0, 0.5, style).error().parameter == "base");
    for (const double p : {0.0, -0.25, 1.0000001, nan, std::numeric_limits<double>::infinity()}) {
      CAPTURE(p);
      const auto r = rope::partial_frequencies(128, 10000.0, p, style);
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().parameter == "rotary_fraction");
      CHECK(rope::rotated_pairs(128, p, style) == 0);
    }
  }
  CHECK(rope::partial_frequencies(128, 10000.0, 1.5, RotaryStyle::neox).error().to_string() ==
        "rotary_fraction: must be a number greater than 0 and at most 1 for a partial rotary "
        "head (0, no rotation at all, is p-RoPE's NoPE: scaling proportional), got 1.5");
  // neox needs an even rotary_dim of at least 2: 128 * 0.2 = 25.6 -> 25 is odd; 128 * 0.01 ->
  // 1.28 -> 1.
  CHECK(rope::partial_frequencies(128, 10000.0, 0.2, RotaryStyle::neox).error().to_string() ==
        "rotary_fraction: must give an even number of at least 2 rotated dimensions under neox, "
        "got int(128 x 0.2) = 25");
  CHECK(rope::validate_partial_rotary(128, 0.01, RotaryStyle::neox).error().message ==
        "must give an even number of at least 2 rotated dimensions under neox, got int(128 x "
        "0.01) = 1");
  CHECK(rope::rotated_pairs(128, 0.2, RotaryStyle::neox) == 0);
  // The same fractions are fine under proportional (floor(25.6 / 2) = 12 pairs) until nothing
  // rotates (floor(1.28 / 2) = 0).
  CHECK(rope::rotated_pairs(128, 0.2, RotaryStyle::proportional) == 12);
  CHECK(rope::validate_partial_rotary(128, 0.01, RotaryStyle::proportional).error().to_string() ==
        "rotary_fraction: must leave at least one rotated pair under proportional (floor(dim x "
        "rotary_fraction / 2) >= 1), got int(128 x 0.01) = 1");
}
