// precision_dump.cpp — prints what rope/low_precision.h computes, for tests/cli/check_precision.py
// to compare with its own, independent implementation.
//
//   precision_dump bits --format fp16|bf16
//       every 16-bit pattern b = 0 ... 65535: "b,value,back" with value = the decoded double
//       (%.17g) and back = the bits that value rounds to again.
//   precision_dump round --format fp16|bf16|fp32  < numbers
//       one number per line on stdin (anything strtod reads: 0.1, -0x1.8p-3, inf, nan); prints
//       the rounded bits as 0xHHHH (0xHHHHHHHH for fp32), one per line.
//   precision_dump angles --dim D --base B (--positions LIST | --range A:B)
//                         [--position-format F] [--theta-format F] [--angle-format F]
//                         [--trig-format F]
//       CSV "position,pair,exact_angle,angle,wrapped_error,cos,sin" (%.17g), every pair of every
//       position. These are the flags of the planned `rope-lab export precision`, so that the same
//       checker can run against the real export.
// Bad flags: one line "precision_dump: error: ..." on stderr, exit 2.
#include <CLI/CLI.hpp>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "rope/low_precision.h"

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "precision_dump: error: %s\n", message.c_str());
  std::exit(2);
}

// A whole token as a finite double, or nothing.
bool parse_number(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

rope::FloatFormat format_flag(const std::string& flag, const std::string& value) {
  const auto f = rope::parse_format(value);
  if (!f) fail(flag + ": must be one of fp64, fp32, bf16 or fp16, got '" + value + "'");
  return *f;
}

void print_bits(rope::FloatFormat format) {
  for (std::uint32_t b = 0; b <= 0xFFFF; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    const double v =
        format == rope::FloatFormat::fp16 ? rope::fp16_value(bits) : rope::bf16_value(bits);
    const unsigned back =
        format == rope::FloatFormat::fp16 ? rope::fp16_bits(v) : rope::bf16_bits(v);
    std::printf("%u,%.17g,%u\n", b, v, back);
  }
}

void print_rounded(rope::FloatFormat format) {
  std::string line;
  while (std::getline(std::cin, line)) {
    char* end = nullptr;
    const double x = std::strtod(line.c_str(), &end);
    if (end == line.c_str()) fail("stdin: not a number: '" + line + "'");
    switch (format) {
      case rope::FloatFormat::fp16:
        std::printf("0x%04x\n", static_cast<unsigned>(rope::fp16_bits(x)));
        break;
      case rope::FloatFormat::bf16:
        std::printf("0x%04x\n", static_cast<unsigned>(rope::bf16_bits(x)));
        break;
      default:
        std::printf("0x%08" PRIx32 "\n", rope::fp32_bits(x));
        break;
    }
  }
}

std::vector<double> parse_positions(const std::string& list, const std::string& range) {
  std::vector<double> out;
  if (!list.empty()) {
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      const std::string token = list.substr(start, comma - start);
      double v = 0.0;
      if (!parse_number(token, v)) {
        fail("--positions: entry " + std::to_string(out.size() + 1) +
             " must be a finite number, got '" + token + "'");
      }
      out.push_back(v);
      start = comma + 1;
    }
  } else {
    const std::size_t colon = range.find(':');
    double a = 0.0;
    double b = 0.0;
    if (colon == std::string::npos || !parse_number(range.substr(0, colon), a) ||
        !parse_number(range.substr(colon + 1), b) || a != std::floor(a) || b != std::floor(b) ||
        b < a || std::abs(a) > 1e15 || std::abs(b) > 1e15) {
      fail("--range: must be A:B with integers A <= B, got '" + range + "'");
    }
    if (b - a >= static_cast<double>(rope::kMaxSweepPositions)) {
      fail("--range: must hold at most " + std::to_string(rope::kMaxSweepPositions) +
           " positions, got '" + range + "'");
    }
    for (double p = a; p <= b; p += 1.0)
      out.push_back(p);
  }
  if (out.size() > static_cast<std::size_t>(rope::kMaxSweepPositions))
    fail("--positions: must hold at most " + std::to_string(rope::kMaxSweepPositions) + " entries");
  return out;
}

struct AngleFlags {
  std::int64_t dim = 0;
  double base = 0.0;
  std::string positions;
  std::string range;
  std::string position_format = "fp32";
  std::string theta_format = "fp32";
  std::string angle_format = "fp32";
  std::string trig_format = "fp32";
};

void print_angles(const AngleFlags& flags) {
  const rope::PrecisionFormats formats{format_flag("--position-format", flags.position_format),
                                       format_flag("--theta-format", flags.theta_format),
                                       format_flag("--angle-format", flags.angle_format),
                                       format_flag("--trig-format", flags.trig_format)};
  const auto positions = parse_positions(flags.positions, flags.range);
  // dim and base are judged before the header, so bad flags print nothing on stdout.
  if (auto th = rope::emulated_frequencies(flags.dim, flags.base, formats.theta); !th)
    fail("--" + th.error().to_string());
  std::printf("position,pair,exact_angle,angle,wrapped_error,cos,sin\n");
  for (const double p : positions) {
    const auto all = rope::emulate_angles(p, flags.dim, flags.base, formats);
    if (!all) fail("--" + all.error().to_string());
    for (std::size_t i = 0; i < all.value().size(); ++i) {
      const auto& a = all.value()[i];
      std::printf("%.17g,%zu,%.17g,%.17g,%.17g,%.17g,%.17g\n", p, i, a.exact_angle, a.angle,
                  a.wrapped_error, a.cos, a.sin);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Dump rope/low_precision.h results for tests/cli/check_precision.py"};
  app.require_subcommand(1);

  std::string bits_format;
  auto* bits = app.add_subcommand("bits", "every 16-bit pattern: bits,value,back");
  bits->add_option("--format", bits_format, "fp16 or bf16")->required();

  std::string round_format;
  auto* round = app.add_subcommand("round", "round the numbers on stdin; print their bits");
  round->add_option("--format", round_format, "fp16, bf16 or fp32")->required();

  AngleFlags flags;
  auto* angles = app.add_subcommand("angles", "emulated angles of every pair, as CSV");
  angles->add_option("--dim", flags.dim, "head dimension d")->required();
  angles->add_option("--base", flags.base, "frequency base")->required();
  auto* list = angles->add_option("--positions", flags.positions, "positions P1,P2,...");
  auto* range = angles->add_option("--range", flags.range, "integer positions A:B (inclusive)");
  list->excludes(range);
  angles->add_option("--position-format", flags.position_format, "fp64, fp32, bf16 or fp16")
      ->capture_default_str();
  angles->add_option("--theta-format", flags.theta_format)->capture_default_str();
  angles->add_option("--angle-format", flags.angle_format)->capture_default_str();
  angles->add_option("--trig-format", flags.trig_format)->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fail(e.what());
  }

  if (*bits) {
    const auto f = format_flag("--format", bits_format);
    if (f != rope::FloatFormat::fp16 && f != rope::FloatFormat::bf16)
      fail("--format: must be fp16 or bf16, got '" + bits_format + "'");
    print_bits(f);
  } else if (*round) {
    const auto f = format_flag("--format", round_format);
    if (f == rope::FloatFormat::fp64) fail("--format: must be fp16, bf16 or fp32, got 'fp64'");
    print_rounded(f);
  } else {
    if (flags.positions.empty() == flags.range.empty())
      fail("angles: needs exactly one of --positions or --range");
    print_angles(flags);
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}
