// io/number_format.h: every style on exact small cases worked out by hand, the csv and plain
// styles against printf over seeded random doubles, and the round trips the exact styles promise.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "io/number_format.h"
#include "rope/conventions.h"

using namespace rope::app;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string printf_g(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// The tooltip style back to a double: U+2212 -> '-', "a·10ⁿ" -> "aen".
double read_tooltip(std::string s) {
  const std::string minus = "−", times_ten = "·10", super_minus = "⁻";
  const char* kSuper[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  if (s.rfind(minus, 0) == 0) s = "-" + s.substr(minus.size());
  if (const auto p = s.find(times_ten); p != std::string::npos) {
    std::string exponent = s.substr(p + times_ten.size()), e = "e";
    if (exponent.rfind(super_minus, 0) == 0) {
      e += '-';
      exponent = exponent.substr(super_minus.size());
    }
    while (!exponent.empty()) {
      int digit = -1;
      for (int k = 0; k < 10; ++k)
        if (exponent.rfind(kSuper[k], 0) == 0) digit = k;
      REQUIRE(digit >= 0);
      e += static_cast<char>('0' + digit);
      exponent = exponent.substr(std::string(kSuper[digit]).size());
    }
    s = s.substr(0, p) + e;
  }
  return std::strtod(s.c_str(), nullptr);
}

// Significant digits of a tooltip text: its digits before "·10" without leading zeros, and
// without the trailing zeros of a whole number ("25000000" has 2).
int significant_digits(const std::string& s) {
  std::string digits;
  for (char c : s.substr(0, s.find("·10")))
    if (c >= '0' && c <= '9') digits += c;
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  digits = digits.substr(first);
  if (s.find('.') == std::string::npos)
    while (digits.size() > 1 && digits.back() == '0')
      digits.pop_back();
  return static_cast<int>(digits.size());
}

}  // namespace

TEST_CASE("csv: exactly printf %.17g", "[number_format]") {
  // whole numbers plainly, trailing zeros dropped, exponent form far out
  CHECK(format_number(0.0, NumberStyle::csv) == "0");
  CHECK(format_number(-0.0, NumberStyle::csv) == "-0");
  CHECK(format_number(12.0, NumberStyle::csv) == "12");
  CHECK(format_number(0.01, NumberStyle::csv) == "0.01");
  CHECK(format_number(0.1, NumberStyle::csv) == "0.10000000000000001");
  CHECK(format_number(-1234.5, NumberStyle::csv) == "-1234.5");
  CHECK(format_number(1e20, NumberStyle::csv) == "1e+20");
  CHECK(format_number(1e15, NumberStyle::csv) == "1000000000000000");
  CHECK(format_number(rope::kTwoPi, NumberStyle::csv) == "6.2831853071795862");
  CHECK(format_number(kInf, NumberStyle::csv) == "inf");
  CHECK(format_number(-kInf, NumberStyle::csv) == "-inf");
  CHECK(format_number(std::nan(""), NumberStyle::csv) == "nan");
  // digits do not change the csv style
  CHECK(format_number(0.1, NumberStyle::csv, 3) == "0.10000000000000001");
  std::string row = "x,";
  append_number(row, 0.5, NumberStyle::csv);
  CHECK(row == "x,0.5");

  // identity over seeded random doubles of every magnitude: to_chars(general, 17) == %.17g
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-320, 300);
  for (int i = 0; i < 20000; ++i) {
    const double v = std::ldexp(mantissa(rng), exponent(rng));
    INFO(printf_g(v, 17));
    CHECK(format_number(v, NumberStyle::csv) == printf_g(v, 17));
  }
  for (double v : {std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
                   std::numeric_limits<double>::min(), 123456789012345678.0, 1e16, 1e17})
    CHECK(format_number(v, NumberStyle::csv) == printf_g(v, 17));
}

TEST_CASE("csv: reads back as the same double, for every bit pattern", "[number_format]") {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    double v = 0.0;
    const std::uint64_t bits = rng();
    std::memcpy(&v, &bits, sizeof v);
    if (!std::isfinite(v)) continue;
    CHECK(std::strtod(format_number(v, NumberStyle::csv).c_str(), nullptr) == v);
  }
}

