// io/utf8.h — the one UTF-8 decoder: a code point at a byte offset, the first malformed byte of
// a text, the column of a byte offset, and a prefix cut on a character boundary.
//
// Well-formed UTF-8 is RFC 3629's: 1 to 4 bytes per code point, the shortest form only (no
// overlong encodings), no surrogates (U+D800 ... U+DFFF), nothing above U+10FFFF. Anything else
// is malformed and decodes to U+FFFD with a length of one byte, so a loop over a text always
// advances and always ends.
//
// Usage:
//   for (std::size_t i = 0; i < s.size();) {
//     const Utf8Char c = decode_utf8(s, i);
//     if (!c.valid) report(i);
//     i += c.length;
//   }
//   if (invalid_utf8_at(text) != std::string_view::npos) ...;  // not UTF-8
//   int column = utf8_column(line, byte_offset);                // 1-based, in code points
#pragma once

#include <cstddef>
#include <string_view>

namespace rope::app {

inline constexpr char32_t kReplacementCharacter = 0xFFFD;

struct Utf8Char {
  char32_t code_point = kReplacementCharacter;  // U+FFFD when !valid
  std::size_t length = 1;                       // bytes, 1 ... 4; 1 when !valid
  bool valid = false;
};

// The code point that starts at byte `pos` of s. pos >= s.size() gives an invalid Utf8Char.
Utf8Char decode_utf8(std::string_view s, std::size_t pos);

// Byte offset of the first malformed sequence of s; npos when s is well-formed UTF-8.
std::size_t invalid_utf8_at(std::string_view s);

// 1-based column of byte `offset` of s: 1 + the number of code points that start before it
// (bytes 10xxxxxx continue a code point and are not counted). Offsets past the end count the
// whole text.
int utf8_column(std::string_view s, std::size_t offset);

// The byte offset where 1-based `column` of s starts: the inverse of utf8_column. Columns past
// the end give s.size(); columns below 1 give 0.
std::size_t utf8_offset_of_column(std::string_view s, int column);

// The longest prefix of s of at most max_bytes bytes that does not cut a code point in two.
std::string_view utf8_prefix(std::string_view s, std::size_t max_bytes);

}  // namespace rope::app
