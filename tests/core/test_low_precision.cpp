// Tests for rope/low_precision.h: bit-exact fp16 / bf16 / fp32 rounding, the four cast points,
// emulated angles, the documented low-precision RoPE failures and the error sweeps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "rope/frequencies.h"
#include "rope/low_precision.h"
#include "rope/rotation.h"
#include "test_support.h"

using Catch::Matchers::WithinAbs;
using rope::FloatFormat;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

double p2(int e) {
  return std::ldexp(1.0, e);
}

rope::PrecisionFormats preset(const char* name) {
  const auto p = rope::parse_precision_preset(name);
  REQUIRE(p.has_value());
  return *p;
}

bool is_nan_pattern16(std::uint16_t bits, int mant_bits) {
  const unsigned exp_mask = (0x7FFFu >> mant_bits) << mant_bits;
  return (bits & exp_mask) == exp_mask && (bits & ((1u << mant_bits) - 1)) != 0;
}

// One 16-bit format seen through the public functions.
struct Format16 {
  const char* name;
  int mant_bits;
  std::uint16_t (*bits)(double);
  double (*value)(std::uint16_t);
  double overflow;  // the smallest magnitude that rounds to inf: max finite + half an ulp
};
const Format16 kFp16{"fp16", 10, [](double x) { return rope::fp16_bits(x); }, rope::fp16_value,
                     65520.0};
const Format16 kBf16{"bf16", 7, [](double x) { return rope::bf16_bits(x); }, rope::bf16_value,
                     (2.0 - p2(-8)) * p2(127)};

}  // namespace

// --- Exact small cases, worked out by hand -----------------------------------------------------

TEST_CASE("low precision: bf16 integers beyond 256 round to multiples of their ulp",
          "[low_precision]") {
  // 8 significant bits: in [256, 512) the step is 2, in [65536, 131072) it is 512.
  CHECK(rope::bf16_bits(256.0) == 0x4380);
  CHECK(rope::bf16_bits(257.0) == 0x4380);  // halfway 256 | 258: ties to the even 256
  CHECK(rope::bf16_value(0x4380) == 256.0);
  CHECK(rope::round_to(FloatFormat::bf16, 257.0) == 256.0);
  CHECK(rope::round_to(FloatFormat::bf16, 259.0) == 260.0);  // 258 | 260: 260 is even
  CHECK(rope::bf16_bits(100000.0) == 0x47C3);                // 195 * 512
  CHECK(rope::round_to(FloatFormat::bf16, 100000.0) == 99840.0);
  CHECK(rope::bf16_value(0x3F80) == 1.0);
}

TEST_CASE("low precision: fp16 integers, the largest finite value and overflow",
          "[low_precision]") {
  CHECK(rope::round_to(FloatFormat::fp16, 2048.0) == 2048.0);
  CHECK(rope::round_to(FloatFormat::fp16, 2049.0) == 2048.0);  // 2048 | 2050: 2048 is even
  CHECK(rope::round_to(FloatFormat::fp16, 2051.0) == 2052.0);  // 2050 | 2052: 2052 is even
  CHECK(rope::round_to(FloatFormat::fp16, 2050.0) == 2050.0);
  CHECK(rope::fp16_bits(65504.0) == 0x7BFF);
  CHECK(rope::fp16_bits(65519.0) == 0x7BFF);
  CHECK(rope::fp16_bits(std::nextafter(65520.0, 0.0)) == 0x7BFF);
  CHECK(rope::fp16_bits(65520.0) == 0x7C00);  // 65504 | 65536: 65536 is even, and is inf
  CHECK(rope::fp16_bits(-65520.0) == 0xFC00);
  CHECK(rope::fp16_bits(1e300) == 0x7C00);
  CHECK(rope::round_to(FloatFormat::fp16, 65519.0) == 65504.0);
  CHECK(rope::round_to(FloatFormat::fp16, 65520.0) == kInf);
  CHECK(rope::fp16_value(0x3C00) == 1.0);
  CHECK(rope::fp16_value(0x7BFF) == 65504.0);
  CHECK(rope::fp16_value(0xC000) == -2.0);
}

