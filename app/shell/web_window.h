// shell/web_window.h — the browser build's window (shell/window.h's counterpart): the page's
// canvas through emscripten's GLFW and WebGL 2, one frame per animation frame of the browser
// (emscripten_set_main_loop), the canvas sized to the page in device pixels.
//
// What the page offers besides (app/shell/web_page.js): the URL fragment follows the state
// (cli/link.h; File > Copy link), F12 downloads a PNG of the canvas, File > Export picture draws
// one at 1x, 2x or 4x and downloads it, presentation mode is the browser's full screen, the
// app's function and Ctrl keys are taken from the browser, settings (theme, UI scale) are kept
// in the browser's local storage.
#pragma once

#include <functional>
#include <string>

#include "state/app_state.h"

namespace rope::app {

struct WebOptions {
  // The fragment of the current state ("view=extension&dim=128"): cli/link.h's link_of, passed
  // in because the link's rules live in the command-line layer above this one.
  std::function<std::string(const Params&)> link_of;
};

// Starts the main loop and returns at once (the browser calls each frame); the state and
// everything the frames need stay alive for the page's lifetime. Returns an exit code
// (io/exit_codes.h): failure when WebGL 2 is not available.
int run_web_window(AppState& state, const WebOptions& options);

// Settings kept in the browser's local storage (theme, UI scale): read at start.
void load_web_settings(AppState& state);

// The page's in-memory file at `path` downloaded as `name` (of type `mime`), then removed; false
// when it cannot be read. Files are written there first by the desktop's own writers, so the
// bytes downloaded are the bytes the desktop writes (shell/platform_web.cpp).
bool download_web_file(const std::string& path, const std::string& name, const char* mime);

}  // namespace rope::app
