// io/placeholders.h — live values in lesson text: `{{name}}` placeholders, found and expanded by
// one rule wherever they appear (prose, TeX equations, the lesson checker, the TeX parser).
//
// The rule: a placeholder is "{{", a name, "}}" with nothing in between, where the name is an
// identifier: a letter or '_', then letters, digits, '_' or '.' ("theta.0", "rope_score").
// The text is read from left to right; at each "{{" that does not open a placeholder the search
// goes on from the next character, so "{{{m}}}" (a TeX group around a value) holds {{m}} at
// offset 1. Anything else — "{{ m }}", "{{}}", "{{2x}}", a "{{" never closed — is plain text and
// is left as it is.
//
// Usage:
//   for (const Placeholder& p : find_placeholders(text)) check(p.name, p.offset);
//   std::string shown = expand_placeholders(text, [&](std::string_view name)
//                                                     -> std::optional<std::string> {
//     if (!known(name)) return std::nullopt;  // left as written
//     return value_of(name);
//   });
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rope::app {

struct Placeholder {
  std::size_t offset = 0;  // byte offset of its "{{" in the text
  std::string_view name;   // a view into the text; the placeholder is name.size() + 4 bytes
  std::size_t size() const { return name.size() + 4; }
};

// The placeholder whose "{{" is at byte `pos` of text, if one starts there.
std::optional<Placeholder> placeholder_at(std::string_view text, std::size_t pos);

// Every placeholder of text, in order.
std::vector<Placeholder> find_placeholders(std::string_view text);

// The value of a placeholder by name, or nullopt to leave the placeholder as written.
using PlaceholderValue = std::function<std::optional<std::string>(std::string_view name)>;

// text with every placeholder replaced by its value.
std::string expand_placeholders(std::string_view text, const PlaceholderValue& value);

}  // namespace rope::app
