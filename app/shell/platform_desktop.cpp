// platform_desktop.cpp — shell/platform.h on the desktop.
#include "shell/platform.h"
#include "shell/shortcuts.h"

namespace rope::app {

bool in_browser() {
  return false;
}

void save_session_action(AppState& state) {
  state.session_dialog = AppState::SessionDialog::save;
}

void open_session_action(AppState& state) {
  state.session_dialog = AppState::SessionDialog::open;
}

void open_config_action(AppState& state) {
  state.session_dialog = AppState::SessionDialog::open_config;
}

void export_data_action(AppState& state) {
  export_view_data(state);
}

void copy_link_action(AppState&) {}

}  // namespace rope::app
