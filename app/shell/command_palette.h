// shell/command_palette.h — Ctrl + K: a line to type a few letters of anything the menus, the
// panel and the lessons can do ("llama 3.1", "yarn 16", "bf16", "lesson 12 step 3", "base
// 500000", "export 4x", "dark"), and a list of what they find (shell/commands.h); ↑ / ↓ choose,
// Enter runs, Esc or Ctrl + K closes. It works in presentation mode and from the presenter window
// (whose keys reach the main window), drawn over the canvas at the top, in the frame's fonts.
//
// A value the parameter table refuses is said in the list while typing and again on Enter, and
// nothing changes; the palette then stays open with the line as typed.
//
// Usage: Views owns one; draw_frame calls
//   views.palette.Draw(state, CommandTarget{state, views.library, views.history,
//                                           &views.export_dialog}, env);
// state.show_palette opens it (the shortcut table's Ctrl + K), state.palette_query is its line.
#pragma once

#include <string>
#include <vector>

#include "shell/commands.h"
#include "state/app_state.h"
#include "ui/view_env.h"

namespace rope::app {

struct CommandPalette {
  void Draw(AppState& state, CommandTarget target, const ViewEnv& env);

 private:
  bool open_ = false;  // was open last frame: the list is built when it opens
  std::vector<Command> commands_;
  std::string matched_for_;  // the line `matches_` was computed for
  std::vector<CommandMatch> matches_;
  int selected_ = 0;      // into matches_
  std::string error_;     // why the last Enter did nothing
  bool refocus_ = false;  // give the line the keyboard again (after Enter)
};

}  // namespace rope::app
