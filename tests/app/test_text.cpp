// Text in RoPE Lab: the UTF-8 decoder (io/utf8.h), the {{name}} placeholder rule
// (io/placeholders.h) and the words of a sentence (state/words.h), on cases worked out by hand
// and, for the decoder, on every code point and on seeded random bytes.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "io/exit_codes.h"
#include "io/placeholders.h"
#include "io/utf8.h"
#include "state/params.h"
#include "state/words.h"

using namespace rope::app;

namespace {

// The UTF-8 encoding of a code point, written out from RFC 3629's table.
std::string encode(char32_t cp) {
  std::string s;
  const auto byte = [&](std::uint32_t b) { s += static_cast<char>(static_cast<unsigned char>(b)); };
  if (cp < 0x80) {
    byte(cp);
  } else if (cp < 0x800) {
    byte(0xC0 | (cp >> 6));
    byte(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    byte(0xE0 | (cp >> 12));
    byte(0x80 | ((cp >> 6) & 0x3F));
    byte(0x80 | (cp & 0x3F));
  } else {
    byte(0xF0 | (cp >> 18));
    byte(0x80 | ((cp >> 12) & 0x3F));
    byte(0x80 | ((cp >> 6) & 0x3F));
    byte(0x80 | (cp & 0x3F));
  }
  return s;
}

std::vector<std::string> names(std::string_view text) {
  std::vector<std::string> out;
  for (const Placeholder& p : find_placeholders(text))
    out.emplace_back(p.name);
  return out;
}

using Words = std::vector<std::string>;

}  // namespace

TEST_CASE("utf8: code points of one to four bytes decode with their length", "[utf8]") {
  const std::string s = "a\u00e9\u2212\U0001D703";  // a, é, minus, 𝜃 (1 + 2 + 3 + 4 bytes)
  REQUIRE(s.size() == 10);
  const Utf8Char a = decode_utf8(s, 0), e = decode_utf8(s, 1), minus = decode_utf8(s, 3),
                 theta = decode_utf8(s, 6);
  CHECK((a.valid && a.code_point == U'a' && a.length == 1));
  CHECK((e.valid && e.code_point == 0xE9 && e.length == 2));
  CHECK((minus.valid && minus.code_point == 0x2212 && minus.length == 3));
  CHECK((theta.valid && theta.code_point == 0x1D703 && theta.length == 4));
  CHECK(invalid_utf8_at(s) == std::string_view::npos);
  CHECK_FALSE(decode_utf8(s, 10).valid);  // past the end
}

TEST_CASE("utf8: malformed sequences give U+FFFD, one byte, and their offset", "[utf8]") {
  struct Case {
    const char* what;
    std::string bytes;
    std::size_t bad_at;
  };
  const Case cases[] = {
      {"a stray continuation byte", "ab\x80", 2},
      {"a lead byte at the end", "ab\xC3", 2},
      {"a truncated three-byte sequence", "x\xE2\x88", 1},
      {"a lead byte followed by ASCII", "\xC3(", 0},
      {"an overlong '/'", "ok\xC0\xAF", 2},
      {"an overlong three-byte NUL", "\xE0\x80\x80", 0},
      {"a surrogate U+D800", "a\xED\xA0\x80", 1},
      {"beyond U+10FFFF", "\xF4\x90\x80\x80", 0},
      {"0xFF", "abc\xFF", 3},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(invalid_utf8_at(c.bytes) == c.bad_at);
    const Utf8Char d = decode_utf8(c.bytes, c.bad_at);
    CHECK_FALSE(d.valid);
    CHECK(d.code_point == kReplacementCharacter);
    CHECK(d.length == 1);
  }
}

TEST_CASE("utf8: every scalar value round-trips, random bytes never stall", "[utf8]") {
  for (char32_t cp = 0; cp <= 0x10FFFF; cp += (cp < 0x3000 ? 1 : 7)) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    const std::string s = encode(cp);
    const Utf8Char d = decode_utf8(s, 0);
    if (!d.valid || d.code_point != cp || d.length != s.size()) {
      FAIL_CHECK("U+" << std::hex << static_cast<std::uint32_t>(cp));
      break;
    }
  }
  std::mt19937 rng(17);
  std::uniform_int_distribution<std::size_t> length(0, 39);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int t = 0; t < 2000; ++t) {
    std::string s(length(rng), '\0');
    for (char& c : s)
      c = static_cast<char>(byte(rng));
    std::size_t steps = 0;
    for (std::size_t i = 0; i < s.size(); i += decode_utf8(s, i).length)
      ++steps;
    CHECK(steps <= s.size());
    CHECK(steps >= (s.size() + 3) / 4);
  }
}

