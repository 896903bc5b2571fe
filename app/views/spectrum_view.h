// views/spectrum_view.h — the frequency spectrum of RoPE: theta_i and the wavelength 2 pi/theta_i
// of every block i on logarithmic axes, a line at context_length, and the blocks that do not
// complete one turn within the context marked; a note on what fast and slow blocks do (right of
// the plots, under them on narrow canvases, left out on short ones).
//
// Usage: SpectrumView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <vector>

#include "imgui.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_env.h"

namespace rope::app {

struct SpectrumView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // read-only results, rebuilt when dim or base change
  std::vector<double> index;        // i = 0 ... d/2-1
  std::vector<double> thetas;       // theta_i, rad per position
  std::vector<double> wavelengths;  // 2 pi / theta_i, positions
  int incomplete = 0;               // blocks with wavelength > context_length (less than one turn)
  int first_incomplete = -1;
  DrawnText drawn;  // every line of text of the last Draw

  // internal
  int cached_dim = 0;
  double cached_base = 0.0;

 private:
  void update(const Params& p);
};

}  // namespace rope::app
