// views/extension_view.h — context extension: which pairs a scaling method changes, and why.
//
// Mode `frequencies` (the teaching picture; the formulas are rope/scaling.h's, following
// transformers' modeling_rope_utils.py): per pair i, three panels over the pair index
//   (a) the wavelength λ_i = 2π/θ_i on a log axis with the lines L and s·L (and λ′_i after
//       scaling, in the method's colour),
//   (b) the rotations per context r_i = L/λ_i with the lines r = 1 and r = 32 (YaRN's α and β;
//       for llama3 its low and high frequency factors instead),
//   (c) θ′_i/θ_i for the chosen method; for YaRN also the paper's ramp (linear in r, dashed)
//       beside transformers' (linear in the pair index); with compare_methods every method at
//       the same s.
// The bands the method uses (kept / blended / interpolated) are shaded and named above the
// plots. A read-out names the pairs that never complete a turn within L, the ramp's ends and the
// attention factor (logits scale by its square). Hover: exact values of the pair under the mouse.
// Mode `extrapolation`: PI's Fig. 2 and Fig. 5 (views/extrapolation_panel.h).
//
// Usage: ExtensionView view;  each frame inside the canvas window: view.Draw(state, env);
// Limits: the overlay leaves out longrope unless both lists have d/2 entries, and proportional.
#pragma once

#include <string>
#include <vector>

#include "imgui.h"
#include "rope/scaling.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/math_text.h"
#include "ui/plot.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"
#include "views/extrapolation_panel.h"

namespace rope::app {

struct ExtensionView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  enum class Band { kept, blended, interpolated };
  struct BandRun {  // pairs first ... last (inclusive) in one band
    Band band;
    int first = 0, last = 0;
  };
  struct Curve {  // θ′/θ of one method over the pairs
    ScalingMethod method = ScalingMethod::none;
    std::string label;
    std::vector<double> ratio;
    bool dashed = false;  // YaRN's paper ramp
    bool chosen = false;  // the method of the parameters (drawn thicker, with markers)
  };
  struct Model {
    std::string error;   // validate_scaling's message; nothing else is set then
    int half = 0;        // the pairs drawn: d/2, or the rotating ones under a neox partial rotation
    int head_pairs = 0;  // d/2
    int still_from = -1;       // the first pair that does not rotate (partial rotary), -1: none
    std::string rotary_words;  // "rotary p = 0.25 (neox): $\theta_i = …^{-2i/32}$", "" at p = 1
    double context = 0.0, factor = 1.0;  // L, s
    ScaledFrequencies sf;                // the chosen method
    std::vector<double> index, wavelength, wavelength_scaled, rotations, ratio;  // [d/2]
    std::vector<Curve> curves;  // the chosen method first, then the paper ramp / overlays
    std::vector<BandRun> bands;
    int no_turn_first = -1;  // the first pair with λ > L (no full turn within L), -1: none
    int no_turn = 0;         // how many
  };

  // Read-only results of the last Draw, for tests and exports.
  const DrawnText& drawn() const { return drawn_; }
  const Model* model() const { return model_.model(); }
  // The three plots of the last Draw in the frequencies mode (zero-sized when not drawn):
  // 0 wavelength, 1 rotations per context, 2 θ′/θ.
  const plot::Frame& frame(int panel) const { return frames_[panel]; }
  const ExtrapolationPanel& extrapolation() const { return extrapolation_; }
  // Each band's name above the plots in the last Draw: the label's box, the band's extent on
  // the x axis, and whether the label, wider than its band, points at it with a bracket spanning
  // exactly the band and a leader (px).
  struct BandMark {
    Band band;
    ImVec2 label_min, label_max;
    float band_x0 = 0, band_x1 = 0;
    bool bracket = false;
  };
  const std::vector<BandMark>& band_marks() const { return band_marks_; }
  // The colour the curve of `method` is drawn in (tests read it back from pixels).
  static ImU32 method_colour(ScalingMethod method, Theme theme);

 private:
  struct Inputs {  // the Params fields compute() reads: the cache key
    int dim = 0;
    double base = 0.0;
    ScalingParams scaling;  // with the rotary fraction
    RotaryStyle rotary_style = RotaryStyle::neox;
    bool compare = false;
    bool operator==(const Inputs&) const = default;
  };
  struct Layout;
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);
  Layout layout(const Model& m, const Canvas& canvas, const ViewEnv& env, const Params& p) const;
  void paint(const Model& m, const Layout& lay, const Canvas& canvas, const ViewEnv& env,
             const Params& p);
  void paint_plots(const Model& m, const Layout& lay, const Canvas& canvas, const ViewEnv& env,
                   const Params& p);
  void hover(const Model& m, const Canvas& canvas, const ViewEnv& env, const Params& p) const;

  ViewCache<Inputs, Model> model_;
  plot::Frame frames_[3]{};
  std::vector<BandMark> band_marks_;
  DrawnText drawn_;
  MathText own_math_;  // the read-out's formulas when ViewEnv::math is null (tests)
  ExtrapolationPanel extrapolation_;
};

}  // namespace rope::app
