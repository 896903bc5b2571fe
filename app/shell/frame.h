// shell/frame.h — one frame of the application, the same in the window and offscreen: where each
// window goes. The drivers (shell/window.cpp, shell/offscreen_app.cpp) call draw_frame between
// ImGui::NewFrame and ImGui::Render.
//
// A frame, in order:
//   handle_shortcuts    the keys pressed (shell/shortcuts.h)
//   menu bar            top, unless presentation mode or --canvas-only hid it (shell/menu_bar.h)
//   control panel       left, 400 px at scale 1, when shown (shell/control_panel.h)
//   lesson panel        derivation view only: the left 52 % of the rest (views/derivation_view.h),
//                       after library.enter applied the step's state (lessons/library.h)
//   canvas              the rest: the current view, or the lesson step's view beside the lesson
//   ink                 the pen's strokes over lesson and canvas, and the tool in hand
//                       (shell/ink_layer.h)
//   presentation bar    bottom, in presentation mode (shell/presentation_bar.h)
//   notice, shortcut list, About, session dialog (shell/dialogs.h), export dialog
//                       (shell/export_dialog.h): over everything, when open
#pragma once

#include <cfloat>
#include <optional>
#include <vector>
#include "imgui.h"
#include "lessons/library.h"
#include "render/background.h"
#include "shell/command_palette.h"
#include "shell/export_dialog.h"
#include "shell/ink_layer.h"
#include "shell/presentation_bar.h"
#include "state/actions.h"  // what the drivers run around draw_frame: update_presentation, ...

#include "state/app_state.h"
#include "state/history.h"
#include "ui/view_env.h"
#include "views/registry.h"

namespace rope::app {

// Every view with its cache, the lessons, and the two shell panels that are drawn like views;
// owned by the driver, destroyed before the GL context.
struct Views : ViewRegistry {
  lessons::Library library;    // the lesson folder: the derivation view, the bar and the keys
  PresentationBar bar;         // presentation mode's slim bar below the canvas
  ExportDialog export_dialog;  // File ▸ Export's dialog
  CommandPalette palette;      // Ctrl + K
  InkLayer ink;                // the pen, highlighter, laser and eraser over the canvas
  History history;             // undo / redo of the parameters (Ctrl + Z, Edit menu)
  MathText math;               // typeset TeX for every view (ViewEnv::math)
  // The last parameters that passed validate_params: a frame whose changes break a rule between
  // parameters (a widget or key that writes a field directly) is put back to it (frame.cpp).
  std::optional<Params> valid_params;
  // A view that opens under a resting mouse shows no tooltip until the mouse moves (classroom
  // review D16: the sinusoidal view's tooltip popped up by itself under a pointer left mid-screen).
  std::optional<ViewId> hover_view;        // the canvas's view last frame
  bool hover_wait = true;                  // the mouse has not moved since it opened
  ImVec2 hover_mouse{-FLT_MAX, -FLT_MAX};  // where the mouse was last frame
};

// Where the frame's large areas are, so the driver can clear them (render/background.h).
struct FrameLayout {
  float panel_width = 0.0f;  // px; 0 when the control panel is hidden
  float top = 0.0f;          // px below the menu bar
  // The opaque bars (menu bar, control panel, presentation bar) in ImGui's px, filled by
  // glClear before ImGui draws: their windows draw no background (render/background.h)
  std::vector<BackgroundRect> backgrounds;
};

FrameLayout draw_frame(AppState& state, Views& views, const ViewEnv& env);

// Clears the bound framebuffer with the canvas colour and the panel's background (call after
// ImGui::Render, before rendering its draw data).
void clear_frame(const AppState& state, const FrameLayout& layout, int fb_w, int fb_h);

// The colour the driver clears the framebuffer with: the canvas colour. The canvas window has
// no background of its own, so the largest area of the screen costs no blended fill (on a
// software rasteriser a full-screen blended quad costs milliseconds).
ImVec4 clear_colour(const AppState& state);

}  // namespace rope::app
