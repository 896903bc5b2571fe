// Lesson files: the loader's problems and their positions, every shipped lesson (parses, every
// equation typesets without errors, every check holds at its step's state and at random other
// states, every step that shows the sentence view names words of its sentences), lookup and step
// state, and a fuzz of the loader.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

#include "io/number_format.h"
#include "io/placeholders.h"
#include "lessons/lesson.h"
#include "lessons/quantities.h"
#include "rope/random.h"
#include "rope/typeset/layout.h"
#include "rope/typeset/math_font.h"
#include "state/params.h"
#include "views/heatmap_scores.h"

using namespace rope::lessons;
using rope::app::Params;

namespace {

std::vector<std::string> messages(const LoadedLesson& l) {
  std::vector<std::string> out;
  for (const Problem& p : l.problems)
    out.push_back(p.to_string());
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::vector<LoadedLesson> shipped() {
  std::vector<LoadedLesson> out;
  for (const std::string& f : lesson_files(ROPE_TEST_LESSON_DIR))
    out.push_back(load_lesson_file(f));
  return out;
}

// Walks a parse tree, counting error nodes.
int error_nodes(const rope::typeset::NodeList& list) {
  int n = 0;
  for (const auto& node : list) {
    if (node.kind == rope::typeset::NodeKind::error) ++n;
    for (const auto& a : node.args)
      n += error_nodes(a);
    for (const auto& row : node.rows)
      for (const auto& cell : row)
        n += error_nodes(cell);
  }
  return n;
}

// A table name with its placeholders filled in: "case_angle.PRESET.D.BASE.M.K" ->
// "case_angle.fp16.32.10000.1857.1", "theta.K" -> "theta.1".
std::string example_name(const std::string& table_name) {
  static const std::pair<const char*, const char*> kExamples[] = {
      {"K", "1"},    {"FORMAT", "bf16"}, {"PRESET", "fp16"}, {"D", "32"},     {"BASE", "10000"},
      {"M", "1857"}, {"N", "257"},       {"FIRST", "250"},   {"LAST", "260"}, {"VALUE", "0.78"}};
  std::string out;
  std::size_t start = 0;
  while (start <= table_name.size()) {
    const std::size_t dot = std::min(table_name.find('.', start), table_name.size());
    std::string part = table_name.substr(start, dot - start);
    if (start > 0)
      for (const auto& [placeholder, value] : kExamples)
        if (part == placeholder) part = value;
    out += (start > 0 ? "." : "") + part;
    start = dot + 1;
  }
  return out;
}

// A default state with the parameters given, by name and value as the flags take them.
Params state_with(std::initializer_list<std::pair<const char*, const char*>> kv) {
  Params p;
  for (const auto& [k, v] : kv)
    REQUIRE(rope::app::set_param(p, k, v).ok());
  return p;
}

// The value of a quantity at `p`; the test fails, naming the quantity, when it is not computed.
std::vector<double> value_at(const Params& p, const char* name) {
  auto r = QuantityContext(p).evaluate(name);
  INFO(name << ": " << (r ? std::string() : r.error().to_string()));
  REQUIRE(r.ok());
  return r.value();
}

}  // namespace

TEST_CASE("the loader reports every problem with file:line:column", "[lessons][loader]") {
  const std::string text =
      "title: T\n"                                  // 1
      "intro: x\n"                                  // 2 unknown directive
      "step: One\n"                                 // 3
      "show: dim=7 view=derivation frobnicate=1\n"  // 4
      "$$ \\frac{a}{b} + \\foo {{nosuch}} $$\n"     // 5
      "check: rope_score = relative_score\n"        // 6
      "check: rope_score == no_such_quantity\n"     // 7
      "Prose with {{bad_value}} inside.\n"          // 8
      "step: Two\n"                                 // 9
      "$$ x +\n"                                    // 10
      "   \\bar{y $$\n";                            // 11
  const LoadedLesson l = parse_lesson(text, "t.lesson", "t");
  const auto m = messages(l);
  INFO(Catch::Detail::stringify(m));
  CHECK(has(m,
            "t.lesson:2:1: unknown directive 'intro:', expected title:, step:, show:, assumes:, "
            "check:, ask:, reveal: or note: (begin a prose line that starts with a lowercase "
            "word and a colon with a backslash)"));
  CHECK(has(m, "t.lesson:4:7: dim: must be an even integer from 2 to 4096, got 7"));
  CHECK(has(m, "t.lesson:4:13: view: must be a view other than derivation"));
  CHECK(has(m, "t.lesson:4:29: frobnicate: is not a parameter of RoPE Lab"));
  CHECK(has(m, "t.lesson:5:18: TeX: unknown command \\foo"));
  CHECK(has(m, "t.lesson:5:25: unknown live value {{nosuch}} (see assets/lessons/FORMAT.md)"));
  CHECK(has(m, "t.lesson:6:19: check: compares with == or <=, got '='"));
  CHECK(has(m,
            "t.lesson:7:22: unknown check quantity 'no_such_quantity' (see the list in "
            "assets/lessons/FORMAT.md)"));
  CHECK(has(m, "t.lesson:8:14: unknown live value {{bad_value}} (see assets/lessons/FORMAT.md)"));
  CHECK(has(m, "t.lesson:11:8: TeX: missing '}' for this '{'"));
  // problems come in file order
  CHECK(std::is_sorted(l.problems.begin(), l.problems.end(), [](const auto& a, const auto& b) {
    return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.column < b.pos.column;
  }));
  CHECK(l.usable());  // the two steps are still there to show
  CHECK(l.lesson.steps.size() == 2);
}

TEST_CASE("the loader reports formulas past the typesetter's limits", "[lessons][loader]") {
  std::string deep;
  for (int i = 0; i < 70; ++i)
    deep += "\\frac{1}{";
  const std::string text = "title: T\nstep: One\n$$ " + std::string(5000, 'x') + " $$\nInline $" +
                           deep + "x" + std::string(70, '}') + "$ math.\n";
  const auto m = messages(parse_lesson(text, "t.lesson", "t"));
  INFO(Catch::Detail::stringify(m));
  CHECK(has(m,
            "t.lesson:3:3: TeX: formula of 5002 bytes; at most 4000 are typeset (is a "
            "closing $$ or $ missing?)"));
  CHECK(std::any_of(m.begin(), m.end(), [](const std::string& s) {
    return s.starts_with("t.lesson:4:") && s.find("nesting deeper than 64 levels") != s.npos;
  }));
}

TEST_CASE("structural problems: no title, no steps, unclosed equation, stray text",
          "[lessons][loader]") {
  CHECK(has(messages(parse_lesson("", "e.lesson", "e")),
            "e.lesson:1:1: the lesson has no 'title:' line"));
  CHECK(has(messages(parse_lesson("title: x\n", "e.lesson", "e")),
            "e.lesson:1:1: the lesson has no steps (start one with 'step: TITLE')"));
  const auto m = messages(parse_lesson("title: x\nHello\nstep: s\n  $$ a +\nb\n", "u.lesson", "u"));
  INFO(Catch::Detail::stringify(m));
  CHECK(has(m, "u.lesson:2:1: text before the first step: (start a step with 'step: TITLE')"));
  CHECK(has(m, "u.lesson:4:3: equation opened here is not closed with $$"));
  const auto t = messages(parse_lesson("title: x\nstep: s\n$$ a $$ more\n", "t.lesson", "t"));
  CHECK(has(t, "t.lesson:3:9: text after the closing $$ (put prose on its own line)"));
  const auto bad = messages(parse_lesson("title: x\nstep: s\nab\xff\n$$ a $$\n", "b.lesson", "b"));
  CHECK(has(bad, "b.lesson:3:3: invalid UTF-8 or control character (lesson files are UTF-8 text)"));
  const auto lecturer =
      messages(parse_lesson("title: x\nstep: s\nshow: theme=light\n$$ a $$\n", "l.lesson", "l"));
  CHECK(has(lecturer, "l.lesson:3:7: 'theme' is the lecturer's setting, a step cannot set it"));
  const auto failing = messages(parse_lesson(
      "title: x\nstep: s\nshow: query=random key=random position=2\ncheck: rope_score == "
      "content_score\n",
      "f.lesson", "f"));
  REQUIRE(failing.size() == 1);
  CHECK(failing[0].starts_with("f.lesson:4:8: check fails at this step's state: rope_score = "));
}

TEST_CASE("columns count code points, and multi-line equations map back to their lines",
          "[lessons][loader]") {
  const auto m = messages(
      parse_lesson("title: θ\nstep: s\nθθ {{nope}} done.\n$$ θ +\n  θ \\zz $$\n", "c.lesson", "c"));
  INFO(Catch::Detail::stringify(m));
  CHECK(has(m, "c.lesson:3:6: unknown live value {{nope}} (see assets/lessons/FORMAT.md)"));
  CHECK(has(m, "c.lesson:5:5: TeX: unknown command \\zz"));
}

TEST_CASE("note: lines are the lecturer's paragraphs, never the step's prose", "[lessons][notes]") {
  const LoadedLesson l = parse_lesson(
      "title: t\n"
      "step: s\n"
      "Prose the class reads.\n"
      "note: Ask who has seen a rotation matrix.\n"
      "note: Point at the pink arc, $\\theta = {{theta.0}}$.\n"
      "note:\n"
      "note: Second paragraph.\n"
      "More prose.\n"
      "note: Third, after prose.\n",
      "n.lesson", "n");
  INFO(Catch::Detail::stringify(messages(l)));
  CHECK(l.problems.empty());
  REQUIRE(l.lesson.steps.size() == 1);
  const Step& s = l.lesson.steps[0];
  REQUIRE(s.notes.size() == 3);
  CHECK(s.notes[0].text ==
        "Ask who has seen a rotation matrix. Point at the pink arc, $\\theta = {{theta.0}}$.");
  CHECK(s.notes[1].text == "Second paragraph.");
  CHECK(s.notes[2].text == "Third, after prose.");
  CHECK(s.notes[0].position_of(36).line == 5);  // the second line's first character
  CHECK(s.notes[0].position_of(36).column == 7);
  REQUIRE(s.blocks.size() == 2);  // the notes are not prose: two paragraphs, notes between
  CHECK(s.blocks[0].text == "Prose the class reads.");
  CHECK(s.blocks[1].text == "More prose.");

  const auto m = messages(parse_lesson(
      "title: t\nnote: too early\nstep: s\nText.\nnote: {{nope}} and $\\zz$ and $open\n",
      "b.lesson", "b"));
  INFO(Catch::Detail::stringify(m));
  CHECK(has(m, "b.lesson:2:7: note: must be inside a step (after step:)"));
  CHECK(has(m, "b.lesson:5:9: unknown live value {{nope}} (see assets/lessons/FORMAT.md)"));
  CHECK(has(m, "b.lesson:5:21: TeX: unknown command \\zz"));
  CHECK(m.size() == 4);  // and the unclosed '$'
}

TEST_CASE("assumes: lines are read, checked, and report what the state no longer has",
          "[lessons][loader][assumes]") {
  const LoadedLesson l = parse_lesson(
      "title: t\n"
      "step: s\n"
      "show: base=500000 dim=64\n"
      "assumes: base=500000 dim=64\n"
      "Llama 3's base is 500 000.\n",
      "a.lesson", "a");
  INFO(Catch::Detail::stringify(messages(l)));
  REQUIRE(l.problems.empty());
  const Step& step = l.lesson.steps[0];
  REQUIRE(step.assumes.size() == 2);
  CHECK(step.assumes[0].key == "base");
  CHECK(step.assumes[0].pos.line == 4);
  CHECK(step.assumes[0].pos.column == 10);
  Params p;
  apply_step_state(l.lesson, 0, p);
  CHECK(p.base == 500000);  // set by show:, not by assumes:
  CHECK(assumption_changes(step, p).empty());
  REQUIRE(rope::app::set_param(p, "base", "10000").ok());
  const auto changed = assumption_changes(step, p);
  REQUIRE(changed.size() == 1);
  CHECK(changed[0].key == "base");
  CHECK(changed[0].assumed == "500000");
  CHECK(changed[0].now == "10000");

  // a value the step does not show would be announced the moment the step is entered
  const auto unshown =
      messages(parse_lesson("title: t\nstep: s\nassumes: dim=1024\nText.\n", "q.lesson", "q"));
  REQUIRE(unshown.size() == 1);
  CHECK(unshown[0].starts_with("q.lesson:3:10: assumes: dim=1024, but the step shows dim="));
  const auto bad = messages(parse_lesson(
      "title: t\nassumes: dim=8\nstep: s\nassumes: dim=7 nosuch=1 theme=light base\nText.\n",
      "b.lesson", "b"));
  INFO(Catch::Detail::stringify(bad));
  CHECK(has(bad, "b.lesson:2:1: assumes: must be inside a step (after step:)"));
  CHECK(has(bad, "b.lesson:4:10: assumes: dim: must be an even integer from 2 to 4096, got 7"));
  CHECK(has(bad, "b.lesson:4:16: assumes: nosuch: is not a parameter of RoPE Lab"));
  CHECK(has(bad, "b.lesson:4:25: 'theme' is the lecturer's setting, a step cannot assume it"));
  CHECK(has(bad, "b.lesson:4:37: expected key=value in assumes:, got 'base'"));
}

TEST_CASE("the broken lesson files of the test suite all report problems", "[lessons][loader]") {
  for (const std::string& f : lesson_files(ROPE_TEST_BROKEN_DIR)) {
    INFO(f);
    const LoadedLesson l = load_lesson_file(f);
    CHECK_FALSE(l.problems.empty());
    for (const Problem& p : l.problems) {
      CHECK(p.file == f);
      CHECK(p.pos.line >= 1);
      CHECK(p.pos.column >= 1);
    }
  }
  const LoadedLesson missing = load_lesson_file("/no/such/file.lesson");
  REQUIRE(missing.problems.size() == 1);
  CHECK(missing.problems[0].to_string() ==
        "/no/such/file.lesson:1:1: cannot be read (missing or not permitted)");
  CHECK_FALSE(missing.usable());
}

TEST_CASE("every shipped lesson loads without problems, and every step has notes",
          "[lessons][shipped]") {
  const auto all = shipped();
  REQUIRE(all.size() == 17);
  for (const LoadedLesson& l : all) {
    INFO(l.lesson.file << "\n" << Catch::Detail::stringify(messages(l)));
    CHECK(l.problems.empty());
    CHECK_FALSE(l.lesson.title.empty());
    CHECK(l.lesson.steps.size() >= 3);
    for (const Step& s : l.lesson.steps) {  // the presenter window has something for each
      INFO(s.title);
      CHECK_FALSE(s.notes.empty());
    }
  }
}

TEST_CASE("every shipped equation and check label typesets without error nodes",
          "[lessons][shipped][typeset]") {
  rope::typeset::FontLoad fl = rope::typeset::MathFont::load(rope::typeset::MathFont::kDefaultPath);
  if (!fl.font) WARN("no math font (" << fl.error << "): layout skipped, parsing still checked");
  int equations = 0;
  for (const LoadedLesson& l : shipped()) {
    for (std::size_t s = 0; s < l.lesson.steps.size(); ++s) {
      Params p;
      apply_step_state(l.lesson, static_cast<int>(s), p);
      const QuantityContext ctx(p);
      std::vector<std::string> sources;
      for (const Block& b : l.lesson.steps[s].blocks)
        if (b.kind == Block::Kind::equation) sources.push_back(b.text);
      for (const Check& c : l.lesson.steps[s].checks) {
        sources.push_back(std::string(find_quantity(c.left)->label) + " = {{" + c.left + "}}");
        sources.push_back(std::string(find_quantity(c.right)->label) + " = {{" + c.right + "}}");
      }
      for (const std::string& tex : sources) {
        INFO(l.lesson.id << " step " << s + 1 << ": " << tex);
        rope::typeset::Values values;
        for (const rope::app::Placeholder& ph : rope::app::find_placeholders(tex))
          values[std::string(ph.key())] =
              ctx.tex_value(ph.name, rope::app::placeholder_digits(ph).digits);
        const auto parsed = rope::typeset::parse(tex, values);
        CHECK(parsed.diagnostics.empty());
        CHECK(error_nodes(parsed.nodes) == 0);
        for (const auto& [k, v] : values)
          CHECK(v.find('?') == std::string::npos);  // every live value computed
        if (fl.font) {
          const auto t = rope::typeset::typeset(tex, values, *fl.font, {});
          CHECK(t.diagnostics.empty());
          CHECK(t.list.width > 0);
          CHECK(t.list.glyphs.size() > 0);
        }
        ++equations;
      }
    }
  }
  CHECK(equations > 60);
}

TEST_CASE("every check of every lesson holds at its step's state and at perturbed states",
          "[lessons][shipped][checks]") {
  rope::SplitMix64 rng(20240611);
  int checks = 0;
  for (const LoadedLesson& l : shipped()) {
    for (std::size_t s = 0; s < l.lesson.steps.size(); ++s) {
      const Step& step = l.lesson.steps[s];
      if (step.checks.empty()) continue;
      Params base_state;
      apply_step_state(l.lesson, static_cast<int>(s), base_state);
      for (int trial = 0; trial < 30; ++trial) {
        Params p = base_state;
        if (trial > 0) {  // trial 0: exactly the step's state
          const auto set = [&](const char* name, const std::string& value) {
            REQUIRE(rope::app::set_param(p, name, value).ok());
          };
          const auto real = [&](double lo, double hi) {
            const double v = rng.uniform(lo, hi);
            return rng.uniform() < 0.5 ? std::round(v) : v;
          };
          set("position", rope::app::format_number(real(-300, 300), rope::app::NumberStyle::csv));
          set("key_position",
              rope::app::format_number(real(-300, 300), rope::app::NumberStyle::csv));
          set("offset", rope::app::format_number(real(-50, 50), rope::app::NumberStyle::csv));
          // Steps on context extension state facts about one model (Llama 2: d = 128, base
          // 10 000, L = 4096; Llama 3.1: base 500 000): which pairs a method keeps or divides by s
          // depends on d and base, so those stay; positions, pairing and vectors still move.
          const bool model_fixed =
              base_state.extension.scaling.method != rope::ScalingMethod::none ||
              base_state.show_view == rope::app::ViewId::extension;
          if (model_fixed && trial % 3 != 0) {
            set("pairing", rng.uniform() < 0.5 ? "interleaved" : "half");
            set("seed", std::to_string(rng.next() >> 12));
            set("query", "random");
            set("key", rng.uniform() < 0.8 ? "random" : "ones");
          } else if (trial % 3 != 0) {
            set("dim", std::to_string(2 * (1 + static_cast<int>(rng.uniform() * 64))));
            set("base",
                rope::app::format_number(std::exp(rng.uniform(std::log(2.0), std::log(1e6))),
                                         rope::app::NumberStyle::csv));
            set("pairing", rng.uniform() < 0.5 ? "interleaved" : "half");
            set("seed", std::to_string(rng.next() >> 12));
            set("query", "random");
            set("key", rng.uniform() < 0.8 ? "random" : "ones");
          }
          // Axial 2D RoPE (lesson 15) needs d a multiple of 4; its patches move too.
          if (base_state.show_view == rope::app::ViewId::axial) {
            if (trial % 3 != 0)
              set("dim", std::to_string(4 * (1 + static_cast<int>(rng.uniform() * 32))));
            for (const char* name : {"query_row", "query_column", "key_row", "key_column"})
              set(name, std::to_string(static_cast<int>(rng.uniform() * 32)));
            for (const char* name : {"shift_row", "shift_column"})
              set(name, std::to_string(static_cast<int>(rng.uniform() * 63) - 31));
          }
        }
        const QuantityContext ctx(p);
        // the checks after reveal: are seen in the state the answer brings (its show: lines)
        Params revealed = p;
        rope::lessons::apply_reveal_state(step, revealed);
        const QuantityContext ctx_revealed(revealed);
        for (std::size_t ci = 0; ci < step.checks.size(); ++ci) {
          const Check& c = step.checks[ci];
          const bool after_reveal = step.hides() && static_cast<int>(ci) >= step.reveal_check;
          // A check against a number as written (number.VALUE) states a measured fact about the
          // step's own state ("the two ratios differ by more than 0.01", "this pair turns more
          // than once"), not an identity, and so does a comparison with the context length of
          // the step's view: such a check is held at that state (trial 0) only.
          // test_check_can_fail.cpp shows that each of them can fail.
          if (trial > 0 && (c.left.starts_with("number.") || c.right.starts_with("number.") ||
                            c.left == "context_length" || c.right == "context_length"))
            continue;
          const CheckOutcome o =
              run_check(after_reveal ? ctx_revealed : ctx, c.left, c.right, c.relation);
          INFO(l.lesson.id << " step " << s + 1 << " trial " << trial << ": " << c.left << " vs "
                           << c.right << " at m=" << p.position << " n=" << p.key_position
                           << " d=" << p.dim << " base=" << p.base << " pairing "
                           << rope::pairing_name(p.pairing) << " error '" << o.error << "'");
          REQUIRE(o.computed);
          if (!o.passed) {
            for (std::size_t j = 0; j < o.left.size(); ++j)
              UNSCOPED_INFO("entry " << j << ": " << o.left[j] << " vs " << o.right[j] << " tol "
                                     << o.tolerance);
          }
          CHECK(o.passed);
          ++checks;
        }
      }
    }
  }
  CHECK(checks > 500);
}

// The sentence view compares the query and key words in two sentences: a step that shows it
// with a word missing from a sentence shows an error message instead of its point (lesson 1
// step 2 once kept the key word "love" of the default sentences beside "Jane saw a film ...").
TEST_CASE("every step that shows the sentence view names words of both its sentences",
          "[lessons][shipped]") {
  int steps = 0;
  for (const LoadedLesson& l : shipped()) {
    for (std::size_t s = 0; s < l.lesson.steps.size(); ++s) {
      Params p;
      apply_step_state(l.lesson, static_cast<int>(s), p);
      if (p.show_view != rope::app::ViewId::sentence) continue;
      ++steps;
      for (const std::string& sentence : {p.sentence_a, p.sentence_b}) {
        const auto words = rope::app::sentence_words(sentence);
        INFO(l.lesson.id << " step " << s + 1 << ": \"" << sentence << "\"");
        CHECK(std::find(words.begin(), words.end(), p.query_word) != words.end());
        CHECK(std::find(words.begin(), words.end(), p.key_word) != words.end());
      }
    }
  }
  CHECK(steps >= 2);
}

TEST_CASE("quantities: known values, index checks and formatting", "[lessons][quantities]") {
  Params p;
  REQUIRE(rope::app::set_param(p, "dim", "8").ok());
  REQUIRE(rope::app::set_param(p, "position", "3").ok());
  const QuantityContext ctx(p);
  CHECK(ctx.evaluate("theta.0").value()[0] == 1.0);
  CHECK(ctx.evaluate("theta.1").value()[0] == Approx(0.1));
  CHECK(ctx.evaluate("theta.last").value()[0] == Approx(0.001));
  CHECK_FALSE(ctx.evaluate("theta.4").ok());                // d/2 = 4 blocks: 0 ... 3
  CHECK(ctx.evaluate("decay0").value()[0] == Approx(2.5));  // (d/2 + 1) / 2
  CHECK(ctx.tex_value("base") == "10\\,000");
  CHECK(ctx.tex_value("theta.0") == "1");
  CHECK(ctx.tex_value("pairing") == "\\text{interleaved}");
  CHECK(ctx.tex_value("efficient_rq").starts_with("("));
  CHECK(find_quantity("theta.x") == nullptr);
  CHECK(find_quantity("theta") == nullptr);
  CHECK(find_quantity("rope_score.1") == nullptr);
  // every entry evaluates at the default state, except the ones that need something absent
  for (const QuantityInfo& q : quantity_table()) {
    const std::string name = example_name(q.name);
    const auto v = ctx.evaluate(name);
    INFO(name);
    if (name == "pairing" || name.starts_with("repeat_")) {
      CHECK_FALSE(v.ok());
    } else {
      REQUIRE(v.ok());
      for (double x : v.value())
        CHECK(std::isfinite(x));
    }
    CHECK(rope::typeset::parse(q.label).diagnostics.empty());
  }
  // dense quantities are refused beyond d = 512, with a message
  Params big;
  REQUIRE(rope::app::set_param(big, "dim", "1024").ok());
  const auto dense = QuantityContext(big).evaluate("dense_score");
  REQUIRE_FALSE(dense.ok());
  CHECK(dense.error().message.find("512") != std::string::npos);
}

// FORMAT.md's table of quantities is the code's table written out: a row per entry of
// quantity_table(), in its order, with its help line ('|' escaped for Markdown).
TEST_CASE("FORMAT.md lists every quantity with the table's help line", "[lessons][quantities]") {
  std::string expected = "| name | value |\n|---|---|\n";
  for (const QuantityInfo& q : quantity_table()) {
    std::string help;
    for (const char* c = q.help; *c != '\0'; ++c)
      help += *c == '|' ? std::string("\\|") : std::string(1, *c);
    expected += "| `" + std::string(q.name) + "` | " + help + " |\n";
  }
  std::ifstream in(std::string(ROPE_TEST_LESSON_DIR) + "/FORMAT.md");
  REQUIRE(in);
  std::string line, table;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "| name | value |") inside = true;
    if (inside && !line.starts_with("|")) break;
    if (inside) table += line + "\n";
  }
  INFO("the table FORMAT.md should hold under '## Quantities':\n" << expected);
  CHECK(table == expected);
}

