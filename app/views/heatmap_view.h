// views/heatmap_view.h — the attention score matrix S[m][n] as a heatmap.
//
// S[m][n] = q'_m . k'_n for N positions, for one encoding (none / sinusoidal / rope) or all
// three side by side; content shared / seeded random / the words of sentence_b; raw, scaled by
// 1/sqrt(d) or row softmax, optionally causal. With shared content the RoPE matrix depends on
// n - m only: the diagonal n - m = key_position - position is annotated with its one value.
// Matrices come from views/heatmap_scores.h (small ones at once, large ones on a worker
// thread; the previous picture stays until the new one is ready) and are coloured on the GPU by
// render/heatmap_renderer.h. Without GL (headless tests) the axes and read-outs are still drawn.
//
// Usage: HeatmapView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "imgui.h"
#include "render/heatmap_renderer.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_env.h"
#include "views/heatmap_scores.h"

namespace rope::app {

struct HeatmapView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // read-only results of the last Draw (tests read them)
  struct Panel {
    Encoding encoding = Encoding::rope;
    ImVec2 cells_min, cells_max;  // screen rectangle of the N x N cells, px
    int n = 0;
  };
  std::vector<Panel> panels;         // as drawn
  std::vector<HeatmapScores> shown;  // the matrices on screen, one per panel
  bool computing = false;            // a newer request is being computed
  std::string error;                 // computation or shader error shown on screen
  DrawnText drawn;                   // every line of text of the last Draw
  // Blocks until the background computation has delivered (tests), then the next Draw shows it.
  bool wait_for_results(double seconds = 30.0) { return job_.wait_idle(seconds); }
  const HeatmapScores* scores(Encoding e) const;

 private:
  void update(const Params& p);
  std::vector<HeatmapInputs> wanted_;    // inputs of the latest request
  std::vector<std::uint64_t> versions_;  // data version per shown panel (texture upload key)
  std::uint64_t next_version_ = 1;
  HeatmapJob job_;
  std::unique_ptr<HeatmapRenderer> renderer_;  // created on the first Draw with GL
};

}  // namespace rope::app