TEST_CASE("low precision: subnormals and their halfway points", "[low_precision]") {
  // fp16: smallest subnormal 2^-24, smallest normal 2^-14.
  CHECK(rope::fp16_bits(p2(-24)) == 0x0001);
  CHECK(rope::fp16_value(0x0001) == p2(-24));
  CHECK(rope::fp16_bits(p2(-25)) == 0x0000);  // halfway 0 | 2^-24: ties to 0
  CHECK(rope::fp16_bits(std::nextafter(p2(-25), 1.0)) == 0x0001);
  CHECK(rope::fp16_bits(3.0 * p2(-25)) == 0x0002);  // 1 | 2 (x 2^-24): ties to 2
  CHECK(rope::fp16_bits(-p2(-25)) == 0x8000);       // negative zero
  CHECK(rope::fp16_bits(p2(-14)) == 0x0400);
  CHECK(rope::fp16_value(0x03FF) == 1023.0 * p2(-24));
  CHECK(rope::fp16_bits(p2(-14) - p2(-25)) == 0x0400);  // 0x03FF | 0x0400: ties up, even
  // bf16: smallest subnormal 2^-133, smallest normal 2^-126.
  CHECK(rope::bf16_bits(p2(-133)) == 0x0001);
  CHECK(rope::bf16_value(0x0001) == p2(-133));
  CHECK(rope::bf16_bits(p2(-134)) == 0x0000);
  CHECK(rope::bf16_bits(std::nextafter(p2(-134), 1.0)) == 0x0001);
  CHECK(rope::bf16_bits(3.0 * p2(-134)) == 0x0002);
  CHECK(rope::bf16_bits(-p2(-134)) == 0x8000);
  CHECK(rope::bf16_bits(p2(-126)) == 0x0080);
  // Double subnormals are far below both formats' halfway points.
  CHECK(rope::bf16_bits(std::numeric_limits<double>::denorm_min()) == 0x0000);
  CHECK(rope::fp16_bits(-std::numeric_limits<double>::denorm_min()) == 0x8000);
  // bf16's largest finite value and its overflow threshold (the fp32 exponent range).
  CHECK(rope::bf16_value(0x7F7F) == (2.0 - p2(-7)) * p2(127));
  CHECK(rope::bf16_bits(std::nextafter(kBf16.overflow, 0.0)) == 0x7F7F);
  CHECK(rope::bf16_bits(kBf16.overflow) == 0x7F80);
}

TEST_CASE("low precision: zeros, infinities and NaN", "[low_precision]") {
  CHECK(rope::fp16_bits(0.0) == 0x0000);
  CHECK(rope::fp16_bits(-0.0) == 0x8000);
  CHECK(rope::bf16_bits(-0.0) == 0x8000);
  CHECK(std::signbit(rope::fp16_value(0x8000)));
  CHECK(rope::fp16_value(0x8000) == 0.0);
  CHECK(std::signbit(rope::round_to(FloatFormat::bf16, -1e-300)));
  CHECK(rope::fp16_bits(kInf) == 0x7C00);
  CHECK(rope::bf16_bits(-kInf) == 0xFF80);
  CHECK(rope::fp16_value(0xFC00) == -kInf);
  CHECK(rope::fp16_bits(kNan) == 0x7E00);
  CHECK(rope::fp16_bits(-kNan) == 0xFE00);
  CHECK(rope::bf16_bits(kNan) == 0x7FC0);
  CHECK(std::isnan(rope::fp16_value(0x7C01)));
  CHECK(std::isnan(rope::bf16_value(0xFF81)));
  for (const FloatFormat f : rope::kFloatFormats)
    CHECK(std::isnan(rope::round_to(f, kNan)));
  CHECK(rope::round_to(FloatFormat::fp32, -kInf) == -kInf);
}

TEST_CASE("low precision: rounding once from double, not through float", "[low_precision]") {
  // Just above a bf16 / fp16 halfway point by 2^-30: nearer to the upper value. Through float the
  // 2^-30 is lost, the value sits exactly on the halfway point and ties down to 1.
  const double above_bf16_tie = 1.0 + p2(-8) + p2(-30);
  CHECK(rope::bf16_bits(above_bf16_tie) == 0x3F81);  // 1 + 2^-7
  CHECK(rope::bf16_bits(static_cast<float>(above_bf16_tie)) == 0x3F80);
  const double above_fp16_tie = 1.0 + p2(-11) + p2(-30);
  CHECK(rope::fp16_bits(above_fp16_tie) == 0x3C01);  // 1 + 2^-10
  CHECK(rope::fp16_bits(static_cast<float>(above_fp16_tie)) == 0x3C00);
}

TEST_CASE("low precision: fp32 rounding at the top of its range", "[low_precision]") {
  const double max = static_cast<double>(std::numeric_limits<float>::max());
  const double overflow = (2.0 - p2(-24)) * p2(127);  // max + half an ulp
  CHECK(rope::round_to(FloatFormat::fp32, max) == max);
  CHECK(rope::round_to(FloatFormat::fp32, std::nextafter(overflow, 0.0)) == max);
  CHECK(rope::round_to(FloatFormat::fp32, overflow) == kInf);
  CHECK(rope::round_to(FloatFormat::fp32, -overflow) == -kInf);
  CHECK(rope::round_to(FloatFormat::fp32, 1e300) == kInf);
  CHECK(rope::fp32_bits(overflow) == 0x7F800000u);
  CHECK(rope::round_to(FloatFormat::fp32, 16777217.0) == 16777216.0);
  CHECK(rope::round_to(FloatFormat::fp64, 16777217.0) == 16777217.0);
}

TEST_CASE("low precision: format and preset names", "[low_precision]") {
  for (const FloatFormat f : rope::kFloatFormats)
    CHECK(rope::parse_format(rope::format_name(f)) == f);
  CHECK(rope::parse_format("bf16") == FloatFormat::bf16);
  CHECK_FALSE(rope::parse_format("FP16").has_value());
  CHECK_FALSE(rope::parse_format("fp8").has_value());
  CHECK_FALSE(rope::parse_format("").has_value());

  for (const char* name : rope::kPrecisionPresetNames) {
    const auto p = rope::parse_precision_preset(name);
    REQUIRE(p.has_value());
    CHECK(std::string(rope::preset_name(*p)) == name);
  }
  const auto fix = preset("fix");
  CHECK(fix == rope::PrecisionFormats{FloatFormat::fp32, FloatFormat::fp32, FloatFormat::fp32,
                                      FloatFormat::bf16});
  CHECK(preset("theta-bf16") == rope::PrecisionFormats{FloatFormat::fp32, FloatFormat::bf16,
                                                       FloatFormat::fp32, FloatFormat::fp32});
  CHECK(preset("exact").angle == FloatFormat::fp64);
  CHECK(preset("fp16").position == FloatFormat::fp16);
  CHECK(std::string(rope::preset_name({FloatFormat::fp16, FloatFormat::fp32, FloatFormat::fp32,
                                       FloatFormat::fp32})) == "custom");
  CHECK_FALSE(rope::parse_precision_preset("custom").has_value());
  CHECK_FALSE(rope::parse_precision_preset("BF16").has_value());
}