TEST_CASE("tooltip: the shortest exact text, fixed point for moderate magnitudes",
          "[number_format]") {
  CHECK(format_number(0.1, NumberStyle::tooltip) == "0.1");
  CHECK(format_number(0.1 + 0.2, NumberStyle::tooltip) == "0.30000000000000004");
  CHECK(format_number(1.0 / 3.0, NumberStyle::tooltip) == "0.3333333333333333");
  CHECK(format_number(rope::kTwoPi, NumberStyle::tooltip) == "6.283185307179586");
  CHECK(format_number(-1234.5, NumberStyle::tooltip) == "−1234.5");
  CHECK(format_number(10000.0, NumberStyle::tooltip) == "10000");
  CHECK(format_number(25e6, NumberStyle::tooltip) == "25000000");
  CHECK(format_number(0.00012345678, NumberStyle::tooltip) == "0.00012345678");
  CHECK(format_number(1e-4, NumberStyle::tooltip) == "0.0001");
  CHECK(format_number(1e-7, NumberStyle::tooltip) == "1·10⁻⁷");
  CHECK(format_number(1.5e-7, NumberStyle::tooltip) == "1.5·10⁻⁷");
  CHECK(format_number(-1e-9, NumberStyle::tooltip) == "−1·10⁻⁹");
  CHECK(format_number(1e15, NumberStyle::tooltip) == "1·10¹⁵");
  CHECK(format_number(0.0, NumberStyle::tooltip) == "0");
  CHECK(format_number(-0.0, NumberStyle::tooltip) == "0");
  CHECK(format_number(kInf, NumberStyle::tooltip) == "∞");
  CHECK(format_number(-kInf, NumberStyle::tooltip) == "−∞");
  CHECK(format_number(std::nan(""), NumberStyle::tooltip) == "NaN");

  // exact: reads back as the same double; shortest: no printf precision with fewer significant
  // digits reads back as v
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-80, 80);
  for (int i = 0; i < 20000; ++i) {
    const double v = std::ldexp(mantissa(rng), exponent(rng));
    const std::string t = format_number(v, NumberStyle::tooltip);
    INFO(printf_g(v, 17) << " -> " << t);
    CHECK(read_tooltip(t) == v);
    int shortest = 1;
    while (std::strtod(printf_g(v, shortest).c_str(), nullptr) != v)
      ++shortest;
    CHECK(significant_digits(t) == shortest);
  }
}

TEST_CASE("label: a few significant digits, U+2212 and powers of ten", "[number_format]") {
  CHECK(format_number(0.1, NumberStyle::label) == "0.1");
  CHECK(format_number(rope::kTwoPi, NumberStyle::label) == "6.283");
  CHECK(format_number(rope::kTwoPi, NumberStyle::label, 3) == "6.28");
  CHECK(format_number(rope::kTwoPi, NumberStyle::label, 9) == "6.28318531");
  CHECK(format_number(-1234.5, NumberStyle::label) == "−1234");  // round half to even
  CHECK(format_number(-1234.5, NumberStyle::label, 6) == "−1234.5");
  CHECK(format_number(10000.0, NumberStyle::label) == "1·10⁴");  // 4 digits: %g's exponent form
  CHECK(format_number(10000.0, NumberStyle::label, 6) == "10000");
  CHECK(format_number(25e6, NumberStyle::label) == "2.500·10⁷");   // |v| >= 1e7: a·10ⁿ
  CHECK(format_number(1e-5, NumberStyle::label) == "1.000·10⁻⁵");  // |v| < 1e-4: a·10ⁿ
  CHECK(format_number(-1e-9, NumberStyle::label, 3) == "−1.00·10⁻⁹");
  CHECK(format_number(0.00012345678, NumberStyle::label) == "0.0001235");
  CHECK(format_number(-0.00001, NumberStyle::label, 1) == "−1·10⁻⁵");
  CHECK(format_number(-0.0, NumberStyle::label) == "0");
  CHECK(format_number(-1e-300, NumberStyle::label) == "−1.000·10⁻³⁰⁰");
  CHECK(format_number(kInf, NumberStyle::label) == "∞");
  CHECK(format_number(-kInf, NumberStyle::label) == "−∞");
  CHECK(format_number(std::nan(""), NumberStyle::label) == "NaN");
  // digits out of range are clamped to 1 ... 17
  CHECK(format_number(rope::kTwoPi, NumberStyle::label, -3) == "6");
  CHECK(format_number(rope::kTwoPi, NumberStyle::label, 40) == "6.2831853071795862");
}

