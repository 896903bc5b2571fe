// low_precision.cpp — IEEE rounding into fp32 / bf16 / fp16 from double, and RoPE angles
// emulated at the four cast points.
#include "rope/low_precision.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "internal.h"
#include "rope/frequencies.h"

namespace rope {

namespace {

// A binary interchange format: p significant bits (with the implicit one), w exponent bits,
// emin the exponent of the smallest normal.
struct Spec {
  int p;
  int w;
  int emin;
};
constexpr Spec kFp16{11, 5, -14};
constexpr Spec kBf16{8, 8, -126};
constexpr Spec kFp32{24, 8, -126};

// Bits of the value of spec nearest to x, ties to even, rounded once from the double.
//
// A finite nonzero double is M * 2^E with the integer M in [2^52, 2^53) (double subnormals are
// below 2^-1022, far below half of any of these formats' smallest subnormal, and go to zero).
// The result is a multiple of its quantum 2^q, q = max(floor(log2|x|), emin) - (p - 1); so it is
// N * 2^q with N = M / 2^s rounded to an integer, s = q - E >= 53 - p > 0. With the encoding's
// exponent field counted from the subnormal quantum qmin = emin - (p - 1), the magnitude's bits
// are (q - qmin) << (p - 1) plus N, for normals and subnormals alike; a carry of N into 2^p then
// moves into the exponent field by itself, and anything at or past the infinity pattern is inf.
std::uint32_t round_bits(double x, Spec spec) {
  const auto bits = detail::bit_cast<std::uint64_t>(x);
  const int mant_bits = spec.p - 1;
  const std::uint32_t sign = static_cast<std::uint32_t>(bits >> 63) << (spec.w + mant_bits);
  const std::uint32_t inf = ((std::uint32_t{1} << spec.w) - 1) << mant_bits;
  const int biased = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0x7FF) {
    // inf stays inf; NaN becomes the quiet NaN (top fraction bit set) with x's sign.
    return sign | inf | (fraction != 0 ? std::uint32_t{1} << (mant_bits - 1) : 0);
  }
  if (biased == 0) return sign;
  const std::uint64_t m = (std::uint64_t{1} << 52) | fraction;
  const int e = biased - 1075;  // x = m * 2^e
  const int qmin = spec.emin - mant_bits;
  const int q = std::max(biased - 1023, spec.emin) - mant_bits;
  const int s = q - e;
  // s >= 54: the halfway point 2^(s-1) >= 2^53 exceeds m, so |x| rounds to zero.
  if (s >= 54) return sign;
  std::uint64_t n = m >> s;
  const std::uint64_t rest = m & ((std::uint64_t{1} << s) - 1);
  const std::uint64_t half = std::uint64_t{1} << (s - 1);
  if (rest > half || (rest == half && (n & 1) != 0)) ++n;
  const std::int64_t magnitude =
      (static_cast<std::int64_t>(q - qmin) << mant_bits) + static_cast<std::int64_t>(n);
  if (magnitude >= static_cast<std::int64_t>(inf)) return sign | inf;
  return sign | static_cast<std::uint32_t>(magnitude);
}

// The exact double of a bit pattern. Normal values are assembled as double bits (a cheap path the
// sweeps take for every pair); subnormals are mantissa * 2^qmin, a product that is exact.
double decode(std::uint32_t bits, Spec spec) {
  const int mant_bits = spec.p - 1;
  const std::uint32_t field = (bits >> mant_bits) & ((std::uint32_t{1} << spec.w) - 1);
  const std::uint32_t mantissa = bits & ((std::uint32_t{1} << mant_bits) - 1);
  const std::uint64_t sign = static_cast<std::uint64_t>((bits >> (spec.w + mant_bits)) & 1) << 63;
  std::uint64_t out = 0;
  if (field == (std::uint32_t{1} << spec.w) - 1) {
    out = mantissa != 0 ? 0x7FF8000000000000u : 0x7FF0000000000000u;  // NaN, inf
  } else if (field == 0) {
    out = detail::bit_cast<std::uint64_t>(static_cast<double>(mantissa) *
                                          std::ldexp(1.0, spec.emin - mant_bits));
  } else {
    const auto exponent =
        static_cast<std::uint64_t>(static_cast<int>(field) - 1 + spec.emin + 1023);
    out = (exponent << 52) | (static_cast<std::uint64_t>(mantissa) << (52 - mant_bits));
  }
  return detail::bit_cast<double>(sign | out);
}

constexpr double kFloatMax = static_cast<double>(std::numeric_limits<float>::max());

double round_fp32(double x) {
  // The cast is the hardware's single correct rounding; C++ leaves it undefined outside the float
  // range, so larger magnitudes (and inf / NaN, which fail the test) take the bit path.
  if (std::abs(x) <= kFloatMax) return static_cast<double>(static_cast<float>(x));
  return static_cast<double>(detail::bit_cast<float>(round_bits(x, kFp32)));
}

// The wrapped difference a - b in (-pi, pi]. Most errors are already below pi, and then the
// difference is returned as it is, so the sweep and emulate_angle agree bit for bit.
double wrap_error(double angle, double exact) {
  double d = angle - exact;
  if (!std::isfinite(d)) return std::numeric_limits<double>::quiet_NaN();
  if (std::abs(d) > kPi) {
    d = std::remainder(d, kTwoPi);
    if (d <= -kPi) d = kPi;
  }
  return d;
}

// theta_i as transformers builds inv_freq in fp32 (see emulated_frequencies in the header).
double transformers_theta_fp32(int i, int dim, double base32) {
  const double exponent = round_fp32(static_cast<double>(2 * i) / static_cast<double>(dim));
  const double power = round_fp32(std::pow(base32, exponent));
  return round_fp32(1.0 / power);
}

Status validate_dim_base(std::int64_t dim, double base) {
  if (auto s = validate_dim(dim); !s) return s;
  return validate_base(base);
}

Status validate_positions(std::span<const double> positions) {
  if (positions.empty() || positions.size() > static_cast<std::size_t>(kMaxSweepPositions)) {
    return Error{"positions", "must hold 1 to " + std::to_string(kMaxSweepPositions) +
                                  " positions, got " + std::to_string(positions.size())};
  }
  for (std::size_t k = 0; k < positions.size(); ++k) {
    if (!std::isfinite(positions[k])) {
      return Error{"positions", "entry " + std::to_string(k + 1) +
                                    " must be a finite number, got " +
                                    detail::format_number(positions[k])};
    }
  }
  return {};
}

// The per-pair constants shared by emulate_angles and the sweeps.
struct PairTables {
  std::vector<double> exact;     // theta_i in double, [d/2]
  std::vector<double> emulated;  // theta_i in the theta format, [d/2]
};

PairTables pair_tables(int dim, double base, FloatFormat theta_format) {
  PairTables t;
  t.exact = frequencies(dim, base).value();
  t.emulated = emulated_frequencies(dim, base, theta_format).value();
  return t;
}

EmulatedAngle emulate_one(double position, double rounded_position, double exact_theta,
                          double theta, const PrecisionFormats& f) {
  EmulatedAngle a;
  a.position = rounded_position;
  a.theta = theta;
  a.exact_angle = position * exact_theta;
  a.angle = stored_angle(f, rounded_position, theta);
  a.wrapped_error = wrap_error(a.angle, a.exact_angle);
  if (std::isfinite(a.angle)) {
    a.cos = round_to(f.trig, std::cos(a.angle));
    a.sin = round_to(f.trig, std::sin(a.angle));
  } else {
    a.cos = a.sin = std::numeric_limits<double>::quiet_NaN();
  }
  return a;
}

}  // namespace

