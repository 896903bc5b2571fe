// render/mirror_texture.h — a copy of a framebuffer as a texture: the main window's frame that
// the presenter window shows scaled down (shell/presenter.h).
//
// capture() copies the bound read framebuffer into the texture (GL_RGBA8, its size following
// the frame's) and builds mipmaps, so a 1920 px frame drawn 600 px wide stays smooth. Alpha
// reads as 1: the copy is opaque, as the projected picture is. Like every GL owner it must be
// destroyed while a context sharing its objects is current.
//
// Usage (the frame just drawn, before the swap):
//   glReadBuffer(GL_BACK); mirror.capture(fb_w, fb_h);
//   dl->AddImage(mirror.id(), min, max, ImVec2(0, 1), ImVec2(1, 0));  // GL rows run bottom-up
#pragma once

#include "render/gl_objects.h"

namespace rope::app {

class MirrorTexture {
 public:
  void capture(int width, int height);         // px; nothing when either is <= 0
  GLuint id() const { return texture_.id(); }  // 0 before the first capture
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  gl::Texture texture_;
  int width_ = 0, height_ = 0;
};

}  // namespace rope::app
