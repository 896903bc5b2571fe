// shell/commands.h — what the command palette (Ctrl + K, shell/command_palette.h) offers, and how
// a typed line finds it: every view, lesson and lesson step, model preset, parameter value and
// shortcut, each built from the table that already lists it (state/view_list.h, the lesson
// library, assets/models.json, the parameter table of state/params.h, the shortcut table of
// shell/shortcuts.h). A new view, preset, lesson, parameter or key therefore appears in the
// palette without a line here.
//
// A typed line is matched word by word: each word the lecturer types must begin a word of the
// command ("lla 3.1" finds "Llama 3.1 8B"); for a command that takes a value, the typed words
// that begin none of its words are the value ("base 500000", "yarn 16", "query ones"). A value
// is tried on a copy of the state while typing, so the list says at once what would be refused
// and why, and Enter runs only what can run.
//
// Usage:
//   std::vector<Command> all = build_commands(state, library);         // when the palette opens
//   std::vector<CommandMatch> m = match_commands(all, "yarn 16", state);
//   CommandTarget target{state, library, history, &export_dialog};
//   if (auto s = run_command(all[m[0].index], m[0], target); !s) show(s.error());
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lessons/library.h"
#include "rope/conventions.h"
#include "state/app_state.h"
#include "state/history.h"

namespace rope::app {

struct ExportDialog;

// What a command acts on.
struct CommandTarget {
  AppState& state;
  lessons::Library& library;
  History& history;
  ExportDialog* export_dialog;  // null: the export commands say they cannot export here
};

// What a command needs typed after its words.
enum class CommandValue : std::uint8_t {
  none,      // nothing: every typed word must be one of its words
  number,    // a number ("base 500000")
  optional,  // a number or nothing ("yarn" or "yarn 16": the factor)
  text,      // any text ("query 1,0,0,1")
};

struct Command {
  std::string id;      // stable across runs of the palette: what the recent list remembers
  std::string title;   // "Scaling = yarn", "View: Rotating pointers"
  std::string detail;  // one quieter line: what it is, the value now, what is allowed
  std::string key;     // the shortcut that does the same ("Ctrl + S"), "" when none
  // The words the typed ones are matched against, lower case: the title's first (they rank
  // higher), then the other names it goes by (an id, a parameter's snake_case name, its help).
  std::vector<std::string> words;
  std::size_t title_words = 0;  // how many of `words` come from the title
  CommandValue value = CommandValue::none;
  std::string value_name;  // optional: what the number sets ("factor"), for the title
  // What Enter does with the typed value ("" when none was typed). Errors name the problem and
  // what is allowed; the state is then unchanged.
  std::function<Status(CommandTarget&, const std::string& value)> run;
  // What the value would do to the parameters alone, tried on a copy while typing (parameter
  // commands only; empty for the others).
  std::function<Status(Params&, const std::string& value)> try_on;
};

// Every command for the state as it is now (the current lesson's step commands, the parameters'
// present values in `detail`), in this order: views, lessons and their steps, model presets,
// the shortcut table's commands, the export pictures, the parameters.
std::vector<Command> build_commands(const AppState& state, lessons::Library& library);

struct CommandMatch {
  std::size_t index = 0;  // into the commands
  std::string value;      // the typed words that are the value, as typed ("500000")
  std::string title;      // the title with the value filled in ("base = 500000")
  std::string problem;    // why Enter would not run it ("" when it can)
  int score = 0;
};

// The commands the typed line finds, best first: the most words matched (whole words above
// beginnings, title words above the others, in the typed order above out of order), then the
// larger share of the title matched ("llama 3.1" is more of "Model: Llama 3.1 8B" than of a
// lesson that mentions it), then those run recently (`recent`, newest first), then the order of
// build_commands. An empty line lists the recent ones first, then all. A command whose value would
// be refused still shows, below the others, with the reason in `problem`.
std::vector<CommandMatch> match_commands(const std::vector<Command>& commands,
                                         std::string_view line, const AppState& state);

// Runs the match's command with its value; on success puts its id first in
// state.recent_commands (kMaxRecentCommands at most). On failure the state is unchanged.
inline constexpr std::size_t kMaxRecentCommands = 8;
Status run_command(const Command& command, const CommandMatch& match, CommandTarget& target);

// Lower case ASCII, "×" as "x": what typed words and command words are compared in.
std::string fold_for_matching(std::string_view text);

}  // namespace rope::app
