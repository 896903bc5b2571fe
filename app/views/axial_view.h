// views/axial_view.h — 2D RoPE for images: axial RoPE on a grid of patches (rope/axial.h;
// Heo et al. 2024, "Rotary Position Embedding for Vision Transformer", the axial variant).
//
// Two grid_size x grid_size grids of patches side by side. Left: every patch (r, c) is coloured
// by the score (R(r1, c1) q) . (R(r, c) k) of the query q at the query patch (r1, c1), outlined,
// against the key k put at that patch; the key patch of the read-out (r2, c2) is outlined in the
// key colour. Right: the same with both patches moved by (shift_row, shift_column): the picture
// moves with them and the key's score stays the same, because it depends on (r2 - r1, c2 - c1)
// only (axial_moved off: the first grid alone). Both grids share one colour scale (the colour
// bar). Under them a read-out gives both scores. With axial_rectangle the rectangle through the
// query and key patches is drawn, its other two corners (r2, c1), (r1, c2) outlined. Hovering a
// patch gives its (r, c) and its exact score.
// Todo / limits: the grids show rows and columns 0 ... grid_size - 1; a shifted patch outside
// them is named in the read-out, not drawn. d must be a multiple of 4 (else the core's message).
//
// Usage: AxialView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "render/heatmap_renderer.h"
#include "rope/axial.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/math_text.h"
#include "ui/plot.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct AxialView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // One grid as drawn: the query's patch and its scores, where the cells went.
  struct Panel {
    Patch query;                              // the query patch
    Patch key;                                // the read-out's key patch
    std::vector<double> score;                // [row][column], grid_size^2: the key k at each patch
    ImVec2 cells_min{0, 0}, cells_max{0, 0};  // the cells' rectangle in the last Draw, px
  };
  // Read-only results, for tests and exports (empty before the first Draw)
  const std::vector<Panel>& panels() const { return panels_; }  // unshifted, shifted (if drawn)
  int grid_size() const { return model().n; }
  double lo() const { return model().lo; }  // the colour scale's ends
  double hi() const { return model().hi; }
  double key_score() const { return model().key_score; }  // at (r2, c2), query at (r1, c1)
  double shifted_key_score() const { return model().shifted_key_score; }
  const std::string& error() const { return model().error; }
  const DrawnText& drawn() const { return drawn_; }

 private:
  struct Inputs {  // the Params fields compute() reads: the cache key
    int dim = 0, n = 0;
    double base = 0.0;
    Pairing pairing = Pairing::interleaved;
    std::vector<double> q, k;
    int query_row = 0, query_column = 0, key_row = 0, key_column = 0;
    int shift_row = 0, shift_column = 0;
    bool moved = true;  // axial_moved: the colour scale spans the moved grid too
    bool operator==(const Inputs&) const = default;
  };
  struct Model {
    int n = 0;
    std::vector<Panel> panels;
    std::vector<std::vector<float>> texels;  // each panel's scores in fp32, for the GPU
    double lo = 0.0, hi = 1.0;
    double key_score = 0.0, shifted_key_score = 0.0;
    std::string error;
  };
  struct Layout;  // axial_view.cpp: the header's level, the cells' size, where the panels go
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);
  static Layout layout(const Model& m, const Params& p, const Canvas& canvas, const ViewEnv& env);
  void paint(const Model& m, const Layout& lay, const Canvas& canvas, const Params& p, bool has_gl);
  void paint_cells(const Model& m, std::size_t i, const plot::Frame& fr, const Layout& lay,
                   const Canvas& canvas, bool has_gl);
  static void hover(const Model& m, const std::vector<Panel>& drawn, const Layout& lay,
                    const Canvas& canvas);
  const Model& model() const;

  ViewCache<Inputs, Model> model_;             // ui/view_cache.h
  std::unique_ptr<HeatmapRenderer> renderer_;  // the grids' cells, created on the first GL Draw
  std::vector<Panel> panels_;  // the model's panels with the cells' rectangles of the last Draw
  DrawnText drawn_;            // every line of text of the last Draw
  MathText own_math_;          // the rule's θⱼ formula when ViewEnv::math is null (tests)
};

}  // namespace rope::app