TEST_CASE("low precision: emulated frequencies", "[low_precision]") {
  const auto exact = rope::frequencies(32, 1e4).value();
  CHECK(rope::emulated_frequencies(32, 1e4, FloatFormat::fp64).value() == exact);
  const auto f32 = rope::emulated_frequencies(32, 1e4, FloatFormat::fp32).value();
  REQUIRE(f32.size() == 16);
  CHECK(f32[0] == 1.0);
  // 1 / fl32(10000^0.0625) = 1 / 1.778279423713684 -> fl32 = 0.5623413324356079 (Python struct).
  CHECK(f32[1] == 0.5623413324356079);
  CHECK(rope::emulated_frequencies(32, 1e4, FloatFormat::bf16).value()[1] == 0.5625);  // 144/256
  CHECK(rope::emulated_frequencies(32, 1e4, FloatFormat::fp16).value()[1] == 0.5625);
  // Each value is representable in its format and within half an ulp of the exact theta
  // (plus the fp32 steps' error for the low formats).
  for (const FloatFormat f : rope::kFloatFormats) {
    const auto th = rope::emulated_frequencies(128, 5e5, f).value();
    const auto ex = rope::frequencies(128, 5e5).value();
    for (std::size_t i = 0; i < th.size(); ++i) {
      CAPTURE(rope::format_name(f), i);
      CHECK(rope::round_to(f, th[i]) == th[i]);
      const double rel = f == FloatFormat::fp16   ? p2(-10)
                         : f == FloatFormat::bf16 ? p2(-7)
                                                  : p2(-21);
      // fp16 subnormals (below 2^-14) have an absolute, not relative, step of 2^-24.
      CHECK(std::abs(th[i] - ex[i]) <= rel * ex[i] + (f == FloatFormat::fp16 ? p2(-25) : 0.0));
    }
  }
}

// --- Exhaustive and random checks ---------------------------------------------------------------

TEST_CASE("low precision: every 16-bit pattern survives value -> bits -> value",
          "[low_precision]") {
  for (const Format16& f : {kFp16, kBf16}) {
    CAPTURE(f.name);
    int nans = 0;
    for (std::uint32_t b = 0; b <= 0xFFFF; ++b) {
      const auto bits = static_cast<std::uint16_t>(b);
      const double v = f.value(bits);
      if (is_nan_pattern16(bits, f.mant_bits)) {
        ++nans;
        if (!std::isnan(v)) FAIL_CHECK("pattern " << b << " decoded to " << v);
        const std::uint16_t back = f.bits(v);
        if (!is_nan_pattern16(back, f.mant_bits) || (back >> 15) != (bits >> 15))
          FAIL_CHECK("NaN pattern " << b << " came back as " << back);
        continue;
      }
      if (f.bits(v) != bits) FAIL_CHECK("pattern " << b << " -> " << v << " -> " << f.bits(v));
      // Every value is a float, so the float overload gives the same bits.
      if (f.bits(static_cast<double>(static_cast<float>(v))) != bits)
        FAIL_CHECK("float route differs at " << b);
    }
    CHECK(nans == 2 * ((1 << f.mant_bits) - 1));
  }
}

TEST_CASE("low precision: decoding agrees with an independent reading of the bits",
          "[low_precision]") {
  for (std::uint32_t b = 0; b <= 0xFFFF; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    // bf16 is the top half of an fp32.
    const double from_float = static_cast<double>(std::bit_cast<float>(b << 16));
    const double v = rope::bf16_value(bits);
    if (std::isnan(from_float) != std::isnan(v) ||
        (!std::isnan(v) && (v != from_float || std::signbit(v) != std::signbit(from_float))))
      FAIL_CHECK("bf16 pattern " << b << ": " << v << " vs " << from_float);
    // fp16: (-1)^s 2^(e-15) (1 + m/1024), or 2^-14 (m/1024) when e = 0.
    const int s = static_cast<int>(b >> 15);
    const int e = static_cast<int>((b >> 10) & 31);
    const int m = static_cast<int>(b & 1023);
    if (e == 31) continue;
    const double mag =
        e == 0 ? std::pow(2.0, -14) * (m / 1024.0) : std::pow(2.0, e - 15) * (1.0 + m / 1024.0);
    const double h = rope::fp16_value(bits);
    if (h != (s ? -mag : mag) || std::signbit(h) != (s == 1))
      FAIL_CHECK("fp16 pattern " << b << ": " << h << " vs " << mag);
  }
  // Increasing bits, increasing values, over the positive finite range of each format.
  for (const Format16& f : {kFp16, kBf16}) {
    const std::uint16_t top = f.bits(kInf);
    for (std::uint16_t b = 0; b + 1 < top; ++b)
      if (!(f.value(b) < f.value(static_cast<std::uint16_t>(b + 1))))
        FAIL_CHECK(f.name << " not increasing at " << b);
  }
}

