// shell/presentation_bar.h — the slim bar along the bottom of the screen in presentation mode.
//
// Presentation mode hides the menu bar and the control panel; this bar keeps what a lecturer
// needs in front of a class, large enough to read from the back of the room: in the derivation
// view the lesson's title, previous / next and a large step counter ("2 / 7"); in the other
// views the view's title with −1 / play / +1 for the query position m. A button at the right
// end leaves presentation mode (as Esc does). Every action is also on the keyboard.
//
// The lesson's title and step come from the lesson library (lessons/library.h), so the bar shows
// the same wherever the frame draws it.
//
// Usage: in draw_frame, when presentation mode shows it (see shown):
//   const float h = PresentationBar::height(env);   // px, taken from the bottom of the canvas
//   views.bar.Draw(state, views.library, env, ImVec2(0, display_h - h), ImVec2(display_w, h));
#pragma once

#include <string>

#include "imgui.h"
#include "lessons/library.h"
#include "state/app_state.h"
#include "ui/view_env.h"

namespace rope::app {

struct PresentationBar {
  // Shown in presentation mode unless the picture is of the canvas alone (--canvas-only): it
  // takes the place of the menu bar presentation mode hid.
  static bool shown(const AppState& state);
  static float height(const ViewEnv& env);  // px

  void Draw(AppState& state, lessons::Library& library, const ViewEnv& env, ImVec2 pos,
            ImVec2 size);

  // read-only results of the last Draw (tests read them)
  std::string heading;        // the title: the lesson's, or the view's
  std::string shown_heading;  // as drawn: cut short with "…" when the bar is too narrow
  std::string counter;        // "2 / 7" in a lesson, empty elsewhere
};

}  // namespace rope::app
