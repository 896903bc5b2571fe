// lessons/lesson.cpp — the lesson file parser and checker (lesson.h; format: FORMAT.md).
//
// [SECTION] text helpers: lines, UTF-8, columns
// [SECTION] the line parser: directives, equations, prose
// [SECTION] validation: state through set_param, TeX through the typesetter, quantities
// [SECTION] files and lookup
#include "lessons/lesson.h"

#include "io/data_paths.h"
#include "io/number_format.h"
#include "io/placeholders.h"
#include "io/read_file.h"
#include "io/text.h"
#include "io/utf8.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "lessons/quantities.h"
#include "rope/typeset/parser.h"
#include "state/params.h"

namespace rope::lessons {

std::string Problem::to_string() const {
  return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " + message;
}

SourcePos Block::position_of(std::size_t offset) const {
  // pieces are in increasing offset order; columns inside a piece count code points
  const Piece* best = nullptr;
  for (const Piece& p : pieces)
    if (p.offset <= offset) best = &p;
  if (best == nullptr) return pos;
  const std::string_view piece = std::string_view(text).substr(std::min(best->offset, text.size()));
  return {best->pos.line, best->pos.column + app::utf8_column(piece, offset - best->offset) - 1};
}

ProseSplit split_inline_math(std::string_view s) {
  ProseSplit out;
  std::string text;
  std::size_t text_offset = 0;
  const auto flush = [&](std::size_t next) {
    if (!text.empty()) out.spans.push_back({ProseSpan::Kind::text, std::move(text), text_offset});
    text.clear();
    text_offset = next;
  };
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '$') {
      if (text.empty()) text_offset = i;
      text += '$';
      i += 2;
      continue;
    }
    if (s[i] != '$') {
      if (text.empty()) text_offset = i;
      text += s[i++];
      continue;
    }
    // the closing '$': the next one not escaped by a backslash (TeX's \$ is a dollar sign)
    std::size_t j = i + 1;
    while (j < s.size() && s[j] != '$')
      j += s[j] == '\\' && j + 1 < s.size() ? std::size_t{2} : std::size_t{1};
    if (j >= s.size()) {
      out.problems.emplace_back(
          i, "inline math opened here is not closed with $ (write \\$ for a dollar sign)");
      if (text.empty()) text_offset = i;
      text += s.substr(i);
      break;
    }
    flush(j + 1);
    const std::string_view tex = s.substr(i + 1, j - i - 1);
    if (tex.find_first_not_of(" \t") == std::string_view::npos) {
      out.problems.emplace_back(i, "empty inline math (write \\$ for a dollar sign)");
    } else {
      out.spans.push_back({ProseSpan::Kind::math, std::string(tex), i + 1});
    }
    i = j + 1;
  }
  flush(s.size());
  return out;
}

namespace {

// [SECTION] text helpers

constexpr std::size_t kMaxFileBytes = 4u << 20;  // a lesson is text; 4 MiB is far beyond one
constexpr std::size_t kMaxProblems = 200;        // a binary file stops reporting here

// 1-based column (code points) of byte `offset` in `line`.
int column_at(std::string_view line, std::size_t offset) {
  return app::utf8_column(line, offset);
}

// Byte offset of the first malformed UTF-8 sequence (io/utf8.h) or NUL / control byte (tab
// is allowed), npos if none.
std::size_t invalid_text_at(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const app::Utf8Char c = app::decode_utf8(s, i);
    if (!c.valid || (c.code_point < 0x20 && c.code_point != '\t')) return i;
    i += c.length;
  }
  return std::string_view::npos;
}

using app::trim;  // io/text.h: a CRLF line's '\r' goes with the blanks

// A block of one source line's text starting at `at` (more lines may be appended to it).
Block line_block(Block::Kind kind, std::string_view text, SourcePos at) {
  Block b;
  b.kind = kind;
  b.pos = at;
  b.pieces.push_back({0, at});
  b.text = std::string(text);
  return b;
}

// [SECTION] the line parser

