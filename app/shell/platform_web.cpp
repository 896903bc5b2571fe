// platform_web.cpp — shell/platform.h in the browser build: files go through the page
// (app/shell/web_page.js). Files are written to the page's in-memory file system first, by the
// same writers the desktop uses, so the bytes downloaded are the bytes the desktop writes.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "export/screenshot_path.h"
#include "export/view_data.h"
#include "shell/platform.h"
#include "shell/web_window.h"
#include "state/actions.h"
#include "state/session.h"

extern "C" {
void rope_web_download(const char* name, const char* mime, const void* data, int size);
void rope_web_pick_file();
void rope_web_copy_link();
}

namespace rope::app {

bool download_web_file(const std::string& path, const std::string& name, const char* mime) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  rope_web_download(name.c_str(), mime, bytes.data(), static_cast<int>(bytes.size()));
  std::error_code ec;
  std::filesystem::remove(path, ec);
  return true;
}

bool in_browser() {
  return true;
}

void save_session_action(AppState& state) {
  const std::filesystem::path path = "/tmp/rope-lab-session.json";
  if (auto s = save_session(path, session_params(state)); !s) {
    show_notice(state, "Session not saved: " + s.error().to_string(), true);
    return;
  }
  std::filesystem::path name = screenshot_name(state.params);
  name.replace_extension(".json");
  if (!download_web_file(path, name.string(), "application/json")) {
    show_notice(state, "Session not saved: the page could not read it back", true);
    return;
  }
  mark_saved(state);
  show_notice(state, "Session downloaded: " + name.string(), false);
}

void open_config_action(AppState&) {
  rope_web_pick_file();  // open_session tells a config.json from a session by its keys
}

void open_session_action(AppState&) {
  rope_web_pick_file();  // the page calls rope_web_file_opened (shell/web_window.cpp)
}

void export_data_action(AppState& state) {
  auto e = view_export(state.params);
  if (!e) {
    show_notice(state, "No data export here: " + e.error().message, true);
    return;
  }
  std::filesystem::path name = screenshot_name(state.params);
  name.replace_extension(".csv");
  const std::filesystem::path path = "/tmp" / name;
  if (auto s = write_view_export(state.params, path); !s) {
    show_notice(state, "Data not saved: " + s.error().to_string(), true);
    return;
  }
  download_web_file(path, name.string(), "text/csv");
  show_notice(state, "Data downloaded: " + name.string() + "\nsame as: " + e.value().command(),
              false);
}

void copy_link_action(AppState& state) {
  rope_web_copy_link();
  show_notice(state, "Link copied: it opens this state", false);
}

}  // namespace rope::app
