// offscreen_web.cpp — OffscreenContext (render/offscreen.h) in the browser build. A page has one
// WebGL 2 context, the canvas's, and no EGL: the "offscreen" context is that one, already
// current, and pictures are drawn into a framebuffer object of their own inside it (File ▸
// Export picture at 1x, 2x, 4x; shell/web_window.cpp). Nothing is made here, nothing released.
#include "render/gl.h"
#include "render/offscreen.h"

namespace rope::app {

Result<std::unique_ptr<OffscreenContext>> OffscreenContext::create() {
  std::unique_ptr<OffscreenContext> ctx(new OffscreenContext());
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  ctx->description_ =
      std::string("the page's WebGL 2 context: ") + (renderer ? renderer : "unknown renderer");
  return ctx;
}

OffscreenContext::~OffscreenContext() {
  // the EGL handles are the desktop's (render/offscreen.cpp); here they stay null
  (void)display_;
  (void)context_;
}

}  // namespace rope::app
