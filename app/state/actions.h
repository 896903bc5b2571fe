// state/actions.h — the pure state transitions every input path shares (the control panel, the
// keyboard, the presentation bar, the command line): no ImGui, no GL, no drawing.
//
// Usage: step_position(state.params, +1.0); open_session(state, path); show_notice(state, ...).
#pragma once

#include <string>

#include "state/app_state.h"

namespace rope::app {

// Moves the query position m to the nearest integer plus `delta` and pauses the animation:
// what −1 / +1 and ← / → do everywhere.
void step_position(Params& p, double delta);

// Moves m and n together by `delta` (Ctrl+← / Ctrl+→): the score must not change.
void shift_both(Params& p, double delta);

// Advances the animation clock: while playing, m moves by speed * dt positions.
void advance_animation(AppState& state, double dt);

// The UI scale presentation mode uses on a screen `screen_height` logical px high: the same
// layout on every projector, as a 1.5x UI on a 1080-line screen: 1.0 at 720 or 768 lines, 1.5
// at 1080, 2.0 at 1440, 3.0 at 2160 (in quarter steps, from 1 to 3).
double presentation_scale(float screen_height);

// Enters or leaves presentation mode when Params::presentation changed: the projector theme,
// no control panel or menu bar, and a UI scale of at least presentation_scale(screen_height)
// (screen_height: the full screen's height in logical px, where presentation mode shows);
// leaving restores what it changed. The drivers call it before building the frame (the UI
// scale decides the fonts).
void update_presentation(AppState& state, float screen_height = 1080.0f);

// How long a notice stays on screen, s: an error long enough to read twice, a confirmation (a
// saved file's path) briefly, so that it is gone before the next thing the class looks at.
inline constexpr double kNoticeSeconds = 6.0;
inline constexpr double kInfoNoticeSeconds = 3.0;
inline double notice_seconds(const Notice& n) {
  return n.is_error ? kNoticeSeconds : kInfoNoticeSeconds;
}

// Shows a message at the bottom of the canvas for kNoticeSeconds.
void show_notice(AppState& state, std::string text, bool is_error);

// A missing or unusable resource (AppState::problems); the same text twice is kept once.
void report_problem(AppState& state, const std::string& text);

// What a session stores: the parameters, but in presentation mode the lecturer's own theme and
// UI scale (presentation = true brings the projector look back when the file is opened, and
// leaving presentation mode then restores the lecturer's look).
Params session_params(const AppState& state);

// Opens a session file into the state, the one place that does: on success the session's own
// lesson step is kept, the file goes first in the recent list and a notice says so; on failure
// the state is unchanged and a notice names the problem. Returns whether it opened.
// A file that is not a session but a model's config.json (state/hf_config.h) is opened as one
// (open_model_config), so File ▸ Open and a file dropped on the page take either.
bool open_session(AppState& state, const std::string& path);

// Reads a model's config.json into the state (the parameter `config`): on success a notice
// names the model and what a careful reader would flag (the pitfalls); on failure the state is
// unchanged and the notice names the field. Returns whether it was read.
bool open_model_config(AppState& state, const std::string& path);

// Notes what the session file `path` is on disk now (after this window opened or saved it).
void stamp_session_file(AppState& state, const std::string& path);

// Whether saving to `path` would replace a file another program wrote after this window last
// opened or saved it (the same path only; a new name is a save-as; a file deleted since is
// not protected, there is nothing in it to lose).
bool session_changed_on_disk(const AppState& state, const std::string& path);

// Records the current state as the one a session file holds (after saving or opening one, and
// by the window once its first frame has settled): quitting asks first only when the state
// differs from it (unsaved_changes).
void mark_saved(AppState& state);

// True when what a session would save differs from what was marked saved, the lecturer's
// display aside (theme, UI scale, presentation mode, play / pause); false while nothing was
// marked (the offscreen drivers and the tests have nothing to lose).
bool unsaved_changes(const AppState& state);
// Which part differs: the parameters (values, view, lesson step) and / or the pen strokes.
struct UnsavedParts {
  bool values = false;
  bool ink = false;
};
UnsavedParts unsaved_parts(const AppState& state);

// Quit, from Ctrl+Q, File ▸ Quit or the window's close button: at once when nothing would be
// lost or when the question is already on screen (Ctrl+Q twice quits), else ask first
// (AppState::confirm_quit, drawn by shell/dialogs.h).
void ask_to_quit(AppState& state);

// Puts an earlier state back (undo, redo; state/history.h). Like opening a session, the lesson
// step it shows keeps these values: its `show:` state is not applied again on top.
void restore_params(AppState& state, const Params& params);

}  // namespace rope::app
