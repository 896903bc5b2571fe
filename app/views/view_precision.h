// views/view_precision.h — the words that name the four cast points' formats on screen, shared
// by the precision view and the pointers view's emulated overlay (state/precision_params.h).
//
// Usage:
//   pen.text(font, at, colour, precision_words(p.precision.formats));
//   // "position bf16 · θ bf16 · angle bf16 · cos/sin bf16  (preset bf16)"
#pragma once

#include <string>

#include "rope/low_precision.h"
#include "ui/canvas.h"

namespace rope::app {

// Each cast point's format, then the preset they match ("custom" when none), each part kept on
// one line.
inline std::string precision_words(const PrecisionFormats& f) {
  const std::string preset = preset_name(f);
  return nobreak(std::string("position ") + format_name(f.position)) + " · " +
         nobreak(std::string("θ ") + format_name(f.theta)) + " · " +
         nobreak(std::string("angle ") + format_name(f.angle)) + " · " +
         nobreak(std::string("cos/sin ") + format_name(f.trig)) + "  " +
         nobreak("(" + (preset == "custom" ? preset : "preset " + preset) + ")");
}

}  // namespace rope::app
