// render/offscreen.h — an OpenGL 3.3 core context with no window, for `rope-lab screenshot`,
// `bench`, the animation export and the tests.
//
// Tries, in order: EGL on Mesa's surfaceless platform (no X server needed), EGL on the first
// EGL device, and EGL's default display. Rendering goes into a gl::RenderTarget. In the browser
// build (render/offscreen_web.cpp) it is the page's own WebGL 2 context, current already.
//
// Usage:
//   auto ctx = rope::app::OffscreenContext::create();
//   if (!ctx) { print_error(ctx.error().to_string()); return kExitFailure; }
//   ... GL calls ...   // the context is current on this thread until the object is destroyed
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rope/conventions.h"

namespace rope::app {

class OffscreenContext {
 public:
  static Result<std::unique_ptr<OffscreenContext>> create();
  ~OffscreenContext();
  OffscreenContext(const OffscreenContext&) = delete;
  OffscreenContext& operator=(const OffscreenContext&) = delete;

  const std::string& description() const { return description_; }  // "EGL surfaceless: llvmpipe"

 private:
  OffscreenContext() = default;
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  std::string description_;
};

// Reads the bound framebuffer's w x h RGBA8 pixels, rows top to bottom (GL's are bottom-up).
std::vector<std::uint8_t> read_pixels_rgba(int width, int height);

}  // namespace rope::app
