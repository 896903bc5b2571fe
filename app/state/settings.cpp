#include "state/settings.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

#include "io/atomic_file.h"
#include "io/read_file.h"
#include "state/params.h"

namespace rope::app {
namespace {

constexpr const char* kFormat = "rope-lab-settings";
constexpr int kVersion = 1;

// What reading the file's bytes gave: the text, or why the file is left alone.
struct ReadOutcome {
  bool missing = false;
  std::optional<std::string> text;  // set when the bytes were read
  std::string refusal;              // set when the file is kept untouched
};

// Only a regular file of at most kMaxSettingsBytes is read (io/read_file.h): a FIFO or a link to
// /dev/zero must not hang or exhaust the start-up.
ReadOutcome read_settings_bytes(const std::filesystem::path& path) {
  ReadOutcome out;
  auto text = read_regular_file(path, kMaxSettingsBytes, &out.missing);
  if (out.missing) return out;
  if (!text) {
    out.refusal = text.error().message;
    return out;
  }
  out.text = std::move(text).value();
  return out;
}

// An integer field within [lo, hi], or nullopt for any other JSON value (a string, a fraction,
// a number outside the range: checked as double first, so 1e30 cannot overflow an int).
std::optional<int> int_in_range(const nlohmann::json& v, int lo, int hi) {
  if (!v.is_number()) return std::nullopt;
  const double x = v.get<double>();
  if (!(x >= lo && x <= hi) || x != static_cast<double>(static_cast<int>(x))) return std::nullopt;
  return static_cast<int>(x);
}

// "settings.json.broken-1", "-2", ...: the first name not taken, beside the file.
std::filesystem::path set_aside_name(const std::filesystem::path& file) {
  std::error_code ec;
  for (int k = 1;; ++k) {
    std::filesystem::path candidate = file;
    candidate += ".broken-" + std::to_string(k);
    if (!std::filesystem::exists(std::filesystem::symlink_status(candidate, ec))) return candidate;
  }
}

// The file a path names, through symbolic links (the path itself when it is not a link).
std::filesystem::path through_links(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(path, ec);
  if (ec || !std::filesystem::is_symlink(status)) return path;
  const auto target = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : target;
}

}  // namespace

// Parses the whole document; any field of the wrong type or range makes the file invalid,
// because a file we cannot fully understand is set aside rather than partly trusted.
// Returns the reason on failure. `newer` is set when a later version wrote the file.
std::optional<std::string> parse_settings(std::string_view text, Settings& s, bool& newer) {
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) return "it is not valid JSON";
  if (!doc.is_object()) return "it is not a JSON object";
  const auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || format->get<std::string>() != kFormat)
    return std::string("its \"format\" is not \"") + kFormat + "\"";
  const auto version = doc.find("version");
  const auto v = version == doc.end() ? std::nullopt : int_in_range(*version, 1, 1 << 30);
  if (!v) return "its \"version\" is not a whole number from 1";
  if (*v > kVersion) {
    newer = true;
    return std::nullopt;
  }
  if (const auto w = doc.find("window"); w != doc.end()) {
    if (!w->is_object()) return "its \"window\" is not an object";
    const auto wf = w->find("width");
    const auto hf = w->find("height");
    const auto width = wf == w->end() ? std::nullopt : int_in_range(*wf, 320, 16384);
    const auto height = hf == w->end() ? std::nullopt : int_in_range(*hf, 240, 16384);
    if (!width || !height)
      return "its window size is not two whole numbers (width 320 to 16384, height 240 to 16384)";
    s.window_width = *width;
    s.window_height = *height;
  }
  if (const auto t = doc.find("theme"); t != doc.end()) {
    Params p;
    if (!t->is_string() || !set_param(p, "theme", t->get<std::string>()))
      return "its \"theme\" is not \"dark\" or \"light\"";
    s.theme = p.theme;
  }
  if (const auto u = doc.find("ui_scale"); u != doc.end()) {
    const double x = u->is_number() ? u->get<double>() : 0.0;
    if (!(x >= 0.5 && x <= 4.0)) return "its \"ui_scale\" is not a number from 0.5 to 4";
    s.ui_scale = x;
  }
  if (const auto r = doc.find("recent_sessions"); r != doc.end()) {
    if (!r->is_array()) return "its \"recent_sessions\" is not a list";
    for (const auto& e : *r) {
      if (!e.is_string()) return "its \"recent_sessions\" holds something other than paths";
      if (s.recent_sessions.size() < kMaxRecentSessions)
        s.recent_sessions.push_back(e.get<std::string>());
    }
  }
  return std::nullopt;
}

std::filesystem::path settings_path() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "rope-lab" / "settings.json";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".config" / "rope-lab" /
         "settings.json";
}

SettingsLoad load_settings(const std::filesystem::path& path) {
  SettingsLoad out;
  const std::filesystem::path file = through_links(path);
  const ReadOutcome read = read_settings_bytes(file);
  if (read.missing) return out;
  const std::string name = "The settings file " + path.string();
  if (!read.text) {
    out.may_save = false;
    out.notice = name + " " + read.refusal + "; RoPE Lab starts with its defaults and will not " +
                 "change that file.";
    return out;
  }
  Settings parsed;
  bool newer = false;
  const auto problem = parse_settings(*read.text, parsed, newer);
  if (newer) {
    out.may_save = false;
    out.notice = name + " was written by a newer RoPE Lab; this version starts with its " +
                 "defaults and leaves that file as it is.";
    return out;
  }
  if (!problem) {
    out.settings = std::move(parsed);
    return out;
  }
  const std::filesystem::path aside = set_aside_name(file);
  std::error_code ec;
  std::filesystem::rename(file, aside, ec);
  if (ec) {
    out.may_save = false;
    out.notice = name + " is not valid (" + *problem + ") and could not be set aside (" +
                 ec.message() + "); RoPE Lab starts with its defaults and will not change it.";
    return out;
  }
  out.notice = name + " is not valid (" + *problem + "). It was kept as " + aside.string() +
               " and RoPE Lab starts with its defaults.";
  return out;
}

Status save_settings(const std::filesystem::path& path, const Settings& s) {
  nlohmann::ordered_json doc;
  doc["format"] = kFormat;
  doc["version"] = kVersion;
  doc["window"] = {{"width", s.window_width}, {"height", s.window_height}};
  doc["theme"] = theme_name(s.theme);
  doc["ui_scale"] = s.ui_scale;
  doc["recent_sessions"] = s.recent_sessions;
  const std::filesystem::path file = through_links(path);
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) return Error{file.parent_path().string(), "cannot be created: " + ec.message()};
  return write_file_atomic(file, doc.dump(2) + "\n");
}

void remember_session(std::vector<std::string>& recent, const std::string& path) {
  recent.erase(std::remove(recent.begin(), recent.end(), path), recent.end());
  recent.insert(recent.begin(), path);
  if (recent.size() > kMaxRecentSessions) recent.resize(kMaxRecentSessions);
}

}  // namespace rope::app