TEST_CASE("utf8: columns count code points, prefixes keep characters whole", "[utf8]") {
  const std::string s = "θ = 2π";  // θ and π are two bytes each
  CHECK(utf8_column(s, 0) == 1);
  CHECK(utf8_column(s, 2) == 2);  // the space after θ
  CHECK(utf8_column(s, 6) == 6);  // π
  CHECK(utf8_column(s, 100) == 7);
  CHECK(utf8_offset_of_column(s, 1) == 0);
  CHECK(utf8_offset_of_column(s, 2) == 2);
  CHECK(utf8_offset_of_column(s, 6) == 6);
  CHECK(utf8_offset_of_column(s, 99) == s.size());
  for (std::size_t offset : {0u, 2u, 3u, 6u})
    CHECK(utf8_offset_of_column(s, utf8_column(s, offset)) == offset);
  CHECK(utf8_prefix(s, 100) == s);
  CHECK(utf8_prefix(s, 7) == "θ = 2");  // byte 7 is inside π
  CHECK(utf8_prefix(s, 1) == "");       // byte 1 is inside θ
  CHECK(utf8_prefix("a\u00e9", 2) == "a");
}

TEST_CASE("placeholders: {{identifier}} only, found from left to right", "[placeholders]") {
  CHECK(names("m = {{m}}, θ₀ = {{theta.0}}") == std::vector<std::string>{"m", "theta.0"});
  CHECK(names("{{rope_score}}{{_x2}}") == std::vector<std::string>{"rope_score", "_x2"});
  // not placeholders: spaces, an empty or non-identifier name, a missing close
  CHECK(names("{{ m }} {{}} {{2x}} {{a-b}} {{m} }} {{m").empty());
  // a '-' inside an argument: a precision preset's name
  CHECK(names("{{case_max_error.theta-bf16.128.10000.100000:3}}") ==
        std::vector<std::string>{"case_max_error.theta-bf16.128.10000.100000"});
  // a TeX group around a value: the placeholder starts at offset 1
  const auto nested = find_placeholders("{{{m}}}");
  REQUIRE(nested.size() == 1);
  CHECK(nested[0].offset == 1);
  CHECK(nested[0].name == "m");
  CHECK(nested[0].size() == 5);
  const auto at = placeholder_at("x = {{d}}", 4);
  REQUIRE(at.has_value());
  CHECK(at->name == "d");
  CHECK_FALSE(placeholder_at("x = {{d}}", 3).has_value());
  CHECK_FALSE(placeholder_at("{{d}}", 99).has_value());
}

TEST_CASE("placeholders: expansion replaces known names and keeps the rest as written",
          "[placeholders]") {
  const PlaceholderValue value = [](const Placeholder& p) -> std::optional<std::string> {
    const std::string_view name = p.name;
    if (name == "m") return "3";
    if (name == "base") return "10\\,000";
    return std::nullopt;
  };
  CHECK(expand_placeholders("m = {{m}}, base {{base}}.", value) == "m = 3, base 10\\,000.");
  CHECK(expand_placeholders("{{n}} and {{m}}", value) == "{{n}} and 3");
  CHECK(expand_placeholders("x^{{{m}}}", value) == "x^{3}");
  CHECK(expand_placeholders("{{ m }}", value) == "{{ m }}");
  CHECK(expand_placeholders("", value).empty());
  CHECK(expand_placeholders("no values here", value) == "no values here");
}

TEST_CASE("placeholders: a digits spec after ':' is part of the placeholder", "[placeholders]") {
  const auto found = find_placeholders("a {{theta.3:5}} b {{m:.3}} c {{n:}} {{d:x}}");
  REQUIRE(found.size() == 4);
  CHECK(found[0].offset == 2);
  CHECK(found[0].name == "theta.3");
  CHECK(found[0].spec == "5");
  CHECK(found[0].key() == "theta.3:5");
  CHECK(found[0].size() == 13);
  CHECK(found[1].key() == "m:.3");
  CHECK((found[2].has_spec && found[2].spec.empty() && found[2].size() == 6));
  CHECK(found[3].spec == "x");
  CHECK_FALSE(found[0].has_spec == false);
  // no spec: key is the name; TeX that only looks like a spec stays TeX
  const auto plain = placeholder_at("{{m}}", 0);
  REQUIRE(plain.has_value());
  CHECK_FALSE(plain->has_spec);
  CHECK(plain->key() == "m");
  CHECK(names("{{a:\\mathbb{R}}} {{a: 5}} {{a:$x$}}").empty());
}