TEST_CASE("tick and log_tick: grouped whole numbers and decades", "[number_format]") {
  CHECK(format_number(10000.0, NumberStyle::tick) == "10 000");  // U+2009 thin space
  CHECK(format_number(1234.0, NumberStyle::tick) == "1234");     // four digits stay whole
  CHECK(format_number(-123456789.0, NumberStyle::tick) == "−123 456 789");
  CHECK(format_number(0.25, NumberStyle::tick) == "0.25");
  CHECK(format_number(-1234.5, NumberStyle::tick) == "−1234");
  CHECK(format_number(1e15, NumberStyle::tick) == "1.000·10¹⁵");  // beyond whole numbers
  CHECK(format_number(1e6, NumberStyle::tick) == "1 000 000");
  CHECK(format_number(1e6, NumberStyle::log_tick) == "10⁶");
  CHECK(format_number(1e-5, NumberStyle::log_tick) == "10⁻⁵");
  CHECK(format_number(1e4, NumberStyle::log_tick) == "10 000");  // |n| < 5: as a tick
  CHECK(format_number(2e6, NumberStyle::log_tick) == "2 000 000");
  CHECK(format_number(-1e6, NumberStyle::log_tick) == "−1 000 000");
  CHECK(format_number(kInf, NumberStyle::tick) == "∞");
  CHECK(format_number(std::nan(""), NumberStyle::log_tick) == "NaN");
}

TEST_CASE("tex: grouped integers and a \\times 10^{n}", "[number_format]") {
  CHECK(format_number(10000.0, NumberStyle::tex) == "10\\,000");
  CHECK(format_number(1234.0, NumberStyle::tex) == "1234");
  CHECK(format_number(-1234567.0, NumberStyle::tex) == "-1\\,234\\,567");
  CHECK(format_number(1e9, NumberStyle::tex) == "10^{9}");  // integers from 1e9 on: a power
  CHECK(format_number(1.5e-7, NumberStyle::tex) == "1.5 \\times 10^{-7}");
  CHECK(format_number(1e-5, NumberStyle::tex) == "10^{-5}");
  CHECK(format_number(-0.25, NumberStyle::tex) == "-0.25");
  CHECK(format_number(rope::kTwoPi, NumberStyle::tex) == "6.2832");
  CHECK(format_number(rope::kTwoPi, NumberStyle::tex, 3) == "6.28");
  CHECK(format_number(-0.0, NumberStyle::tex) == "0");
  CHECK(format_number(std::nan(""), NumberStyle::tex) == "\\text{NaN}");
  CHECK(format_number(kInf, NumberStyle::tex) == "\\text{NaN}");
}

TEST_CASE("plain: printf %.<digits>g, for file names and terminal messages", "[number_format]") {
  CHECK(format_number(10000.0, NumberStyle::plain) == "10000");
  CHECK(format_number(1e6, NumberStyle::plain) == "1e+06");
  CHECK(format_number(rope::kTwoPi, NumberStyle::plain) == "6.28319");
  CHECK(format_number(rope::kTwoPi, NumberStyle::plain, 10) == "6.283185307");
  CHECK(format_number(-1.5e-7, NumberStyle::plain) == "-1.5e-07");
  CHECK(format_number(kInf, NumberStyle::plain) == "inf");
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-100, 100);
  for (int i = 0; i < 5000; ++i) {
    const double v = std::ldexp(mantissa(rng), exponent(rng));
    for (int digits : {6, 10}) {
      INFO(printf_g(v, 17) << " digits " << digits);
      CHECK(format_number(v, NumberStyle::plain, digits) == printf_g(v, digits));
    }
  }
}

