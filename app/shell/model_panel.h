// shell/model_panel.h — the control panel's Model block and the View ▸ Model menu: choose a model
// preset (state/models.h), see which is active, its tag and source, what it lacks and what was
// changed since; the partial rotary controls (rotary_fraction, rotary_style) beside it.
//
// Usage (inside the control panel window, after the RoPE block):  model_controls(state, env);
//        (inside the View menu):                                  model_menu(state);
#pragma once

#include "state/app_state.h"
#include "ui/view_env.h"

namespace rope::app {

void model_controls(AppState& state, const ViewEnv& env);
void model_menu(AppState& state);

}  // namespace rope::app