struct Parser {
  std::string_view text;
  std::string file;
  LoadedLesson out;
  std::shared_ptr<FixedValues> fixed = {};  // shared by every step's checks
  Step* step = nullptr;                     // current step
  bool in_paragraph = false;                // the last block is prose still being extended
  bool in_note = false;  // the line before was a `note:` with text: the next one continues it

  void problem(SourcePos pos, std::string message) {
    if (out.problems.size() < kMaxProblems) out.problems.push_back({file, pos, std::move(message)});
  }

  void run() {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t nl = text.find('\n', start);
      const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
      lines.push_back(text.substr(start, end - start));
      if (nl == std::string_view::npos) break;
      start = nl + 1;
    }
    for (std::size_t li = 0; li < lines.size(); ++li) {
      std::string_view raw = lines[li];
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      const int line_no = static_cast<int>(li) + 1;
      if (const auto bad = invalid_text_at(raw); bad != std::string_view::npos) {
        problem({line_no, column_at(raw, bad)},
                "invalid UTF-8 or control character (lesson files are UTF-8 text)");
        in_paragraph = false;
        continue;
      }
      const std::size_t lead = raw.find_first_not_of(" \t");
      const bool note_before = std::exchange(in_note, false);
      if (lead == std::string_view::npos) {  // blank: ends a paragraph
        in_paragraph = false;
        continue;
      }
      const std::string_view body = trim(raw);
      if (body.front() == '#') continue;  // comment
      if (body.starts_with("$$")) {
        li = equation(lines, li, lead);
        in_paragraph = false;
        continue;
      }
      if (directive(raw, lead, line_no, note_before)) continue;
      prose(raw, lead, line_no);
    }
    finish();
  }

  // `name: value` at the start of a line, name in [a-z_]. Returns false for prose.
  // note_before: the line above was a `note:` with text (a `note:` line continues its paragraph).
  bool directive(std::string_view raw, std::size_t lead, int line_no, bool note_before) {
    std::size_t j = lead;
    while (j < raw.size() && ((raw[j] >= 'a' && raw[j] <= 'z') || raw[j] == '_'))
      ++j;
    if (j == lead || j >= raw.size() || raw[j] != ':') return false;
    const std::string_view name = raw.substr(lead, j - lead);
    std::size_t vstart = j + 1;
    while (vstart < raw.size() && (raw[vstart] == ' ' || raw[vstart] == '\t'))
      ++vstart;
    const std::string_view value = trim(raw.substr(vstart));
    const SourcePos at{line_no, column_at(raw, lead)};
    const SourcePos value_at{line_no, column_at(raw, vstart)};
    in_paragraph = false;
    if (name == "title") {
      if (!out.lesson.title.empty()) problem(at, "a second title: (a lesson has one)");
      if (step != nullptr) problem(at, "title: must come before the first step:");
      if (value.empty()) problem(value_at, "title: needs text");
      if (out.lesson.title.empty()) out.lesson.title = std::string(value);
    } else if (name == "step") {
      if (value.empty()) problem(value_at, "step: needs a title");
      out.lesson.steps.push_back(Step{std::string(value), at, {}, {}, {}, -1, -1, {}, {}, {}, {}});
      step = &out.lesson.steps.back();
    } else if (name == "show") {
      show(raw, vstart, line_no);
    } else if (name == "assumes") {
      if (step == nullptr)
        problem(at, "assumes: must be inside a step (after step:)");
      else
        show(raw, vstart, line_no, &step->assumes, "assumes");
    } else if (name == "check") {
      check(raw, vstart, line_no);
    } else if (name == "ask") {
      if (step == nullptr) {
        problem(at, "ask: must be inside a step (after step:)");
      } else if (value.empty()) {
        problem(value_at, "ask: needs a question");
      } else {
        step->blocks.push_back(line_block(Block::Kind::question, value, value_at));
      }
    } else if (name == "reveal") {
      if (step == nullptr) {
        problem(at, "reveal: must be inside a step (after step:)");
      } else if (!value.empty()) {
        problem(value_at, "reveal: takes no text (what follows it in the step is hidden)");
      } else if (step->hides()) {
        problem(at, "a second reveal: in this step (one part of a step is hidden)");
      } else {
        step->reveal_block = static_cast<int>(step->blocks.size());
        step->reveal_check = static_cast<int>(step->checks.size());
        step->reveal_pos = at;
      }
    } else if (name == "note") {
      note(value, value_at, note_before);
    } else {
      problem(at,
              "unknown directive '" + std::string(name) +
                  ":', expected title:, step:, show:, assumes:, check:, ask:, reveal: or "
                  "note: (begin a prose line that starts with a lowercase word and a colon with a "
                  "backslash)");
    }
    return true;
  }

  // Lines of one paragraph follow each other; an empty `note:` (or any other line) ends it.
  void note(std::string_view value, SourcePos value_at, bool continues) {
    if (step == nullptr) {
      problem(value_at, "note: must be inside a step (after step:)");
      return;
    }
    if (value.empty()) return;  // a paragraph break
    in_note = true;
    if (continues && !step->notes.empty()) {
      Block& b = step->notes.back();
      b.text += ' ';
      b.pieces.push_back({b.text.size(), value_at});
      b.text += std::string(value);
      return;
    }
    step->notes.push_back(line_block(Block::Kind::prose, value, value_at));
  }

  // `show:` lines, and `assumes:` (into_assumes) which has the same key=value syntax.
  void show(std::string_view raw, std::size_t i, int line_no,
            std::vector<Assignment>* into_assumes = nullptr, const char* directive = "show") {
    // after reveal:, the state the answer brings (applied when it is revealed)
    std::vector<Assignment>& target =
        into_assumes ? *into_assumes
                     : (step ? (step->hides() ? step->reveal_show : step->show) : out.lesson.show);
    bool any = false;
    while (true) {
      while (i < raw.size() && (raw[i] == ' ' || raw[i] == '\t'))
        ++i;
      if (i >= raw.size()) break;
      const std::size_t key_begin = i;
      while (i < raw.size() && raw[i] != '=' && raw[i] != ' ' && raw[i] != '\t')
        ++i;
      const SourcePos at{line_no, column_at(raw, key_begin)};
      const std::string key(raw.substr(key_begin, i - key_begin));
      if (i >= raw.size() || raw[i] != '=') {
        problem(at, "expected key=value in " + std::string(directive) + ":, got '" + key + "'");
        continue;
      }
      ++i;  // '='
      std::string value;
      if (i < raw.size() && raw[i] == '"') {
        const std::size_t close = raw.find('"', i + 1);
        if (close == std::string_view::npos) {
          problem({line_no, column_at(raw, i)}, "quoted value of '" + key + "' is not closed");
          break;
        }
        value = std::string(raw.substr(i + 1, close - i - 1));
        i = close + 1;
      } else {
        const std::size_t vb = i;
        while (i < raw.size() && raw[i] != ' ' && raw[i] != '\t')
          ++i;
        value = std::string(raw.substr(vb, i - vb));
      }
      // a model's config.json is found beside the lesson file, wherever the app was started
      if (key == "config" && !value.empty() && value != "none" &&
          std::filesystem::path(value).is_relative())
        value = (std::filesystem::path(file).parent_path() / value).lexically_normal().string();
      target.push_back({key == "view" ? "show_view" : key, value, at});
      any = true;
    }
    if (!any)
      problem({line_no, column_at(raw, i)}, std::string(directive) + ": needs key=value pairs");
  }

  void check(std::string_view raw, std::size_t i, int line_no) {
    const SourcePos at{line_no, column_at(raw, i)};
    if (step == nullptr) {
      problem(at, "check: must be inside a step (after step:)");
      return;
    }
    const auto word = [&](std::size_t& p, SourcePos& wpos) {
      while (p < raw.size() && (raw[p] == ' ' || raw[p] == '\t'))
        ++p;
      wpos = {line_no, column_at(raw, p)};
      const std::size_t b = p;
      while (p < raw.size() && raw[p] != ' ' && raw[p] != '\t')
        ++p;
      return std::string(raw.substr(b, p - b));
    };
    Check c;
    c.pos = at;
    SourcePos op_pos;
    c.left = word(i, c.left_pos);
    const std::string op = word(i, op_pos);
    c.right = word(i, c.right_pos);
    SourcePos extra_pos;
    const std::string extra = word(i, extra_pos);
    if (c.left.empty() || op.empty() || c.right.empty()) {
      problem(at, "check: needs 'quantity == quantity' or 'quantity <= quantity'");
      return;
    }
    if (op == "==") {
      c.relation = Relation::equal;
    } else if (op == "<=") {
      c.relation = Relation::at_most;
    } else {
      problem(op_pos, "check: compares with == or <=, got '" + op + "'");
      return;
    }
    if (!extra.empty()) {
      problem(extra_pos, "check: unexpected '" + extra + "' after the right-hand side");
      return;
    }
    bool known = true;
    for (const auto& [name, pos] : {std::pair{c.left, c.left_pos}, {c.right, c.right_pos}}) {
      if (find_quantity(name) == nullptr) {
        problem(pos,
                "unknown check quantity '" + name + "' (see the list in assets/lessons/FORMAT.md)");
        known = false;
      }
    }
    if (known) step->checks.push_back(std::move(c));
  }

  // Returns the index of the last line of the equation.
  std::size_t equation(const std::vector<std::string_view>& lines, std::size_t li,
                       std::size_t lead) {
    const int first_line = static_cast<int>(li) + 1;
    Block b;
    b.kind = Block::Kind::equation;
    b.pos = {first_line, column_at(lines[li], lead)};
    std::size_t cur = li;
    std::size_t from = lead + 2;  // after the opening $$
    while (true) {
      std::string_view raw = lines[cur];
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      if (cur != li) {
        if (const auto bad = invalid_text_at(raw); bad != std::string_view::npos) {
          problem({static_cast<int>(cur) + 1, column_at(raw, bad)},
                  "invalid UTF-8 or control character (lesson files are UTF-8 text)");
          raw = raw.substr(0, bad);
        }
      }
      const std::size_t close = raw.find("$$", std::min(from, raw.size()));
      const std::size_t end = close == std::string_view::npos ? raw.size() : close;
      if (!b.text.empty()) b.text += ' ';
      b.pieces.push_back({b.text.size(), {static_cast<int>(cur) + 1, column_at(raw, from)}});
      b.text += std::string(raw.substr(std::min(from, raw.size()), end - std::min(from, end)));
      if (close != std::string_view::npos) {
        const std::size_t after = raw.find_first_not_of(" \t", close + 2);
        if (after != std::string_view::npos)
          problem({static_cast<int>(cur) + 1, column_at(raw, after)},
                  "text after the closing $$ (put prose on its own line)");
        break;
      }
      if (cur + 1 >= lines.size()) {
        problem(b.pos, "equation opened here is not closed with $$");
        return cur;
      }
      ++cur;
      from = 0;
    }
    if (trim(b.text).empty()) {
      problem(b.pos, "empty equation");
      return cur;
    }
    if (step == nullptr) {
      problem(b.pos, "equation before the first step: (start a step with 'step: TITLE')");
      return cur;
    }
    step->blocks.push_back(std::move(b));
    return cur;
  }

  void prose(std::string_view raw, std::size_t lead, int line_no) {
    std::string_view body = trim(raw);
    std::size_t begin = lead;
    if (body.front() == '\\' && !body.starts_with("\\$")) {  // "\note: ..." is prose; \$ a dollar
      body.remove_prefix(1);
      ++begin;
    }
    if (step == nullptr) {
      if (!in_paragraph)
        problem({line_no, column_at(raw, lead)},
                "text before the first step: (start a step with 'step: TITLE')");
      in_paragraph = true;
      return;
    }
    if (in_paragraph && !step->blocks.empty() && step->blocks.back().kind == Block::Kind::prose) {
      Block& b = step->blocks.back();
      b.text += ' ';
      b.pieces.push_back({b.text.size(), {line_no, column_at(raw, begin)}});
      b.text += std::string(body);
    } else {
      step->blocks.push_back(
          line_block(Block::Kind::prose, body, {line_no, column_at(raw, begin)}));
    }
    in_paragraph = true;
  }

  // [SECTION] validation

  // TeX of an equation or of inline math starting at byte `offset` of the block's text.
  void validate_tex(const Block& b, std::string_view tex, std::size_t offset) {
    typeset::Values values;
    for (const app::Placeholder& ph : app::find_placeholders(tex))
      values[std::string(ph.key())] = "1";
    const typeset::ParseResult r = typeset::parse(tex, values);
    for (const typeset::Diagnostic& d : r.diagnostics) {
      // the diagnostic column counts code points of tex; map it back to the file
      problem(b.position_of(offset + app::utf8_offset_of_column(tex, d.column)),
              "TeX: " + d.message);
    }
  }

  void validate_placeholders(const Block& b) {
    for (const app::Placeholder& ph : app::find_placeholders(b.text)) {
      const std::string name(ph.name);
      if (find_quantity(name) == nullptr)
        problem(b.position_of(ph.offset + 2),
                "unknown live value {{" + name + "}} (see assets/lessons/FORMAT.md)");
      if (const app::PlaceholderDigits d = app::placeholder_digits(ph); !d.error.empty())
        problem(b.position_of(ph.offset + 3 + ph.name.size()), d.error);  // at the spec
    }
  }

  // A paragraph's {{name}} values and inline math.
  void validate_prose(const Block& b) {
    const ProseSplit split = split_inline_math(b.text);
    for (const auto& [offset, message] : split.problems)
      problem(b.position_of(offset), message);
    for (const ProseSpan& span : split.spans)
      if (span.kind == ProseSpan::Kind::math) validate_tex(b, span.text, span.offset);
  }

  void apply(const std::vector<Assignment>& list, app::Params& params) {
    for (const Assignment& a : list) {
      if (a.key == "lesson" || a.key == "step" || a.key == "theme" || a.key == "ui_scale" ||
          a.key == "presentation") {
        problem(a.pos, "'" + a.key + "' is the lecturer's setting, a step cannot set it");
        continue;
      }
      if (auto s = app::set_param(params, a.key, a.value); !s) {
        const std::string shown = a.key == "show_view" ? "view" : a.key;
        problem(a.pos, shown + ": " + s.error().message);
      }
    }
  }

  // `assumes:` names parameters with values they accept, and values the step itself shows: an
  // assumption the step breaks would be announced the moment it is entered.
  void validate_assumes(const Step& s, const app::Params& state) {
    for (const Assignment& a : s.assumes) {
      const std::string shown = a.key == "show_view" ? "view" : a.key;
      const app::ParamSpec* spec = app::find_param(a.key);
      app::Params assumed = state;
      if (a.key == "lesson" || a.key == "step" || a.key == "theme" || a.key == "ui_scale" ||
          a.key == "presentation") {
        problem(a.pos, "'" + a.key + "' is the lecturer's setting, a step cannot assume it");
      } else if (auto r = app::set_param(assumed, a.key, a.value); !r) {
        problem(a.pos, "assumes: " + shown + ": " + r.error().message);
      } else if (spec != nullptr && spec->get(assumed) != spec->get(state)) {
        problem(a.pos, "assumes: " + shown + "=" + a.value + ", but the step shows " + shown + "=" +
                           spec->get(state) + " (set it with show:)");
      }
    }
  }

  void finish() {
    Lesson& l = out.lesson;
    if (l.title.empty()) problem({1, 1}, "the lesson has no 'title:' line");
    if (l.steps.empty()) problem({1, 1}, "the lesson has no steps (start one with 'step: TITLE')");
    app::Params state;
    apply(l.show, state);
    for (Step& s : l.steps) {
      apply(s.show, state);
      if (auto v = app::validate_params(state); !v)
        problem(s.pos, "the state of this step is inconsistent: " + v.error().to_string());
      if (s.blocks.empty() && s.checks.empty())
        problem(s.pos, "this step has no text, equation or check");
      validate_assumes(s, state);
      for (const Block& b : s.notes) {  // the lecturer's notes: checked as prose
        validate_placeholders(b);
        validate_prose(b);
      }
      if (s.hides() && s.reveal_block == static_cast<int>(s.blocks.size()) &&
          s.reveal_check == static_cast<int>(s.checks.size()))
        problem(s.reveal_pos, "nothing follows reveal: in this step, so nothing is hidden");
      for (const Block& b : s.blocks) {
        validate_placeholders(b);
        if (b.kind == Block::Kind::equation) {  // prose and questions: text with inline math
          validate_tex(b, b.text, 0);
          continue;
        }
        validate_prose(b);
      }
      // the state once revealed: the checks after reveal: are seen there
      app::Params revealed = state;
      apply(s.reveal_show, revealed);
      if (auto v = app::validate_params(revealed); !v && !s.reveal_show.empty())
        problem(s.reveal_pos,
                "the state this step reveals is inconsistent: " + v.error().to_string());
      if (!s.checks.empty() && app::validate_params(state).ok() &&
          app::validate_params(revealed).ok()) {
        const QuantityContext ctx(state, fixed);
        const QuantityContext ctx_revealed(revealed, fixed);
        const auto number = [](double v) {  // for the terminal: 10 digits, "1.5e-07" is fine
          return app::format_number(v, app::NumberStyle::plain, 10);
        };
        for (std::size_t ci = 0; ci < s.checks.size(); ++ci) {
          const Check& c = s.checks[ci];
          const bool after_reveal = s.hides() && static_cast<int>(ci) >= s.reveal_check;
          const CheckOutcome o =
              run_check(after_reveal ? ctx_revealed : ctx, c.left, c.right, c.relation);
          if (!o.computed) {
            problem(c.pos, "check cannot be computed at this step's state: " + o.error);
          } else if (!o.passed) {
            problem(c.pos, "check fails at this step's state: " + c.left + " = " +
                               number(o.left[0]) + ", " + c.right + " = " + number(o.right[0]));
          }
        }
      }
    }
  }
};

}  // namespace

