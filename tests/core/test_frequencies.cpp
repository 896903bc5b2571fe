// Tests for rope/frequencies.h: theta_i = base^(-2i/d), wavelengths, validators.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "rope/frequencies.h"
#include "test_support.h"

using Catch::Matchers::WithinRel;

namespace {
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

// --- Exact small cases ----------------------------------------------------------------------

TEST_CASE("frequencies: d = 4, base 100 gives {1, 0.1}", "[frequencies]") {
  const auto th = rope::frequencies(4, 100.0);
  REQUIRE(th.ok());
  REQUIRE(th.value().size() == 2);
  CHECK(th.value()[0] == 1.0);
  CHECK_THAT(th.value()[1], WithinRel(0.1, 1e-15));
}

TEST_CASE("frequencies: d = 2 has the single frequency 1", "[frequencies]") {
  const auto th = rope::frequencies(2, 10000.0);
  REQUIRE(th.ok());
  REQUIRE(th.value().size() == 1);
  CHECK(th.value()[0] == 1.0);
}

TEST_CASE("frequencies: theta_32 for d = 128, base 10000 is 10000^-0.5 = 0.01", "[frequencies]") {
  CHECK_THAT(rope::theta(32, 128, 10000.0), WithinRel(0.01, 1e-15));
}

TEST_CASE("frequencies: wavelength", "[frequencies]") {
  CHECK_THAT(rope::wavelength(1.0), WithinRel(rope::kTwoPi, 1e-15));
  CHECK_THAT(rope::wavelength(0.5), WithinRel(2.0 * rope::kTwoPi, 1e-15));
  CHECK(rope::wavelength(0.0) == kInf);
  CHECK(std::isnan(rope::wavelength(-1.0)));
  CHECK(std::isnan(rope::wavelength(kNan)));
}

TEST_CASE("frequencies: validators accept the boundaries", "[frequencies]") {
  CHECK(rope::validate_dim(2).ok());
  CHECK(rope::validate_dim(4096).ok());
  CHECK(rope::validate_base(1.0000001).ok());
  CHECK(rope::validate_base(1e300).ok());
  CHECK(rope::validate_position(-1e9).ok());
  CHECK(rope::validate_count(1, 4096, "positions").ok());
  CHECK(rope::validate_count(4096, 4096, "positions").ok());
}

TEST_CASE("frequencies: error messages name the parameter, the range and the value",
          "[frequencies][errors]") {
  auto s = rope::validate_dim(7);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().parameter == "dim");
  CHECK(s.error().message == "must be an even integer from 2 to 4096, got 7");
  CHECK(s.error().to_string() == "dim: must be an even integer from 2 to 4096, got 7");

  s = rope::validate_base(kNan);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().parameter == "base");
  CHECK(s.error().message == "must be a finite number greater than 1, got nan");
  CHECK(rope::validate_base(kInf).error().message ==
        "must be a finite number greater than 1, got inf");
  CHECK(rope::validate_base(0.5).error().message ==
        "must be a finite number greater than 1, got 0.5");

  s = rope::validate_position(-kInf, "key_position");
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().parameter == "key_position");
  CHECK(s.error().message == "must be a finite number, got -inf");
  CHECK(rope::validate_position(kNan).error().parameter == "position");

  s = rope::validate_count(0, 4096, "positions");
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().parameter == "positions");
  CHECK(s.error().message == "must be an integer from 1 to 4096, got 0");
}

// --- Identities over seeded random (d, base) -------------------------------------------------

TEST_CASE("frequencies: geometric sequence from 1 down to base^(-(d-2)/d)", "[frequencies]") {
  const int index = GENERATE(range(0, 40));
  const auto c = rope_test::random_case(index, 4096);
  CAPTURE(c.dim, c.base);
  const auto th = rope::frequencies(c.dim, c.base);
  REQUIRE(th.ok());
  const auto& t = th.value();
  REQUIRE(t.size() == static_cast<std::size_t>(c.dim / 2));
  CHECK(t[0] == 1.0);  // theta_0 = base^0
  const double ratio = std::pow(c.base, 2.0 / c.dim);
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    CHECK(t[i + 1] < t[i]);                                // strictly decreasing
    CHECK_THAT(t[i] / t[i + 1], WithinRel(ratio, 1e-12));  // theta_i / theta_{i+1} = base^(2/d)
    CHECK_THAT(rope::wavelength(t[i]) * t[i],
               WithinRel(rope::kTwoPi, 1e-15));  // lambda theta = 2 pi
  }
  // theta_{d/2-1} = base^(-(d-2)/d)
  CHECK_THAT(t.back(), WithinRel(std::pow(c.base, -(c.dim - 2.0) / c.dim), 1e-12));
}

// --- Reference values (mpmath, 40 digits) -----------------------------------------------------

TEST_CASE("frequencies: reference values", "[frequencies][reference]") {
  const auto t128 = rope::frequencies(128, 10000.0).value();
  // 10000^(-1/64) = 0.86596432336006535235...
  CHECK_THAT(t128[1], WithinRel(0.86596432336006535235, 1e-14));
  // 10000^(-126/128) = 1.1547819846894581797e-4; its wavelength 54410.143130776749744 positions
  CHECK_THAT(t128[63], WithinRel(1.1547819846894581797e-4, 1e-14));
  CHECK_THAT(rope::wavelength(t128[63]), WithinRel(54410.143130776749744, 1e-14));
  // d = 64, base 500000: theta_5 = 500000^(-10/64) = 0.12868737343265051483...
  CHECK_THAT(rope::frequencies(64, 500000.0).value()[5], WithinRel(0.12868737343265051483, 1e-14));
}

// --- Bad input --------------------------------------------------------------------------------

TEST_CASE("frequencies: invalid dim is an error on \"dim\"", "[frequencies][errors]") {
  const std::int64_t dim =
      GENERATE(std::int64_t{7}, std::int64_t{0}, std::int64_t{-2}, std::int64_t{1},
               std::int64_t{4098}, std::int64_t{1} << 40, std::numeric_limits<std::int64_t>::min(),
               std::numeric_limits<std::int64_t>::max());
  CAPTURE(dim);
  const auto th = rope::frequencies(dim, 10000.0);
  REQUIRE_FALSE(th.ok());
  CHECK(th.error().parameter == "dim");
  CHECK(th.error().message.find("got " + std::to_string(dim)) != std::string::npos);
}

TEST_CASE("frequencies: invalid base is an error on \"base\"", "[frequencies][errors]") {
  const double base =
      GENERATE(1.0, 0.5, 0.0, -10.0, kNan, kInf, -kInf, std::numeric_limits<double>::denorm_min());
  CAPTURE(base);
  const auto th = rope::frequencies(128, base);
  REQUIRE_FALSE(th.ok());
  CHECK(th.error().parameter == "base");
}

TEST_CASE("frequencies: dim is checked before base", "[frequencies][errors]") {
  CHECK(rope::frequencies(3, kNan).error().parameter == "dim");
}
