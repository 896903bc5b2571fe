#include "state/actions.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "io/read_file.h"
#include "state/hf_config.h"
#include "state/params.h"
#include "state/session.h"
#include "state/settings.h"

namespace rope::app {

void step_position(Params& p, double delta) {
  p.playing = false;
  p.position = param_range("position").clamp(std::round(p.position) + delta);
}

void shift_both(Params& p, double delta) {
  p.position = param_range("position").clamp(p.position + delta);
  p.key_position = param_range("key_position").clamp(p.key_position + delta);
}

void advance_animation(AppState& state, double dt) {
  state.frame_dt = dt;
  state.time += dt;
  Params& p = state.params;
  if (p.playing && std::isfinite(dt) && dt > 0.0)
    p.position = param_range("position").clamp(p.position + p.speed * std::min(dt, 0.25));
}

double presentation_scale(float screen_height) {
  if (!(screen_height > 0.0f)) return 1.5;
  return std::clamp(std::round(static_cast<double>(screen_height) / 720.0 * 4.0) / 4.0, 1.0, 3.0);
}

void update_presentation(AppState& state, float screen_height) {
  Params& p = state.params;
  auto& before = state.before_presentation;
  if (p.presentation && !before.active) {  // entering: projector theme, larger, no panel
    before = {true, p.theme, p.ui_scale, state.show_controls, state.show_menu};
    p.theme = Theme::light;
    p.ui_scale = std::max(p.ui_scale, presentation_scale(screen_height));
    state.show_controls = false;
    state.show_menu = false;                      // the presentation bar takes its place
  } else if (!p.presentation && before.active) {  // leaving: put back what was changed
    p.theme = before.theme;
    p.ui_scale = before.ui_scale;
    state.show_controls = before.show_controls;
    state.show_menu = before.show_menu;
    before.active = false;
  }
}

void report_problem(AppState& state, const std::string& text) {
  if (text.empty()) return;
  if (std::find(state.problems.begin(), state.problems.end(), text) == state.problems.end())
    state.problems.push_back(text);
}

void show_notice(AppState& state, std::string text, bool is_error) {
  state.notice = Notice{std::move(text), is_error, state.time};
}

Params session_params(const AppState& state) {
  Params p = state.params;
  if (state.before_presentation.active) {
    p.theme = state.before_presentation.theme;
    p.ui_scale = state.before_presentation.ui_scale;
  }
  return p;
}

void restore_params(AppState& state, const Params& params) {
  state.params = params;
  state.applied_lesson = params.lesson;
  state.applied_step = params.step;
}

void stamp_session_file(AppState& state, const std::string& path) {
  state.stamped_path = path;
  state.session_stamp = file_stamp(path);
  state.session_conflict = false;
}

bool session_changed_on_disk(const AppState& state, const std::string& path) {
  if (state.stamped_path.empty() || path != state.stamped_path) return false;
  // A file deleted since holds nobody's work: saving it again loses nothing.
  const FileStamp now = file_stamp(path);
  return now.exists && now != state.session_stamp;
}

bool open_model_config(AppState& state, const std::string& path) {
  auto read = load_hf_config(path);
  if (!read) {
    show_notice(state, "Model config not opened: " + path + ": " + read.error().to_string(), true);
    return false;
  }
  if (auto s = set_param(state.params, "config", path); !s) {
    show_notice(state, "Model config not opened: " + s.error().to_string(), true);
    return false;
  }
  std::string text = "Model config opened: " + read.value().preset.name;
  const auto& pitfalls = read.value().pitfalls;
  for (std::size_t i = 0; i < pitfalls.size() && i < 4; ++i)
    text += (i == 0 ? ".  Note " : ";  ") + pitfalls[i].field + ": " + pitfalls[i].text;
  if (pitfalls.size() > 4)
    text += ";  and " + std::to_string(pitfalls.size() - 4) +
            " more (rope-lab models --from-config lists them)";
  show_notice(state, text, false);
  return true;
}

bool open_session(AppState& state, const std::string& path) {
  if (auto text = read_regular_file(path, kMaxConfigBytes);
      text && looks_like_model_config(text.value()))
    return open_model_config(state, path);
  if (auto s = load_session(path, state.params); !s) {
    show_notice(state, "Session not opened: " + s.error().to_string(), true);
    return false;
  }
  state.session_path = path;
  stamp_session_file(state, path);
  state.applied_lesson = state.params.lesson;  // keep the session's own values
  state.applied_step = state.params.step;
  remember_session(state.recent_sessions, path);
  mark_saved(state);
  show_notice(state, "Session opened: " + path, false);
  return true;
}

namespace {

// What the unsaved-changes question compares: the session's state without the room's display
// and the play state (the lecturer's look and a running animation are not work to save).
Params comparable(Params p) {
  p.theme = Theme::dark;
  p.ui_scale = 1.0;
  p.presentation = false;
  p.playing = false;
  return p;
}

}  // namespace

void mark_saved(AppState& state) {
  state.saved = session_params(state);
}

bool unsaved_changes(const AppState& state) {
  return state.saved && !(comparable(session_params(state)) == comparable(*state.saved));
}

UnsavedParts unsaved_parts(const AppState& state) {
  if (!state.saved) return {};
  Params now = comparable(session_params(state)), then = comparable(*state.saved);
  const bool ink = !(now.ink == then.ink);
  now.ink.clear();
  then.ink.clear();
  return UnsavedParts{!(now == then), ink};
}

void ask_to_quit(AppState& state) {
  if (state.confirm_quit || !unsaved_changes(state))
    state.request_quit = true;
  else
    state.confirm_quit = true;
}

}  // namespace rope::app
