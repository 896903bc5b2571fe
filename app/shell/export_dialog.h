// shell/export_dialog.h — File ▸ Export picture… / Export animation…: figures for slides.
//
// A picture is a PNG of the whole window or of the canvas alone at 1x, 2x or 4x, rendered at
// that size (not upscaled), optionally with a transparent background. An animation is a sweep
// of the query position m from A to B as a looping GIF or an H.264 MP4. Both run as a child
// `rope-lab screenshot|animate` process (export/export_job.h) on a snapshot of the state taken
// when Export is pressed, so the window stays live meanwhile (in a browser a picture is drawn
// by the page itself, PagePicture below; animations are the desktop app's); the dialog shows a
// progress bar and a Cancel button, and closing it (Esc) lets the export finish in the background.
// The result — the file written, or why not — comes as a notice.
//
// The whole dialog works from the keyboard, and says how in its labels: 1 / 2 / 4 resolution,
// A area, B transparent, G / M format (rows of the shortcut table, shell/shortcuts.cpp, which
// lets nothing else act behind the dialog), Tab / Shift + Tab between the text fields, Enter
// exports (also from inside a field), Esc closes (also from inside a field). Tab into the file
// name puts the cursor before the extension rather than selecting the whole path, so typing
// edits the name instead of replacing it.
//
// Usage: Views owns one; draw_frame calls dialog.Draw(state, env) every frame (it also polls a
// running export when the dialog is closed). Tests call start() directly.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "export/export_job.h"
#include "imgui.h"
#include "state/app_state.h"
#include "ui/view_env.h"

namespace rope::app {

struct ExportSettings {
  bool animation = false;        // false: a PNG picture
  bool canvas_only = false;      // the main canvas alone: no menu bar, no control panel
  int scale = 1;                 // pixel scale: 1, 2 or 4 (animations 1 or 2: every frame is kept)
  bool transparent = false;      // pictures only: a see-through canvas background
  double from = 0.0, to = 16.0;  // animation: m at the first and last frame
  int fps = 20;                  // 1 ... 50
  double seconds = 4.0;          // 0.5 ... 60; frames = seconds * fps + 1 <= 1000
  bool mp4 = false;              // animation format: GIF or MP4 (H.264)
  bool ink = true;               // the pen strokes on the exported pages (shell/ink_layer.h)
  std::string path;              // the file to write
};

struct ExportDialog {
  std::string program = current_executable();  // the rope-lab binary to run (tests set it)
  ExportSettings settings;
  std::unique_ptr<ExportJob> job;  // the running (or last) export
  // In the browser build a page has no child processes: start() leaves the picture here, and
  // the page draws it between two frames in its own WebGL context and downloads it
  // (shell/web_window.cpp), as `rope-lab screenshot` would have drawn it.
  struct PagePicture {
    Params params;              // the snapshot the child process would have been given
    ExportSettings settings;    // scale, area, background, the file's name
    int width = 0, height = 0;  // logical pixels, as the child's --size
  };
  std::optional<PagePicture> page_picture;
  std::string error;              // why the last Export press or export failed
  bool export_requested = false;  // Enter (the shortcut table): Draw exports, knowing the window

  void Draw(AppState& state, const ViewEnv& env);

  // The dialog's keys (shell/shortcuts.cpp); each does what its radio button or check box does.
  void choose_scale(int scale);  // 1, 2 or 4 (4: pictures only; other values are ignored)
  void toggle_canvas_only();
  void toggle_transparent();     // pictures only
  void choose_format(bool mp4);  // animations only; the file's extension follows
  // Opens the picture dialog at `scale` (1, 2 or 4) with its default file and exports at once,
  // as Enter in the dialog would (the command palette's "export 4x").
  void export_now(AppState& state, int scale);

  // Starts an export of `state` as `settings` say, at `window` logical pixels (the window's
  // size: pictures of the whole window match what is on screen) and UI scale `ui_scale` (the
  // window's effective scale, its monitor's content scale included; 0: the state's own). Fails
  // without starting when a setting is out of range or an export is already running.
  Status start(const AppState& state, ImVec2 window, double ui_scale = 0.0);

  // The child's command line for `settings` (without the program), given the session file.
  static Result<std::vector<std::string>> arguments(const ExportSettings& settings,
                                                    const std::string& session_file, ImVec2 window);

 private:
  AppState::ExportDialog shown_ = AppState::ExportDialog::none;  // what was open last frame
  bool file_active_ = false;  // the file field had the keyboard last frame
  void poll(AppState& state);
  void defaults_for(const AppState& state);
};

}  // namespace rope::app