LoadedLesson parse_lesson(std::string_view text, const std::string& file, const std::string& id,
                          std::shared_ptr<FixedValues> fixed) {
  Parser p{text, file, {}};
  p.fixed = fixed ? std::move(fixed) : std::make_shared<FixedValues>();
  p.out.lesson.id = id;
  p.out.lesson.file = file;
  if (text.starts_with("\xEF\xBB\xBF")) p.text.remove_prefix(3);  // UTF-8 byte order mark
  p.run();
  std::stable_sort(
      p.out.problems.begin(), p.out.problems.end(), [](const Problem& a, const Problem& b) {
        return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.column < b.pos.column;
      });
  return std::move(p.out);
}

// [SECTION] files and lookup

std::string lesson_id(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

LoadedLesson load_lesson_file(const std::string& path) {
  LoadedLesson bad;
  bad.lesson.id = lesson_id(path);
  bad.lesson.file = path;
  bool missing = false;
  auto text = app::read_regular_file(path, kMaxFileBytes, &missing);
  if (!text) {
    // "is a pipe (FIFO), not a regular file", "is 5 000 000 bytes; at most 4 MiB are read".
    bad.problems.push_back({path,
                            {1, 1},
                            missing ? std::string("cannot be read (missing or not permitted)")
                                    : text.error().message});
    return bad;
  }
  return parse_lesson(text.value(), path, lesson_id(path));
}

std::string lessons_directory() {
  const app::DataDir d = app::find_data_dir(app::DataFolder::lessons);
  return d.found() ? d.path.string() : d.tried.front().string();
}

std::vector<std::string> lesson_files(const std::string& directory) {
  std::vector<std::string> files;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(directory, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->path().extension() == ".lesson") files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> own_lesson_directories() {
  std::vector<std::string> dirs;
  std::filesystem::path data;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && xdg[0] == '/')
    data = xdg;
  else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    data = std::filesystem::path(home) / ".local" / "share";
  if (!data.empty()) dirs.push_back((data / "rope-lab" / "lessons").string());
  if (const char* extra = std::getenv("ROPE_LAB_OWN_LESSONS"); extra != nullptr && *extra != '\0')
    dirs.emplace_back(extra);
  return dirs;
}

std::vector<LessonFile> all_lesson_files(const std::string& shipped_directory) {
  std::vector<LessonFile> files;
  for (std::string& f : lesson_files(shipped_directory))
    files.push_back({std::move(f), false, false});
  for (const std::string& dir : own_lesson_directories()) {
    std::error_code ec;
    if (std::filesystem::equivalent(dir, shipped_directory, ec)) continue;
    for (std::string& f : lesson_files(dir)) {
      const auto name = std::filesystem::path(f).filename();
      const auto same = std::find_if(files.begin(), files.end(), [&](const LessonFile& l) {
        return std::filesystem::path(l.path).filename() == name;
      });
      if (same == files.end()) {
        files.push_back({std::move(f), true, false});
      } else {
        const bool replaces = !same->own || same->replaces;
        *same = {std::move(f), true, replaces};
      }
    }
  }
  return files;
}

int find_lesson(const std::vector<std::string>& ids, std::string_view name) {
  const auto without_number = [](std::string_view id) {
    std::size_t i = 0;
    while (i < id.size() && id[i] >= '0' && id[i] <= '9')
      ++i;
    if (i > 0 && i < id.size() && (id[i] == '-' || id[i] == '_')) return id.substr(i + 1);
    return id;
  };
  const auto number = [](std::string_view id) {
    std::size_t i = 0;
    while (i < id.size() && id[i] >= '0' && id[i] <= '9')
      ++i;
    return i == 0 ? -1 : std::atoi(std::string(id.substr(0, i)).c_str());
  };
  if (name.empty()) return -1;
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] == name) return static_cast<int>(i);
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (without_number(ids[i]) == name) return static_cast<int>(i);
  const bool all_digits = name.size() <= 4 && std::all_of(name.begin(), name.end(), [](char c) {
                            return c >= '0' && c <= '9';
                          });
  if (all_digits) {
    const int want = std::atoi(std::string(name).c_str());
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (number(ids[i]) == want) return static_cast<int>(i);
  }
  return -1;
}

