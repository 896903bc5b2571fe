// Prose that goes stale (issue 29 §1, review 2026-11-27 D1): a number typed into a lesson's text
// is fixed, so once the lecturer changes a value the step shows (B for the base, D for d, the
// positions, the scaling method or factor) it may contradict the live equation beside it while
// every check stays ✓ ("pairs 46 to 63" next to "i = 32 … 63" at base 500 000).
//
// The rule this file holds every shipped step to: take the text the class sees (the title, the
// prose, the `ask:` question; not the lecturer's notes), drop the live values {{…}} and the math
// $…$, and read the numbers left ("652", "0.075", "65 536", "3.73·10⁴"). A number is stale-prone
// when it equals, to the digits written, a quantity the app computes at the step's state, and no
// longer equals it after one of the changes below. Such a number must become a live value, or the
// step must pin the parameter with `assumes:` (the derivation view then says "This step assumes
// base 10 000 (now 500 000)" as soon as it differs), or it is a fact listed in kAllowed with why.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "io/number_format.h"
#include "lessons/lesson.h"
#include "lessons/quantities.h"
#include "state/params.h"

using namespace rope::lessons;
using rope::app::Params;

namespace {

// [SECTION] numbers in text

struct WrittenNumber {
  std::string text;  // as written, "65 536"
  double value = 0.0;
  double tolerance = 0.0;  // half a unit of the last digit written (0 for small whole numbers)
};

// The UTF-8 code point at s[i] and its length in bytes (a stray byte counts as itself).
std::pair<char32_t, std::size_t> code_point(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const std::size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
  if (i + n > s.size()) return {b, 1};
  char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
  for (std::size_t k = 1; k < n; ++k)
    c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return {c, n};
}

// Letters and the sub- and superscript letters glue a number into a name: fp16, bf16, Qwen2, 2D,
// 128K, xᵢ₊₁, 2π. Those are identifiers, not values.
bool letter_like(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         (c >= 0x0370 && c <= 0x03FF) ||  // Greek
         (c >= 0x1D00 && c <= 0x1DBF) ||  // ᵢ and other phonetic sub/superscripts
         (c >= 0x2080 && c <= 0x209C);    // ₀ … ₜ
}

int superscript_digit(char32_t c) {
  switch (c) {
    case 0x2070:
      return 0;
    case 0x00B9:
      return 1;
    case 0x00B2:
      return 2;
    case 0x00B3:
      return 3;
    default:
      return c >= 0x2074 && c <= 0x2079 ? static_cast<int>(c - 0x2070) : -1;
  }
}

bool digit(char c) {
  return c >= '0' && c <= '9';
}

// A number as written, its thin and no-break spaces made plain ones ("131 072").
std::string normalised(std::string_view t) {
  std::string out;
  for (std::size_t i = 0; i < t.size();) {
    const auto [c, len] = code_point(t, i);
    out += c == 0x00A0 || c == 0x2009 || c == 0x202F ? std::string(" ")
                                                     : std::string(t.substr(i, len));
    i += len;
  }
  return out;
}

// The numbers of a run of plain text (no {{…}}, no $…$). Digits grouped by single spaces in
// threes are one number ("65 536"); "·10⁴" or " · 10⁴" after a number scales it.
std::vector<WrittenNumber> numbers_in(std::string_view s) {
  std::vector<WrittenNumber> out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!digit(s[i])) {
      i += code_point(s, i).second;
      continue;
    }
    // the code point before: a letter glues the number into a name
    bool glued = false;
    if (i > 0) {
      std::size_t b = i - 1;
      while (b > 0 && (static_cast<unsigned char>(s[b]) & 0xC0) == 0x80)
        --b;
      glued = letter_like(code_point(s, b).first);
    }
    const std::size_t start = i;
    std::string digits;
    while (i < s.size() && digit(s[i]))
      digits += s[i++];
    // thousands groups after one to three digits: " 536", exactly three digits each, after a
    // space, a thin space or a narrow no-break space (the lessons use all three)
    const auto separator = [&](std::size_t at) -> std::size_t {
      if (at >= s.size()) return 0;
      if (s[at] == ' ') return 1;
      const auto [c, len] = code_point(s, at);
      return c == 0x00A0 || c == 0x2009 || c == 0x202F ? len : 0;
    };
    const bool may_group = digits.size() <= 3;
    for (std::size_t sep = separator(i); may_group && sep > 0; sep = separator(i)) {
      const std::size_t g = i + sep;
      if (!(g + 2 < s.size() && digit(s[g]) && digit(s[g + 1]) && digit(s[g + 2]) &&
            (g + 3 >= s.size() || !digit(s[g + 3]))))
        break;
      digits += s.substr(g, 3);
      i = g + 3;
    }
    int decimals = 0;
    if (i + 1 < s.size() && s[i] == '.' && digit(s[i + 1])) {
      digits += '.';
      ++i;
      while (i < s.size() && digit(s[i])) {
        digits += s[i++];
        ++decimals;
      }
    }
    double value = std::stod(digits);
    double tolerance = decimals > 0 ? 0.5 * std::pow(10.0, -decimals) : (value >= 10 ? 0.5 : 0.0);
    // "·10⁴", " · 10⁻³", "×10⁴"
    {
      std::size_t j = i;
      while (j < s.size() && s[j] == ' ')
        ++j;
      const auto [c, len] =
          j < s.size() ? code_point(s, j) : std::pair<char32_t, std::size_t>{0, 0};
      if (c == 0x00B7 || c == 0x00D7) {
        std::size_t k = j + len;
        while (k < s.size() && s[k] == ' ')
          ++k;
        if (s.substr(k, 2) == "10") {
          k += 2;
          int sign = 1, exponent = 0, count = 0;
          if (k < s.size() && code_point(s, k).first == 0x207B) {  // ⁻
            sign = -1;
            k += code_point(s, k).second;
          }
          while (k < s.size() && superscript_digit(code_point(s, k).first) >= 0) {
            exponent = 10 * exponent + superscript_digit(code_point(s, k).first);
            k += code_point(s, k).second;
            ++count;
          }
          if (count > 0) {
            const double scale = std::pow(10.0, sign * exponent);
            value *= scale;
            tolerance = 0.5 * std::pow(10.0, -decimals) * scale;
            i = k;
          }
        }
      }
    }
    // a power written with superscripts (2²³, 10⁻¹²) is a constant of the formats, not a value;
    // "(3)" alone is an equation number
    const char32_t next = i < s.size() ? code_point(s, i).first : 0;
    const bool glued_after = letter_like(next) || superscript_digit(next) >= 0 || next == 0x207B;
    const bool equation_number = start > 0 && s[start - 1] == '(' && next == ')' && i - start <= 2;
    // "d/4", "d/2": a fraction of a symbol, written as text
    const bool fraction =
        start > 1 && s[start - 1] == '/' && letter_like(static_cast<unsigned char>(s[start - 2]));
    // "lesson 12", "step 4", "Eq. 25", "Fig. 2", "PR #1016": a reference, not a value
    bool reference = start > 0 && s[start - 1] == '#';
    for (const char* word : {"lesson ", "lessons ", "step ", "steps ", "Eq. ", "Fig. ", "listing "})
      reference = reference || s.substr(0, start).ends_with(word);
    if (!glued && !glued_after && !equation_number && !reference && !fraction)
      out.push_back({normalised(s.substr(start, i - start)), value, tolerance});
  }
  return out;
}

