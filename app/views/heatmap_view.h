// views/heatmap_view.h — the `heatmap` view (not built yet: draws a placeholder).
#pragma once

#include "state/app_state.h"
#include "views/view_env.h"

namespace rope::app {

struct HeatmapView {
  static constexpr bool kReady = false;  // listed in the View menu once true
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);
};

}  // namespace rope::app