void apply_step_state(const Lesson& lesson, int index, app::Params& params, bool revealed) {
  app::Params fresh;
  fresh.view = params.view;
  fresh.lesson = params.lesson;
  fresh.step = params.step;
  fresh.theme = params.theme;
  fresh.ui_scale = params.ui_scale;
  fresh.presentation = params.presentation;
  const auto apply = [&](const std::vector<Assignment>& list) {
    for (const Assignment& a : list) {
      if (a.key == "lesson" || a.key == "step" || a.key == "theme" || a.key == "ui_scale" ||
          a.key == "presentation")
        continue;
      (void)app::set_param(fresh, a.key, a.value);
    }
  };
  apply(lesson.show);
  for (int i = 0; i <= index && i < static_cast<int>(lesson.steps.size()); ++i)
    apply(lesson.steps[static_cast<std::size_t>(i)].show);
  if (revealed && index >= 0 && index < static_cast<int>(lesson.steps.size()))
    apply(lesson.steps[static_cast<std::size_t>(index)].reveal_show);
  if (!app::validate_params(fresh)) {  // e.g. a custom query of the wrong length: drop it
    fresh.query = app::Params{}.query;
    fresh.key = app::Params{}.key;
  }
  params = std::move(fresh);
}

std::vector<AssumptionChange> assumption_changes(const Step& step, const app::Params& params) {
  std::vector<AssumptionChange> out;
  for (const Assignment& a : step.assumes) {
    const app::ParamSpec* spec = app::find_param(a.key);
    app::Params assumed = params;
    if (spec == nullptr || !app::set_param(assumed, a.key, a.value)) continue;  // reported
    std::string was = spec->get(assumed), now = spec->get(params);
    if (was != now) out.push_back({a.key == "show_view" ? "view" : a.key, was, now});
  }
  return out;
}

void apply_reveal_state(const Step& step, app::Params& params) {
  app::Params revealed = params;
  for (const Assignment& a : step.reveal_show)
    if (a.key != "lesson" && a.key != "step" && a.key != "theme" && a.key != "ui_scale" &&
        a.key != "presentation")
      (void)app::set_param(revealed, a.key, a.value);  // the loader reports one that fails
  if (app::validate_params(revealed)) params = std::move(revealed);
}

}  // namespace rope::lessons