TEST_CASE("low precision: random doubles round to the nearest value, ties to even",
          "[low_precision]") {
  rope::SplitMix64 rng(rope_test::seed(1301));
  for (const Format16& f : {kFp16, kBf16}) {
    CAPTURE(f.name);
    // Exponents across subnormals, normals and overflow of each format.
    const int lo = f.mant_bits == 10 ? -27 : -136;
    const int hi = f.mant_bits == 10 ? 17 : 128;
    for (int n = 0; n < 100000; ++n) {
      const int e = lo + static_cast<int>(rng.next() % static_cast<std::uint64_t>(hi - lo + 1));
      double x = std::ldexp(1.0 + rng.uniform(), e);
      // One in four: exactly a halfway point of the format, or one double away from it.
      if (n % 4 == 0) {
        const std::uint16_t b = f.bits(x);
        const double a = f.value(b);
        const double c = f.value(static_cast<std::uint16_t>(b + 1));
        if (std::isfinite(c)) x = a + (c - a) / 2.0;
        if (n % 8 == 4) x = std::nextafter(x, (n % 16 == 4) ? 0.0 : kInf);
      }
      if (rng.next() % 2 == 1) x = -x;
      const std::uint16_t b = f.bits(x);
      const double v = f.value(b);
      const double ax = std::abs(x);
      if (ax >= f.overflow) {
        if (v != std::copysign(kInf, x)) FAIL_CHECK("expected inf for " << x << ", got " << v);
        continue;
      }
      REQUIRE(std::isfinite(v));
      if (std::signbit(v) != std::signbit(x)) FAIL_CHECK("sign lost for " << x);
      const auto mag = static_cast<std::uint16_t>(b & 0x7FFF);
      const double av = std::abs(v);
      const double up = f.value(static_cast<std::uint16_t>(mag + 1));  // may be inf: farther
      const double down = mag > 0 ? f.value(static_cast<std::uint16_t>(mag - 1)) : -kInf;
      const double dv = std::abs(ax - av);
      if (!(dv <= std::abs(up - ax) && dv <= std::abs(ax - down)))
        FAIL_CHECK("not nearest: " << x << " -> " << v);
      if ((dv == std::abs(up - ax) || dv == std::abs(ax - down)) && (mag & 1) != 0)
        FAIL_CHECK("tie not to even: " << x << " -> " << v);
    }
  }
}

TEST_CASE("low precision: the bit algorithm with p = 24 matches the float cast",
          "[low_precision]") {
  rope::SplitMix64 rng(rope_test::seed(1302));
  const double fmax = static_cast<double>(std::numeric_limits<float>::max());
  for (int n = 0; n < 100000; ++n) {
    const int e = -152 + static_cast<int>(rng.next() % 280);
    double x = std::ldexp(1.0 + rng.uniform(), e);
    if (n % 2 == 0) x = -x;
    if (std::abs(x) > fmax) continue;  // the cast would be undefined
    const auto cast = std::bit_cast<std::uint32_t>(static_cast<float>(x));
    if (rope::fp32_bits(x) != cast) FAIL_CHECK(x << ": " << rope::fp32_bits(x) << " vs " << cast);
  }
}

// --- The documented cases ----------------------------------------------------------------------

TEST_CASE("low precision: GPT-NeoX #1003, d = 32, base 1e4, position 1857, pair 1",
          "[low_precision][reference]") {
  const auto f32 = rope::emulate_angle(1857, 1, 32, 1e4, preset("fp32"));
  const auto f16 = rope::emulate_angle(1857, 1, 32, 1e4, preset("fp16"));
  REQUIRE(f32.ok());
  REQUIRE(f16.ok());
  CHECK(f32.value().angle == 1044.267822265625);  // printed by torch as 1044.2678
  CHECK(f16.value().angle == 1045.0);             // 1857 * 0.5625 = 1044.5625 -> 1045
  CHECK(f16.value().theta == 0.5625);
  // 1857 * 10000^(-1/16) = 1044.2678408784782423 (40-digit decimal arithmetic).
  CHECK_THAT(f32.value().exact_angle, WithinAbs(1044.2678408784782423, 1e-9));
  CHECK_THAT(f16.value().wrapped_error, WithinAbs(1045.0 - 1044.2678408784782423, 1e-9));
  // The table: positions 0 ... 2047, all 16 pairs; the largest |cos(fp16) - cos(fp32)|
  // it printed was 0.7819 (torch evaluates cos in fp32 and rounds, as emulated here). Emulated:
  // 0.781864 at position 2008, pair 1.
  double worst = 0.0;
  for (int m = 0; m < 2048; ++m) {
    const auto a = rope::emulate_angles(m, 32, 1e4, preset("fp32")).value();
    const auto h = rope::emulate_angles(m, 32, 1e4, preset("fp16")).value();
    for (std::size_t i = 0; i < a.size(); ++i)
      worst = std::max(worst, std::abs(h[i].cos - a[i].cos));
  }
  CHECK_THAT(worst, WithinAbs(0.7819, 5e-5));
}

