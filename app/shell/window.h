// shell/window.h — the interactive window: GLFW + OpenGL 3.3 core + Dear ImGui.
#pragma once

#include <string>

#include "state/app_state.h"

namespace rope::app {

struct GuiOptions {
  std::string session_path;  // open this session first (empty: none)
  int frames = 0;            // quit after this many frames; 0 runs until the window is closed
  int width = 0;             // window size from the settings; 0: a default for the monitor
  int height = 0;
  bool save_settings = true;  // write window size, theme, scale and recent files on exit
  int monitor = 0;  // full screen on this monitor (1 = the primary); 0: the one the window is on
  bool presenter = false;  // open the presenter window at start (AppState::show_presenter)
};

// Runs the window until it is closed. Returns an exit code (io/exit_codes.h).
int run_window(AppState& state, const GuiOptions& options);

}  // namespace rope::app
