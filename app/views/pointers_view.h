// views/pointers_view.h — the rotating pointers: one pointer per 2D block of the head dimension.
//
// Block i of the query, rotated to position m, is drawn as a pointer of length |q_i| at angle
// angle(q_i) + m theta_i; the key block at n likewise; the arc between them is (n - m) theta_i.
// Two layouts: one dial per block, or every pointer on one shared circle. The read-out shows
// the score (R_m q).(R_n k) next to q.(R_{n-m} k), which equal each other for every m, n.
//
// Context extension (views/view_scaling.h): with a scaling method on, the pointers turn at θ′_i
// and the scores carry the attention factor a (cos and sin × a, so scores × a²); a faint pointer
// beside each query pointer shows where θ_i would have put it, and the labels read θ → θ′.
//
// Large d: at most kMaxShownBlocks (256, all blocks of d = 512, the d slider's maximum) are
// drawn, blocks 0 ... 255; above that the canvas says which blocks it shows of how many. The
// scores are always over all d dimensions.
//
// Partial rotary (rotary_fraction < 1): the pairs that do not rotate have θ = 0; their dials are
// grey, labelled "not rotated", and the read-out says how many pairs rotate. Pair i takes the
// i-th frequency of rope::partial_frequencies in the app's pairing (rope/partial_rotary.h).
// With a scaling on as well, θ′ is drawn_frequencies' (state/scaling_params.h): the partial
// rotation first, then the method on the part that rotates.
//
// Usage: PointersView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "imgui.h"
#include "rope/scaling.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/math_text.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"
#include "views/pointer_cover.h"

namespace rope::app {

struct PointersView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  static constexpr int kMaxShownBlocks = 256;  // dials drawn at most: blocks 0 ... 255
  // On the shared circle, more blocks than this draw no angle arcs and no dots on their trails
  // (their rings coincide: nothing a pixel can show; the pointers and trails stay).
  static constexpr int kCrowdedCircle = 32;

  // Where a block's dial and pointers were drawn, px.
  struct Tip {
    ImVec2 centre;  // dial centre
    ImVec2 query;   // tip of the query pointer
    ImVec2 key;     // tip of the key pointer
    float radius;   // dial radius
  };
  // Read-only results of the last Draw, for tests and the lesson checks: the tips of the
  // blocks drawn, [min(d/2, kMaxShownBlocks)]; (R_m q).(R_n k) and q.(R_{n-m} k) over all d
  // (with a scaling on: at θ′ and times a²); the frequencies the pointers turn at (θ′ with a
  // scaling on) and the original θ; the attention factor a (1 without scaling)
  const std::vector<Tip>& tips() const { return tips_; }
  const std::vector<double>& thetas() const { return model().thetas; }
  const std::vector<double>& original_thetas() const { return model().thetas_original; }
  double attention_factor() const { return model().attention_factor; }
  double score() const { return scores_.model() ? scores_.model()->score : 0.0; }
  double relative() const { return scores_.model() ? scores_.model()->relative : 0.0; }
  // With emulate_precision on (and neither a scaling nor a partial rotation): the score with
  // the stored cos and sin of the precision formats, and each shown block's emulated query and
  // key angles, rad ([d/2]; NaN where the angle overflowed). emulated() is false otherwise.
  bool emulated() const { return scores_.model() && scores_.model()->emulated; }
  double emulated_score() const { return scores_.model() ? scores_.model()->score_emulated : 0.0; }
  const std::vector<double>& emulated_query_angles() const { return scores().q_angle_emulated; }
  const DrawnText& drawn() const { return drawn_; }  // every line of text of the last Draw

 private:
  struct Inputs {  // the Params fields compute() reads: the cache key
    int dim = 0;
    double base = 0.0;
    Pairing pairing = Pairing::interleaved;
    VectorChoice query, key;
    std::uint64_t seed = 0;  // of the random presets
    // partial rotary (state/scaling_params.h): p < 1 gives θ = 0 to the pairs that do not
    // rotate; their dials are drawn grey and labelled "not rotated"
    double rotary_fraction = 1.0;
    RotaryStyle rotary_style = RotaryStyle::neox;
    ScalingParams scaling;  // view_scaling(p): method none when no scaling is on
    // the emulated overlay: on, and the formats (default ones when off: one cache key)
    bool emulate = false;
    PrecisionFormats formats{};
    bool operator==(const Inputs&) const = default;
  };
  struct Model {
    Pairing pairing = Pairing::interleaved;
    std::vector<double> thetas;           // [d/2] θ′ (θ without scaling); empty if invalid
    std::vector<double> thetas_original;  // [d/2] θ_i = base^(−2i/d)
    bool scaled = false;                  // a scaling method is on
    double attention_factor = 1.0;        // a: cos and sin × a, scores × a²
    std::string scaling_error;            // the scaling could not be applied (θ is drawn)
    std::vector<double> q, k;             // [d], effective vectors
    std::vector<double> q_norm, q_angle;  // [d/2], block length and angle at position 0
    std::vector<double> k_norm, k_angle;  // [d/2]
    double max_norm = 1.0;
  };
  struct ScoreInputs {  // the scores' cache key: the vectors and the two positions
    Inputs vectors;
    double m = 0.0, n = 0.0;
    bool operator==(const ScoreInputs&) const = default;
  };
  struct Scores {
    double score = 0.0;     // (R_m q).(R_n k)
    double relative = 0.0;  // q.(R_{n-m} k)
    // the emulated overlay (rope/low_precision.h), when Inputs::emulate and it applies
    bool emulated = false;
    std::string emulate_note;     // why it is not drawn although asked for, else empty
    double score_emulated = 0.0;  // (R̃_m q).(R̃_n k): both rotated with the stored cos, sin
    // per block: the emulated pointers' angles and lengths relative to the exact ones, [d/2]
    // (the stored cos² + sin² is not exactly 1); NaN angle where the angle overflowed
    std::vector<double> q_angle_emulated, k_angle_emulated, q_len_emulated, k_len_emulated;
  };
  const Scores& scores() const;  // the cached scores, or empty ones before the first Draw
  struct Layout;  // pointers_view.cpp: the read-out's texts and fonts, the legend, the dials
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);
  static Scores score_of(const Model& m, const ScoreInputs& in);
  static Layout layout(const Model& m, const Scores& sc, const Params& p, const Canvas& canvas,
                       const ViewEnv& env);
  static float paint_readout(const Layout& lay, const Pen& pen);
  static float paint_legend(const Layout& lay, ImDrawList* dl, const Pen& pen, float y);
  void paint_dials(const Model& m, const Scores& sc, const Layout& lay, const Canvas& canvas,
                   const Params& p);
  void hover(const Model& m, const Scores& sc, const Layout& lay, const Canvas& canvas,
             const Params& p) const;
  const Model& model() const;  // the cached model, or an empty one before the first Draw

  ViewCache<Inputs, Model> model_;  // ui/view_cache.h
  ViewCache<ScoreInputs, Scores> scores_;
  std::vector<Tip> tips_;   // one per block drawn
  DrawnText drawn_;         // every line of text of the last Draw
  MathText own_math_;       // the info line's θᵢ formula when ViewEnv::math is null (tests)
  ShaftCover shaft_cover_;  // the shared circle's shafts under shafts, storage kept per frame
};

}  // namespace rope::app
