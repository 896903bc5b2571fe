// render/background.h — clears the frame to the colours of its two large areas.
//
// The canvas and the control panel cover almost the whole window. Drawn by ImGui they would be
// blended textured quads, which on a software rasteriser (llvmpipe) cost milliseconds per frame
// at 1920x1080; glClear (with a scissor for the panel) fills the same pixels for a fraction of
// that. The ImGui windows of those areas are drawn without a background.
#pragma once

#include "imgui.h"

namespace rope::app {

struct BackgroundRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // px, top-left origin, as ImGui's coordinates
  ImVec4 colour;
};

// Clears the bound framebuffer (fb_w x fb_h px) to `canvas`, then each rect to its colour.
void clear_background(ImVec4 canvas, const BackgroundRect* rects, int count, int fb_w, int fb_h);

}  // namespace rope::app