TEST_CASE("lessons are found by id, by name and by number", "[lessons][lookup]") {
  const std::vector<std::string> ids{"01-why-positions", "02-sinusoidal", "10-extra"};
  CHECK(find_lesson(ids, "02-sinusoidal") == 1);
  CHECK(find_lesson(ids, "sinusoidal") == 1);
  CHECK(find_lesson(ids, "2") == 1);
  CHECK(find_lesson(ids, "10") == 2);
  CHECK(find_lesson(ids, "3") == -1);
  CHECK(find_lesson(ids, "") == -1);
  CHECK(find_lesson(ids, "nope") == -1);
  CHECK(lesson_id("a/b/03-rope-2d.lesson") == "03-rope-2d");
}

namespace {
// An environment variable set, or unset (nullptr), for one scope; the old value back after.
struct EnvFor {
  std::string name;
  std::optional<std::string> old;
  EnvFor(const char* n, const char* value) : name(n) {
    if (const char* v = std::getenv(n)) old = v;
    if (value)
      ::setenv(n, value, 1);
    else
      ::unsetenv(n);
  }
  ~EnvFor() {
    if (old)
      ::setenv(name.c_str(), old->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};
}  // namespace

TEST_CASE("own lesson folders follow the XDG base directory rules, then --lessons-dir's",
          "[lessons][lookup]") {
  const EnvFor extra("ROPE_LAB_OWN_LESSONS", nullptr);
  {
    const EnvFor home("HOME", "/home/ada");
    const EnvFor xdg("XDG_DATA_HOME", nullptr);
    CHECK(own_lesson_directories() ==
          std::vector<std::string>{"/home/ada/.local/share/rope-lab/lessons"});
  }
  {
    const EnvFor home("HOME", "/home/ada");
    const EnvFor xdg("XDG_DATA_HOME", "/data");
    const EnvFor course("ROPE_LAB_OWN_LESSONS", "/courses/ml");
    CHECK(own_lesson_directories() ==
          std::vector<std::string>{"/data/rope-lab/lessons", "/courses/ml"});
  }
  {
    // the specification: a relative XDG_DATA_HOME is invalid and ignored
    const EnvFor home("HOME", "/home/ada");
    const EnvFor xdg("XDG_DATA_HOME", "relative/data");
    CHECK(own_lesson_directories() ==
          std::vector<std::string>{"/home/ada/.local/share/rope-lab/lessons"});
  }
  {
    const EnvFor home("HOME", nullptr);
    const EnvFor xdg("XDG_DATA_HOME", "");
    CHECK(own_lesson_directories().empty());
  }
}

TEST_CASE("entering a step applies the lesson's and earlier steps' state, keeps the lecturer's",
          "[lessons][state]") {
  const LoadedLesson l = parse_lesson(
      "title: t\nshow: base=500\nstep: a\nshow: dim=4 position=3\n$$ a $$\nstep: b\nshow: "
      "position=5 view=decay\n$$ b $$\n",
      "s.lesson", "s");
  REQUIRE(l.problems.empty());
  Params p;
  p.theme = rope::app::Theme::light;
  p.ui_scale = 2.0;
  p.dim = 64;
  p.key_position = 99;
  apply_step_state(l.lesson, 1, p);
  CHECK(p.base == 500);
  CHECK(p.dim == 4);
  CHECK(p.position == 5);
  CHECK(p.key_position == Params{}.key_position);  // back to the default
  CHECK(p.show_view == rope::app::ViewId::decay);
  CHECK(p.theme == rope::app::Theme::light);
  CHECK(p.ui_scale == 2.0);
  apply_step_state(l.lesson, 0, p);
  CHECK(p.position == 3);
  CHECK(p.show_view == rope::app::ViewId::pointers);
}

TEST_CASE("the loader survives mutated lesson files", "[lessons][fuzz]") {
  rope::SplitMix64 rng(7);
  std::vector<std::string> texts;  // the shipped files' bytes
  for (const std::string& f : lesson_files(ROPE_TEST_LESSON_DIR)) {
    std::FILE* fp = std::fopen(f.c_str(), "rb");
    REQUIRE(fp != nullptr);
    std::string s;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, fp)) > 0)
      s.append(buf, n);
    std::fclose(fp);
    texts.push_back(s);
  }
  const char* pieces[] = {
      "$$",        "{{",   "}}", "{{theta.", "\\frac{",  "\nstep:", "\nshow: dim=",
      "\ncheck: ", "==",   "\"", "\xff",     "\xe2\x88", "\n",      "\\begin{pmatrix}",
      "&",         "\\\\", "=",  " view=",   "\r\n",     "\t",      "\\left(",
      "^",         "_"};
  int parsed = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::string t = texts[rng.next() % texts.size()];
    const int edits = 1 + static_cast<int>(rng.next() % 12);
    for (int e = 0; e < edits && !t.empty(); ++e) {
      const std::size_t at = rng.next() % t.size();
      switch (rng.next() % 4) {
        case 0:
          t.erase(at, 1 + rng.next() % 40);
          break;
        case 1:
          t.insert(at, pieces[rng.next() % std::size(pieces)]);
          break;
        case 2:
          t[at] = static_cast<char>(rng.next() & 0xFF);
          break;
        default:
          t = t.substr(0, at);
          break;
      }
    }
    const LoadedLesson l = parse_lesson(t, "fuzz.lesson", "fuzz");
    const int line_count = static_cast<int>(std::count(t.begin(), t.end(), '\n')) + 1;
    for (const Problem& p : l.problems) {
      CHECK(p.pos.line >= 1);
      CHECK(p.pos.line <= line_count);
      CHECK(p.pos.column >= 1);
    }
    // a usable result can be stepped through without trouble
    for (std::size_t s = 0; s < l.lesson.steps.size(); ++s) {
      Params p;
      apply_step_state(l.lesson, static_cast<int>(s), p);
      const QuantityContext ctx(p);
      for (const Check& c : l.lesson.steps[s].checks)
        (void)run_check(ctx, c.left, c.right, c.relation);
    }
    ++parsed;
  }
  CHECK(parsed == 400);
}