TEST_CASE("low precision: bf16 cannot tell 256 from 257 (GPT-NeoX PR #1016)",
          "[low_precision][reference]") {
  CHECK(rope::collapsed_positions(254, 8, FloatFormat::bf16).value() ==
        std::vector<double>{254, 255, 256, 256, 258, 260, 260, 260});
  CHECK(rope::collapsed_positions(2046, 6, FloatFormat::fp16).value() ==
        std::vector<double>{2046, 2047, 2048, 2048, 2050, 2052});
  const auto a = rope::emulate_angles(256, 64, 1e4, preset("bf16")).value();
  const auto b = rope::emulate_angles(257, 64, 1e4, preset("bf16")).value();
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(a[i].angle == b[i].angle);
    CHECK(a[i].cos == b[i].cos);
    CHECK(a[i].sin == b[i].sin);
  }
  // Pair 0 (theta = 1): the angle of 257 is 256, one radian behind.
  CHECK(b[0].wrapped_error == -1.0);
  // In fp32 the two positions differ in every pair whose angle moves by more than half an ulp.
  const auto c = rope::emulate_angles(257, 64, 1e4, preset("fp32")).value();
  CHECK(c[0].angle == 257.0);
  CHECK(c[0].wrapped_error == 0.0);
}

TEST_CASE("low precision: candle PR #3520, position 15962 in bf16", "[low_precision][reference]") {
  // In [8192, 16384) bf16 steps by 64: 15962 = 249.41 * 64 rounds to 249 * 64 = 15936 (round to
  // nearest; truncation gives the same). 15968 = 249.5 * 64 is no bf16 value: it is the halfway
  // point between 15936 and 16000 and itself ties to the even 250 * 64 = 16000.
  CHECK(rope::round_to(FloatFormat::bf16, 15962.0) == 15936.0);
  CHECK(rope::bf16_value(static_cast<std::uint16_t>(rope::bf16_bits(15962.0) + 1)) == 16000.0);
  CHECK(rope::round_to(FloatFormat::bf16, 15968.0) == 16000.0);
  const auto a = rope::emulate_angle(15962, 0, 128, 1e6, preset("bf16")).value();
  CHECK(a.position == 15936.0);
  CHECK(a.angle == 15936.0);
  CHECK(a.wrapped_error == -26.0 + 4.0 * rope::kTwoPi);  // -26 rad wrapped into (-pi, pi]
  // The fix keeps the position and the angle in fp32: pair 0 is exact.
  const auto fixed = rope::emulate_angle(15962, 0, 128, 1e6, preset("fix")).value();
  CHECK(fixed.angle == 15962.0);
  CHECK(fixed.cos == rope::round_to(FloatFormat::bf16, std::cos(15962.0)));
}

// --- Identities over seeded random settings ---------------------------------------------------

TEST_CASE("low precision: the exact preset has no error", "[low_precision]") {
  const int index = GENERATE(range(0, 10));
  const auto c = rope_test::random_case(index, 512, 1e6);
  CAPTURE(c.dim, c.base, c.m);
  const auto all = rope::emulate_angles(c.m, c.dim, c.base, preset("exact")).value();
  const auto th = rope::frequencies(c.dim, c.base).value();
  for (std::size_t i = 0; i < all.size(); ++i) {
    CHECK(all[i].angle == all[i].exact_angle);
    CHECK(all[i].exact_angle == c.m * th[i]);
    CHECK(all[i].wrapped_error == 0.0);
    CHECK(all[i].cos == std::cos(c.m * th[i]));
  }
}

TEST_CASE("low precision: rounding only the angle errs by at most half an ulp", "[low_precision]") {
  const int index = GENERATE(range(0, 10));
  const auto c = rope_test::random_case(index, 256, 1e7);
  CAPTURE(c.dim, c.base, c.m);
  for (const FloatFormat f : {FloatFormat::fp32, FloatFormat::bf16, FloatFormat::fp16}) {
    const rope::PrecisionFormats only_angle{FloatFormat::fp64, FloatFormat::fp64, f,
                                            FloatFormat::fp64};
    const int p = f == FloatFormat::fp32 ? 24 : f == FloatFormat::bf16 ? 8 : 11;
    const auto all = rope::emulate_angles(c.m, c.dim, c.base, only_angle).value();
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto& a = all[i];
      CAPTURE(rope::format_name(f), i, a.exact_angle, a.angle);
      if (!std::isfinite(a.angle)) {
        CHECK(std::abs(a.exact_angle) >= 65520.0);  // only fp16 overflows here
        CHECK(std::isnan(a.wrapped_error));
        CHECK(std::isnan(a.cos));
        continue;
      }
      const double x = std::abs(a.exact_angle);
      int e = 0;
      std::frexp(x, &e);  // x in [2^(e-1), 2^e)
      const double half_ulp = x == 0.0 ? 0.0 : std::ldexp(1.0, std::max(e - 1, -14) - p);
      CHECK(std::abs(a.angle - a.exact_angle) <= half_ulp);
      CHECK(std::abs(a.wrapped_error) <= std::abs(a.angle - a.exact_angle));
      CHECK(std::abs(a.wrapped_error) <= rope::kPi);
    }
  }
}

