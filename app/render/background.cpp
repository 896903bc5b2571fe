#include "render/background.h"

#include <algorithm>
#include <cmath>

#include "render/gl.h"

namespace rope::app {

void clear_background(ImVec4 canvas, const BackgroundRect* rects, int count, int fb_w, int fb_h) {
  glDisable(GL_SCISSOR_TEST);
  glClearColor(canvas.x, canvas.y, canvas.z, canvas.w);
  glClear(GL_COLOR_BUFFER_BIT);
  if (count <= 0) return;
  glEnable(GL_SCISSOR_TEST);
  for (int i = 0; i < count; ++i) {
    const BackgroundRect& r = rects[i];
    const int x0 = std::clamp(static_cast<int>(std::lround(r.x0)), 0, fb_w);
    const int x1 = std::clamp(static_cast<int>(std::lround(r.x1)), 0, fb_w);
    const int y0 = std::clamp(static_cast<int>(std::lround(r.y0)), 0, fb_h);
    const int y1 = std::clamp(static_cast<int>(std::lround(r.y1)), 0, fb_h);
    if (x1 <= x0 || y1 <= y0) continue;
    glScissor(x0, fb_h - y1, x1 - x0, y1 - y0);  // GL counts rows from the bottom
    glClearColor(r.colour.x, r.colour.y, r.colour.z, r.colour.w);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  glDisable(GL_SCISSOR_TEST);
}

}  // namespace rope::app
