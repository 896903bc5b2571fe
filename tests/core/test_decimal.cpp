// rope/decimal.h against the standard library of the desktop build (libstdc++'s to_chars and
// from_chars, which follow printf in the C locale): the text of every number shown or written
// must be the same in the browser build, whose digits come from {fmt} and fast_float.
#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "rope/decimal.h"

namespace {

using rope::Notation;

template <class... Format>
std::string std_chars(double v, Format... format) {
  char buf[1200];  // a fixed-point double has at most 309 integer and 1074 fraction digits
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, format...);
  REQUIRE(ec == std::errc());
  return std::string(buf, end);
}

// Every notation, shortest and with the precisions the app asks for, as std::to_chars.
void check_as_std(double v) {
  INFO(std_chars(v, std::chars_format::general, 17));
  CHECK(rope::shortest(v) == std_chars(v));
  CHECK(rope::shortest(v, Notation::fixed) == std_chars(v, std::chars_format::fixed));
  CHECK(rope::shortest(v, Notation::scientific) == std_chars(v, std::chars_format::scientific));
  for (int p : {0, 1, 3, 4, 5, 6, 10, 16, 17}) {
    CHECK(rope::with_precision(v, Notation::general, p) ==
          std_chars(v, std::chars_format::general, p));
    CHECK(rope::with_precision(v, Notation::scientific, p) ==
          std_chars(v, std::chars_format::scientific, p));
    if (std::fabs(v) < 1e20)
      CHECK(rope::with_precision(v, Notation::fixed, p) ==
            std_chars(v, std::chars_format::fixed, p));
  }
  std::string out = "x";
  rope::append_exact(out, v);
  CHECK(out == "x" + std_chars(v, std::chars_format::general, 17));
}

void check_parse_as_std(const std::string& text) {
  INFO(text);
  double ours = 7.0, theirs = 7.0;
  const auto a = rope::parse_double(text, ours);
  const auto b = std::from_chars(text.data(), text.data() + text.size(), theirs);
  CHECK(a.ec == b.ec);
  CHECK(a.ptr == b.ptr);
  CHECK((ours == theirs || (std::isnan(ours) && std::isnan(theirs))));
}

}  // namespace

TEST_CASE("decimal: special values as to_chars writes them", "[decimal]") {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (double v : {0.0,
                   -0.0,
                   0.1,
                   -0.1,
                   1e-7,
                   1e-4,
                   9.999999999999999e-5,
                   1e15,
                   1e16,
                   1e21,
                   1e22,
                   123456789012345678.0,
                   -1234.5,
                   2.5,
                   0.5,
                   100.0,
                   1.0 / 3.0,
                   kInf,
                   -kInf,
                   std::nan(""),
                   std::numeric_limits<double>::denorm_min(),
                   std::numeric_limits<double>::min(),
                   std::numeric_limits<double>::max(),
                   static_cast<double>(std::numeric_limits<float>::max())})
    check_as_std(v);
  CHECK(rope::shortest(0.1) == "0.1");
  CHECK(rope::shortest(1e-7, Notation::scientific) == "1e-07");
  CHECK(rope::with_precision(0.1, Notation::general, 17) == "0.10000000000000001");
}

TEST_CASE("decimal: random doubles and floats give the text to_chars gives", "[decimal]") {
  std::mt19937_64 rng(25);
  for (int i = 0; i < 20000; ++i) {
    double bits_value = 0.0;
    const std::uint64_t bits = rng();
    std::memcpy(&bits_value, &bits, sizeof bits_value);
    check_as_std(bits_value);  // every magnitude, NaNs and subnormals included
    const double scaled =
        std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(rng() % 90) - 113);
    check_as_std(scaled);                                           // around 1e-18 ... 1e11
    check_as_std(static_cast<double>(static_cast<float>(scaled)));  // a float, as the views' data
    check_as_std(std::round(scaled * 1000.0) / 1000.0);  // short decimals, as typed values
  }
}

TEST_CASE("decimal: parse_double reads what from_chars reads", "[decimal]") {
  for (const char* text : {"0",
                           "-0",
                           "0.1",
                           "1e400",
                           "-1e400",
                           "1e-400",
                           "inf",
                           "-inf",
                           "nan",
                           "+1",
                           " 1",
                           "1.5e3x",
                           "abc",
                           "",
                           "0x10",
                           ".5",
                           "5.",
                           "1e",
                           "1e+",
                           "2.2250738585072014e-308",
                           "1.7976931348623157e308"})
    check_parse_as_std(text);
  std::mt19937_64 rng(52);
  for (int i = 0; i < 20000; ++i) {
    double v = 0.0;
    const std::uint64_t bits = rng();
    std::memcpy(&v, &bits, sizeof v);
    check_parse_as_std(rope::shortest(v));
    check_parse_as_std(rope::with_precision(v, Notation::general, 17));
  }
}