TEST_CASE("low-precision quantities: the documented cases and the name syntax",
          "[lessons][quantities][precision]") {
  Params p;
  const QuantityContext ctx(p);
  const auto v = [&](const char* name) {
    const auto r = ctx.evaluate(name);
    INFO(name << ": " << (r ? "" : r.error().to_string()));
    REQUIRE(r.ok());
    REQUIRE(r.value().size() == 1);
    return r.value()[0];
  };
  // by hand: bf16 has 8 significant bits, fp16 11, and ties go to the even significand
  CHECK(v("stored.bf16.257") == 256.0);
  CHECK(v("stored.bf16.259") == 260.0);
  CHECK(v("stored.fp16.2049") == 2048.0);
  CHECK(v("stored.fp16.65519") == 65504.0);
  CHECK(std::isinf(v("stored.fp16.65520")));
  CHECK(v("stored.fp32.16777217") == 16777216.0);
  CHECK(v("stored.fp64.16777217") == 16777217.0);
  CHECK(v("distinct.bf16.0.256") == 257.0);
  CHECK(v("distinct.bf16.256.259") == 3.0);  // 256 257 -> 256, 258, 259 -> 260
  CHECK(v("distinct.fp32.0.99999") == 100000.0);
  CHECK(v("number.1045") == 1045.0);
  CHECK(v("number.0.78") == 0.78);
  // GPT-NeoX #1003: fp16 theta_1 = 0.5625, 1857 * 0.5625 = 1044.5625 -> 1045
  CHECK(v("case_angle.fp16.32.10000.1857.1") == 1045.0);
  CHECK(v("case_error.fp16.32.10000.1857.1") == Approx(1045.0 - 1857.0 * std::pow(1e4, -1.0 / 16)));
  CHECK(v("case_error.exact.32.10000.1857.1") == 0.0);
  // fp32 at 10^7: theta_0 = 1 and the position are exact, so pair 0 is; pair 1 is not
  CHECK(v("case_error.fp32.128.10000.10000000.0") == 0.0);
  CHECK(v("case_angle.fp32.128.10000.10000000.1") == 8659644.0);
  // the fix keeps fp32's angles
  CHECK(v("case_max_error.fix.128.1000000.15962") == v("case_max_error.fp32.128.1000000.15962"));
  CHECK(v("case_max_error.bf16.128.1000000.15962") > 1.0);
  CHECK(v("case_max_cos_error.fp16.32.10000.2047") > 0.78);
  CHECK(v("case_max_cos_error.exact.32.10000.2047") < 1e-12);
  // syntax: formats and presets by name, whole numbers, the right number of arguments
  CHECK(find_quantity("stored.bf8.257") == nullptr);
  CHECK(find_quantity("stored.bf16") == nullptr);
  CHECK(find_quantity("stored.bf16.2.5") == nullptr);
  CHECK(find_quantity("case_angle.fp16.32.10000.1857") == nullptr);
  CHECK(find_quantity("case_angle.half.32.10000.1857.1") == nullptr);
  CHECK(find_quantity("number.1.2.3") == nullptr);
  CHECK(find_quantity("number.-1") == nullptr);
  CHECK(find_quantity("distinct.fp16.1.2") != nullptr);
  // ranges are checked when evaluated, with a message
  CHECK_FALSE(ctx.evaluate("distinct.bf16.5.1").ok());
  CHECK_FALSE(ctx.evaluate("distinct.bf16.0.100000").ok());
  CHECK_FALSE(ctx.evaluate("case_angle.fp16.33.10000.1857.1").ok());
  CHECK_FALSE(ctx.evaluate("case_angle.fp16.32.1.1857.1").ok());
  CHECK_FALSE(ctx.evaluate("case_angle.fp16.32.10000.1857.16").ok());
  CHECK_FALSE(ctx.evaluate("case_max_cos_error.fp16.4096.10000.100000").ok());
  CHECK(rope::lessons::fixed_quantity("case_angle.fp16.32.10000.1857.1"));
  CHECK_FALSE(rope::lessons::fixed_quantity("lp_angle.1"));
}