// The text the class reads: `text` without its {{…}} values and $…$ math.
std::string plain_text(std::string_view text) {
  std::string out;
  for (const ProseSpan& span : split_inline_math(text).spans) {
    if (span.kind != ProseSpan::Kind::text) {
      out += ' ';
      continue;
    }
    std::string_view t = span.text;
    while (!t.empty()) {
      const std::size_t open = t.find("{{");
      if (open == std::string_view::npos) {
        out += t;
        break;
      }
      out += t.substr(0, open);
      out += ' ';
      const std::size_t close = t.find("}}", open);
      if (close == std::string_view::npos) break;
      t.remove_prefix(close + 2);
    }
  }
  return out;
}

bool matches(const WrittenNumber& w, double v) {
  return std::isfinite(v) && std::fabs(std::fabs(v) - w.value) <= w.tolerance + 1e-9 * w.value;
}

// Significant digits as written: leading zeros never count, trailing zeros of a whole number
// neither ("500 000" has one, "0.075" two, "1044.27" six).
int significant_digits(std::string_view text) {
  std::string d;
  for (char c : text)
    if (digit(c) || c == '.') d += c;
  if (d.find('.') == std::string::npos)
    while (d.size() > 1 && d.back() == '0')
      d.pop_back();
  int n = 0;
  bool leading = true;
  for (char c : d) {
    if (c == '.') continue;
    if (leading && c == '0') continue;
    leading = false;
    ++n;
  }
  return n;
}

