// views/sinusoidal_view.h — the additive sinusoidal encoding of "Attention Is All You Need" as a
// heatmap: PE[pos][2i] = sin(pos theta_i), PE[pos][2i+1] = cos(pos theta_i), positions down,
// dimensions across. The figure has its own size (pe_positions x pe_dim, default 128 x 256 as
// in the paper's illustrations) and the shared base; the row of the current position m is
// marked and plotted underneath. When k = offset is not 0 the row m + k is marked too and the
// header reads their dot product, which depends on k only: sum_i cos(k theta_i). Hovering reads
// position, dimension and the exact value.
//
// Usage: SinusoidalView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "imgui.h"
#include "render/heatmap_renderer.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_env.h"

namespace rope::app {

struct SinusoidalView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // read-only results
  std::vector<double> table;  // [positions][dim], rope::sinusoidal_table
  std::vector<float> texels;  // the same in float, uploaded to the GPU
  int rows = 0, cols = 0;
  ImVec2 cells_min, cells_max;  // screen rectangle of the cells, px
  double dot_m_mk = 0.0;        // PE_m . PE_{m+k} over the figure's d (k = offset)
  double dot_formula = 0.0;     // sum_i cos(k theta_i), the same from the offset alone
  std::string error;
  DrawnText drawn;  // every line of text of the last Draw

  // internal: the inputs of `table`
  int cached_rows = 0, cached_cols = 0;
  double cached_base = 0.0;
  std::uint64_t version = 0;

 private:
  void update(const Params& p);
  std::unique_ptr<HeatmapRenderer> renderer_;
};

}  // namespace rope::app
