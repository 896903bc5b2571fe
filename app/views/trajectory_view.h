// views/trajectory_view.h — added versus rotated, in 2D (d = 2, one frequency theta_0 = 1).
//
// Left: x + PE_pos with PE_pos = (sin pos, cos pos): the point circles around x, so its length
// and its direction seen from the origin change with the absolute position. Right: R(pos) x stays
// on the circle |x| and the angle between two positions is their difference. Both animate with the
// position m (pos = m); the planes keep one size and scale (set by |x|, measured with the widest
// read-outs) while pos moves, the numbers at the dots keep clear of the arrowheads, angles are in
// radians. Under them the offset identity PE_{pos+k} = M(k) PE_pos is checked with numbers for the
// current pos and k = offset.
//
// Usage: TrajectoryView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <array>
#include <vector>

#include "imgui.h"
#include "rope/rotation.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct TrajectoryView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // Read-only results of the last Draw, for tests and exports
  Vec2 added() const { return points().added; }                    // x + PE_pos
  Vec2 rotated() const { return points().rotated; }                // R(pos) x
  Vec2 shifted_direct() const { return points().shifted_direct; }  // PE_{pos+k}
  Vec2 shifted_matrix() const { return points().shifted_matrix; }  // M(k) PE_pos
  // angle between x + PE_pos and x + PE_{pos+k}, and between R(pos) x and R(pos+k) x, rad
  double angle_added() const { return points().angle_added; }
  double angle_rotated() const { return points().angle_rotated; }
  ImVec2 added_px() const { return added_px_; }  // screen positions of the two current points
  ImVec2 rotated_px() const { return rotated_px_; }
  const DrawnText& drawn() const { return drawn_; }  // every line of text of the last Draw
  // the two planes of the last Draw (added, rotated): their px rectangles and value scales
  const std::array<plot::Frame, 2>& frames() const { return frames_; }

 private:
  struct Inputs {  // the current points: x, pos = m and k = offset
    double x = 0.0, y = 0.0, pos = 0.0, k = 0.0;
    bool operator==(const Inputs&) const = default;
  };
  struct Points {                // d = 2, theta = 1
    Vec2 added, rotated;         // x + PE_pos, R(pos) x
    Vec2 added_k, rotated_k;     // the same at pos + k
    Vec2 pe;                     // PE_pos
    Vec2 shifted_direct;         // PE_{pos+k}
    Vec2 shifted_matrix;         // M(k) PE_pos
    double angle_added = 0.0;    // rad
    double angle_rotated = 0.0;  // rad
  };
  struct PathInputs {  // the paths: x alone (their length is the view's own, one turn)
    double x = 0.0, y = 0.0;
    bool operator==(const PathInputs&) const = default;
  };
  struct Paths {
    // the whole paths over positions 0 ... 7 (one turn, smooth), added and rotated
    std::array<std::vector<Vec2>, 2> path;
    std::array<std::vector<Vec2>, 2> dots;  // at the integer positions 0 ... 24
  };
  struct Layout;  // trajectory_view.cpp: the level, texts and heights, the planes' axes
  static Inputs inputs_of(const Params& p);
  static Points compute(const Inputs& in);
  static PathInputs path_inputs_of(const Params& p);
  static Paths compute_paths(const PathInputs& in);
  static Layout layout(const Points& pt, const Params& p, const Canvas& canvas, const ViewEnv& env,
                       DrawnText* log);
  static void write_texts(Layout& lay, const Points& pt, const Params& p);
  static float paint_header(const Layout& lay, const Pen& pen);
  static plot::Frame paint_plane(const Layout& lay, int which, const Paths& paths, Vec2 now,
                                 Vec2 now_k, double angle, float y, const Canvas& canvas);
  static void paint_readouts(const Layout& lay, const std::array<plot::Frame, 2>& frames,
                             const Pen& pen);
  static void hover(const Points& pt, const std::array<plot::Frame, 2>& frames, ImVec2 mouse,
                    double pos);
  const Points& points() const;  // the cached points, or zeros before the first Draw

  ViewCache<Inputs, Points> model_;  // ui/view_cache.h
  ViewCache<PathInputs, Paths> paths_;
  ImVec2 added_px_, rotated_px_;
  DrawnText drawn_;                      // every line of text of the last Draw
  std::array<plot::Frame, 2> frames_{};  // the planes of the last Draw
};

}  // namespace rope::app
