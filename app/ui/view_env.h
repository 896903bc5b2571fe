// ui/view_env.h — what every view's Draw gets besides AppState: the fonts and whether a GL
// context exists (headless tests draw every view with none).
#pragma once

#include "ui/theme.h"

namespace rope::app {

class MathText;  // ui/math_text.h

struct ViewEnv {
  const Fonts* fonts = nullptr;
  bool has_gl = false;
  float scale = 1.0f;  // UI scale in effect: multiply every px constant by it
  // The math typesetter every view shares (one font, one glyph atlas and texture: 16 MB each),
  // set by draw_frame, which begins and ends its frame. Null when a test draws a view alone:
  // the view then uses a typesetter of its own.
  MathText* math = nullptr;
};

}  // namespace rope::app
