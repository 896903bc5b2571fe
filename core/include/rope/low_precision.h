// rope/low_precision.h — exact emulation of RoPE computed in fp32, bf16 and fp16.
//
// A model run in low precision rounds RoPE at four cast points (docs/precision.md): the position
// m, the frequency theta_i (`inv_freq`), the angle m * theta_i, and cos / sin. This header
// emulates each rounding bit-exactly (IEEE 754 round to nearest, ties to even, overflow to inf,
// the formats' subnormals) so that a view can put the exact pointer beside the low-precision one
// and plot how far the angle drifts.
//
// Usage:
//   std::uint16_t b = rope::bf16_bits(257.0);               // 0x4380: 257 rounds to 256
//   double v = rope::round_to(rope::FloatFormat::fp16, 65520.0);  // +inf
//   auto f = rope::parse_precision_preset("bf16").value();  // all four cast points in bf16
//   auto a = rope::emulate_angle(1857, 1, 32, 1e4, *rope::parse_precision_preset("fp16"));
//   // a.value().angle == 1045, a.value().exact_angle == 1044.2678...
//   auto pos = rope::log_spaced_positions(2000, 1e7).value();
//   auto sweep = rope::sweep_angle_error(128, 1e4, f, pos);  // max |error| over pairs per position
//   auto rq = rope::rotate_emulated(q, rope::emulate_angles(m, d, b, f).value(), pairing);
//
// Formats (significant bits p including the implicit bit, normal exponents emin ... emax):
//   fp64  p = 53  the reference: nothing is rounded
//   fp32  p = 24  emin = -126   largest finite (2 - 2^-23) 2^127, smallest subnormal 2^-149
//   bf16  p = 8   emin = -126   largest finite (2 - 2^-7) 2^127,  smallest subnormal 2^-133
//   fp16  p = 11  emin = -14    largest finite 65504,             smallest subnormal 2^-24
// Integers are exact up to 2^p: 256 in bf16, 2048 in fp16, 16777216 in fp32.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "rope/conventions.h"

