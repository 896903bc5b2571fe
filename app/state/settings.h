// state/settings.h — what the app remembers between runs, in the XDG config folder:
// $XDG_CONFIG_HOME/rope-lab/settings.json (~/.config/... when unset).
//
//   {"format": "rope-lab-settings", "version": 1, "window": {"width": 1600, "height": 900},
//    "theme": "dark", "ui_scale": 1, "recent_sessions": ["/home/me/lecture.json", ...]}
//
// Precedence at start: built-in defaults < settings < a session file < command-line flags.
//
// The settings file can never stop the app, and the app never destroys a settings file it could
// not understand:
//   * missing                      -> defaults; saved on exit.
//   * not valid (syntax, a wrong type or an out-of-range value anywhere, not ours)
//                                  -> renamed aside to "settings.json.broken-N" (kept whole),
//                                     defaults, one notice naming both paths; saved on exit.
//   * unreadable (permissions), not a regular file (FIFO, device, directory), larger than
//     kMaxSettingsBytes, or written by a newer RoPE Lab
//                                  -> defaults, one notice, and the file is left exactly as it
//                                     is: nothing is saved on exit.
//   * a symbolic link              -> read and written through to its target.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rope/conventions.h"
#include "state/app_state.h"

namespace rope::app {

inline constexpr std::size_t kMaxRecentSessions = 8;
inline constexpr std::size_t kMaxSettingsBytes = 1 << 20;  // 1 MiB: ours are a few hundred bytes

struct Settings {
  int window_width = 0;  // 0: not known yet
  int window_height = 0;
  Theme theme = Theme::dark;
  double ui_scale = 1.0;
  std::vector<std::string> recent_sessions;  // newest first
};

struct SettingsLoad {
  Settings settings;     // the file's values, or the defaults
  bool may_save = true;  // false: the file is kept untouched (see above), do not save on exit
  std::string notice;    // empty, or one sentence for the user naming the file and what happened
};

std::filesystem::path settings_path();
// The document itself, without the file: fills `settings` and returns nothing when every field
// is understood; otherwise the reason ("its \"theme\" is not ..."), and `settings` must not be
// used. `newer` is set (and nothing is read) when a later version wrote it. The fuzzer's entry.
std::optional<std::string> parse_settings(std::string_view text, Settings& settings, bool& newer);
// Never fails: see the table above.
SettingsLoad load_settings(const std::filesystem::path& path);
// Writes atomically; a symbolic link at `path` is followed, so the link stays a link.
Status save_settings(const std::filesystem::path& path, const Settings& settings);
// Puts `path` first in the list, without duplicates, at most kMaxRecentSessions entries.
void remember_session(std::vector<std::string>& recent, const std::string& path);

}  // namespace rope::app
