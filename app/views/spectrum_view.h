// views/spectrum_view.h — the frequency spectrum of RoPE: theta_i and the wavelength 2 pi/theta_i
// of every block i on logarithmic axes, a line at context_length, and the blocks that do not
// complete one turn within the context marked; a note on what fast and slow blocks do (right of
// the plots, under them on narrow canvases, left out on short ones).
// With a context-extension scaling on (views/view_scaling.h), θ′_i and λ′_i = 2π/θ′_i are drawn
// as lines over the marks of θ_i and λ_i, and the header names the method (pairs with θ′ = 0,
// p-RoPE's still pairs, are left out of the log axes).
// Todo / limits: above 256 blocks the marks become lines, so the hollow marks of the blocks
// slower than the context are not drawn; the dashed boundary still is.
//
// Partial rotary (rotary_fraction p < 1): both meanings of p at the same p, each a labelled curve
// over the pairs that rotate — neox (θ over int(p·d) dims) and proportional (full-head θ, the
// slow pairs still), or with partial_compare off the meaning in use alone — and the count of
// blocks slower than the context is that of the meaning in use (rotary_style). With a scaling on as
// well, the θ′ lines are drawn_frequencies' (state/scaling_params.h): the meaning in use, then the
// method on the part that rotates.
//
// Usage: SpectrumView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <array>
#include <string>
#include <vector>

#include "rope/scaling.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/math_text.h"
#include "ui/plot.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct SpectrumView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // Partial rotary at fraction p: θ per pair under each meaning (0: the pair does not rotate;
  // empty when p leaves that meaning nothing to rotate, e.g. an odd int(d·p) under neox).
  struct Partial {
    double fraction = 1.0;
    RotaryStyle style = RotaryStyle::neox;  // the meaning in use; the other is drawn beside it
    std::vector<double> neox, proportional;
    int neox_pairs = 0, proportional_pairs = 0;
  };

  // Read-only results, for tests and exports (empty before the first Draw)
  const std::vector<double>& thetas() const { return model().thetas; }  // rad per position
  const std::vector<double>& wavelengths() const { return model().wavelengths; }  // positions
  // blocks with wavelength > context_length (less than one turn), and the first of them or -1
  int incomplete() const { return model().incomplete; }
  int first_incomplete() const { return model().first_incomplete; }
  // θ′_i with a scaling on (empty without)
  const std::vector<double>& scaled_thetas() const { return model().thetas_scaled; }
  const DrawnText& drawn() const { return drawn_; }
  // Partial rotary: whether both meanings are drawn, and their frequencies.
  bool partial() const { return model().partial; }
  const Partial& both_meanings() const { return model().both; }

 private:
  struct Inputs {  // the Params fields compute() reads: the cache key
    int dim = 0;
    double base = 0.0;
    int context_length = 0;
    double rotary_fraction = 1.0;  // p < 1: both meanings of p drawn (state/scaling_params.h)
    RotaryStyle rotary_style = RotaryStyle::neox;
    ScalingParams scaling;  // view_scaling(p): method none when no scaling is on
    bool operator==(const Inputs&) const = default;
  };
  struct Model {
    std::vector<double> index;        // i = 0 ... d/2-1
    std::vector<double> thetas;       // theta_i = base^(-2i/d)
    std::vector<double> wavelengths;  // 2 pi / theta_i
    int incomplete = 0;
    int first_incomplete = -1;
    bool partial = false;  // rotary_fraction < 1: `both` holds the two meanings
    Partial both;
    // with a scaling on: the pairs with θ′ > 0, their θ′ and λ′ (empty without)
    std::vector<double> index_scaled, thetas_scaled, wavelengths_scaled;
    std::string scaling_error;
  };
  struct Layout;  // spectrum_view.cpp: fonts, the header's size, where the note goes
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);
  static Layout layout(const Model& m, const Params& p, const Canvas& canvas, const ViewEnv& env);
  // returns the two plots' frames: theta_i (top), wavelengths (bottom)
  static std::array<plot::Frame, 2> paint(const Model& m, const Layout& lay, const Canvas& canvas,
                                          const Params& p);
  static void paint_partial(const Model& m, const Layout& lay, const Canvas& canvas,
                            const std::array<plot::Frame, 2>& frames, double context, bool compare);
  static void hover(const Model& m, const Layout& lay, const plot::Frame& fr, const Canvas& canvas,
                    double context);
  const Model& model() const;  // the cached model, or an empty one before the first Draw

  ViewCache<Inputs, Model> model_;  // ui/view_cache.h
  DrawnText drawn_;                 // every line of text of the last Draw
  MathText own_math_;               // the header's formulas when ViewEnv::math is null (tests)
};

}  // namespace rope::app