namespace rope {

enum class FloatFormat { fp64, fp32, bf16, fp16 };

inline constexpr std::array<FloatFormat, 4> kFloatFormats = {FloatFormat::fp64, FloatFormat::fp32,
                                                             FloatFormat::bf16, FloatFormat::fp16};

// "fp64", "fp32", "bf16", "fp16": the names used by flags, session files and lessons.
const char* format_name(FloatFormat f);
std::optional<FloatFormat> parse_format(std::string_view name);

// --- Bit-exact conversions ----------------------------------------------------------------------
// x -> the nearest value of the format, ties to the even significand, rounded ONCE, directly from
// the double. Going through float first would round twice, and a double just above a bf16 / fp16
// halfway point can land exactly on that halfway point in fp32 and then tie to even the wrong
// way: 1 + 2^-8 + 2^-30 is nearer to the bf16 value 1 + 2^-7, but as a float it is exactly
// 1 + 2^-8, which ties to 1. Beyond the largest finite value by half an ulp or more: +-inf
// (fp16: 65519.99 -> 65504, 65520 -> inf). Below half the smallest subnormal: +-0 (the sign is
// kept). NaN -> a quiet NaN with the same sign (0x7E00 / 0x7FC0 when positive).
std::uint16_t fp16_bits(double x);
std::uint16_t bf16_bits(double x);
std::uint32_t fp32_bits(double x);  // the same algorithm with p = 24 (tests compare with casts)
// float -> double is exact, so these round exactly as the double overloads do.
std::uint16_t fp16_bits(float x);
std::uint16_t bf16_bits(float x);

// Every bit pattern decodes exactly into a double (signed zeros, subnormals, +-inf, NaN).
double fp16_value(std::uint16_t bits);
double bf16_value(std::uint16_t bits);

// x rounded to the format and returned as a double: fp64 leaves x alone; fp32 is the cast
// (double)(float)x, which IEEE defines as one correct rounding (done without the cast where
// |x| exceeds FLT_MAX, because C++ leaves that cast undefined); bf16 / fp16 decode the bits above.
double round_to(FloatFormat f, double x);

// --- The four cast points -----------------------------------------------------------------------
struct PrecisionFormats {
  FloatFormat position = FloatFormat::fp32;  // the position m as a float tensor
  FloatFormat theta = FloatFormat::fp32;     // theta_i as stored (`inv_freq`)
  FloatFormat angle = FloatFormat::fp32;     // the product m * theta_i as stored
  FloatFormat trig = FloatFormat::fp32;      // cos / sin as stored
  bool operator==(const PrecisionFormats&) const = default;
};

// Named presets (the name -> formats of position, theta, angle, trig):
//   "fp32"        fp32 fp32 fp32 fp32   the reference most frameworks use
//   "bf16"        bf16 bf16 bf16 bf16   everything cast with the model (autocast, .to(bf16))
//   "fp16"        fp16 fp16 fp16 fp16   the same in half precision (GPT-NeoX issue #1003)
//   "theta-bf16"  fp32 bf16 fp32 fp32   only inv_freq cast, the angle still in fp32
//   "fix"         fp32 fp32 fp32 bf16   transformers PR #29285: angle and cos/sin in fp32,
//                                       then cos/sin cast to the model's bf16
//   "exact"       fp64 fp64 fp64 fp64   nothing rounded below double
inline constexpr std::array<const char*, 6> kPrecisionPresetNames = {"fp32",       "bf16", "fp16",
                                                                     "theta-bf16", "fix",  "exact"};
std::optional<PrecisionFormats> parse_precision_preset(std::string_view name);
// The preset's name, or "custom" when the four formats match none ("custom" does not parse).
const char* preset_name(const PrecisionFormats& formats);

// --- Emulated angles ----------------------------------------------------------------------------
// The frequencies as a model stores them in format `theta_format`, [d/2]:
//   fp64: theta_i = base^(-2i/d) in double (rope::theta), the reference.
//   otherwise: theta_i as transformers builds `inv_freq`,
//       1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))
//     all in fp32, then rounded to theta_format. Emulated step by step: the exponent 2i/d is the
//     fp32 quotient; base is cast to fp32 (it becomes +inf beyond FLT_MAX, as in torch); the
//     power is ASSUMED CORRECTLY ROUNDED to fp32 (computed with double pow and rounded once;
//     torch's fp32 pow kernels, vectorised on the CPU or powf on a GPU, are not correctly
//     rounded, so a real run may store a theta one fp32 ulp away in rare cases); 1.0 / that is
//     the fp32 quotient. Both quotients are computed in double and rounded to fp32, which gives
//     the correctly rounded fp32 quotient (rounding twice is harmless for a quotient of two
//     fp32 values because 53 >= 2 * 24 + 2).
// Errors: invalid dim or base.
Result<std::vector<double>> emulated_frequencies(std::int64_t dim, double base,
                                                 FloatFormat theta_format);

struct EmulatedAngle {
  double exact_angle = 0.0;    // position * theta_i in double, nothing else rounded (radians)
  double angle = 0.0;          // the emulated angle as stored (radians); +-inf on overflow
  double wrapped_error = 0.0;  // angle - exact_angle wrapped into (-pi, pi]; NaN if angle is inf
  double cos = 1.0;            // cos(angle) rounded to the trig format; NaN if angle is inf
  double sin = 0.0;            // sin(angle) rounded to the trig format; NaN if angle is inf
  double position = 0.0;       // the position rounded to its format (+-inf beyond fp16's range)
  double theta = 0.0;          // theta_i as emulated_frequencies gives it
};

// The format a multiply of two tensors of formats a and b computes in (torch's type promotion):
// the wider one; fp64 with anything is fp64; bf16 with fp16 is fp32 (neither holds the other).
FloatFormat product_format(FloatFormat a, FloatFormat b);
// position * theta (both already in their formats) as code stores it: rounded to
// product_format(formats.position, formats.theta), then to formats.angle.
double stored_angle(const PrecisionFormats& formats, double position, double theta);

// One pair at one position:
//   position -> rounded to formats.position;
//   theta_i  -> emulated_frequencies(dim, base, formats.theta)[pair];
//   angle    -> their product as code computes it (stored_angle): rounded to the format the two
//               factors multiply in (product_format: the wider one, fp32 for bf16 with fp16),
//               then cast to formats.angle. When neither factor is fp64 the product is exact in
//               double (two significands of <= 24 bits make <= 48 bits <= 53), so each rounding
//               is exactly what a float multiply (or a matmul with a single term, as
//               `inv_freq @ positions` is) and a cast store. An angle format narrower than the
//               product's rounds twice, as the cast after the multiply does: m = 33 210, d = 64,
//               pair 8 with fp32 factors and an fp16 angle stores 3320 (3321 in fp32, a tie,
//               to even), where one rounding of the exact product gives 3322. A wider angle
//               format keeps the product as it was computed;
//   cos, sin -> computed in double from the rounded angle and rounded once to formats.trig.
//               Real kernels evaluate cos in fp32 and then cast, which can differ from this by one
//               ulp of the trig format when the fp32 value lands on a tie of that format.
// A position or angle beyond the format's range becomes +-inf, and cos / sin / wrapped_error
// become NaN: that is what the real computation produces, not an input error.
// Errors: invalid dim or base; "pair" outside 0 ... d/2-1; non-finite "position".
Result<EmulatedAngle> emulate_angle(double position, std::int64_t pair, std::int64_t dim,
                                    double base, const PrecisionFormats& formats);
// All d/2 pairs at one position, pair 0 first. Errors: as emulate_angle (no pair).
Result<std::vector<EmulatedAngle>> emulate_angles(double position, std::int64_t dim, double base,
                                                  const PrecisionFormats& formats);

// Consecutive integer positions first, first + 1, ..., first + count - 1, each rounded to
// `format`: equal neighbours are positions the model cannot tell apart (bf16: 256, 257 -> 256,
// 256; 258, 259 -> 258, 260). [count].
// Errors: "first" not an integer from -1e15 to 1e15; "count" outside 1 ... 100000.
Result<std::vector<double>> collapsed_positions(double first, std::int64_t count,
                                                FloatFormat format);

// --- Error sweeps for plots ---------------------------------------------------------------------
inline constexpr std::int64_t kMaxSweepPositions = 100000;
inline constexpr std::int64_t kMaxSweepEntries = std::int64_t{1} << 24;  // positions x pairs

// `count` integer positions spaced evenly in log(position) from 1 to max_position:
// round(max_position^(k / (count - 1))), k = 0 ... count - 1, so the first is 1 and the last
// round(max_position). Small k repeat integers (1, 1, ..., 2, ...) so that every k has its point.
// Errors: "count" outside 2 ... 100000; "max_position" not a finite number from 2 to 1e15.
Result<std::vector<double>> log_spaced_positions(std::int64_t count, double max_position);

struct AngleErrorSweep {
  std::vector<double> positions;      // [count], as given
  std::vector<double> max_abs_error;  // [count] max over pairs of |wrapped_error|, in [0, pi];
                                      // NaN where some pair's angle is inf (overflow)
  std::vector<int> worst_pair;        // [count] the lowest pair reaching the max; -1 where NaN
};

// For each position, the largest |wrapped_error| over all d/2 pairs, computed exactly as
// emulate_angle computes wrapped_error (the same numbers, without cos / sin). Cost: one rounding
// per position; per (position, pair) two multiplies, one rounding to the angle format, and an
// IEEE remainder when the error exceeds pi. 2000 positions x 64 pairs (core_bench, shared 2-core
// machine): about 0.5 ms in fp32 (a float cast rounds), 1.3 ms in fp16 and 2.5 ms in bf16 (bit
// rounding, and for bf16 a quarter of the errors exceed pi and need the remainder).
// Errors: invalid dim or base; "positions" empty or longer than kMaxSweepPositions;
// "positions" with a non-finite entry.
Result<AngleErrorSweep> sweep_angle_error(std::int64_t dim, double base,
                                          const PrecisionFormats& formats,
                                          std::span<const double> positions);

// Every pair's signed wrapped_error, row-major [positions.size()][d/2], in float (for heatmaps);
// NaN where the angle is inf. Errors: as sweep_angle_error, plus "positions" when
// positions.size() * d/2 exceeds kMaxSweepEntries.
Result<std::vector<float>> pair_angle_errors(std::int64_t dim, double base,
                                             const PrecisionFormats& formats,
                                             std::span<const double> positions);

// --- Emulated rotation --------------------------------------------------------------------------
// y = R x with block i turned by the STORED cos / sin of angles[i] (EmulatedAngle::cos, ::sin):
// what the rounded tables do to a vector, kept apart from any rounding of x itself (the products
// and sums are in double, y_a = x_a c - x_b s, y_b = x_a s + x_b c, as rope::apply_rope).
// With every format fp64 the result is apply_rope's, bit for bit. Blocks pair coordinates as
// `pairing` says (rope/conventions.h). x: [d], d = 2 * angles.size(); returns [d]. An angle that
// overflowed (NaN cos / sin) gives NaN in its two coordinates, as the real computation does.
// Errors: "angles" empty or longer than kMaxDim/2; "x" not 2 * angles.size() entries.
Result<std::vector<double>> rotate_emulated(std::span<const double> x,
                                            std::span<const EmulatedAngle> angles, Pairing pairing);

}  // namespace rope
