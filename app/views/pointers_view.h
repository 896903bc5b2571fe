// views/pointers_view.h — the rotating pointers: one pointer per 2D block of the head dimension.
//
// Block i of the query, rotated to position m, is drawn as a pointer of length |q_i| at angle
// angle(q_i) + m theta_i; the key block at n likewise; the arc between them is (n - m) theta_i.
// Two layouts: one dial per block, or every pointer on one shared circle. The read-out shows
// the score (R_m q).(R_n k) next to q.(R_{n-m} k), which equal each other for every m, n.
//
// Usage: PointersView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <vector>

#include "imgui.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_env.h"

namespace rope::app {

struct PointersView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // read-only results of the last Draw (tests and the lesson checks read them)
  struct Tip {
    ImVec2 centre;  // dial centre, px
    ImVec2 query;   // tip of the query pointer, px
    ImVec2 key;     // tip of the key pointer, px
    float radius;   // dial radius, px
  };
  std::vector<Tip> tips;  // [d/2]
  double score = 0.0;     // (R_m q).(R_n k)
  double relative = 0.0;  // q.(R_{n-m} k)
  DrawnText drawn;        // every line of text of the last Draw

  // internal: derived from (dim, base, pairing, query, key, seed); rebuilt when they change
  struct Blocks {
    int dim = 0;
    double base = 0.0;
    Pairing pairing = Pairing::interleaved;
    VectorChoice query, key;
    std::uint64_t seed = 0;
    std::vector<double> thetas;           // [d/2]
    std::vector<double> q, k;             // [d], effective vectors
    std::vector<double> q_norm, q_angle;  // [d/2], block length and angle at position 0
    std::vector<double> k_norm, k_angle;  // [d/2]
    double max_norm = 1.0;
  } blocks;
  double scored_m = 0.0, scored_n = 0.0;  // positions the score was computed for
  bool scored = false;

 private:
  void update_blocks(const Params& p);
  void update_score(const Params& p);
};

}  // namespace rope::app
