// lessons/lesson.h — a lesson file (assets/lessons/*.lesson, format in assets/lessons/FORMAT.md)
// parsed into steps, and every problem in it reported with file:line:column.
//
// A lesson is a title and steps; each step has prose, display equations (TeX with {{name}} live
// values), the state it shows (`show: view=pointers dim=4`), optional numeric checks
// (`check: rope_score == relative_score`) and the lecturer's notes (`note: ...`). No GL, no ImGui:
// the loader, `rope-lab lessons
// --check` and the tests share this code with the derivation view.
//
// Usage:
//   LoadedLesson l = load_lesson_file("assets/lessons/03-rope-2d.lesson");
//   for (const Problem& p : l.problems) std::fprintf(stderr, "%s\n", p.to_string().c_str());
//   if (l.usable()) show(l.lesson.steps[0]);
//   Params p; apply_step_state(l.lesson, 2, p);     // the state step 3 shows (steps from 0)
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "state/app_state.h"

namespace rope::lessons {

// Where something is in the lesson file: 1-based line and column (columns count code points).
struct SourcePos {
  int line = 1;
  int column = 1;
};

struct Problem {
  std::string file;
  SourcePos pos;
  std::string message;
  std::string to_string() const;  // "file:line:col: message"
};

// One `key=value` of a `show:` line. `view=X` is stored as key "show_view" (the view drawn
// beside the lesson), every other key is a Params name (state/params.h).
struct Assignment {
  std::string key, value;
  SourcePos pos;
};

// Prose (a paragraph, may hold {{name}} values as plain text and $...$ inline math) or a display
// equation (TeX).
struct Block {
  // question: an `ask:` line, a paragraph drawn as the question to the class
  enum class Kind { prose, equation, question } kind = Kind::prose;
  std::string text;
  SourcePos pos;
  // equations spanning lines: where each source line's text starts in `text`, to map a column
  // in `text` back to the file
  struct Piece {
    std::size_t offset;
    SourcePos pos;
  };
  std::vector<Piece> pieces;
  SourcePos position_of(std::size_t offset_in_text) const;
};

// A prose paragraph cut into text and inline math (`$...$`, FORMAT.md "Inline math"). Text runs
// have `\$` turned into '$'; math runs are the TeX between the dollars, as written (a `\$`
// inside does not close them). `offset` is the byte offset of the run's first character in the
// paragraph's text, for Block::position_of.
struct ProseSpan {
  enum class Kind { text, math } kind = Kind::text;
  std::string text;
  std::size_t offset = 0;
};
struct ProseSplit {
  std::vector<ProseSpan> spans;
  // problems: offset in the paragraph's text and message (an unclosed '$' keeps the rest as
  // text, an empty `$$` is left out)
  std::vector<std::pair<std::size_t, std::string>> problems;
};
ProseSplit split_inline_math(std::string_view prose);

enum class Relation { equal, at_most };  // ==, <=

struct Check {
  std::string left, right;  // quantity names (lessons/quantities.h)
  Relation relation = Relation::equal;
  SourcePos pos, left_pos, right_pos;
};

struct Step {
  std::string title;
  SourcePos pos;
  std::vector<Assignment> show;  // applied on entry, after the lesson's and earlier steps'
  std::vector<Block> blocks;
  std::vector<Check> checks;
  // `reveal:` — blocks from reveal_block on and checks from reveal_check on stay hidden until
  // the lecturer reveals them (V); -1: the step hides nothing
  int reveal_block = -1;
  int reveal_check = -1;
  SourcePos reveal_pos;
  // `show:` lines after `reveal:` — applied when the answer is revealed, on top of the step's
  // state, so the view beside the lesson can hold its part of the answer back too (a curve, a
  // pointer, a value switched on with the reveal)
  std::vector<Assignment> reveal_show;
  // `note:` lines — what the lecturer reads in the presenter window (shell/presenter.h), never
  // drawn on the projected lesson: paragraphs of prose (inline math and {{name}} values allowed)
  std::vector<Block> notes;
  // `assumes: base=10000 dim=128` — values the step's prose holds only at (a model's facts, a
  // documented case). They set nothing; the derivation view says "This step assumes base 10 000
  // (now 500 000)" while the current state differs (assumption_changes).
  std::vector<Assignment> assumes;
  bool hides() const { return reveal_block >= 0; }
};

struct Lesson {
  std::string id;                // file stem, e.g. "03-rope-2d"
  std::string file;              // path as given
  std::string title;             // from `title:`
  std::vector<Assignment> show;  // lesson-wide state (a `show:` before the first step)
  std::vector<Step> steps;
};

struct LoadedLesson {
  Lesson lesson;
  std::vector<Problem> problems;  // empty when the file is fine
  bool own = false;               // from one of the lecturer's folders (own_lesson_directories())
  bool replaces = false;          // own, and in the place of a shipped lesson of the same file name
  bool usable() const { return !lesson.steps.empty(); }
};

// Parses lesson text. `file` only names the source in problems. Checks syntax, the parameter
// names and values of `show:` (through set_param), the TeX of every equation (through the
// typesetter's parser), the names of live values and check quantities, and that every check
// holds at its step's state. Never throws; any byte sequence gives a result.
//
// `fixed`: where the values of fixed quantities (the same in every state, see quantities.h) are
// remembered. Some sweep thousands of angles or a 20 000-distance decay curve; one parse shares
// them across its steps, and a caller that parses many texts (a fuzzer) may share them across
// parses. Not thread-safe: share it only within one thread.
using FixedValues = std::map<std::string, std::vector<double>, std::less<>>;
LoadedLesson parse_lesson(std::string_view text, const std::string& file, const std::string& id,
                          std::shared_ptr<FixedValues> fixed = {});

// Reads and parses a file; an unreadable file is one problem at 1:1.
LoadedLesson load_lesson_file(const std::string& path);

// The lessons directory (io/data_paths.h): $ROPE_LAB_LESSONS, the installed copy, or the
// source tree; when none exists, the first place tried (loading it then reports the problem).
std::string lessons_directory();

// Every *.lesson file of a directory, sorted by name (the number prefix orders them).
std::vector<std::string> lesson_files(const std::string& directory);

// The lecturer's own lesson folders, in the order they are read: $XDG_DATA_HOME/rope-lab/lessons
// (~/.local/share/rope-lab/lessons when XDG_DATA_HOME is unset or not absolute, as the XDG base
// directory specification says), then $ROPE_LAB_OWN_LESSONS, the folder `--lessons-dir` names.
// Folders that do not exist are listed too; they hold no lessons.
std::vector<std::string> own_lesson_directories();

// One lesson file of the list the app shows.
struct LessonFile {
  std::string path;
  bool own = false;       // from an own folder
  bool replaces = false;  // own, with the file name of a shipped lesson, which it replaces
};
// Every lesson the app offers: the shipped folder's files by name, then each own folder's by
// name; an own file with the file name of one listed before it takes that one's place (so
// "03-rope-2d.lesson" of the lecturer's is lesson 3). An own folder that is the shipped folder
// itself (installed with --prefix ~/.local) is read once, as the shipped one.
std::vector<LessonFile> all_lesson_files(const std::string& shipped_directory);

// Finds a lesson by id: the file stem ("03-rope-2d"), the stem without its number prefix
// ("rope-2d"), or the number ("3"). Returns the index into `ids`, or -1.
int find_lesson(const std::vector<std::string>& ids, std::string_view name);

// The file stem of a path: "a/b/03-rope-2d.lesson" -> "03-rope-2d".
std::string lesson_id(const std::string& path);

// The state of step `index` (from 0): Params reset to defaults except what the lecturer owns
// (view, lesson, step, theme, ui_scale, presentation), then the lesson's `show:` and the
// `show:` lines of steps 0 ... index applied in order; with `revealed`, then step index's
// `show:` lines after its `reveal:` (the state once the answer is out). Assignments that fail
// are skipped (the loader has reported them).
void apply_step_state(const Lesson& lesson, int index, app::Params& params, bool revealed = false);
// Step `step`'s state once revealed, from its state before: its reveal_show applied to `params`.
void apply_reveal_state(const Step& step, app::Params& params);

// One value a step assumes (`assumes:`) that the current state does not have, as the parameter
// table prints both: {"base", "10000", "500000"}.
struct AssumptionChange {
  std::string key, assumed, now;
};
// The step's `assumes:` values that differ from `params`, in the order written.
std::vector<AssumptionChange> assumption_changes(const Step& step, const app::Params& params);

}  // namespace rope::lessons