TEST_CASE("low-precision quantities follow the state's formats",
          "[lessons][quantities][precision]") {
  Params p;
  REQUIRE(rope::app::set_param(p, "dim", "32").ok());
  REQUIRE(rope::app::set_param(p, "position", "1857").ok());
  REQUIRE(rope::app::set_param(p, "precision", "fp16").ok());
  REQUIRE(rope::app::set_param(p, "query", "random").ok());
  REQUIRE(rope::app::set_param(p, "key", "random").ok());
  {
    const QuantityContext ctx(p);
    CHECK(ctx.evaluate("lp_angle.1").value()[0] == 1045.0);
    CHECK(ctx.evaluate("lp_theta.1").value()[0] == 0.5625);
    CHECK(ctx.evaluate("lp_position").value()[0] == 1857.0);
    CHECK(ctx.evaluate("lp_error.1").value()[0] ==
          ctx.evaluate("case_error.fp16.32.10000.1857.1").value()[0]);
    CHECK(ctx.evaluate("lp_max_error").value()[0] >= 0.73);
    // fp16 cos / sin: the emulated score differs from the exact one
    CHECK(std::fabs(ctx.evaluate("lp_score").value()[0] - ctx.evaluate("rope_score").value()[0]) >
          1e-3);
  }
  REQUIRE(rope::app::set_param(p, "precision", "exact").ok());
  {
    const QuantityContext ctx(p);
    CHECK(ctx.evaluate("lp_score").value()[0] == ctx.evaluate("rope_score").value()[0]);
    CHECK(ctx.evaluate("lp_max_error").value()[0] == 0.0);
  }
  REQUIRE(rope::app::set_param(p, "position", "70000").ok());
  REQUIRE(rope::app::set_param(p, "precision", "fp16").ok());
  {
    const QuantityContext ctx(p);  // 70000 overflows fp16: no angle, NaN
    CHECK(std::isinf(ctx.evaluate("lp_position").value()[0]));
    CHECK(std::isnan(ctx.evaluate("lp_max_error").value()[0]));
  }
}

