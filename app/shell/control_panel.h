// shell/control_panel.h — the control panel left of the canvas: the view's title, the common
// controls (position m and n with play / step / shift both, speed, d, base, pairing), then the
// current view's own DrawControls.
//
// Every px constant is at scale 1 and multiplied by env.scale. The panel has no background of
// its own: clear_frame (shell/frame.h) fills its rectangle. Its sliders are the table's widgets
// (ui/param_widgets.h): ends, scale and format from the parameter table, clamped to the
// parameter's range, so a value typed with Ctrl+click beyond the slider's ends is kept when the
// parameter allows it.
//
// Usage: in draw_frame, when state.show_controls:
//   const float w = control_panel_width(env, display_width);
//   draw_control_panel(state, views, env, top, height);
#pragma once

#include "state/app_state.h"
#include "ui/view_env.h"

namespace rope::app {

struct Views;

// The panel's width in px: 400 at scale 1, at most half the display.
float control_panel_width(const ViewEnv& env, float display_width);

// The panel as a fixed window at (0, top), `height` px high.
void draw_control_panel(AppState& state, Views& views, const ViewEnv& env, float top, float height);

}  // namespace rope::app
