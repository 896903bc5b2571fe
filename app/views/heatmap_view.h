// views/heatmap_view.h — the attention score matrix S[m][n] as a heatmap.
//
// S[m][n] = q'_m . k'_n for N positions, for one encoding (none / sinusoidal / rope) or all
// three side by side; content shared / seeded random / the words of sentence_b; raw, scaled by
// 1/sqrt(d) or row softmax, optionally causal. With shared content the RoPE matrix depends on
// n - m only: the diagonal n - m = key_position - position is annotated with its one value.
// Matrices come from views/heatmap_scores.h (small ones at once, large ones on a worker
// thread; the previous picture stays until the new one is ready) and are coloured on the GPU by
// render/heatmap_renderer.h. Without GL (headless tests) the axes and read-outs are still drawn.
// With diagonal_fit on it draws views/diagonal_fit_panel.h instead: one diagonal's RoPE scores
// against the plain q·k. With linear_sums on it draws views/linear_panel.h instead: linear
// attention's d × d summary and running sums, the computation that replaces this matrix.
// Todo / limits: the compare mode (three panels) has no narrow layout: the panels stay side by
// side and shrink, with no read-out beside them.
//
// Usage: HeatmapView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "render/heatmap_renderer.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/view_env.h"
#include "views/diagonal_fit_panel.h"
#include "views/heatmap_scores.h"
#include "views/linear_panel.h"

namespace rope::app {

struct HeatmapView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // One panel as drawn in the last Draw.
  struct Panel {
    Encoding encoding = Encoding::rope;
    ImVec2 cells_min, cells_max;  // screen rectangle of the N x N cells, px
    int n = 0;
  };
  // Read-only results, for tests and exports
  const std::vector<Panel>& panels() const { return panels_; }
  const HeatmapScores* scores(Encoding e) const;  // the matrix on screen, or nullptr
  const std::vector<HeatmapScores>& matrices() const { return shown_; }  // every panel's, in order
  bool computing() const { return computing_; }        // a newer request is being computed
  const std::string& error() const { return error_; }  // computation or shader error on screen
  const DrawnText& drawn() const {
    return linear_on_ ? linear_.drawn() : (fit_on_ ? fit_.drawn() : drawn_);
  }
  const LinearPanel& linear() const { return linear_; }          // drawn with linear_sums on
  const DiagonalFitPanel& diagonal_fit() const { return fit_; }  // drawn with diagonal_fit on
  // Blocks until the background computation has delivered (tests), then the next Draw shows it.
  bool wait_for_results(double seconds = 30.0) { return job_.wait_idle(seconds); }

 private:
  struct Inputs {  // what the matrices are computed from: one HeatmapInputs per panel
    std::vector<HeatmapInputs> panels;
    bool operator==(const Inputs&) const = default;
  };
  struct Layout;  // heatmap_view.cpp: fonts, the header's level, the matrix size, the read-out
  struct Cell {   // a cell of a panel; -1: none
    int panel = -1, m = -1, n = -1;
  };
  static Inputs inputs_of(const Params& p);
  // The compute pass: a changed request is computed at once when small, else on the worker;
  // a finished result is taken when it still matches. The previous matrices stay until then.
  void update(const Inputs& in);
  void accept(std::vector<HeatmapScores> matrices);
  Layout layout(const Params& p, const Canvas& canvas, const ViewEnv& env) const;
  Cell paint(const Layout& lay, const Canvas& canvas, const ViewEnv& env, const Params& p);
  void paint_cells(int i, const HeatmapScores& sc, const plot::Frame& fr, const Layout& lay,
                   const Canvas& canvas, bool has_gl);
  void hover(const Cell& cell, const Layout& lay);
  // S[m][n] of panel `sc` exactly (ExactScores), in `style`; "masked (n > m)" for a masked cell
  std::string exact_text(const HeatmapScores& sc, int m, int n, NumberStyle style);

  // the matrices: requested, shown (the previous ones until the new ones arrive)
  Inputs wanted_;                        // inputs of the latest request
  std::vector<HeatmapScores> shown_;     // one per panel
  std::vector<std::uint64_t> versions_;  // data version per shown panel (texture upload key)
  std::uint64_t next_version_ = 1;
  bool computing_ = false;
  std::string error_;
  HeatmapJob job_;
  ExactScores exact_;                          // the read-out's and the hover's values, in double
  std::unique_ptr<HeatmapRenderer> renderer_;  // created on the first Draw with GL
  LinearPanel linear_;                         // linear_sums: the shared sums instead
  bool linear_on_ = false;                     // the last Draw drew linear_
  DiagonalFitPanel fit_;                       // diagonal_fit: one diagonal against q·k instead
  bool fit_on_ = false;                        // the last Draw drew fit_
  // results of the last Draw
  std::vector<Panel> panels_;
  DrawnText drawn_;  // every line of text of the last Draw
};

}  // namespace rope::app