// The quantities added for issue 14, at states worked out by hand.
TEST_CASE("quantities of the rewritten checks: values worked out by hand",
          "[lessons][quantities]") {
  // d = 2, theta_0 = 1: q = (1, 0) turned to m = 2 points at angle 2; k = (0, 1) at pi/2 + 2
  const Params two = state_with(
      {{"dim", "2"}, {"query", "1,0"}, {"key", "0,1"}, {"position", "2"}, {"key_position", "0"}});
  CHECK(value_at(two, "turn_q.0")[0] == Approx(2.0));
  CHECK(value_at(two, "turn_k.0")[0] == Approx(2.0));
  CHECK(value_at(two, "angle_m_wrapped.0")[0] == Approx(2.0));
  // m = 5: 5 rad wraps to 5 - 2 pi
  const Params five = state_with({{"dim", "2"}, {"query", "1,0"}, {"position", "5"}});
  CHECK(value_at(five, "angle_m_wrapped.0")[0] == Approx(5.0 - 2.0 * M_PI));
  CHECK(value_at(five, "turn_q.0")[0] == Approx(5.0 - 2.0 * M_PI));
  // q k* e^{i(m-n)theta} with q = 1, k = i, m - n = 2: -i e^{2i} = (sin 2, -cos 2)
  CHECK(value_at(two, "complex_product_relative")[0] == Approx(std::sin(2.0)));
  CHECK(value_at(two, "complex_product_relative")[1] == Approx(-std::cos(2.0)));
  CHECK(value_at(two, "complex_product")[0] == Approx(std::sin(2.0)));
  CHECK(value_at(two, "complex_product")[1] == Approx(-std::cos(2.0)));
  CHECK(value_at(two, "radial_product")[0] == Approx(1.0));
  CHECK(value_at(two, "norm_product")[0] == Approx(1.0));
  // slowest frequency and wavelength: d = 16, base 10 000 -> 10^-3.5 and 2 pi 10^3.5
  const Params sixteen = state_with({{"dim", "16"}});
  CHECK(value_at(sixteen, "slowest_theta_formula")[0] == Approx(std::pow(10.0, -3.5)));
  CHECK(value_at(sixteen, "slowest_wavelength_formula")[0] ==
        Approx(2.0 * M_PI * std::pow(10.0, 3.5)));
  CHECK(value_at(sixteen, "slowest_wavelength_formula")[0] ==
        Approx(value_at(sixteen, "wavelength.last")[0]));
  CHECK(value_at(state_with({{"context_length", "131072"}}), "context_length")[0] == 131072.0);
  // the sentence view's positions and score
  const Params py = state_with({{"dim", "2"},
                                {"sentence_a", "Python is love"},
                                {"sentence_b", "Coding in Python is love"},
                                {"query_word", "Python"},
                                {"key_word", "love"}});
  CHECK(value_at(py, "sentence_m_a")[0] == 0.0);
  CHECK(value_at(py, "sentence_n_a")[0] == 2.0);
  CHECK(value_at(py, "sentence_m_b")[0] == 2.0);
  CHECK(value_at(py, "sentence_n_b")[0] == 4.0);
  {
    const auto q = rope::hash_embedding("Python", 2, py.seed);
    const auto k = rope::hash_embedding("love", 2, py.seed);
    // (R_0 q).(R_2 k) = q . R(2) k in 2D
    const double s = q[0] * (std::cos(2.0) * k[0] - std::sin(2.0) * k[1]) +
                     q[1] * (std::sin(2.0) * k[0] + std::cos(2.0) * k[1]);
    CHECK(value_at(py, "sentence_score_a")[0] == Approx(s));
    CHECK(value_at(py, "sentence_score_b")[0] == Approx(s));
  }
  CHECK_FALSE(
      QuantityContext(state_with({{"key_word", "absent"}})).evaluate("sentence_score_a").ok());
  // all-ones q and k are the same for every seed: position scales both pairs alike
  const Params ones =
      state_with({{"dim", "8"}, {"query", "ones"}, {"key", "ones"}, {"key_position", "5"}});
  CHECK(value_at(ones, "score_ratio_gap")[0] == Approx(0.0).margin(1e-12));
  CHECK(value_at(ones, "score_ratio")[0] == Approx(value_at(ones, "rope_score")[0] / 8.0));
  // rotate_half as written, d = 4, m = 1: theta = (1, 0.01), x = (1, 2, 3, 4)
  const Params rh =
      state_with({{"dim", "4"}, {"query", "1,2,3,4"}, {"position", "1"}, {"base", "10000"}});
  {
    const double c0 = std::cos(1.0), s0 = std::sin(1.0), c1 = std::cos(0.01), s1 = std::sin(0.01);
    const std::vector<double> want = {1 * c0 - 3 * s0, 2 * c1 - 4 * s1, 3 * c0 + 1 * s0,
                                      4 * c1 + 2 * s1};
    const auto got = value_at(rh, "rotate_half_rq");
    const auto cx = value_at(rh, "half_complex_rq");
    for (std::size_t j = 0; j < 4; ++j) {
      CHECK(got[j] == Approx(want[j]));
      CHECK(cx[j] == Approx(want[j]));
    }
  }
  // the Janes: the two outputs without positions are the same vector
  const Params janes = state_with(
      {{"sentence_a", "Jane saw a film and then Jane walked home"}, {"query_word", "Jane"}});
  CHECK(value_at(janes, "repeat_first_nopos") == value_at(janes, "repeat_second_nopos"));
  // values: one word attends only to itself, so its output is its (rotated) value
  const Params one_word = state_with({{"dim", "2"}, {"sentence_a", "cat"}, {"position", "0"}});
  {
    const auto x = rope::hash_embedding("cat", 2, one_word.seed);
    CHECK(value_at(one_word, "out_qk") == std::vector<double>(x.begin(), x.end()));
    CHECK(value_at(one_word, "out_qk_moved")[0] == Approx(x[0]));
    // rotated values move with the start: R(2) x - R(0) x
    const double dx = std::cos(2.0) * x[0] - std::sin(2.0) * x[1] - x[0];
    const double dy = std::sin(2.0) * x[0] + std::cos(2.0) * x[1] - x[1];
    CHECK(value_at(one_word, "out_qkv_move_change")[0] ==
          Approx(std::max(std::fabs(dx), std::fabs(dy))));
  }
}

