// rope/decimal.h — decimal text of doubles, the one place every number RoPE Lab writes or reads
// as text goes through. It gives what std::to_chars / std::from_chars give for double (and so
// what printf gives in the C locale), in every build: the browser build's standard library
// (LLVM 14's libc++) has no floating-point to_chars / from_chars, so the digits come from
// {fmt} (Dragonbox for the shortest round-trip text, exact rounding for a given precision) and
// the parsing from fast_float, both header-only Debian packages.
//
//   shortest(0.1)                         "0.1"        as std::to_chars(p, e, v)
//   shortest(1e-7, Notation::fixed)       "0.0000001"  as std::to_chars(p, e, v, fixed)
//   shortest(1e-7, Notation::scientific)  "1e-07"      as std::to_chars(p, e, v, scientific)
//   with_precision(0.1, Notation::general, 17)   "0.10000000000000001"  (printf "%.17g")
//   with_precision(2.5, Notation::fixed, 3)      "2.500"                (printf "%.3f")
//   with_precision(2.5, Notation::scientific, 2) "2.50e+00"             (printf "%.2e")
//   parse_double("1.5e3", v)              v = 1500, as std::from_chars(first, last, v)
//
// Non-finite values are "inf", "-inf", "nan" (and "-nan" for a NaN with its sign bit set).
#pragma once

#include <string>
#include <string_view>
#include <system_error>

namespace rope {

enum class Notation { general, fixed, scientific };

// The shortest text that reads back as v. Notation::general (to_chars without a format) takes
// whichever of fixed and scientific is shorter, fixed on a tie.
std::string shortest(double v, Notation notation = Notation::general);

// v with `precision` digits (after the point for fixed and scientific; significant for general,
// trailing zeros dropped as in printf's %g). precision is clamped to 0 ... 40.
std::string with_precision(double v, Notation notation, int precision);

// Appends with_precision(v, general, 17) to out without a temporary: the hot path of exports.
void append_exact(std::string& out, double v);

// Reads a double from the start of `text` as std::from_chars(…, chars_format::general) does:
// no leading white space or '+', "inf" / "nan" accepted. ptr points past the characters read;
// ec is invalid_argument when there is no number (out unchanged) and result_out_of_range when
// its magnitude is beyond a double's range (out unchanged).
struct ParseResult {
  const char* ptr;
  std::errc ec;
};
ParseResult parse_double(std::string_view text, double& out);

}  // namespace rope
