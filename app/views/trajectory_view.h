// views/trajectory_view.h — added versus rotated, in 2D (d = 2, one frequency theta_0 = 1).
//
// Left: x + PE_pos with PE_pos = (sin pos, cos pos): the point circles around x, so its length
// and direction change with the absolute position. Right: R(pos) x stays on the circle |x| and
// the angle between two positions is their difference. Both animate with the position m
// (pos = m). Under them the offset identity PE_{pos+k} = M(k) PE_pos is checked with numbers for
// the current pos and k = offset.
//
// Usage: TrajectoryView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <vector>

#include "imgui.h"
#include "rope/rotation.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_env.h"

namespace rope::app {

struct TrajectoryView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // read-only results of the last Draw
  Vec2 added;                   // x + PE_pos
  Vec2 rotated;                 // R(pos) x
  Vec2 shifted_direct;          // PE_{pos+k}
  Vec2 shifted_matrix;          // M(k) PE_pos
  double angle_added = 0.0;     // angle between x + PE_pos and x + PE_{pos+k}, rad
  double angle_rotated = 0.0;   // angle between R(pos) x and R(pos+k) x, rad
  ImVec2 added_px, rotated_px;  // screen positions of the two current points
  DrawnText drawn;              // every line of text of the last Draw

  // internal: the full paths over positions 0 ... N, rebuilt when x or N change
  std::vector<Vec2> path_added, path_rotated;
  double cached_x = 0.0, cached_y = 0.0;
  int cached_n = -1;
};

}  // namespace rope::app
