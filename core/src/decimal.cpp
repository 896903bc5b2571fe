// decimal.cpp — see rope/decimal.h. {fmt} is used header-only (FMT_HEADER_ONLY, set by the
// build), so the core links no library for it.
#include "rope/decimal.h"

#include <fast_float/fast_float.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>

namespace rope {
namespace {

// The shortest decimal of a finite, non-negative a: digits "d1d2...dn" with the value
// 0.d1d2...dn * 10^point (digits without leading or trailing zeros; "0" with point 1 for 0).
struct Decimal {
  std::string digits = "0";
  int point = 1;
};

Decimal shortest_decimal(double a) {
  // {fmt}'s "{}" prints Dragonbox's shortest round-trip digits, as "0.001", "1234.5",
  // "100000" or "1.5e-07"; only the digits and the position of the point are kept
  const std::string s = fmt::format("{}", a);
  const auto e = std::min(s.find('e'), s.size());
  const std::string_view mantissa(s.data(), e);
  const auto dot = std::min(mantissa.find('.'), mantissa.size());
  Decimal d;
  d.digits.clear();
  for (char c : mantissa)
    if (c != '.') d.digits += c;
  d.point = static_cast<int>(dot) + (e < s.size() ? std::atoi(s.c_str() + e + 1) : 0);
  const auto lead = std::min(d.digits.find_first_not_of('0'), d.digits.size());
  if (lead == d.digits.size()) return Decimal{"0", 1};
  d.digits.erase(0, lead);
  d.point -= static_cast<int>(lead);
  while (d.digits.back() == '0')
    d.digits.pop_back();
  return d;
}

std::string exponent_text(int e) {
  // as printf: a sign and at least two digits
  std::string digits = std::to_string(e < 0 ? -e : e);
  if (digits.size() < 2) digits.insert(0, "0");
  return std::string(e < 0 ? "e-" : "e+") + digits;
}

std::string as_scientific(const Decimal& d) {
  std::string s = d.digits.substr(0, 1);
  if (d.digits.size() > 1) s += "." + d.digits.substr(1);
  return s + exponent_text(d.digits == "0" ? 0 : d.point - 1);
}

// Past the shortest digits a whole number is written out exactly, as to_chars does (of the
// texts of equal length that read back as v, the one closest to it).
std::string as_fixed(const Decimal& d, double v) {
  const int n = static_cast<int>(d.digits.size());
  if (d.point > n) return fmt::format("{:.0f}", std::fabs(v));
  if (d.point <= 0) return "0." + std::string(static_cast<std::size_t>(-d.point), '0') + d.digits;
  if (d.point == n) return d.digits;
  return d.digits.substr(0, static_cast<std::size_t>(d.point)) + "." +
         d.digits.substr(static_cast<std::size_t>(d.point));
}

std::string non_finite(double v) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
  return v < 0 ? "-inf" : "inf";
}

}  // namespace

std::string shortest(double v, Notation notation) {
  if (!std::isfinite(v)) return non_finite(v);
  const Decimal d = shortest_decimal(std::fabs(v));
  std::string s;
  if (notation == Notation::fixed) {
    s = as_fixed(d, v);
  } else if (notation == Notation::scientific) {
    s = as_scientific(d);
  } else {
    std::string f = as_fixed(d, v), e = as_scientific(d);
    s = e.size() < f.size() ? std::move(e) : std::move(f);
  }
  return std::signbit(v) ? "-" + s : s;
}

std::string with_precision(double v, Notation notation, int precision) {
  if (!std::isfinite(v)) return non_finite(v);
  const int p = std::clamp(precision, 0, 40);
  switch (notation) {
    case Notation::fixed:
      return fmt::format("{:.{}f}", v, p);
    case Notation::scientific:
      return fmt::format("{:.{}e}", v, p);
    case Notation::general:
      break;
  }
  return fmt::format("{:.{}g}", v, std::max(p, 1));
}

void append_exact(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += non_finite(v);
    return;
  }
  fmt::format_to(std::back_inserter(out), "{:.17g}", v);
}

ParseResult parse_double(std::string_view text, double& out) {
  const char* first = text.data();
  const char* last = first + text.size();
  double v = 0.0;
  const auto r = fast_float::from_chars(first, last, v);
  if (r.ec != std::errc()) return {first, r.ec};
  // fast_float gives inf or 0 for a magnitude out of range; from_chars reports it instead
  const std::string_view read(first, static_cast<std::size_t>(r.ptr - first));
  const auto mantissa = read.substr(0, read.find_first_of("eE"));
  const bool literal = mantissa.find_first_of("iInN") != std::string_view::npos;
  const bool nonzero = mantissa.find_first_of("123456789") != std::string_view::npos;
  if ((std::isinf(v) && !literal) || (v == 0.0 && nonzero))
    return {r.ptr, std::errc::result_out_of_range};
  out = v;
  return {r.ptr, std::errc()};
}

}  // namespace rope
