// shell/frame.h — one frame of the application, the same in the window and offscreen.
//
// draw_frame lists every window drawn: the menu bar, the control panel, the main canvas with
// the current view, the notice, and the shortcuts / about overlays. The drivers (shell/window.cpp,
// shell/offscreen_app.cpp) call it between ImGui::NewFrame and ImGui::Render.
#pragma once

#include "shell/export_dialog.h"
#include "shell/presentation_bar.h"
#include "state/actions.h"
#include "state/app_state.h"
#include "ui/view_env.h"
#include "views/registry.h"

namespace rope::app {

// Every view with its cache, and the two shell panels that are drawn like views; owned by the
// driver, destroyed before the GL context.
struct Views : ViewRegistry {
  PresentationBar bar;         // presentation mode's slim bar below the canvas
  ExportDialog export_dialog;  // File ▸ Export's dialog
};

// Keyboard shortcuts (GLFW key codes in io.KeysDown). Ignored while a text field has focus.
void handle_shortcuts(AppState& state);

// Where the frame's large areas are, so the driver can clear them (render/background.h).
struct FrameLayout {
  float panel_width = 0.0f;  // px; 0 when the control panel is hidden
  float top = 0.0f;          // px below the menu bar
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