TEST_CASE("quantities that test a step's claim: values worked out by hand",
          "[lessons][quantities]") {
  // lesson 4, polar form: q = 2 at m = 2 is 2 e^{2i}; k = 3i at n = 0. Their product
  // f(q, m) f*(k, n) = 6 e^{i(2 - pi/2)}: lengths multiply, angles subtract
  const Params polar = state_with(
      {{"dim", "2"}, {"query", "2,0"}, {"key", "0,3"}, {"position", "2"}, {"key_position", "0"}});
  CHECK(value_at(polar, "product_length.0")[0] == Approx(6.0));
  CHECK(value_at(polar, "length_product.0")[0] == Approx(6.0));
  CHECK(value_at(polar, "product_angle.0")[0] == Approx(2.0 - M_PI / 2));
  CHECK(value_at(polar, "angle_difference.0")[0] == Approx(2.0 - M_PI / 2));
  // m = 5, n = 0: 5 - pi/2 wraps to 5 - pi/2 - 2 pi in both
  const Params wrapped = state_with(
      {{"dim", "2"}, {"query", "2,0"}, {"key", "0,3"}, {"position", "5"}, {"key_position", "0"}});
  CHECK(value_at(wrapped, "product_angle.0")[0] == Approx(5.0 - M_PI / 2 - 2 * M_PI));
  CHECK(value_at(wrapped, "angle_difference.0")[0] == Approx(5.0 - M_PI / 2 - 2 * M_PI));
  // the frequency ladder at d = 8, base 10 000: theta = 1, 0.1, 0.01, 0.001
  const Params eight = state_with({{"dim", "8"}, {"base", "10000"}});
  CHECK(value_at(eight, "theta_step_min")[0] == Approx(0.1));
  CHECK(value_at(eight, "theta_step_max")[0] == Approx(0.1));
  CHECK(value_at(eight, "wavelength_step_min")[0] == Approx(10.0));
  CHECK(value_at(eight, "wavelength_step_max")[0] == Approx(10.0));
  CHECK(value_at(state_with({{"dim", "2"}}), "theta_step_min")[0] == 1.0);  // one block: no step
  // DeepSeek-V3: mscale = 0.1 ln 40 + 1, the scale (128 + 64)^(-1/2) mscale^2
  const Params ds = state_with({{"model", "deepseek-v3"}, {"query", "random"}, {"key", "random"}});
  const double mscale = 0.1 * std::log(40.0) + 1.0;
  CHECK(value_at(ds, "mla_plain_scale")[0] == Approx(1.0 / std::sqrt(192.0)));
  CHECK(value_at(ds, "mla_scale_gain")[0] == Approx(mscale * mscale));
  CHECK(value_at(ds, "mla_score_moved")[0] == Approx(value_at(ds, "mla_score")[0]).epsilon(1e-9));
  // moving the key alone does change the RoPE part: the check above is not vacuous
  CHECK(value_at(ds, "mla_rope_score")[0] != Approx(value_at(state_with({{"model", "deepseek-v3"},
                                                                         {"query", "random"},
                                                                         {"key", "random"},
                                                                         {"key_position", "1003"}}),
                                                             "mla_rope_score")[0]));
  // lesson 2: one token at positions 0 and 1, d = 2, q = k = (1, 0). PE_0 = (0, 1),
  // PE_1 = (sin 1, cos 1): added, the row m = 0 holds 2 and 1 + sin 1 + cos 1; rotated, 1 and
  // cos 1
  const Params row = state_with(
      {{"dim", "2"}, {"query", "1,0"}, {"key", "1,0"}, {"positions", "8"}, {"position", "0"}});
  {
    double add_min = 1e9, rot_min = 1e9;
    for (int t = 0; t < 8; ++t) {
      add_min = std::min(add_min, 1.0 + std::sin(t) + std::cos(t));  // (1, 1).(1 + sin t, cos t)
      rot_min = std::min(rot_min, std::cos(t));
    }
    CHECK(value_at(row, "additive_row_min")[0] == Approx(add_min));
    CHECK(value_at(row, "rope_row_min")[0] == Approx(rot_min));
  }
  // lesson 9: the stretched query leaves the sum as the rotated one does, and differs from it
  const Params lin = state_with({{"dim", "8"}, {"position", "3"}});
  const auto stretched = value_at(lin, "linear_stretched_summary");
  const auto direct = value_at(lin, "linear_stretched_direct");
  const auto plain = value_at(lin, "linear_summary_numerator");
  REQUIRE(stretched.size() == 8u);
  for (std::size_t c = 0; c < 8; ++c)
    CHECK(stretched[c] == Approx(direct[c]).epsilon(1e-12));
  CHECK(stretched != plain);
}

