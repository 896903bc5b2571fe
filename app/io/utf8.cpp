#include "io/utf8.h"

namespace rope::app {
namespace {

bool is_continuation(unsigned char b) {
  return (b & 0xC0u) == 0x80u;
}

}  // namespace

Utf8Char decode_utf8(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return {};
  const auto b0 = static_cast<unsigned char>(s[pos]);
  if (b0 < 0x80u) return {b0, 1, true};
  std::size_t length = 0;
  char32_t cp = 0;
  if ((b0 & 0xE0u) == 0xC0u) {
    length = 2;
    cp = b0 & 0x1Fu;
  } else if ((b0 & 0xF0u) == 0xE0u) {
    length = 3;
    cp = b0 & 0x0Fu;
  } else if ((b0 & 0xF8u) == 0xF0u) {
    length = 4;
    cp = b0 & 0x07u;
  } else {
    return {};  // a continuation byte without a lead, or 0xF8 ... 0xFF
  }
  if (length > s.size() - pos) return {};  // truncated at the end of the text
  for (std::size_t j = 1; j < length; ++j) {
    const auto b = static_cast<unsigned char>(s[pos + j]);
    if (!is_continuation(b)) return {};
    cp = (cp << 6) | (b & 0x3Fu);
  }
  const char32_t shortest = length == 2 ? 0x80u : length == 3 ? 0x800u : 0x10000u;
  if (cp < shortest || cp > 0x10FFFFu || (cp >= 0xD800u && cp <= 0xDFFFu)) return {};
  return {cp, length, true};
}

std::size_t invalid_utf8_at(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const Utf8Char c = decode_utf8(s, i);
    if (!c.valid) return i;
    i += c.length;
  }
  return std::string_view::npos;
}

int utf8_column(std::string_view s, std::size_t offset) {
  int column = 1;
  for (std::size_t i = 0; i < offset && i < s.size(); ++i)
    if (!is_continuation(static_cast<unsigned char>(s[i]))) ++column;
  return column;
}

std::size_t utf8_offset_of_column(std::string_view s, int column) {
  std::size_t offset = 0;
  for (int col = 1; col < column && offset < s.size(); ++col) {
    ++offset;  // past the first byte of this column's code point, then its continuation bytes
    while (offset < s.size() && is_continuation(static_cast<unsigned char>(s[offset])))
      ++offset;
  }
  return offset;
}

std::string_view utf8_prefix(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  std::size_t end = max_bytes;
  while (end > 0 && is_continuation(static_cast<unsigned char>(s[end])))
    --end;  // s[end] is the first byte left out: back up to the start of its code point
  return s.substr(0, end);
}

}  // namespace rope::app