TEST_CASE("low precision: the sweeps give emulate_angle's errors", "[low_precision]") {
  const int index = GENERATE(range(0, 6));
  const auto c = rope_test::random_case(index, 256);
  const char* name = rope::kPrecisionPresetNames[static_cast<std::size_t>(index)];
  CAPTURE(c.dim, c.base, name);
  const auto f = preset(name);
  const auto positions = rope::log_spaced_positions(300, 1e6).value();
  const auto sweep = rope::sweep_angle_error(c.dim, c.base, f, positions).value();
  const auto per_pair = rope::pair_angle_errors(c.dim, c.base, f, positions).value();
  const auto half = static_cast<std::size_t>(c.dim / 2);
  REQUIRE(sweep.positions == positions);
  REQUIRE(per_pair.size() == positions.size() * half);
  for (std::size_t k = 0; k < positions.size(); ++k) {
    const auto all = rope::emulate_angles(positions[k], c.dim, c.base, f).value();
    double worst = 0.0;
    int at = 0;
    bool overflow = false;
    for (std::size_t i = 0; i < half; ++i) {
      const double e = all[i].wrapped_error;
      const float got = per_pair[k * half + i];
      if (std::isnan(e)) {
        overflow = true;
        if (!std::isnan(got)) FAIL_CHECK("pair " << i << " at " << positions[k]);
        continue;
      }
      if (got != static_cast<float>(e)) FAIL_CHECK("pair " << i << " at " << positions[k]);
      if (std::abs(e) > worst) {
        worst = std::abs(e);
        at = static_cast<int>(i);
      }
    }
    if (overflow) {
      if (!std::isnan(sweep.max_abs_error[k]) || sweep.worst_pair[k] != -1)
        FAIL_CHECK("overflow not marked at " << positions[k]);
    } else if (sweep.max_abs_error[k] != worst || sweep.worst_pair[k] != at) {
      FAIL_CHECK("max at " << positions[k] << ": " << sweep.max_abs_error[k] << " vs " << worst);
    }
  }
}

TEST_CASE("low precision: log-spaced positions", "[low_precision]") {
  const auto p = rope::log_spaced_positions(2000, 1e7).value();
  REQUIRE(p.size() == 2000);
  CHECK(p.front() == 1.0);
  CHECK(p.back() == 1e7);
  for (std::size_t k = 0; k + 1 < p.size(); ++k) {
    CHECK(p[k] == std::round(p[k]));
    CHECK(p[k] <= p[k + 1]);
  }
  // p[k] = round(10^(7k / 1999)): p[1000] = round(10^3.50175...) = 3175.
  CHECK(p[1000] == 3175.0);
  for (const std::size_t k : {std::size_t{1}, std::size_t{400}, std::size_t{1500}}) {
    const double want = std::pow(10.0, 7.0 * static_cast<double>(k) / 1999.0);
    CHECK(std::abs(p[k] - want) <= 0.5 + 1e-9 * want);
  }
}

TEST_CASE("low precision: fp16 positions beyond 65504 overflow to inf", "[low_precision]") {
  const auto a = rope::emulate_angle(65519, 3, 64, 1e4, preset("fp16")).value();
  CHECK(a.position == 65504.0);
  const auto b = rope::emulate_angle(70000, 3, 64, 1e4, preset("fp16")).value();
  CHECK(b.position == kInf);
  CHECK(b.angle == kInf);
  CHECK(std::isnan(b.wrapped_error));
  CHECK(std::isnan(b.cos));
  CHECK(std::isnan(b.sin));
  CHECK(std::isfinite(b.exact_angle));
  const std::vector<double> positions{65504, 70000};
  const auto s = rope::sweep_angle_error(64, 1e4, preset("fp16"), positions).value();
  CHECK(std::isfinite(s.max_abs_error[0]));
  CHECK(std::isnan(s.max_abs_error[1]));
  CHECK(s.worst_pair[1] == -1);
}

TEST_CASE("low precision: fp32 at ten million positions", "[low_precision]") {
  const auto f = preset("fp32");
  // theta_0 = 1 and positions are integers: pair 0's angle is exact in fp32 up to 2^24, and
  // beyond it odd positions collapse onto their even neighbours (2^24 + 1 -> 2^24).
  CHECK(rope::emulate_angle(1e7 + 1, 0, 128, 1e4, f).value().wrapped_error == 0.0);
  const auto beyond = rope::emulate_angle(16777217, 0, 128, 1e4, f).value();
  CHECK(beyond.angle == 16777216.0);
  CHECK(beyond.wrapped_error == -1.0);
  // Pair 1 (theta = 0.866) at 10^7: angle 8659643.23 in [2^23, 2^24), where fp32 steps by 1.
  // The error is m (theta_fp32 - theta) from the stored frequency plus at most half a step.
  const auto a = rope::emulate_angle(1e7, 1, 128, 1e4, f).value();
  const double theta = rope::frequencies(128, 1e4).value()[1];
  CHECK(a.angle == 8659644.0);
  CHECK(std::abs(a.wrapped_error - 1e7 * (a.theta - theta)) <= 0.5);
  CHECK_THAT(a.wrapped_error, WithinAbs(0.766399, 1e-6));
  // The sweep's worst pair there is the same one.
  const std::vector<double> at{1e7};
  const auto s = rope::sweep_angle_error(128, 1e4, f, at).value();
  CHECK(s.worst_pair[0] == 1);
  CHECK(s.max_abs_error[0] == a.wrapped_error);
}