// [SECTION] what the app computes

struct Computed {
  std::string name;  // "rotations.0", "q" (entry shown as name[j])
  std::size_t entry = 0;
  double value = 0.0;
};

// The quantities that follow the state, at `p`, whose stem ("rotations" of rotations.K) is in
// `stems`; an indexed one at each index (blocks, coordinates, tokens). Fixed quantities
// (case_*, decay_at.…) carry their configuration in their names and never follow a slider.
std::vector<Computed> computed_at(const Params& p, const std::set<std::string>& stems) {
  std::vector<Computed> out;
  const QuantityContext ctx(p);
  const auto add = [&](const std::string& name) {
    const auto r = ctx.evaluate(name);
    if (!r.ok()) return false;
    for (std::size_t j = 0; j < r.value().size() && j < 8; ++j)
      out.push_back({name, j, r.value()[j]});
    return true;
  };
  for (const QuantityInfo& q : quantity_table()) {
    if (q.kind == QuantityKind::fixed) continue;
    const std::string name = q.name;
    if (stems.count(name.substr(0, name.find('.'))) == 0) continue;
    if (name.ends_with(".K.K")) continue;  // two tokens: the steps name their own pairs
    if (name.ends_with(".K")) {
      const std::string stem = name.substr(0, name.size() - 1);
      for (int k = 0; k < 4200 && add(stem + std::to_string(k)); ++k) {
      }
      continue;
    }
    add(name);
  }
  return out;
}

// The parameters a lecturer changes and the counts that follow from them: a number written in
// prose is compared with these in every step ("d = 128", "base 10 000", "65 536 tokens",
// "pairs 46 to 63", "pair 45 still turns once"). Quantities a step shows itself ({{…}}, checks,
// notes) are added per step.
const std::set<std::string> kParameterStems = {"m",
                                               "n",
                                               "delta",
                                               "d",
                                               "half",
                                               "last_pair",
                                               "base",
                                               "factor",
                                               "inv_factor",
                                               "original_context",
                                               "context_length",
                                               "extended_context",
                                               "first_slow_pair",
                                               "last_fast_pair",
                                               "slow_pairs",
                                               "rotary_fraction"};

const std::set<std::string>& all_stems() {
  static const std::set<std::string> stems = [] {
    std::set<std::string> out;
    for (const QuantityInfo& q : quantity_table())
      out.insert(std::string(q.name).substr(0, std::string(q.name).find('.')));
    return out;
  }();
  return stems;
}

double value_of(const QuantityContext& ctx, const Computed& c) {
  const auto r = ctx.evaluate(c.name);
  if (!r.ok() || r.value().size() <= c.entry) return std::nan("");
  return r.value()[c.entry];
}

// [SECTION] the changes a lecturer makes

struct Change {
  const char* param;
  std::function<std::string(const Params&)> value;  // the new value as a flag would give it
};

std::string num(double v) {
  return rope::app::format_number(v, rope::app::NumberStyle::csv);
}

