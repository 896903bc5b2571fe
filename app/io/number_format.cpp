#include "io/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "rope/decimal.h"

namespace rope::app {
namespace {

constexpr const char* kMinus = "−";      // U+2212, as in typeset maths
constexpr const char* kThinSpace = " ";  // U+2009, between groups of three digits
constexpr const char* kSuperscript[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};

int digits_or(int digits, int fallback) {
  return digits == 0 ? fallback : std::clamp(digits, 1, 17);
}

// The digits: the shortest round-trip text (precision < 0) or `precision` digits, as printf
// prints them in the C locale (rope/decimal.h, the same in the desktop and the browser build).
std::string chars(double v, rope::Notation notation, int precision) {
  return precision < 0 ? rope::shortest(v, notation) : rope::with_precision(v, notation, precision);
}

std::string superscript(long long n) {
  std::string s = n < 0 ? "⁻" : "";
  for (char c : std::to_string(n < 0 ? -n : n))
    s += kSuperscript[c - '0'];
  return s;
}

// "3.162e-05" -> "3.162·10⁻⁵"; text without an exponent is returned as it is.
std::string with_power_of_ten(std::string s) {
  const auto e = s.find('e');
  if (e == std::string::npos) return s;
  const long long exponent = std::atoll(s.c_str() + e + 1);
  return s.substr(0, e) + "·10" + superscript(exponent);
}

std::string non_finite(double v) {
  return v > 0 ? "∞" : (v < 0 ? "−∞" : "NaN");
}

std::string label(double v, int digits) {
  if (!std::isfinite(v)) return non_finite(v);
  const double a = std::fabs(v);
  const std::string s = with_power_of_ten(a != 0.0 && (a >= 1e7 || a < 1e-4)
                                              ? chars(a, rope::Notation::scientific, digits - 1)
                                              : chars(a, rope::Notation::general, digits));
  // a value that rounds to zero is shown without a sign
  const bool negative = v < 0 && s.find_first_not_of("0.·") != std::string::npos;
  return negative ? kMinus + s : s;
}

std::string tooltip(double v) {
  if (!std::isfinite(v)) return non_finite(v);
  const double a = std::fabs(v);
  const std::string s = a == 0.0 || (a >= 1e-4 && a < 1e15)
                            ? chars(a, rope::Notation::fixed, -1)
                            : with_power_of_ten(chars(a, rope::Notation::scientific, -1));
  return std::signbit(v) && a != 0.0 ? kMinus + s : s;
}

// 12345 -> "12 345" (thin spaces), four digits stay whole.
std::string grouped(long long v, const char* separator, const char* minus) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && digits.size() > 4 && (digits.size() - i) % 3 == 0) out += separator;
    out += digits[i];
  }
  return (v < 0 ? minus : "") + out;
}

std::string tick(double v) {
  if (std::isfinite(v) && v == std::round(v) && std::fabs(v) < 1e15)
    return grouped(std::llround(v), kThinSpace, kMinus);
  return label(v, kLabelDigits);
}

std::string log_tick(double v) {
  if (std::isfinite(v) && v > 0.0) {
    const double e = std::log10(v);
    const double re = std::round(e);
    if (std::fabs(e - re) < 1e-9 && std::fabs(re) >= 5.0)
      return "10" + superscript(static_cast<long long>(re));
  }
  return tick(v);
}

std::string tex(double v, int digits) {
  if (!std::isfinite(v)) return "\\text{NaN}";
  if (v == 0.0) return "0";
  if (v == std::round(v) && std::fabs(v) < 1e9) return grouped(std::llround(v), "\\,", "-");
  const std::string s = chars(v, rope::Notation::general, digits);
  const auto e = s.find('e');
  if (e == std::string::npos) return s;
  const std::string mantissa = s.substr(0, e);
  const std::string power = "10^{" + std::to_string(std::atoi(s.c_str() + e + 1)) + "}";
  return mantissa == "1" ? power : mantissa + " \\times " + power;
}

