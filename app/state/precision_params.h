// state/precision_params.h — what the precision view (views/precision_view.h) lets a person set:
// the format of each of RoPE's four cast points and the pair the read-out follows.
//
// The parameter table (state/params.cpp) reaches these through Params::precision:
//   precision        a preset of rope/low_precision.h (fp32, bf16, fp16, theta-bf16, fix, exact)
//                    setting all four formats; it reads back as the preset the formats match,
//                    or "custom" (setting "custom" keeps the formats, so a saved session reloads
//                    whatever order its keys are read in)
//   position_format, theta_format, angle_format, trig_format   fp64, fp32, bf16 or fp16
//   precision_pair   the pair whose numbers the view shows large (clamped to d/2 - 1 on screen)
//
// Usage: const rope::PrecisionFormats& f = state.params.precision.formats;
#pragma once

#include "rope/low_precision.h"

namespace rope::app {

inline constexpr int kMaxPrecisionPair = 2047;  // d/2 - 1 for the largest d, 4096

struct PrecisionParams {
  // bf16 everywhere: the failure the view is about is on screen when it opens
  PrecisionFormats formats{FloatFormat::bf16, FloatFormat::bf16, FloatFormat::bf16,
                           FloatFormat::bf16};
  int pair = 1;  // pair 0 (theta_0 = 1) is exact at integer positions below 2^p; pair 1 is not
  bool operator==(const PrecisionParams&) const = default;
};

}  // namespace rope::app