FloatFormat product_format(FloatFormat a, FloatFormat b) {
  if (a == b) return a;
  if (a == FloatFormat::fp64 || b == FloatFormat::fp64) return FloatFormat::fp64;
  return FloatFormat::fp32;  // fp32 with a 16-bit format, or bf16 with fp16
}

double stored_angle(const PrecisionFormats& f, double position, double theta) {
  return round_to(f.angle, round_to(product_format(f.position, f.theta), position * theta));
}

const char* format_name(FloatFormat f) {
  switch (f) {
    case FloatFormat::fp64:
      return "fp64";
    case FloatFormat::fp32:
      return "fp32";
    case FloatFormat::bf16:
      return "bf16";
    case FloatFormat::fp16:
      return "fp16";
  }
  return "fp64";
}

std::optional<FloatFormat> parse_format(std::string_view name) {
  for (const FloatFormat f : kFloatFormats) {
    if (name == format_name(f)) return f;
  }
  return std::nullopt;
}

std::uint16_t fp16_bits(double x) {
  return static_cast<std::uint16_t>(round_bits(x, kFp16));
}
std::uint16_t bf16_bits(double x) {
  return static_cast<std::uint16_t>(round_bits(x, kBf16));
}
std::uint32_t fp32_bits(double x) {
  return round_bits(x, kFp32);
}
std::uint16_t fp16_bits(float x) {
  return fp16_bits(static_cast<double>(x));
}
std::uint16_t bf16_bits(float x) {
  return bf16_bits(static_cast<double>(x));
}

