// ui/view_env.h — what every view's Draw gets besides AppState: the fonts and whether a GL
// context exists (headless tests draw every view with none).
#pragma once

#include "ui/theme.h"

namespace rope::app {

struct ViewEnv {
  const Fonts* fonts = nullptr;
  bool has_gl = false;
  float scale = 1.0f;  // UI scale in effect: multiply every px constant by it
};

}  // namespace rope::app