TEST_CASE("digits asked for: significant or fixed, trailing zeros kept", "[number_format]") {
  const Digits five = Digits::significant(5), three = Digits::fixed(3);
  // 10000^(-3/32) = 10^(-0.375) = 0.42169650...: five digits keep the trailing zero
  const double theta = std::pow(10.0, -0.375);
  CHECK(format_number(theta, NumberStyle::tex, five) == "0.42170");
  CHECK(format_number(theta, NumberStyle::label, five) == "0.42170");
  CHECK(format_number(theta, NumberStyle::plain, five) == "0.42170");
  CHECK(format_number(theta, NumberStyle::tex) == "0.4217");  // the default drops it
  CHECK(format_number(theta, NumberStyle::tex, three) == "0.422");
  CHECK(format_number(-theta, NumberStyle::tex, three) == "-0.422");
  CHECK(format_number(-theta, NumberStyle::label, three) == "−0.422");
  // the %g rule: fixed point for -4 <= exponent < N, after rounding
  CHECK(format_number(9.99996, NumberStyle::tex, five) == "10.000");
  CHECK(format_number(12345.678, NumberStyle::tex, five) == "12346");
  CHECK(format_number(10000.0, NumberStyle::tex, Digits::significant(3)) == "1.00 \\times 10^{4}");
  CHECK(format_number(10000.0, NumberStyle::label, Digits::significant(3)) == "1.00·10⁴");
  CHECK(format_number(10000.0, NumberStyle::plain, Digits::significant(3)) == "1.00e+04");
  CHECK(format_number(3.16227766e-5, NumberStyle::tex, five) == "3.1623 \\times 10^{-5}");
  CHECK(format_number(3.16227766e-4, NumberStyle::tex, five) == "0.00031623");
  CHECK(format_number(0.0, NumberStyle::tex, five) == "0.0000");
  CHECK(format_number(2.0, NumberStyle::tex, Digits::significant(1)) == "2");
  // fixed: N digits after the point; a value that rounds to zero has no minus
  CHECK(format_number(10000.0, NumberStyle::tex, three) == "10000.000");
  CHECK(format_number(-1e-7, NumberStyle::tex, three) == "0.000");
  CHECK(format_number(-1e-7, NumberStyle::label, three) == "0.000");
  CHECK(format_number(2.5, NumberStyle::tex, Digits::fixed(0)) == "2");  // round half to even
  CHECK(format_number(-1.25e20, NumberStyle::tex, Digits::fixed(2)) == "-1.25 \\times 10^{20}");
  CHECK(format_number(0.1, NumberStyle::tex, Digits::fixed(17)) == "0.10000000000000001");
  // out-of-range counts are clamped; non-finite values keep the style's text
  CHECK(format_number(theta, NumberStyle::tex, Digits::significant(40)) ==
        format_number(theta, NumberStyle::tex, Digits::significant(17)));
  CHECK(format_number(std::nan(""), NumberStyle::tex, five) == "\\text{NaN}");
  CHECK(format_number(-std::numeric_limits<double>::infinity(), NumberStyle::label, five) == "−∞");
  // styles that take no digits ignore them; Kind::style is the style's default
  CHECK(format_number(0.1, NumberStyle::csv, five) == "0.10000000000000001");
  CHECK(format_number(theta, NumberStyle::label, Digits{}) ==
        format_number(theta, NumberStyle::label));
  // every significant count gives exactly that many digits (seeded values)
  std::uint64_t seed = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < 500; ++i) {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    const double v = std::ldexp(static_cast<double>(seed >> 11), -53) * std::pow(10.0, i % 9 - 4);
    const int n = 1 + i % 17;
    const std::string s = format_number(v, NumberStyle::plain, Digits::significant(n));
    INFO(v << " with " << n << " digits: " << s);
    std::string mantissa = s.substr(0, s.find('e'));
    mantissa.erase(std::remove(mantissa.begin(), mantissa.end(), '.'), mantissa.end());
    const auto first = mantissa.find_first_not_of('0');
    CHECK(mantissa.size() - (first == std::string::npos ? 0 : first) ==
          static_cast<std::size_t>(n));
    CHECK(std::strtod(s.c_str(), nullptr) == Approx(v).epsilon(std::pow(10.0, 1 - n)));
  }
}
