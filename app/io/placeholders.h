// io/placeholders.h — live values in lesson text: `{{name}}` placeholders, found and expanded by
// one rule wherever they appear (prose, TeX equations, the lesson checker, the TeX parser).
//
// The rule: a placeholder is "{{", a name, optionally ':' and a digits spec, then "}}", with
// nothing else in between. The name is an identifier: a letter or '_', then letters, digits, '_'
// or '.' ("theta.0", "rope_score"). The spec is a run of printable ASCII other than braces,
// spaces, '\' and '$' (possibly empty); placeholder_digits() reads it:
//   {{theta.3:5}}    5 significant digits, trailing zeros kept (0.42170)
//   {{theta.3:.3}}   3 digits after the decimal point (0.422)
// and names what is allowed for any other spec ("{{theta.3:}}", "{{theta.3:x}}", "{{m:0}}"), so
// that a typo is reported rather than shown as text.
// The text is read from left to right; at each "{{" that does not open a placeholder the search
// goes on from the next character, so "{{{m}}}" (a TeX group around a value) holds {{m}} at
// offset 1. Anything else — "{{ m }}", "{{}}", "{{2x}}", a "{{" never closed — is plain text and
// is left as it is.
//
// Usage:
//   for (const Placeholder& p : find_placeholders(text)) check(p.name, p.offset);
//   std::string shown = expand_placeholders(text, [&](const Placeholder& p)
//                                                     -> std::optional<std::string> {
//     if (!known(p.name)) return std::nullopt;  // left as written
//     return value_of(p.name, placeholder_digits(p).digits);
//   });
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/number_format.h"

namespace rope::app {

struct Placeholder {
  std::size_t offset = 0;  // byte offset of its "{{" in the text
  std::string_view name;   // a view into the text
  std::string_view spec;   // after the ':' (a view into the text); empty without one
  bool has_spec = false;   // a ':' follows the name (the spec may still be empty)
  // The text between the braces, "theta.3:5": the key of its value (rope/typeset/parser.h).
  std::string_view key() const {
    return {name.data(), name.size() + (has_spec ? spec.size() + 1 : 0)};
  }
  std::size_t size() const { return key().size() + 4; }
};

// The placeholder whose "{{" is at byte `pos` of text, if one starts there.
std::optional<Placeholder> placeholder_at(std::string_view text, std::size_t pos);

// Every placeholder of text, in order.
std::vector<Placeholder> find_placeholders(std::string_view text);

// The digits a placeholder asks for (Digits::Kind::style without a spec), or, for a spec that is
// not N (1 to 17) or .N (0 to 17), the default digits and an error naming what is allowed.
struct PlaceholderDigits {
  Digits digits;
  std::string error;  // empty when the spec is fine
};
PlaceholderDigits placeholder_digits(const Placeholder& p);

// The value of a placeholder, or nullopt to leave the placeholder as written.
using PlaceholderValue = std::function<std::optional<std::string>(const Placeholder& p)>;

// text with every placeholder replaced by its value.
std::string expand_placeholders(std::string_view text, const PlaceholderValue& value);

}  // namespace rope::app
