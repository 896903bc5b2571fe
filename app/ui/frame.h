// ui/frame.h — one frame of the application, the same in the window and offscreen.
//
// draw_frame lists every window drawn: the menu bar, the control panel, the main canvas with
// the current view, the notice, and the shortcuts / about overlays. The drivers (ui/window.cpp,
// ui/offscreen_app.cpp) call it between ImGui::NewFrame and ImGui::Render.
#pragma once

#include "state/app_state.h"
#include "ui/export_dialog.h"
#include "ui/presentation_bar.h"
#include "views/decay_view.h"
#include "views/derivation_view.h"
#include "views/heatmap_view.h"
#include "views/pointers_view.h"
#include "views/sentence_view.h"
#include "views/sinusoidal_view.h"
#include "views/spectrum_view.h"
#include "views/trajectory_view.h"
#include "views/view_env.h"

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

// Moves the query position m to the nearest integer plus `delta` and pauses the animation:
// what −1 / +1 and ← / → do everywhere.
void step_position(Params& p, double delta);

// Advances the animation clock: while playing, m moves by speed * dt positions.
void advance_animation(AppState& state, double dt);

// Enters or leaves presentation mode when Params::presentation changed: the projector theme,
// no control panel or menu bar, and a UI scale of at least presentation_scale(screen_height)
// (screen_height: the full screen's height in logical px, where presentation mode shows);
// leaving restores what it changed. The drivers call it before building the frame (the UI
// scale decides the fonts).
void update_presentation(AppState& state, float screen_height = 1080.0f);

// The UI scale presentation mode uses on a screen `screen_height` logical px high: the same
// layout on every projector, as a 1.5x UI on a 1080-line screen: 1.0 at 720 or 768 lines, 1.5
// at 1080, 2.0 at 1440, 3.0 at 2160 (in quarter steps, from 1 to 3).
double presentation_scale(float screen_height);

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

// Shows a message at the bottom of the canvas for a few seconds.
void show_notice(AppState& state, std::string text, bool is_error);

}  // namespace rope::app