// --- Bad input --------------------------------------------------------------------------------

TEST_CASE("low precision: invalid input is an error naming the parameter",
          "[low_precision][errors]") {
  const auto f = preset("bf16");
  CHECK(rope::emulate_angle(1, 0, 7, 1e4, f).error().parameter == "dim");
  CHECK(rope::emulate_angle(1, 0, 32, kNan, f).error().message ==
        "must be a finite number greater than 1, got nan");
  auto e = rope::emulate_angle(1, 16, 32, 1e4, f);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().parameter == "pair");
  CHECK(e.error().message == "must be an integer from 0 to 15 (d/2 - 1 for d = 32), got 16");
  CHECK(rope::emulate_angle(1, -1, 32, 1e4, f).error().parameter == "pair");
  e = rope::emulate_angle(kInf, 0, 32, 1e4, f);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().to_string() == "position: must be a finite number, got inf");
  CHECK(rope::emulate_angles(kNan, 32, 1e4, f).error().parameter == "position");
  CHECK(rope::emulate_angles(1, 4098, 1e4, f).error().parameter == "dim");
  CHECK(rope::emulated_frequencies(32, 1.0, FloatFormat::bf16).error().parameter == "base");

  auto c = rope::collapsed_positions(2.5, 4, FloatFormat::bf16);
  REQUIRE_FALSE(c.ok());
  CHECK(c.error().to_string() == "first: must be an integer from -1e15 to 1e15, got 2.5");
  CHECK(rope::collapsed_positions(2e15, 4, FloatFormat::bf16).error().parameter == "first");
  CHECK(rope::collapsed_positions(kNan, 4, FloatFormat::bf16).error().parameter == "first");
  CHECK(rope::collapsed_positions(0, 0, FloatFormat::bf16).error().message ==
        "must be an integer from 1 to 100000, got 0");

  auto l = rope::log_spaced_positions(1, 1e7);
  REQUIRE_FALSE(l.ok());
  CHECK(l.error().to_string() == "count: must be an integer from 2 to 100000, got 1");
  CHECK(rope::log_spaced_positions(100001, 1e7).error().parameter == "count");
  CHECK(rope::log_spaced_positions(10, 1.5).error().message ==
        "must be a finite number from 2 to 1e15, got 1.5");
  CHECK(rope::log_spaced_positions(10, kInf).error().parameter == "max_position");

  const std::vector<double> empty;
  auto s = rope::sweep_angle_error(32, 1e4, f, empty);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().to_string() == "positions: must hold 1 to 100000 positions, got 0");
  const std::vector<double> with_nan{1, kNan};
  CHECK(rope::sweep_angle_error(32, 1e4, f, with_nan).error().message ==
        "entry 2 must be a finite number, got nan");
  CHECK(rope::sweep_angle_error(33, 1e4, f, with_nan).error().parameter == "dim");
  const std::vector<double> many(20000, 1.0);
  auto p = rope::pair_angle_errors(4096, 1e4, f, many);
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().to_string() ==
        "positions: 20000 positions x 2048 pairs is more than 16777216 entries");
  CHECK(rope::pair_angle_errors(4096, 1e4, f, std::vector<double>(8192, 1.0)).ok());
}

TEST_CASE("low precision: rotating with stored cos / sin, small cases by hand",
          "[low_precision][rotate]") {
  rope::EmulatedAngle a, b;
  a.cos = 0.5;
  a.sin = 0.75;  // not a rotation: the tables need not be on the unit circle
  b.cos = -1.0;
  b.sin = 0.0;
  const std::vector<rope::EmulatedAngle> one{a};
  const std::vector<double> e0{1.0, 0.0}, e1{0.0, 1.0};
  CHECK(rope::rotate_emulated(e0, one, rope::Pairing::interleaved).value() ==
        std::vector<double>{0.5, 0.75});
  CHECK(rope::rotate_emulated(e1, one, rope::Pairing::interleaved).value() ==
        std::vector<double>{-0.75, 0.5});
  // d = 4: interleaved blocks (x0, x1), (x2, x3); half-split blocks (x0, x2), (x1, x3)
  const std::vector<rope::EmulatedAngle> two{a, b};
  const std::vector<double> x{1.0, 2.0, 3.0, 4.0};
  CHECK(rope::rotate_emulated(x, two, rope::Pairing::interleaved).value() ==
        std::vector<double>{1.0 * 0.5 - 2.0 * 0.75, 1.0 * 0.75 + 2.0 * 0.5, -3.0, -4.0});
  CHECK(rope::rotate_emulated(x, two, rope::Pairing::half_split).value() ==
        std::vector<double>{1.0 * 0.5 - 3.0 * 0.75, -2.0, 1.0 * 0.75 + 3.0 * 0.5, -4.0});
  // an angle that overflowed (fp16 position 70000 -> inf) gives NaN in its block only
  const auto inf_angles = rope::emulate_angles(70000, 4, 1e4, preset("fp16")).value();
  const auto y = rope::rotate_emulated(x, inf_angles, rope::Pairing::interleaved).value();
  for (double v : y)
    CHECK(std::isnan(v));
  const auto r =
      rope::rotate_emulated(std::vector<double>{1.0, 2.0, 3.0}, two, rope::Pairing::interleaved);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().to_string() == "x: must have 4 entries ([d]), got 3");
  CHECK(rope::rotate_emulated(x, std::vector<rope::EmulatedAngle>{}, rope::Pairing::interleaved)
            .error()
            .parameter == "angles");
}

