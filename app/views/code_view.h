// views/code_view.h — the same RoPE written three ways, side by side, with live numbers that
// prove them equal (issue 12 item 4; rope/three_codes.h; the pairing conventions and where they
// were read: docs/model-presets.md).
//
// Three short listings written for this app in PyTorch-style pseudocode: the math (one 2x2
// rotation per block, interleaved pairs), Meta's complex form (pairs (x_2i, x_2i+1) as complex
// numbers times e^{i m theta_i}) and the transformers-style rotate_half form (pairs
// (x_i, x_{i+d/2}), fed weights whose rows were permuted by P). Each code line carries the
// number of the equation it implements; hovering a line highlights that equation and every
// line implementing it. Below: R_m q under each code (the first coordinates, elided for large
// d), P as an index mapping, and q.k from each code with a check mark that fails when two
// scores differ by more than rope::kCodeScoreTolerance relative (leaving P out: a red cross
// and the difference, unless the scores agree by accident, which is said).
//
// Usage: CodeView view;  each frame inside the canvas window: view.Draw(state, env);
// Layout: the fullest arrangement that fits (listings across, beside, in a grid or stacked);
// narrow canvases (a lesson's half at 1280 x 720) drop, in order, the equation list, the vector
// lines, the comment lines and finally the code itself (titles and scores stay).
// Limits: the listings use the proportional UI font (no monospace font is loaded).
#pragma once

#include <string>
#include <vector>

#include "imgui.h"
#include "rope/three_codes.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct CodeView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // What the view computed: the core's comparison and the check marks it shows.
  struct Results {
    CodeComparison codes;        // rope::compare_codes for the current q, k, m, n, d, base
    bool complex_ok = false;     // Meta's complex form matches the math (the first check)
    bool permuted_ok = false;    // rotate_half after P matches the math (the second check)
    bool unpermuted_ok = false;  // rotate_half without P matches too (false: the red cross)
    std::string accident;        // why they match without P, when they do ("" otherwise)
    std::string problem;         // the core's error (then nothing else is valid)
  };
  // Read-only results, for tests and exports (nullptr before the first Draw).
  const Results* results() const { return model_.model(); }
  int hot_equation() const { return hot_equation_; }  // under the mouse in the last Draw
  int level() const { return level_; }                // layout chosen in the last Draw
  const DrawnText& drawn() const { return drawn_; }

 private:
  struct Inputs {  // what compute() reads: the cache key
    std::vector<double> q, k;
    double m = 0.0, n = 0.0, base = 0.0;
    bool operator==(const Inputs&) const = default;
  };
  struct Layout;  // code_view.cpp
  static Inputs inputs_of(const Params& p);
  static Results compute(const Inputs& in);
  static Layout layout(const Results& r, const Params& p, const Canvas& canvas, const ViewEnv& env);
  static void paint(const Results& r, const Layout& lay, const Canvas& canvas, const Params& p);
  static void hover(const Results& r, const Layout& lay);

  ViewCache<Inputs, Results> model_;  // ui/view_cache.h
  DrawnText drawn_;                   // every line of text of the last Draw
  int hot_equation_ = 0;
  int level_ = 0;
};

}  // namespace rope::app
