#include "render/offscreen.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstring>

#include "render/gl.h"

namespace rope::app {
namespace {

EGLDisplay open_display(std::string* how) {
  const auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (get_platform_display) {
    EGLDisplay d =
        get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) {
      *how = "EGL surfaceless";
      return d;
    }
    const auto query_devices =
        reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    EGLDeviceEXT device{};
    EGLint count = 0;
    if (query_devices && query_devices(1, &device, &count) && count > 0) {
      d = get_platform_display(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
      if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) {
        *how = "EGL device";
        return d;
      }
    }
  }
  EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) {
    *how = "EGL default display";
    return d;
  }
  return EGL_NO_DISPLAY;
}

}  // namespace

Result<std::unique_ptr<OffscreenContext>> OffscreenContext::create() {
  std::string how;
  EGLDisplay display = open_display(&how);
  if (display == EGL_NO_DISPLAY)
    return Error{"opengl",
                 "no EGL display could be opened for offscreen rendering (needs "
                 "Mesa's libegl-mesa0 and libgl1-mesa-dri, or a GPU driver with EGL)"};
  if (!eglBindAPI(EGL_OPENGL_API)) {
    eglTerminate(display);
    return Error{"opengl", "EGL cannot bind the desktop OpenGL API"};
  }
  // A pbuffer-capable config; surfaceless contexts need no surface but Mesa wants a config
  // whose surface type is not only WINDOW_BIT.
  const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                   EGL_PBUFFER_BIT,
                                   EGL_RENDERABLE_TYPE,
                                   EGL_OPENGL_BIT,
                                   EGL_RED_SIZE,
                                   8,
                                   EGL_GREEN_SIZE,
                                   8,
                                   EGL_BLUE_SIZE,
                                   8,
                                   EGL_NONE};
  EGLConfig config{};
  EGLint n_configs = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &n_configs) || n_configs < 1) {
    eglTerminate(display);
    return Error{"opengl", "EGL offers no OpenGL configuration (" + how + ")"};
  }
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                    3,
                                    EGL_CONTEXT_MINOR_VERSION,
                                    3,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                    EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                    EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  if (context == EGL_NO_CONTEXT) {
    eglTerminate(display);
    return Error{"opengl", "OpenGL 3.3 core is not available offscreen (" + how + ")"};
  }
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    eglDestroyContext(display, context);
    eglTerminate(display);
    return Error{"opengl", "the offscreen OpenGL context cannot be made current (" + how + ")"};
  }
  std::unique_ptr<OffscreenContext> ctx(new OffscreenContext());
  ctx->display_ = display;
  ctx->context_ = context;
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  ctx->description_ = how + ": " + (renderer ? renderer : "unknown renderer");
  return ctx;
}

OffscreenContext::~OffscreenContext() {
  // The display stays initialised for the life of the process (EGL hands out the same display
  // each time, and initialising it again is a no-op). eglTerminate would unload Mesa's driver,
  // whose small internal buffers then show up as leaks of an unknown module in the sanitizer
  // build and hide reports about our own code.
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display_, context_);
  eglReleaseThread();
}

}  // namespace rope::app