double fp16_value(std::uint16_t bits) {
  return decode(bits, kFp16);
}
double bf16_value(std::uint16_t bits) {
  return decode(bits, kBf16);
}

double round_to(FloatFormat f, double x) {
  switch (f) {
    case FloatFormat::fp64:
      return x;
    case FloatFormat::fp32:
      return round_fp32(x);
    case FloatFormat::bf16:
      return decode(round_bits(x, kBf16), kBf16);
    case FloatFormat::fp16:
      return decode(round_bits(x, kFp16), kFp16);
  }
  return x;
}

namespace {
struct NamedPreset {
  const char* name;
  PrecisionFormats formats;
};
constexpr FloatFormat k64 = FloatFormat::fp64;
constexpr FloatFormat k32 = FloatFormat::fp32;
constexpr FloatFormat kB = FloatFormat::bf16;
constexpr FloatFormat kH = FloatFormat::fp16;
constexpr std::array<NamedPreset, 6> kPresets = {{
    {"fp32", {k32, k32, k32, k32}},
    {"bf16", {kB, kB, kB, kB}},
    {"fp16", {kH, kH, kH, kH}},
    {"theta-bf16", {k32, kB, k32, k32}},
    {"fix", {k32, k32, k32, kB}},
    {"exact", {k64, k64, k64, k64}},
}};
}  // namespace

std::optional<PrecisionFormats> parse_precision_preset(std::string_view name) {
  for (const auto& p : kPresets) {
    if (name == p.name) return p.formats;
  }
  return std::nullopt;
}

const char* preset_name(const PrecisionFormats& formats) {
  for (const auto& p : kPresets) {
    if (p.formats == formats) return p.name;
  }
  return "custom";
}

Result<std::vector<double>> emulated_frequencies(std::int64_t dim, double base,
                                                 FloatFormat theta_format) {
  auto exact = frequencies(dim, base);
  if (!exact || theta_format == FloatFormat::fp64) return exact;
  const int d = static_cast<int>(dim);
  const double base32 = round_fp32(base);
  std::vector<double> out(static_cast<std::size_t>(d / 2));
  for (int i = 0; i < d / 2; ++i) {
    out[static_cast<std::size_t>(i)] =
        round_to(theta_format, transformers_theta_fp32(i, d, base32));
  }
  return out;
}

Result<EmulatedAngle> emulate_angle(double position, std::int64_t pair, std::int64_t dim,
                                    double base, const PrecisionFormats& formats) {
  if (auto s = validate_dim_base(dim, base); !s) return s.error();
  const std::int64_t half = dim / 2;
  if (pair < 0 || pair >= half) {
    return Error{"pair", "must be an integer from 0 to " + std::to_string(half - 1) +
                             " (d/2 - 1 for d = " + std::to_string(dim) + "), got " +
                             std::to_string(pair)};
  }
  if (auto s = validate_position(position); !s) return s.error();
  const auto i = static_cast<std::size_t>(pair);
  const auto t = pair_tables(static_cast<int>(dim), base, formats.theta);
  return emulate_one(position, round_to(formats.position, position), t.exact[i], t.emulated[i],
                     formats);
}

