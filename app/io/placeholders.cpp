#include "io/placeholders.h"

namespace rope::app {
namespace {

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_name_char(char c) {
  return is_name_start(c) || (c >= '0' && c <= '9') || c == '.';
}

// Characters of a digits spec: wide enough that a typo ("x", "5f", "-3") is still a placeholder
// and gets reported, narrow enough that TeX groups such as {{a:\mathbb{R}}} stay TeX.
bool is_spec_char(char c) {
  return c > ' ' && c < 127 && c != '{' && c != '}' && c != '\\' && c != '$';
}

// A whole number of 1 or 2 decimal digits, or -1.
int small_number(std::string_view s) {
  if (s.empty() || s.size() > 2) return -1;
  int n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    n = 10 * n + (c - '0');
  }
  return n;
}

}  // namespace

std::optional<Placeholder> placeholder_at(std::string_view text, std::size_t pos) {
  if (pos > text.size() || text.substr(pos, 2) != "{{") return std::nullopt;
  std::size_t end = pos + 2;
  if (end >= text.size() || !is_name_start(text[end])) return std::nullopt;
  // '-' only in an argument, after a '.' (the precision preset of case_max_error.theta-bf16.…):
  // TeX such as x^{{m-n}} stays TeX
  bool argument = false;
  while (end < text.size() && (is_name_char(text[end]) || (argument && text[end] == '-'))) {
    argument = argument || text[end] == '.';
    ++end;
  }
  Placeholder p{pos, text.substr(pos + 2, end - pos - 2), {}, false};
  if (end < text.size() && text[end] == ':') {
    const std::size_t spec_begin = end + 1;
    end = spec_begin;
    while (end < text.size() && is_spec_char(text[end]))
      ++end;
    p.has_spec = true;
    p.spec = text.substr(spec_begin, end - spec_begin);
  }
  if (text.substr(end, 2) != "}}") return std::nullopt;
  return p;
}

std::vector<Placeholder> find_placeholders(std::string_view text) {
  std::vector<Placeholder> out;
  std::size_t i = 0;
  while ((i = text.find("{{", i)) != std::string_view::npos) {
    if (const auto p = placeholder_at(text, i)) {
      out.push_back(*p);
      i += p->size();
    } else {
      ++i;
    }
  }
  return out;
}

PlaceholderDigits placeholder_digits(const Placeholder& p) {
  if (!p.has_spec) return {};
  const std::string_view s = p.spec;
  const bool fixed = !s.empty() && s.front() == '.';
  const int n = small_number(fixed ? s.substr(1) : s);
  if (fixed && n >= 0 && n <= kMaxDigits) return {Digits::fixed(n), {}};
  if (!fixed && n >= 1 && n <= kMaxDigits) return {Digits::significant(n), {}};
  return {{},
          "digits of {{" + std::string(p.name) +
              ":...}} must be N for N significant digits (1 to 17) or .N for N digits after the "
              "decimal point (0 to 17), got '" +
              std::string(s) + "'"};
}

std::string expand_placeholders(std::string_view text, const PlaceholderValue& value) {
  std::string out;
  std::size_t done = 0;  // text before this offset is in `out`
  for (const Placeholder& p : find_placeholders(text)) {
    std::optional<std::string> v = value(p);
    if (!v) continue;
    out += text.substr(done, p.offset - done);
    out += *v;
    done = p.offset + p.size();
  }
  out += text.substr(done);
  return out;
}

}  // namespace rope::app