const std::vector<Change>& changes() {
  static const std::vector<Change> list = {
      {"dim", [](const Params& p) { return std::to_string(p.dim * 2); }},
      {"dim", [](const Params& p) { return std::to_string(p.dim / 2 % 2 == 0 ? p.dim / 2 : 4); }},
      {"base", [](const Params& p) { return num(p.base == 500000 ? 10000 : 500000); }},
      {"base", [](const Params& p) { return num(p.base * 3); }},
      {"position", [](const Params& p) { return num(p.position + 7); }},
      {"position", [](const Params& p) { return num(p.position + 1000); }},
      {"key_position", [](const Params& p) { return num(p.key_position + 5); }},
      {"key_position", [](const Params& p) { return num(p.key_position + 1000); }},
      {"offset", [](const Params& p) { return num(p.offset + 3); }},
      {"seed", [](const Params& p) { return std::to_string(p.seed + 1); }},
      {"pairing", [](const Params&) { return std::string("half"); }},
      {"pairing", [](const Params&) { return std::string("interleaved"); }},
      {"scaling", [](const Params&) { return std::string("none"); }},
      {"scaling", [](const Params&) { return std::string("linear"); }},
      {"scaling", [](const Params&) { return std::string("ntk"); }},
      {"scaling", [](const Params&) { return std::string("yarn"); }},
      {"scaling", [](const Params&) { return std::string("llama3"); }},
      {"factor", [](const Params& p) { return num(p.extension.scaling.factor * 2); }},
      {"original_context",
       [](const Params& p) { return std::to_string(p.extension.scaling.original_context * 2); }},
      {"context_length", [](const Params& p) { return std::to_string(p.context_length * 2); }},
      {"rotary_fraction", [](const Params&) { return std::string("0.5"); }},
      {"precision", [](const Params&) { return std::string("fp16"); }},
      {"precision", [](const Params&) { return std::string("bf16"); }},
      {"precision", [](const Params&) { return std::string("fp32"); }},
      {"query_row", [](const Params& p) { return std::to_string((p.query_row + 1) % 8); }},
      {"key_column", [](const Params& p) { return std::to_string((p.key_column + 1) % 8); }},
      {"shift_row", [](const Params& p) { return std::to_string(p.shift_row + 1); }},
      {"mm_query", [](const Params& p) { return std::to_string(p.mm_query + 1); }},
  };
  return list;
}

// [SECTION] the allow-list

// Numbers that are facts, not values of the state: each names the step and says why. A number
// listed here that the test no longer flags is reported too, so the list cannot go stale itself.
struct Allowed {
  const char* lesson;
  int step;  // from 1
  const char* number;
  const char* why;
};
const Allowed kAllowed[] = {
    {"05-general-d", 3, "500 000",
     "history: Llama 3 raised the base to 500 000; the step's sentences each name the base they "
     "are about, and it invites B to see the other one"},
    {"05-general-d", 3, "131 072", "history: Llama 3.1's context, 128K tokens"},
    {"10-precision", 2, "8", "a property of the format: bf16 keeps 8 significant bits"},
    {"10-precision", 4, "1024",
     "a property of the format: fp16 holds only whole numbers from 1024 to 2048 (L/h of the "
     "extension view is 1024 by chance)"},
    {"11-past-context", 1, "4096", "history: Llama 2 was trained on 4096 tokens"},
    {"14-three-codes", 5, "128", "Llama 3's published head size, the step's subject"},
    {"14-three-codes", 5, "500 000", "Llama 3's published base; the notes invite B to compare"},
    {"16-layers", 3, "131 072", "Gemma 3's published context, the model the step's show: sets"},
};

// [SECTION] the test

// Every quantity name a step uses: its {{…}} values (prose, equations, questions, notes) and the
// two sides of its checks.
std::vector<std::string> names_used(const Step& step) {
  std::vector<std::string> names;
  for (const Check& c : step.checks) {
    names.push_back(c.left);
    names.push_back(c.right);
  }
  std::vector<const Block*> blocks;
  for (const Block& b : step.blocks)
    blocks.push_back(&b);
  for (const Block& b : step.notes)
    blocks.push_back(&b);
  for (const Block* b : blocks) {
    for (std::size_t at = b->text.find("{{"); at != std::string::npos;
         at = b->text.find("{{", at + 2)) {
      const std::size_t close = b->text.find("}}", at);
      if (close == std::string::npos) break;
      const std::string name = b->text.substr(at + 2, close - at - 2);
      names.push_back(name.substr(0, name.find(':')));
    }
  }
  return names;
}