TEST_CASE("placeholders: digits specs N and .N, anything else named as an error",
          "[placeholders]") {
  const auto digits = [](std::string_view text) {
    const auto p = placeholder_at(text, 0);
    REQUIRE(p.has_value());
    return placeholder_digits(*p);
  };
  CHECK(digits("{{m}}").digits == Digits{});
  CHECK(digits("{{m}}").error.empty());
  CHECK(digits("{{theta.3:5}}").digits == Digits::significant(5));
  CHECK(digits("{{theta.3:17}}").digits == Digits::significant(17));
  CHECK(digits("{{theta.3:1}}").digits == Digits::significant(1));
  CHECK(digits("{{theta.3:.3}}").digits == Digits::fixed(3));
  CHECK(digits("{{theta.3:.0}}").digits == Digits::fixed(0));
  CHECK(digits("{{theta.3:.17}}").digits == Digits::fixed(17));
  for (const char* bad : {"{{theta.3:}}", "{{theta.3:x}}", "{{theta.3:0}}", "{{theta.3:18}}",
                          "{{theta.3:.18}}", "{{theta.3:.}}", "{{theta.3:-3}}", "{{theta.3:5f}}",
                          "{{theta.3:100}}", "{{theta.3:..3}}"}) {
    INFO(bad);
    const PlaceholderDigits d = digits(bad);
    CHECK(d.digits == Digits{});
    CHECK(d.error.find("must be N for N significant digits (1 to 17) or .N") != std::string::npos);
  }
  CHECK(digits("{{theta.3:x}}").error.ends_with("got 'x'"));
}

TEST_CASE("words: white space separates, punctuation at the ends goes", "[words]") {
  CHECK(split_words("Python is love") == Words{"Python", "is", "love"});
  CHECK(split_words("  Coding\tin\nPython  is love  ") ==
        Words{"Coding", "in", "Python", "is", "love"});
  CHECK(split_words("Jane saw a film, and then Jane walked home.") ==
        Words{"Jane", "saw", "a", "film", "and", "then", "Jane", "walked", "home"});
  CHECK(split_words("\"Hello!\" she said: 'don't.'") == Words{"Hello", "she", "said", "don't"});
  CHECK(split_words("e.g. 3.14 naïve «mot»") == Words{"e.g", "3.14", "naïve", "«mot»"});
  CHECK(split_words("... , !? love") == Words{"love"});
  CHECK(split_words("").empty());
  CHECK(split_words(" \t\r\n").empty());
}

TEST_CASE(
    "an error message is one readable line: control characters shown, long values cut at a "
    "character boundary",
    "[utf8][messages]") {
  using rope::app::readable_message;
  CHECK(readable_message("--dim: must be even, got 7") == "--dim: must be even, got 7");
  CHECK(readable_message("got 'a\nb\tc\x01'") == "got 'a\\nb\\tc\\x01'");
  const std::string digits(100000, '7');
  const std::string cut = readable_message("--trails: got '" + digits + "' (true or false)");
  // the run without a space is 'digits' with its quotes: 100 002 bytes, its first 60 shown
  CHECK(cut == "--trails: got '" + std::string(59, '7') + "... (100002 bytes) (true or false)");
  // 2-byte characters: a cut never splits one
  std::string thetas;
  for (int i = 0; i < 150; ++i)
    thetas += "\xCE\xB8";  // θ
  const std::string t = readable_message(thetas);
  CHECK(t == std::string(thetas, 0, 60) + "... (300 bytes)");
  const std::string q = rope::app::quote_for_message(thetas);
  CHECK(q == "'" + std::string(thetas, 0, 40) + "...'");
  const std::string odd = rope::app::quote_for_message("x" + thetas);  // θ across byte 40
  CHECK(odd == "'x" + std::string(thetas, 0, 38) + "...'");
}