Result<std::vector<EmulatedAngle>> emulate_angles(double position, std::int64_t dim, double base,
                                                  const PrecisionFormats& formats) {
  if (auto s = validate_dim_base(dim, base); !s) return s.error();
  if (auto s = validate_position(position); !s) return s.error();
  const auto t = pair_tables(static_cast<int>(dim), base, formats.theta);
  const double rounded = round_to(formats.position, position);
  std::vector<EmulatedAngle> out(t.exact.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = emulate_one(position, rounded, t.exact[i], t.emulated[i], formats);
  return out;
}

Result<std::vector<double>> collapsed_positions(double first, std::int64_t count,
                                                FloatFormat format) {
  constexpr double kLimit = 1e15;  // below 2^53, so first + k stays an exact integer
  if (!(std::abs(first) <= kLimit) || first != std::floor(first)) {
    return Error{"first",
                 "must be an integer from -1e15 to 1e15, got " + detail::format_number(first)};
  }
  if (auto s = validate_count(count, kMaxSweepPositions, "count"); !s) return s.error();
  std::vector<double> out(static_cast<std::size_t>(count));
  for (std::size_t k = 0; k < out.size(); ++k)
    out[k] = round_to(format, first + static_cast<double>(k));
  return out;
}

Result<std::vector<double>> log_spaced_positions(std::int64_t count, double max_position) {
  if (count < 2 || count > kMaxSweepPositions) {
    return Error{"count", "must be an integer from 2 to " + std::to_string(kMaxSweepPositions) +
                              ", got " + std::to_string(count)};
  }
  if (!(max_position >= 2.0 && max_position <= 1e15)) {
    return Error{"max_position", "must be a finite number from 2 to 1e15, got " +
                                     detail::format_number(max_position)};
  }
  std::vector<double> out(static_cast<std::size_t>(count));
  const double log_max = std::log(max_position);
  const double last = static_cast<double>(count - 1);
  for (std::size_t k = 0; k < out.size(); ++k)
    out[k] = std::round(std::exp(log_max * (static_cast<double>(k) / last)));
  out.front() = 1.0;
  out.back() = std::round(max_position);
  return out;
}

namespace {

// Calls row(k, errors) with the d/2 wrapped errors of positions[k], for every k in order.
template <class Row>
void for_each_error_row(int dim, double base, const PrecisionFormats& f,
                        std::span<const double> positions, Row row) {
  const auto t = pair_tables(dim, base, f.theta);
  const std::size_t half = t.exact.size();
  std::vector<double> errors(half);
  for (std::size_t k = 0; k < positions.size(); ++k) {
    const double p = positions[k];
    const double rounded = round_to(f.position, p);
    for (std::size_t i = 0; i < half; ++i) {
      const double angle = stored_angle(f, rounded, t.emulated[i]);
      errors[i] = wrap_error(angle, p * t.exact[i]);
    }
    row(k, std::span<const double>(errors));
  }
}

}  // namespace

Result<AngleErrorSweep> sweep_angle_error(std::int64_t dim, double base,
                                          const PrecisionFormats& formats,
                                          std::span<const double> positions) {
  if (auto s = validate_dim_base(dim, base); !s) return s.error();
  if (auto s = validate_positions(positions); !s) return s.error();
  AngleErrorSweep out;
  out.positions.assign(positions.begin(), positions.end());
  out.max_abs_error.resize(positions.size());
  out.worst_pair.resize(positions.size());
  for_each_error_row(static_cast<int>(dim), base, formats, positions,
                     [&](std::size_t k, std::span<const double> errors) {
                       double worst = 0.0;
                       int at = 0;
                       for (std::size_t i = 0; i < errors.size(); ++i) {
                         const double e = std::abs(errors[i]);
                         if (std::isnan(e)) {
                           worst = e;
                           at = -1;
                           break;
                         }
                         if (e > worst) {
                           worst = e;
                           at = static_cast<int>(i);
                         }
                       }
                       out.max_abs_error[k] = worst;
                       out.worst_pair[k] = at;
                     });
  return out;
}

Result<std::vector<float>> pair_angle_errors(std::int64_t dim, double base,
                                             const PrecisionFormats& formats,
                                             std::span<const double> positions) {
  if (auto s = validate_dim_base(dim, base); !s) return s.error();
  if (auto s = validate_positions(positions); !s) return s.error();
  const auto half = static_cast<std::size_t>(dim / 2);
  if (positions.size() * half > static_cast<std::size_t>(kMaxSweepEntries)) {
    return Error{"positions", std::to_string(positions.size()) + " positions x " +
                                  std::to_string(half) + " pairs is more than " +
                                  std::to_string(kMaxSweepEntries) + " entries"};
  }
  std::vector<float> out(positions.size() * half);
  for_each_error_row(static_cast<int>(dim), base, formats, positions,
                     [&](std::size_t k, std::span<const double> errors) {
                       for (std::size_t i = 0; i < half; ++i)
                         out[k * half + i] = static_cast<float>(errors[i]);
                     });
  return out;
}

Result<std::vector<double>> rotate_emulated(std::span<const double> x,
                                            std::span<const EmulatedAngle> angles,
                                            Pairing pairing) {
  if (angles.empty() || angles.size() > static_cast<std::size_t>(kMaxDim / 2)) {
    return Error{"angles", "must hold 1 to " + std::to_string(kMaxDim / 2) +
                               " angles (one per pair), got " + std::to_string(angles.size())};
  }
  if (x.size() != 2 * angles.size())
    return detail::size_error("x", 2 * angles.size(), x.size(), "[d]");
  const std::size_t half = angles.size();
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < half; ++i) {
    const auto [a, b] = detail::block_index(i, half, pairing);
    const double c = angles[i].cos;
    const double s = angles[i].sin;
    y[a] = x[a] * c - x[b] * s;
    y[b] = x[a] * s + x[b] * c;
  }
  return y;
}

}  // namespace rope
