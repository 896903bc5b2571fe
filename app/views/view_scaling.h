// views/view_scaling.h — what the pointers, heatmap, decay and spectrum views take from the
// context-extension settings (state/scaling_params.h): the scaling in use as a cache key, θ′
// and the attention factor, and the words that name the method on screen
// (state/scaling_params.h: scaling_method_names).
//
// A view keeps `view_scaling(p)` (or `view_extension(p)`, which adds the partial rotation) in its
// Inputs and takes θ and θ′ from drawn_frequencies (state/scaling_params.h), the one derivation.
// `view_scaling(p)`: it is ScalingParams{} (method none) whenever
// no scaling is on, so every "off" state is one cache key and the picture is the unscaled one.
// With a method on, the view computes with scaled_frequencies: θ′_i in place of θ_i, and cos
// and sin multiplied by the attention factor a, so a score q·k is multiplied by a².
//
// Usage:
//   struct Inputs { int dim; double base; ScalingParams scaling; ... };
//   in.scaling = view_scaling(p);
//   if (scaling_on(in.scaling)) label = scaling_words(in.scaling);   // "YaRN, s = 16, L = 4 096"
#pragma once

#include <string>

#include "io/number_format.h"
#include "rope/scaling.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/plot.h"

namespace rope::app {

// The scaling a view applies: params.extension.scaling, or ScalingParams{} when none is on.
inline ScalingParams view_scaling(const Params& p) {
  return p.extension.scaling.method == ScalingMethod::none ? ScalingParams{} : p.extension.scaling;
}

// What drawn_frequencies (state/scaling_params.h) reads of the extension settings, as a cache
// key: the scaling in use (view_scaling) and the partial rotation, whatever the method; the
// rotary style only where a fraction below 1 gives it a meaning.
inline ExtensionParams drawn_extension(const ScalingParams& scaling, double rotary_fraction,
                                       RotaryStyle style) {
  ExtensionParams e;
  e.scaling = scaling;
  e.scaling.rotary_fraction = rotary_fraction;
  if (rotary_fraction < 1.0) e.rotary_style = style;
  return e;
}
inline ExtensionParams view_extension(const Params& p) {
  return drawn_extension(view_scaling(p), p.extension.scaling.rotary_fraction,
                         p.extension.rotary_style);
}

inline bool scaling_on(const ScalingParams& sp) {
  return sp.method != ScalingMethod::none;
}

// "YaRN, s = 16, L = 4 096": the method, its factor and the original context, each part kept
// on one line.
inline std::string scaling_words(const ScalingParams& sp) {
  std::string out = nobreak(std::string(scaling_method_names(sp.method).words) + ",");
  out += " " + nobreak("s = " + format_number(sp.factor, NumberStyle::label, 6) + ",");
  out += " " + nobreak("L = " +
                       format_number(static_cast<double>(sp.original_context), NumberStyle::tick));
  return out;
}

}  // namespace rope::app
