#include "io/placeholders.h"

namespace rope::app {
namespace {

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_name_char(char c) {
  return is_name_start(c) || (c >= '0' && c <= '9') || c == '.';
}

}  // namespace

std::optional<Placeholder> placeholder_at(std::string_view text, std::size_t pos) {
  if (pos > text.size() || text.substr(pos, 2) != "{{") return std::nullopt;
  std::size_t end = pos + 2;
  if (end >= text.size() || !is_name_start(text[end])) return std::nullopt;
  while (end < text.size() && is_name_char(text[end]))
    ++end;
  if (text.substr(end, 2) != "}}") return std::nullopt;
  return Placeholder{pos, text.substr(pos + 2, end - pos - 2)};
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

std::string expand_placeholders(std::string_view text, const PlaceholderValue& value) {
  std::string out;
  std::size_t done = 0;  // text before this offset is in `out`
  for (const Placeholder& p : find_placeholders(text)) {
    std::optional<std::string> v = value(p.name);
    if (!v) continue;
    out += text.substr(done, p.offset - done);
    out += *v;
    done = p.offset + p.size();
  }
  out += text.substr(done);
  return out;
}

}  // namespace rope::app
