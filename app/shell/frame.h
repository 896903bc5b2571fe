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
#include "views/decay_view.h"
#include "views/derivation_view.h"
#include "views/heatmap_view.h"
#include "views/pointers_view.h"
#include "views/sentence_view.h"
#include "views/sinusoidal_view.h"
#include "views/spectrum_view.h"
#include "views/trajectory_view.h"

namespace rope::app {

// Every view with its cache; owned by the driver, destroyed before the GL context.
struct Views {
  PointersView pointers;
  SinusoidalView sinusoidal;
  TrajectoryView trajectory;
  SentenceView sentence;
  HeatmapView heatmap;
  DecayView decay;
  SpectrumView spectrum;
  DerivationView derivation;
  // not views: presentation mode's slim bar below the canvas, and File ▸ Export's dialog
  PresentationBar bar;
  ExportDialog export_dialog;

  // Calls f(view) with the view object of `id`.
  template <class F>
  decltype(auto) visit(ViewId id, F&& f) {
    switch (id) {
      case ViewId::pointers:
        return f(pointers);
      case ViewId::sinusoidal:
        return f(sinusoidal);
      case ViewId::trajectory:
        return f(trajectory);
      case ViewId::sentence:
        return f(sentence);
      case ViewId::heatmap:
        return f(heatmap);
      case ViewId::decay:
        return f(decay);
      case ViewId::spectrum:
        return f(spectrum);
      case ViewId::derivation:
        return f(derivation);
    }
    return f(pointers);
  }
};

// Which views exist in this build (the View menu lists these).
bool view_available(ViewId v);

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
