// shell/ink_layer.h — the pen, highlighter, laser pointer and eraser over the canvas, in the
// window and in presentation mode.
//
// The layer is a window of its own over the ink area (the canvas right of the control panel: the
// lesson and the step's view together). It always draws the strokes of the current page
// (state/ink.h: a view, or one lesson step); with a tool in hand (AppState::ink_tool) it also
// takes the mouse there, so a stroke never drags a pointer or opens a tooltip below it. A stroke
// becomes part of Params when the button is released: one undo step, saved in sessions, drawn in
// screenshots and exports. The laser pointer draws only a dot and a trail that fades in
// kLaserTrailSeconds; it leaves nothing behind.
//
// Usage: in draw_frame, after the canvas and the lesson panel, before the dialogs:
//   views.ink.Draw(state, env, ink_pos, ink_size);
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "imgui.h"
#include "state/app_state.h"
#include "ui/view_env.h"

namespace rope::app {

inline constexpr double kLaserTrailSeconds = 0.35;

// The pen's colours on the theme's canvas (InkColour::text is the theme's text colour), and the
// highlighter's translucent yellow.
ImU32 pen_colour(InkColour c, Theme theme);
ImU32 highlighter_colour(Theme theme);

// A lesson step's two parts on screen (px): a stroke begun in one is anchored to it.
struct InkPanels {
  ImVec2 lesson_pos, lesson_size, view_pos, view_size;
};

class InkLayer {
 public:
  // pos, size: the ink area; panels: a lesson step's parts (null: a view, no lesson).
  void Draw(AppState& state, const ViewEnv& env, ImVec2 pos, ImVec2 size,
            const InkPanels* panels = nullptr);

  // The stroke being drawn (button still held), if any: tests read it.
  const std::optional<InkStroke>& drawing() const { return current_; }

 private:
  struct TrailPoint {
    ImVec2 at;    // px
    double time;  // s, the app clock
  };
  // lesson: the page is a lesson step (a stroke is anchored to the part it begins in)
  void take_mouse(AppState& state, const ViewEnv& env, const struct Areas& areas, bool lesson,
                  const std::string& page);

  std::optional<InkStroke> current_;
  std::string current_page_;  // where current_ goes when the button is released
  std::deque<TrailPoint> laser_;
};

}  // namespace rope::app
