// shell/dialogs.h — the small windows over the frame: the notice at the bottom of the canvas,
// the F1 shortcut list (its rows from shell/shortcuts.h), the About box and the session dialog
// (File ▸ Open / Save session, Ctrl + O / Ctrl + S), and the question before quitting with
// unsaved changes. The export dialog has its own file
// (shell/export_dialog.h).
//
// Each draws only when its AppState field says it is open, and closes by clearing that field.
//
// Usage: in draw_frame, after the canvas:
//   draw_notice(state, env, canvas_pos, canvas_size);
//   draw_shortcut_list(state, env);  draw_about(state);  draw_session_dialog(state, env);
#pragma once

#include "imgui.h"
#include "state/app_state.h"
#include "ui/view_env.h"

namespace rope::app {

// The notice (state.notice) for a few seconds, centred near the bottom of the canvas.
// bar_pos, bar_size: the presentation bar's rectangle (size 0 without one): a notice that fits
// its height is drawn over the bar's middle instead of over the canvas's x-axis labels.
void draw_notice(const AppState& state, const ViewEnv& env, ImVec2 canvas_pos, ImVec2 canvas_size,
                 ImVec2 bar_pos = {}, ImVec2 bar_size = {});

// The keyboard shortcuts, one row per line of the shortcut table (state.show_shortcuts).
void draw_shortcut_list(AppState& state, const ViewEnv& env);

// Version and a line on what the app is (state.show_about).
void draw_about(AppState& state);

// A small path dialog: ImGui has no file chooser, and a typed path is what a lecturer who keeps
// one session per lecture needs. Failures show the reason and leave the state as it was.
void draw_session_dialog(AppState& state, const ViewEnv& env);

// "Quit RoPE Lab?" (state.confirm_quit, set by ask_to_quit in state/actions.h): save, quit
// without saving, or cancel; a save that succeeds then quits.
void draw_quit_dialog(AppState& state, const ViewEnv& env);

}  // namespace rope::app