// Lesson 11 names the pairs that never complete a turn within L as "pairs {{first_slow_pair}} to
// {{last_pair}}" and checks the boundary at rotations.last_fast and rotations.first_slow: the
// index follows d, base and L, so the prose, the read-out and the check agree at any state.
TEST_CASE("first_slow and last_fast name the pair boundary at r = 1, at any d, base and L",
          "[lessons][quantities]") {
  // Llama 2, d = 128, base 10 000, L = 4096: r_i = 4096 * 10000^(-i/64) / 2 pi is 1.0039 at
  // pair 45 and 0.8693 at 46; at L = 1536 and d = 64, 1.0309 at pair 19 and 0.7731 at 20
  const Params llama2 =
      state_with({{"dim", "128"}, {"base", "10000"}, {"original_context", "4096"}});
  CHECK(value_at(llama2, "first_slow_pair")[0] == 46.0);
  CHECK(value_at(llama2, "last_fast_pair")[0] == 45.0);
  CHECK(value_at(llama2, "slow_pairs")[0] == 18.0);
  CHECK(value_at(llama2, "rotations.first_slow") == value_at(llama2, "rotations.46"));
  CHECK(value_at(llama2, "rotations.last_fast") == value_at(llama2, "rotations.45"));
  CHECK(value_at(llama2, "train_angle.last_fast") == value_at(llama2, "train_angle.45"));
  CHECK(value_at(llama2, "rotations.last_fast")[0] ==
        Approx(4096.0 * std::pow(1e4, -45.0 / 64) / (2 * M_PI)));
  CHECK(value_at(llama2, "rotations.first_slow")[0] ==
        Approx(4096.0 * std::pow(1e4, -46.0 / 64) / (2 * M_PI)));
  const Params roformer =
      state_with({{"dim", "64"}, {"base", "10000"}, {"original_context", "1536"}});
  CHECK(value_at(roformer, "first_slow_pair")[0] == 20.0);
  CHECK(value_at(roformer, "rotations.last_fast") == value_at(roformer, "rotations.19"));
  // no boundary to name: every pair turns (L past 2 pi b^((d-2)/d)), or none does (L < 2 pi)
  const Params all_fast = state_with({{"dim", "8"}, {"base", "10"}, {"original_context", "4096"}});
  CHECK(value_at(all_fast, "first_slow_pair")[0] == 4.0);
  CHECK_FALSE(QuantityContext(all_fast).evaluate("rotations.first_slow").ok());
  CHECK(value_at(all_fast, "rotations.last_fast") == value_at(all_fast, "rotations.3"));
  const Params all_slow = state_with({{"dim", "8"}, {"original_context", "4"}});
  CHECK(value_at(all_slow, "last_fast_pair")[0] == -1.0);
  CHECK_FALSE(QuantityContext(all_slow).evaluate("rotations.last_fast").ok());
  CHECK(value_at(all_slow, "rotations.first_slow") == value_at(all_slow, "rotations.0"));
  // a coordinate is not a pair
  CHECK(find_quantity("q.first_slow") != nullptr);  // syntax only
  CHECK_FALSE(QuantityContext(llama2).evaluate("q.first_slow").ok());
  CHECK(find_quantity("rotations.first_slower") == nullptr);

  // Every shipped check at such an index holds at random d, base and L (the lesson test keeps
  // d and base of the extension view's steps; the boundary does not need them kept).
  rope::SplitMix64 rng(20261207);
  int held = 0, checks = 0;
  for (const LoadedLesson& l : shipped()) {
    for (std::size_t s = 0; s < l.lesson.steps.size(); ++s) {
      Params base_state;
      apply_step_state(l.lesson, static_cast<int>(s), base_state);
      for (const Check& c : l.lesson.steps[s].checks) {
        const auto symbolic = [](const std::string& n) {
          return n.ends_with(".first_slow") || n.ends_with(".last_fast");
        };
        if (!symbolic(c.left) && !symbolic(c.right)) continue;
        ++checks;
        for (int trial = 0; trial < 200; ++trial) {
          Params p = base_state;
          const auto set = [&](const char* name, const std::string& value) {
            REQUIRE(rope::app::set_param(p, name, value).ok());
          };
          set("dim", std::to_string(2 * (1 + static_cast<int>(rng.uniform() * 128))));
          set("base", rope::app::format_number(std::exp(rng.uniform(std::log(2.0), std::log(1e6))),
                                               rope::app::NumberStyle::csv));
          set("original_context", std::to_string(1 << (1 + static_cast<int>(rng.uniform() * 17))));
          const CheckOutcome o = run_check(QuantityContext(p), c.left, c.right, c.relation);
          INFO(l.lesson.id << " step " << s + 1 << ": " << c.left << " vs " << c.right
                           << " at d=" << p.dim << " base=" << p.base << " L="
                           << p.extension.scaling.original_context << " error '" << o.error << "'");
          if (!o.computed) {  // no boundary at this state: the message says so
            CHECK(o.error.find("pair") != std::string::npos);
            continue;
          }
          CHECK(o.passed);
          ++held;
        }
      }
    }
  }
  CHECK(checks >= 6);  // lesson 11, steps 1 to 3
  CHECK(held > checks * 100);
}

