// ui/canvas.h — small drawing helpers over ImDrawList shared by every view: arrows, arcs,
// centred text, a read-out box, and number formatting for labels.
//
// All sizes are in px at scale 1 and are multiplied by the `scale` argument.
#pragma once

#include <cmath>
#include <string>

#include "imgui.h"

namespace rope::app {

// A line from `from` to `to` with a filled triangular head at `to`.
void draw_arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 colour, float thickness,
                float head_size);

// Arc around `centre` from angle a0 to a1 (radians, counter-clockwise on screen, i.e. y up).
void draw_arc(ImDrawList* dl, ImVec2 centre, float radius, double a0, double a1, ImU32 colour,
              float thickness, int max_segments = 64);

// Screen point at `radius` and `angle` (radians, mathematical: counter-clockwise, y up).
inline ImVec2 polar(ImVec2 centre, float radius, double angle) {
  return ImVec2(centre.x + radius * static_cast<float>(std::cos(angle)),
                centre.y - radius * static_cast<float>(std::sin(angle)));
}

// Text centred horizontally on x, top at y.
void draw_text_centred(ImDrawList* dl, ImFont* font, ImVec2 top_centre, ImU32 colour,
                       const std::string& text);

// A number for a label: `digits` significant digits, no exponent for moderate magnitudes,
// "−" (U+2212) for minus as in typeset maths.
std::string format_number(double v, int digits = 4);

// The area a view draws in: an InvisibleButton over the window's whole content region (hover
// and clicks come from it), with a clip rectangle pushed on the window's draw list. Every view
// opens its canvas this way and pops the clip rectangle (draw_list->PopClipRect()) at the end.
struct CanvasArea {
  ImDrawList* draw_list = nullptr;
  ImVec2 origin;  // top-left, px
  ImVec2 size;    // at least 1 x 1 px
  bool hovered = false;
  ImVec2 mouse;  // mouse position, px
};
CanvasArea begin_canvas(const char* id);

// Multiplies the alpha of a packed colour by a in [0, 1].
ImU32 with_alpha(ImU32 colour, float a);

}  // namespace rope::app
