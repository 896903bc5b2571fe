#include "state/settings.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "export/atomic_file.h"
#include "state/params.h"

namespace rope::app {
namespace {

constexpr const char* kFormat = "rope-lab-settings";
constexpr int kVersion = 1;

}  // namespace

std::filesystem::path settings_path() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "rope-lab" / "settings.json";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".config" / "rope-lab" /
         "settings.json";
}

Result<Settings> load_settings(const std::filesystem::path& path) {
  Settings s;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return s;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const auto doc = nlohmann::json::parse(text.str(), nullptr, false);
  const Error bad{path.string(), "is not a valid settings file; the defaults are used"};
  if (doc.is_discarded() || !doc.is_object() || doc.value("format", "") != kFormat ||
      !doc.contains("version") || !doc["version"].is_number_integer())
    return bad;
  if (doc["version"].get<int>() > kVersion) return s;  // newer app wrote it: start fresh
  if (const auto w = doc.find("window"); w != doc.end() && w->is_object()) {
    const int width = w->value("width", 0);
    const int height = w->value("height", 0);
    if (width >= 320 && width <= 16384 && height >= 240 && height <= 16384) {
      s.window_width = width;
      s.window_height = height;
    }
  }
  if (const auto t = doc.find("theme"); t != doc.end() && t->is_string()) {
    Params p;
    if (set_param(p, "theme", t->get<std::string>())) s.theme = p.theme;
  }
  if (const auto u = doc.find("ui_scale"); u != doc.end() && u->is_number()) {
    const double v = u->get<double>();
    if (v >= 0.5 && v <= 4.0) s.ui_scale = v;
  }
  if (const auto r = doc.find("recent_sessions"); r != doc.end() && r->is_array()) {
    for (const auto& e : *r)
      if (e.is_string() && s.recent_sessions.size() < kMaxRecentSessions)
        s.recent_sessions.push_back(e.get<std::string>());
  }
  return s;
}

Status save_settings(const std::filesystem::path& path, const Settings& s) {
  nlohmann::ordered_json doc;
  doc["format"] = kFormat;
  doc["version"] = kVersion;
  doc["window"] = {{"width", s.window_width}, {"height", s.window_height}};
  doc["theme"] = theme_name(s.theme);
  doc["ui_scale"] = s.ui_scale;
  doc["recent_sessions"] = s.recent_sessions;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return Error{path.parent_path().string(), "cannot be created: " + ec.message()};
  return write_file_atomic(path, doc.dump(2) + "\n");
}

void remember_session(std::vector<std::string>& recent, const std::string& path) {
  recent.erase(std::remove(recent.begin(), recent.end(), path), recent.end());
  recent.insert(recent.begin(), path);
  if (recent.size() > kMaxRecentSessions) recent.resize(kMaxRecentSessions);
}

}  // namespace rope::app