// |v| with the digits asked for, trailing zeros kept: fixed-point text, or a mantissa and its
// power of ten (number_format.h gives the rules).
struct ExplicitDigits {
  std::string text;           // "0.42170", "3.1623"
  bool power = false;         // text is a mantissa
  int exponent = 0;           // of the power of ten
  std::string exponent_text;  // as printf writes it: "e-05"
  bool zero = false;          // every digit is 0: no minus sign
};

ExplicitDigits explicit_digits(double a, Digits d) {
  ExplicitDigits out;
  const auto split = [&out](const std::string& sci) {
    const auto e = sci.find('e');
    out.text = sci.substr(0, e);
    out.power = true;
    out.exponent = std::atoi(sci.c_str() + e + 1);
    out.exponent_text = sci.substr(e);
  };
  if (d.kind == Digits::Kind::fixed) {
    const int n = std::clamp(d.count, 0, kMaxDigits);
    // below 1e15 the fixed text fits the 64-character buffer (15 + 1 + 17 characters)
    if (a < 1e15) {
      out.text = chars(a, rope::Notation::fixed, n);
    } else {
      split(chars(a, rope::Notation::scientific, n));
    }
  } else {
    const int n = std::clamp(d.count, 1, kMaxDigits);
    // the exponent after rounding to n digits decides, as in printf's %g (9.99996 -> 10.000)
    const std::string sci = chars(a, rope::Notation::scientific, n - 1);
    const int x = std::atoi(sci.c_str() + sci.find('e') + 1);
    if (x >= -4 && x < n) {
      out.text = chars(a, rope::Notation::fixed, n - 1 - x);
    } else {
      split(sci);
    }
  }
  out.zero = out.text.find_first_not_of("0.") == std::string::npos;
  return out;
}

void append_explicit(std::string& out, double v, NumberStyle style, Digits d) {
  if (!std::isfinite(v)) {
    append_number(out, v, style, 0);  // the style's own text for NaN and infinities
    return;
  }
  const ExplicitDigits e = explicit_digits(std::fabs(v), d);
  if (std::signbit(v) && !e.zero) out += style == NumberStyle::label ? kMinus : "-";
  out += e.text;
  if (!e.power) return;
  if (style == NumberStyle::label) {
    out += "·10" + superscript(e.exponent);
  } else if (style == NumberStyle::tex) {
    out += " \\times 10^{" + std::to_string(e.exponent) + "}";
  } else {
    out += e.exponent_text;
  }
}

}  // namespace

void append_number(std::string& out, double v, NumberStyle style, Digits digits) {
  const bool takes_digits =
      style == NumberStyle::label || style == NumberStyle::tex || style == NumberStyle::plain;
  if (digits.kind == Digits::Kind::style || !takes_digits) {
    append_number(out, v, style, 0);
    return;
  }
  append_explicit(out, v, style, digits);
}

std::string format_number(double v, NumberStyle style, Digits digits) {
  std::string s;
  append_number(s, v, style, digits);
  return s;
}

void append_number(std::string& out, double v, NumberStyle style, int digits) {
  switch (style) {
    case NumberStyle::csv: {
      // the hot path of every export: straight into `out`, no temporary
      rope::append_exact(out, v);
      return;
    }
    case NumberStyle::tooltip:
      out += tooltip(v);
      return;
    case NumberStyle::label:
      out += label(v, digits_or(digits, kLabelDigits));
      return;
    case NumberStyle::tick:
      out += tick(v);
      return;
    case NumberStyle::log_tick:
      out += log_tick(v);
      return;
    case NumberStyle::tex:
      out += tex(v, digits_or(digits, kTexDigits));
      return;
    case NumberStyle::plain:
      out += chars(v, rope::Notation::general, digits_or(digits, kPlainDigits));
      return;
  }
}

std::string format_number(double v, NumberStyle style, int digits) {
  std::string s;
  append_number(s, v, style, digits);
  return s;
}

}  // namespace rope::app