TEST_CASE("low precision: the exact preset rotates as apply_rope, bit for bit",
          "[low_precision][rotate]") {
  const int index = GENERATE(range(0, 10));
  const auto c = rope_test::random_case(index, 512, 1e6);
  CAPTURE(c.dim, c.base, c.m);
  const auto x = rope_test::random_vector<double>(static_cast<std::size_t>(c.dim),
                                                  static_cast<std::uint64_t>(index));
  const auto th = rope::frequencies(c.dim, c.base).value();
  for (const auto pairing : {rope::Pairing::interleaved, rope::Pairing::half_split}) {
    std::vector<double> want(x.size());
    rope::apply_rope<double>(x, want, c.m, th, pairing);
    const auto got =
        rope::rotate_emulated(x, rope::emulate_angles(c.m, c.dim, c.base, preset("exact")).value(),
                              pairing)
            .value();
    CHECK(got == want);
  }
}

TEST_CASE(
    "low precision: a rotated block turns by the stored angle and keeps |x| to the trig "
    "format's precision",
    "[low_precision][rotate]") {
  const int index = GENERATE(range(0, 10));
  const auto c = rope_test::random_case(index, 64, 1e5);
  CAPTURE(c.dim, c.base, c.m);
  const auto x = rope_test::random_vector<double>(static_cast<std::size_t>(c.dim),
                                                  static_cast<std::uint64_t>(100 + index));
  const auto angles = rope::emulate_angles(c.m, c.dim, c.base, preset("bf16")).value();
  const auto y = rope::rotate_emulated(x, angles, rope::Pairing::interleaved).value();
  for (std::size_t i = 0; i < angles.size(); ++i) {
    const double xa = x[2 * i], xb = x[2 * i + 1];
    const double ya = y[2 * i], yb = y[2 * i + 1];
    const double nx = std::hypot(xa, xb), ny = std::hypot(ya, yb);
    // bf16 cos and sin are each within 2^-9 relative of cos, sin of the stored angle, so the
    // length changes by at most about 2^-8 relative
    CHECK(std::abs(ny - nx) <= p2(-8) * nx + 1e-15);
    if (nx < 1e-3) continue;
    // the turn from x to y is the stored angle (not the exact one), within the trig rounding
    const double turn = std::atan2(xa * yb - xb * ya, xa * ya + xb * yb);
    const double want = std::remainder(angles[i].angle, 2.0 * rope::kPi);
    CHECK(std::abs(std::remainder(turn - want, 2.0 * rope::kPi)) <= p2(-7));
  }
}

TEST_CASE("low precision: the angle is multiplied in the factors' format, then cast",
          "[low_precision]") {
  using rope::FloatFormat;
  CHECK(rope::product_format(FloatFormat::fp32, FloatFormat::fp32) == FloatFormat::fp32);
  CHECK(rope::product_format(FloatFormat::bf16, FloatFormat::bf16) == FloatFormat::bf16);
  CHECK(rope::product_format(FloatFormat::fp32, FloatFormat::bf16) == FloatFormat::fp32);
  CHECK(rope::product_format(FloatFormat::bf16, FloatFormat::fp16) == FloatFormat::fp32);
  CHECK(rope::product_format(FloatFormat::fp16, FloatFormat::fp64) == FloatFormat::fp64);
  // the review's case: m = 33 210, d = 64, pair 8 (θ = 10 000^(-1/4) = 0.1), fp32 position
  // and θ, fp16 angle: fp32 computes 3321 (m·θ = 3321.00005 in fp32's 2^-12 steps), whose cast
  // to fp16 (steps of 2 there) is a tie that goes to the even 3320; the exact product alone
  // would round to 3322
  rope::PrecisionFormats f;
  f.angle = FloatFormat::fp16;
  auto a = rope::emulate_angle(33210.0, 8, 64, 10000.0, f);
  REQUIRE(a.ok());
  CHECK(rope::round_to(FloatFormat::fp16, 33210.0 * a.value().theta) == 3322.0);
  CHECK(a.value().angle == 3320.0);
  // the same formats but a wide angle: the fp32 product stays as computed
  f.angle = FloatFormat::fp64;
  auto wide = rope::emulate_angle(33210.0, 8, 64, 10000.0, f);
  REQUIRE(wide.ok());
  CHECK(wide.value().angle == rope::round_to(FloatFormat::fp32, 33210.0 * wide.value().theta));
  // bf16 position and θ with an fp32 angle: multiplied in bf16, so the angle is a bf16 number
  f.position = f.theta = FloatFormat::bf16;
  f.angle = FloatFormat::fp32;
  auto narrow = rope::emulate_angle(1857.0, 3, 64, 10000.0, f);
  REQUIRE(narrow.ok());
  CHECK(rope::round_to(FloatFormat::bf16, narrow.value().angle) == narrow.value().angle);
}