TEST_CASE("a check's label names the index and the arguments it is evaluated at", "[lessons]") {
  CHECK(quantity_label("theta.28") == "\\theta_{28}");
  CHECK(quantity_label("ratio.35") == "\\theta'_{35}/\\theta_{35}");
  CHECK(quantity_label("rotations.last") == "r_{d/2-1}");
  CHECK(quantity_label("rotations.first_slow") == "r_{i_{r<1}}");
  CHECK(quantity_label("train_angle.last_fast") == "L\\theta_{i_{r<1}-1}");
  CHECK(quantity_label("lp_error.1") == "\\tilde\\phi_{1} - m\\theta_{1}");
  CHECK(quantity_label("case_error.bf16.128.10000.100000.0") ==
        "\\tilde\\phi_{0} - m\\theta_{0}\\;[\\text{bf16},\\ m = 100\\,000]");
  CHECK(quantity_label("case_max_cos_error.fp16.32.10000.2047") ==
        "\\max_{m,i}|\\widetilde{\\cos} - \\cos|\\;[\\text{fp16}]");
  CHECK(quantity_label("stored.bf16.257") == "\\mathrm{fl}_{\\text{bf16}}(257)");
  CHECK(quantity_label("distinct.bf16.256.511") == "N_{\\text{distinct}}[256, 511]");
  CHECK(quantity_label("decay_at.128.10000.256") == "D(256)");
  CHECK(quantity_label("rope_score") ==
        "(\\boldsymbol{R}_m\\boldsymbol{q})^\\top(\\boldsymbol{R}_n\\boldsymbol{k})");
  CHECK(quantity_label("no_such_quantity").empty());
  // each label still sets as TeX
  for (const char* name : {"theta.28", "stored.bf16.257", "distinct.bf16.256.511",
                           "rotations.first_slow", "case_max_error.fix.128.1000000.15962"}) {
    INFO(name);
    CHECK(rope::typeset::parse(quantity_label(name)).diagnostics.empty());
  }
}

TEST_CASE("a lesson's config=FILE is found beside the lesson file", "[lessons][loader]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "rope-lab-lesson-config-test";
  fs::create_directories(dir);
  fs::copy_file(std::string(ROPE_LAB_SOURCE_DIR) + "/tests/fixtures/configs/phi-2.json",
                dir / "phi.json", fs::copy_options::overwrite_existing);
  {
    std::ofstream f(dir / "99-config.lesson");
    f << "title: t\nstep: s\nshow: view=spectrum config=phi.json\n$$ a $$\n";
  }
  const LoadedLesson l = load_lesson_file((dir / "99-config.lesson").string());
  INFO((l.problems.empty() ? std::string() : l.problems.front().message));
  REQUIRE(l.problems.empty());
  Params p;
  apply_step_state(l.lesson, 0, p);
  CHECK(p.dim == 80);  // Phi-2's head, read from the file beside the lesson
  CHECK(fs::path(p.config) == (dir / "phi.json").lexically_normal());
  fs::remove_all(dir);
}
