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

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

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

// No rotation at all: p-RoPE with p = 0, what a model's NoPE layer is (state/models.h).
inline bool nope(const ScalingParams& sp) {
  return sp.method == ScalingMethod::proportional && sp.rotary_fraction == 0.0;
}

// "YaRN, s = 16, L = 4 096": the method, its factor and the original context, each part kept
// on one line.
inline std::string scaling_words(const ScalingParams& sp) {
  // p-RoPE has no factor and no context: its p is what it sets; p = 0 is NoPE (a model's layer
  // without RoPE, state/models.h), said as such
  if (sp.method == ScalingMethod::proportional) {
    if (sp.rotary_fraction == 0.0) return "NoPE (p-RoPE with p = 0: no pair rotates)";
    return nobreak("p-RoPE, p = " + format_number(sp.rotary_fraction, NumberStyle::label, 4));
  }
  std::string out = nobreak(std::string(scaling_method_names(sp.method).words) + ",");
  out += " " + nobreak("s = " + format_number(sp.factor, NumberStyle::label, 6) + ",");
  out += " " + nobreak("L = " +
                       format_number(static_cast<double>(sp.original_context), NumberStyle::tick));
  return out;
}

// θ′ᵢ/θᵢ per pair in words, from the frequencies a view draws (review D7: at d = 128 no dial
// has room for a label, so "θ′ = θ/16" must be readable in the read-out): maximal runs of pairs
// with the same divisor θᵢ/θ′ᵢ (relative tolerance 1e-9), e.g.
//   "θ′ = θ for pairs 0–23 · θ/1.03 … θ/7.8 for pairs 24–39 · θ/8 for pairs 40–63".
// Runs of one pair between other values are merged into a "between" run (dynamic NTK, longrope:
// a different divisor for every pair), except a kept pair (θ′ = θ); more than four runs become
// the kept first run, one range from the smallest to the largest divisor, the still last run; pairs
// with θᵢ = 0 (partial rotation) are "not rotated". scaled and original: [d/2], rad per position.
// Empty when the sizes differ or there are none.
inline std::string frequency_ratio_words(const std::vector<double>& scaled,
                                         const std::vector<double>& original) {
  const std::size_t n = scaled.size();
  if (n == 0 || original.size() != n) return {};
  // the divisor θᵢ/θ′ᵢ; 0 marks a pair that does not rotate, NaN a θ′ of 0 where θ is not
  std::vector<double> div(n);
  for (std::size_t i = 0; i < n; ++i)
    div[i] = original[i] == 0.0 ? 0.0 : scaled[i] == 0.0 ? std::nan("") : original[i] / scaled[i];
  const auto same = [](double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
  };
  struct Run {
    std::size_t first, last;
    bool constant;
  };
  std::vector<Run> runs;
  for (std::size_t i = 0; i < n; ++i) {
    if (!runs.empty() && runs.back().constant && same(div[runs.back().first], div[i]))
      runs.back().last = i;
    else
      runs.push_back({i, i, true});
  }
  // one-pair runs next to each other become one varying run
  std::vector<Run> merged;
  for (const Run& r : runs) {
    // a kept pair (divisor 1) or a still one (0) stays a run of its own
    const auto mergeable = [&](const Run& x) {
      return x.first == x.last && div[x.first] != 0.0 && !same(div[x.first], 1.0);
    };
    const bool single = mergeable(r);
    if (single && !merged.empty() && !merged.back().constant) {
      merged.back().last = r.last;
    } else if (single && !merged.empty() && mergeable(merged.back())) {
      merged.back().last = r.last;
      merged.back().constant = false;
    } else {
      merged.push_back(r);
    }
  }
  // More than four runs (LongRoPE's lists hold short runs of equal divisors) would take lines
  // of the read-out: a kept first run and a still last run stay, the rest is one range
  if (merged.size() > 4) {
    std::vector<Run> few;
    std::size_t a = 0, b = merged.size();
    if (merged.front().constant && same(div[merged.front().first], 1.0)) few.push_back(merged[a++]);
    const bool still_last = div[merged.back().first] == 0.0;
    if (still_last) --b;
    if (a < b) few.push_back({merged[a].first, merged[b - 1].last, false});
    if (still_last) few.push_back(merged.back());
    merged = std::move(few);
  }
  const auto divisor = [](double v) {
    if (std::isnan(v)) return std::string("0");
    if (std::abs(v - 1.0) <= 1e-9) return std::string("θ");
    return "θ/" + format_number(v, NumberStyle::label, 4);
  };
  const auto pairs = [](const Run& r) {
    if (r.first == r.last) return nobreak("pair " + std::to_string(r.first));
    return nobreak("pairs " + std::to_string(r.first) + "–" + std::to_string(r.last));
  };
  std::string out;
  for (const Run& r : merged) {
    if (!out.empty()) out += " · ";
    if (div[r.first] == 0.0)
      out += pairs(r) + " not rotated";
    else if (r.constant)
      out += nobreak("θ′ = " + divisor(div[r.first])) + " for " + pairs(r);
    else {
      // the smallest and the largest divisor of the run (in order for a monotone list)
      double lo = div[r.first], hi = div[r.first];
      for (std::size_t i = r.first; i <= r.last; ++i) {
        if (std::isnan(div[i]) || div[i] == 0.0) continue;
        lo = std::min(lo, div[i]);
        hi = std::max(hi, div[i]);
      }
      out += nobreak("θ′ = " + divisor(lo) + " … " + divisor(hi)) + " for " + pairs(r);
    }
  }
  return out;
}

}  // namespace rope::app
