// io/number_format.h — the one number formatter: every number RoPE Lab prints, in a file, a
// message, a label or a tooltip, goes through format_number with a named style.
//
// Styles (examples for 0.1, -1234.5, 1e-7, 10000; digits = the style's default):
//   csv       exact: 17 significant digits, as printf("%.17g") prints them in the C locale;
//             reads back as the very same double. Exports, session files, parameter values
//             printed back ("0.10000000000000001", "-1234.5", "9.9999999999999995e-08",
//             "10000"; "inf", "-inf", "nan").
//   tooltip   exact for a person: the shortest text that reads back as the same double, fixed
//             point for 1e-4 <= |v| < 1e15, else a·10ⁿ; "−" (U+2212) for minus ("0.1",
//             "−1234.5", "1·10⁻⁷", "10000"; "∞", "−∞", "NaN").
//   label     short: `digits` significant digits (default 4), trailing zeros dropped, a·10ⁿ
//             outside 1e-4 <= |v| < 1e7, "−" for minus ("0.1", "−1235", "1·10⁻⁷", "10000").
//   tick      an axis tick: whole numbers below 1e15 in groups of three digits joined by thin
//             spaces (U+2009) when they have five digits or more ("10 000", "−1234"), anything
//             else as label with 4 digits.
//   log_tick  a tick on a logarithmic axis: exact powers of ten from 10⁵ up and from 10⁻⁵ down
//             as 10ⁿ ("10⁶", "10⁻⁵"), anything else as tick.
//   tex       TeX math for lesson equations: whole numbers below 1e9 grouped with "\," when they
//             have five digits or more ("10\,000"), else `digits` significant digits (default 5)
//             with a power of ten as "a \times 10^{n}" ("-1234.5", "10^{-7}",
//             "1.5 \times 10^{-7}"; "\text{NaN}" for a non-finite value).
//   plain     ASCII, `digits` significant digits (default 6), as printf("%.<digits>g") prints
//             them in the C locale: file names ("rope-lab_..._base10000_...") and lesson check
//             messages (10 digits) ("0.1", "-1234.5", "1e-07", "10000").
//
// Digits asked for (a lesson's {{name:5}} or {{name:.3}}, io/placeholders.h) replace the default of
// the label, tex and plain styles, and keep their trailing zeros (asking for 5 digits of 0.421697
// means 0.42170); other styles ignore them:
//   significant N (1 ... 17)   N significant digits; fixed point when the rounded value's decimal
//                              exponent e satisfies -4 <= e < N (the rule of printf's %g), else
//                              a·10ⁿ with N digits in a ("0.42170", "12346", "1.00·10⁴" for
//                              10000 with 3 digits, "3.1623·10⁻⁵").
//   fixed N (0 ... 17)         N digits after the decimal point ("0.422", "10000.000", "0.000" for
//                              1e-7: no minus on a value that rounds to zero); from 1e15 on,
//                              a·10ⁿ with N digits after the point in a.
//
// None of the styles depends on the C locale (a German LC_NUMERIC would turn printf's '.' into
// ','), and none fails: every double, NaN and infinities included, gets a text.
//
// Usage:
//   format_number(0.1, NumberStyle::csv)        // "0.10000000000000001"
//   format_number(0.1, NumberStyle::tooltip)    // "0.1"
//   format_number(-3.14159, NumberStyle::label, 3)  // "−3.14"
//   format_number(0.4216965, NumberStyle::tex, Digits::significant(5))  // "0.42170"
//   append_number(row, v, NumberStyle::csv);    // appends, for writers of many numbers
#pragma once

#include <cstdint>
#include <string>

namespace rope::app {

enum class NumberStyle { csv, tooltip, label, tick, log_tick, tex, plain };

// Significant digits of the styles that take them (label, tex, plain) when `digits` is 0;
// other styles ignore `digits`. Values outside 1 ... 17 are clamped to it.
inline constexpr int kLabelDigits = 4;
inline constexpr int kTexDigits = 5;
inline constexpr int kPlainDigits = 6;

inline constexpr int kMaxDigits = 17;  // a double has at most 17 significant decimal digits

// Digits asked for explicitly (see above); kind == style means the style's own default.
struct Digits {
  enum class Kind : std::uint8_t { style, significant, fixed };
  Kind kind = Kind::style;
  int count = 0;  // significant: 1 ... 17; fixed: digits after the point, 0 ... 17 (clamped)
  static Digits significant(int n) { return {Kind::significant, n}; }
  static Digits fixed(int n) { return {Kind::fixed, n}; }
  friend bool operator==(const Digits&, const Digits&) = default;
};

std::string format_number(double v, NumberStyle style, int digits = 0);
// Every digit a tooltip shows: the shortest text that reads back as the same double
// ("0.1", not "0.10000000000000001"; NumberStyle::tooltip).
inline std::string full_number(double v) {
  return format_number(v, NumberStyle::tooltip);
}
std::string format_number(double v, NumberStyle style, Digits digits);

// Appends format_number(v, style, digits) to out (no temporary string for the csv style).
void append_number(std::string& out, double v, NumberStyle style, int digits = 0);
void append_number(std::string& out, double v, NumberStyle style, Digits digits);

}  // namespace rope::app