// Numbers written into the names of the fixed quantities a step uses (decay_at.128.10000.5000,
// number.1045): the step states a fact about that configuration, and its prose may name it.
std::set<double> fixed_arguments(const Step& step) {
  const std::vector<std::string> names = names_used(step);
  std::set<double> out;
  for (const std::string& name : names) {
    if (!fixed_quantity(name)) continue;
    const std::string args = name.substr(name.find('.') + 1);
    if (name.starts_with("number.")) {
      out.insert(std::stod(args));
      continue;
    }
    std::stringstream ss(args);
    for (std::string a; std::getline(ss, a, '.');)
      if (!a.empty() && digit(a[0])) out.insert(std::stod(a));
  }
  return out;
}

}  // namespace

TEST_CASE("numbers in prose: grouped digits, decimals, powers of ten, names left out",
          "[lessons][stale]") {
  const auto texts = [](std::string_view s) {
    std::vector<std::string> out;
    for (const WrittenNumber& w : numbers_in(s))
      out.push_back(w.text);
    return out;
  };
  CHECK(texts("at 65 536 tokens, 0.075 times, pairs 46 to 63") ==
        std::vector<std::string>{"65 536", "0.075", "46", "63"});
  CHECK(texts("fp16 and bf16, 2D, 128K, Qwen2 and θ₁ but 3.73·10⁴") ==
        std::vector<std::string>{"3.73·10⁴"});
  CHECK(significant_digits("500 000") == 1);
  CHECK(significant_digits("0.075") == 2);
  CHECK(significant_digits("1044.27") == 6);
  CHECK(significant_digits("652") == 3);
  CHECK(numbers_in("3.73·10⁴")[0].value == Approx(37300));
  CHECK(numbers_in("3.73·10⁴")[0].tolerance == Approx(50));
  CHECK(numbers_in("1 2 3")[0].text == "1");  // one digit after a space is not a group
  CHECK(texts("131\u202f072 and 10\u2009000") == std::vector<std::string>{"131 072", "10 000"});
  CHECK(texts("lesson 12, step 4, Eq. 25, PR #1016 and 7") == std::vector<std::string>{"7"});
  CHECK(texts("the first d/4 blocks, (131 072) tokens") == std::vector<std::string>{"131 072"});
  CHECK(texts("2²³ and 10⁻¹², lines (1) and (2), pair (1, 2)") ==
        std::vector<std::string>{"1", "2"});
  CHECK(plain_text("r = {{rotations.0}} and $\\theta_{63}$ at 4096") == "r =   and   at 4096");
  WrittenNumber w{"652", 652, 0.5};
  CHECK(matches(w, 651.9));
  CHECK_FALSE(matches(w, 650.9));
  CHECK(matches({"0.075", 0.075, 0.0005}, 0.07518));
  CHECK_FALSE(matches({"2", 2, 0}, 2.4));
}

