// state/settings.h — what the app remembers between runs, in the XDG config folder:
// $XDG_CONFIG_HOME/rope-lab/settings.json (~/.config/... when unset).
//
//   {"format": "rope-lab-settings", "version": 1, "window": {"width": 1600, "height": 900},
//    "theme": "dark", "ui_scale": 1, "recent_sessions": ["/home/me/lecture.json", ...]}
//
// Precedence at start: built-in defaults < settings < a session file < command-line flags.
// A damaged settings file is ignored with a notice (never fatal) and rewritten on exit.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "rope/conventions.h"
#include "state/app_state.h"

namespace rope::app {

inline constexpr std::size_t kMaxRecentSessions = 8;

struct Settings {
  int window_width = 0;  // 0: not known yet
  int window_height = 0;
  Theme theme = Theme::dark;
  double ui_scale = 1.0;
  std::vector<std::string> recent_sessions;  // newest first
};

std::filesystem::path settings_path();
// A missing file gives the defaults; a damaged one an Error (the caller keeps the defaults).
Result<Settings> load_settings(const std::filesystem::path& path);
Status save_settings(const std::filesystem::path& path, const Settings& settings);
// Puts `path` first in the list, without duplicates, at most kMaxRecentSessions entries.
void remember_session(std::vector<std::string>& recent, const std::string& path);

}  // namespace rope::app
