// views/sinusoidal_view.h — the additive sinusoidal encoding of "Attention Is All You Need" as a
// heatmap: PE[pos][2i] = sin(pos theta_i), PE[pos][2i+1] = cos(pos theta_i), positions down,
// dimensions across. The figure has its own size (pe_positions x pe_dim, default 128 x 256 as
// in the paper's illustrations) and the shared base; the row of the current position m is
// marked and plotted underneath. When k = offset is not 0 the row m + k is marked too and the
// header reads their dot product, which depends on k only: sum_i cos(k theta_i). Hovering reads
// position, dimension and the exact value.
// With learned_positions = L > 0 it draws a learned table instead: one vector per position
// 0 ... L-1 (seeded values in [-1, 1) stand in for trained ones) and none from L on. With
// pe_add_ones the plot under the table shows x + PE_pos across the dimensions for pos = m and
// m + k, x = (1, ..., 1): Nain's "jagged" picture in d dimensions.
//
// Usage: SinusoidalView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "imgui.h"
#include "render/heatmap_renderer.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/math_text.h"
#include "ui/plot.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct SinusoidalView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // Read-only results, for tests and exports (empty before the first Draw)
  const std::vector<double>& table() const { return model().table; }  // rope::sinusoidal_table
  int rows() const { return model().rows; }                           // positions
  int cols() const { return model().cols; }                           // the figure's d
  const std::string& error() const { return model().error; }
  ImVec2 cells_min() const { return cells_min_; }  // screen rectangle of the cells, px
  ImVec2 cells_max() const { return cells_max_; }
  double dot_m_mk() const { return row_model().dot_m_mk; }        // PE_m . PE_{m+k}, k = offset
  double dot_formula() const { return row_model().dot_formula; }  // sum_i cos(k theta_i)
  const DrawnText& drawn() const { return drawn_; }  // every line of text of the last Draw

 private:
  struct Inputs {  // the table's Params fields: the cache key
    int pe_positions = 0, pe_dim = 0;
    double base = 0.0;
    int learned = 0;         // learned_positions L (0: the formula)
    std::uint64_t seed = 0;  // the learned table's stand-in values
    bool operator==(const Inputs&) const = default;
  };
  struct Model {
    std::vector<double> table;  // [positions][dim]; learned: rows from L on are 0 (no vector)
    std::vector<float> texels;  // the same in float, uploaded to the GPU
    int rows = 0, cols = 0;
    std::string error;
  };
  struct RowInputs {  // the rows m and m + k: the figure's d, the base, m and k = offset
    int pe_dim = 0;
    double base = 0.0, m = 0.0, k = 0.0;
    bool operator==(const RowInputs&) const = default;
  };
  struct RowModel {
    bool valid = false;         // the figure's d and base give frequencies
    std::vector<double> pe_m;   // PE_m, computed for the real-valued m
    std::vector<double> pe_mk;  // PE_{m+k}
    double dot_m_mk = 0.0;      // PE_m . PE_{m+k} over the figure's d
    double dot_formula = 0.0;   // sum_i cos(k theta_i), the same from the offset alone
  };
  struct Layout;  // sinusoidal_view.cpp: the header's level and texts, where the parts go
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);
  static RowInputs row_inputs_of(const Params& p);
  static RowModel compute_rows(const RowInputs& in);
  static Layout layout(const Model& m, const RowModel& rm, const Params& p, const Canvas& canvas,
                       const ViewEnv& env, DrawnText* log);
  static float header(const Layout& lay, int level, const Pen& pen);
  plot::Frame paint_table(const Model& m, const Layout& lay, const Canvas& canvas,
                          const ViewEnv& env, float y);
  static void paint_marks(const Layout& lay, const plot::Frame& fr, ImDrawList* dl, int rows,
                          const Params& p);
  static void paint_row_plot(const RowModel& rm, const Layout& lay, const plot::Frame& fr,
                             ImDrawList* dl, int cols);
  static void paint_sum_plot(const RowModel& rm, const Layout& lay, const plot::Frame& fr,
                             ImDrawList* dl, int cols);
  static void paint_learned_end(const Layout& lay, const plot::Frame& fr, ImDrawList* dl,
                                int learned, int rows);
  static void hover(const Model& m, const plot::Frame& fr, ImVec2 mouse, const Params& p);
  const Model& model() const;         // the cached table, or an empty one before the first Draw
  const RowModel& row_model() const;  // likewise

  ViewCache<Inputs, Model> model_;  // ui/view_cache.h
  ViewCache<RowInputs, RowModel> row_model_;
  std::uint64_t version_ = 0;  // counts the tables computed: the renderer uploads a new one
  std::unique_ptr<HeatmapRenderer> renderer_;
  ImVec2 cells_min_, cells_max_;
  DrawnText drawn_;    // every line of text of the last Draw
  MathText own_math_;  // the formula line's math when ViewEnv::math is null (tests)
};

}  // namespace rope::app