TEST_CASE("no fixed number in a lesson's text contradicts what the app computes after a change",
          "[lessons][shipped][stale]") {
  std::vector<std::string> stale;
  std::set<std::string> allowed_used;
  int numbers = 0;
  for (const std::string& file : lesson_files(ROPE_TEST_LESSON_DIR)) {
    const LoadedLesson l = load_lesson_file(file);
    REQUIRE(l.problems.empty());
    for (std::size_t s = 0; s < l.lesson.steps.size(); ++s) {
      const Step& step = l.lesson.steps[s];
      Params shown;
      apply_step_state(l.lesson, static_cast<int>(s), shown);
      Params revealed = shown;
      apply_reveal_state(step, revealed);
      const std::set<double> arguments = fixed_arguments(step);
      std::set<std::string> own;  // the stems of what the step shows itself
      for (const std::string& name : names_used(step))
        if (!fixed_quantity(name)) own.insert(name.substr(0, name.find('.')));
      std::set<std::string> stems = own;
      stems.insert(kParameterStems.begin(), kParameterStems.end());
      std::set<std::string> pinned;
      for (const Assignment& a : step.assumes)
        pinned.insert(a.key);

      // the text, each piece with the state it is read in (after reveal: the revealed one)
      std::vector<std::pair<std::string, const Params*>> texts = {{step.title, &shown}};
      for (std::size_t b = 0; b < step.blocks.size(); ++b) {
        const Block& block = step.blocks[b];
        if (block.kind == Block::Kind::equation) continue;
        const bool after = step.hides() && static_cast<int>(b) >= step.reveal_block;
        texts.emplace_back(block.text, after ? &revealed : &shown);
      }
      for (const Params* state : {&shown, &revealed}) {
        std::vector<WrittenNumber> written;
        for (const auto& [text, at] : texts)
          if (at == state)
            for (const WrittenNumber& w : numbers_in(plain_text(text)))
              written.push_back(w);
        if (written.empty() || (state == &revealed && !step.hides())) continue;
        numbers += static_cast<int>(written.size());
        const std::vector<Computed> computed = computed_at(*state, stems);
        const std::vector<Computed> everything = computed_at(*state, all_stems());
        for (const WrittenNumber& w : written) {
          // 0 and 1 are the identity values (pair 0, θ₀ = 1, r = 1, a factor of 1) far more
          // often than a measurement; a number the step's fixed quantities name is their case
          if (w.value == 0 || w.value == 1 || arguments.count(w.value) != 0) continue;
          // a small whole number ("2 of the 8 pairs") is compared only with what the step shows
          // itself: against every count it would meet coincidences at every turn
          const bool small = w.tolerance == 0;
          std::vector<const Computed*> matched;
          for (const Computed& c : computed)
            if (matches(w, c.value) &&
                (!small || own.count(c.name.substr(0, c.name.find('.'))) != 0))
              matched.push_back(&c);
          // three significant digits or more ("652", "1.459") rarely agree by chance: those are
          // compared with every quantity, whether the step shows it or not
          if (significant_digits(w.text) >= 3)
            for (const Computed& c : everything)
              if (matches(w, c.value)) matched.push_back(&c);
          if (matched.empty()) continue;
          // the first change after which a matched quantity no longer reads as written
          std::string why;
          for (const Change& change : changes()) {
            if (pinned.count(change.param) != 0) continue;
            Params p = *state;
            if (!rope::app::set_param(p, change.param, change.value(*state)).ok()) continue;
            if (!rope::app::validate_params(p).ok()) continue;
            const QuantityContext ctx(p);
            for (const Computed* c : matched) {
              const double v = value_of(ctx, *c);
              if (std::isnan(v) || matches(w, v)) continue;
              why = c->name + (c->entry > 0 ? "[" + std::to_string(c->entry) + "]" : "") +
                    " becomes " + rope::app::format_number(v, rope::app::NumberStyle::plain, 6) +
                    " at " + change.param + "=" + change.value(*state);
              break;
            }
            if (!why.empty()) break;
          }
          if (why.empty()) continue;
          bool allowed = false;
          for (const Allowed& a : kAllowed)
            if (l.lesson.id == a.lesson && static_cast<int>(s) + 1 == a.step &&
                w.text == a.number) {
              allowed = true;
              allowed_used.insert(std::string(a.lesson) + " " + std::to_string(a.step) + " " +
                                  a.number);
            }
          if (allowed) continue;
          stale.push_back(l.lesson.id + " step " + std::to_string(s + 1) + ": \"" + w.text +
                          "\" is " + why);
        }
      }
    }
  }
  std::string report;
  for (const std::string& line : stale)
    report += line + "\n";
  INFO(
      "fixed numbers that a change of the state contradicts (make them {{…}} values, pin the "
      "step with assumes:, or list a fact in kAllowed):\n"
      << report);
  CHECK(stale.empty());
  for (const Allowed& a : kAllowed) {
    INFO("kAllowed lists a number the test does not flag: " << a.lesson << " step " << a.step
                                                            << " \"" << a.number << "\"");
    CHECK(allowed_used.count(std::string(a.lesson) + " " + std::to_string(a.step) + " " +
                             a.number) == 1);
  }
  CHECK(numbers > 100);
}
