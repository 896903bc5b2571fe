#include "shell/window.h"

#include "render/gl.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "backends/imgui_impl_glfw.h"
#include "export/png.h"
#include "export/screenshot_path.h"
#include "io/exit_codes.h"
#include "render/driver_pin.h"
#include "render/offscreen.h"
#include "shell/frame.h"
#include "shell/key_taps.h"
#include "state/actions.h"
#include "state/settings.h"
#include "ui/ui_context.h"

namespace rope::app {
namespace {

// GLFW reports errors through a C callback with no user pointer; the last message is kept here
// only to word the exit message. It holds no application state.
std::string g_glfw_error;  // NOLINT: see above

// Frames drawn after an event before the window may sleep: ImGui settles hover and newly
// opened windows over two frames, and a key tap is replayed over two (shell/key_taps.h).
constexpr int kSettleFrames = 4;
// The longest the idle window sleeps without an event (s): a safety net for work that finishes
// without saying so (views set AppState::keep_drawing while theirs is in progress).
constexpr double kIdleSeconds = 2.0;

// The window's input: the key queue, and a count of every event (keys, mouse, focus, resize).
struct WindowInput {
  KeyTaps taps;
  long events = 0;
};

void count_event(GLFWwindow* w) {
  ++static_cast<WindowInput*>(glfwGetWindowUserPointer(w))->events;
}

void on_glfw_error(int code, const char* text) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + (text ? text : "");
}

void save_window_screenshot(AppState& state, int fb_w, int fb_h) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  Image img;
  img.width = fb_w;
  img.height = fb_h;
  img.rgba = read_pixels_rgba(fb_w, fb_h);
  const auto path = screenshot_folder() / screenshot_name(state.params);
  if (auto s = write_png(path, img); !s) {
    show_notice(state, "Screenshot not saved: " + s.error().to_string(), true);
  } else {
    show_notice(state, "Screenshot saved: " + path.string(), false);
  }
}

// The monitor full screen goes to: --monitor N when given and present, else the monitor under
// the window's centre (a lecturer drags the window onto the projector and presses F5), else
// the primary.
GLFWmonitor* fullscreen_monitor(GLFWwindow* window, int wanted) {
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  if (wanted >= 1 && wanted <= count) return monitors[wanted - 1];
  if (window) {
    int x = 0, y = 0, w = 0, h = 0;
    glfwGetWindowPos(window, &x, &y);
    glfwGetWindowSize(window, &w, &h);
    const int cx = x + w / 2, cy = y + h / 2;
    for (int i = 0; i < count; ++i) {
      int mx = 0, my = 0;
      glfwGetMonitorPos(monitors[i], &mx, &my);
      const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
      if (mode && cx >= mx && cx < mx + mode->width && cy >= my && cy < my + mode->height)
        return monitors[i];
    }
  }
  return glfwGetPrimaryMonitor();
}

}  // namespace

int run_window(AppState& state, const GuiOptions& options) {
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    print_error("cannot open a window (" + g_glfw_error +
                "); run RoPE Lab on a desktop, or use `rope-lab screenshot` without a display");
    return kExitFailure;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);

  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  int width = options.width > 0 ? options.width : 1600;
  int height = options.height > 0 ? options.height : 900;
  if (monitor) {
    int mx = 0, my = 0, mw = 0, mh = 0;
    glfwGetMonitorWorkarea(monitor, &mx, &my, &mw, &mh);
    if (mw > 0 && mh > 0) {
      width = std::min(width, mw * 9 / 10);
      height = std::min(height, mh * 9 / 10);
    }
  }
  int monitor_count = 0;
  glfwGetMonitors(&monitor_count);
  if (options.monitor > monitor_count)
    show_notice(state,
                "There is no monitor " + std::to_string(options.monitor) + " (this display has " +
                    std::to_string(monitor_count) + "); full screen uses the primary monitor.",
                true);
  GLFWwindow* window = nullptr;
  if (state.params.presentation && monitor) {
    GLFWmonitor* target = fullscreen_monitor(nullptr, options.monitor);
    const GLFWvidmode* mode = glfwGetVideoMode(target);
    window = glfwCreateWindow(mode->width, mode->height, "RoPE Lab", target, nullptr);
  } else {
    window = glfwCreateWindow(width, height, "RoPE Lab", nullptr, nullptr);
  }
  if (!window) {
    print_error("OpenGL 3.3 core is not available (" + g_glfw_error +
                "); RoPE Lab needs an OpenGL 3.3 driver (Mesa's llvmpipe works)");
    glfwTerminate();
    return kExitFailure;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  pin_gl_driver_libraries();

  {  // everything holding GL objects lives in this scope and dies before the context
    UiContext ui(true);
    // Installed before ImGui's backend, which calls it from its own key callback.
    // Input reaches the app through these callbacks; each also counts as "something happened",
    // which is what the idle wait below needs to know (ImGui's backend chains to the mouse
    // callbacks installed before it).
    WindowInput input;
    glfwSetWindowUserPointer(window, &input);
    glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int mods) {
      auto* in = static_cast<WindowInput*>(glfwGetWindowUserPointer(w));
      in->taps.on_key(key, action, mods);
      ++in->events;
    });
    glfwSetCursorPosCallback(window, [](GLFWwindow* w, double, double) { count_event(w); });
    glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int, int, int) { count_event(w); });
    glfwSetScrollCallback(window, [](GLFWwindow* w, double, double) { count_event(w); });
    glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int) { count_event(w); });
    glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int) { count_event(w); });
    glfwSetWindowRefreshCallback(window, [](GLFWwindow* w) { count_event(w); });
    glfwSetFramebufferSizeCallback(window, [](GLFWwindow* w, int, int) { count_event(w); });
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    // Characters go through the same queue as the keys (in place of the backend's callback).
    glfwSetCharCallback(window, [](GLFWwindow* w, unsigned int c) {
      auto* in = static_cast<WindowInput*>(glfwGetWindowUserPointer(w));
      in->taps.on_char(c);
      ++in->events;
    });
    KeyTaps& taps = input.taps;
    Views views;
    if (!ui.fonts().warning.empty()) show_notice(state, ui.fonts().warning, true);
    double last = glfwGetTime();
    int frame = 0;
    bool is_fullscreen = state.params.presentation && monitor;
    int windowed_x = 80, windowed_y = 60, windowed_w = width, windowed_h = height;
    int settle = kSettleFrames;        // frames still to draw after the last event
    std::size_t problems_printed = 0;  // AppState::problems already on stderr
    while (!state.request_quit) {
      if (glfwWindowShouldClose(
              window)) {  // the close button: as Ctrl+Q, asks when work is unsaved
        glfwSetWindowShouldClose(window, GLFW_FALSE);
        ask_to_quit(state);
        if (state.request_quit) break;
      }
      // Draw only when something changes: input, the animation, work in progress (a recompute,
      // an export), or the few frames ImGui needs to settle after an event. Otherwise sleep
      // until an event, a notice's end or kIdleSeconds, so an open window on a
      // lecturer's laptop costs almost nothing.
      const bool exporting = views.export_dialog.job && !views.export_dialog.job->finished();
      const bool busy = options.frames > 0 || state.params.playing || state.keep_drawing ||
                        exporting || taps.pending() || settle > 0;
      const long events_before = input.events;
      if (busy) {
        glfwPollEvents();
      } else {
        double wait = kIdleSeconds;  // wake when a notice is due to disappear
        const double notice_left =
            state.notice.shown_at + notice_seconds(state.notice) - state.time;
        if (state.notice.shown_at >= 0.0 && notice_left > 0.0)
          wait = std::clamp(notice_left + 0.05, 0.05, wait);
        glfwWaitEventsTimeout(wait);
      }
      settle = input.events != events_before ? kSettleFrames : std::max(0, settle - 1);
      state.keep_drawing = false;
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window, &fb_w, &fb_h);
      if (fb_w <= 0 || fb_h <= 0 || glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
        glfwWaitEventsTimeout(0.1);  // minimised: nothing to draw, do not spin
        last = glfwGetTime();
        continue;
      }
      const double now = glfwGetTime();
      const double dt = now - last;
      last = now;
      {  // the height of the screen presentation mode fills, in logical px
        const GLFWvidmode* mode = glfwGetVideoMode(fullscreen_monitor(window, options.monitor));
        float xs = 1.0f, ys = 1.0f;
        glfwGetWindowContentScale(window, &xs, &ys);
        update_presentation(state,
                            mode ? static_cast<float>(mode->height) / std::max(1.0f, ys) : 1080.0f);
      }
      const bool want_fullscreen = state.params.presentation || state.fullscreen;
      if (want_fullscreen != is_fullscreen && monitor) {
        if (want_fullscreen) {
          glfwGetWindowPos(window, &windowed_x, &windowed_y);
          glfwGetWindowSize(window, &windowed_w, &windowed_h);
          GLFWmonitor* target = fullscreen_monitor(window, options.monitor);
          const GLFWvidmode* mode = glfwGetVideoMode(target);
          glfwSetWindowMonitor(window, target, 0, 0, mode->width, mode->height, mode->refreshRate);
        } else {
          glfwSetWindowMonitor(window, nullptr, windowed_x, windowed_y, windowed_w, windowed_h,
                               GLFW_DONT_CARE);
        }
        is_fullscreen = want_fullscreen;
        continue;  // the framebuffer size changes; draw the next frame at the new size
      }
      float xs = 1.0f, ys = 1.0f;
      glfwGetWindowContentScale(window, &xs, &ys);
      const float scale = static_cast<float>(state.params.ui_scale) * std::max(1.0f, xs);
      ui.prepare(scale, state.params.theme);
      ui.backend_new_frame();
      ImGui_ImplGlfw_NewFrame();
      taps.before_frame(ImGui::GetIO());
      ImGui::NewFrame();
      advance_animation(state, dt);
      const FrameLayout layout = draw_frame(state, views, ViewEnv{&ui.fonts(), true, scale});
      if (!state.saved) mark_saved(state);  // what the first frame shows (a lesson step entered)
      for (; problems_printed < state.problems.size(); ++problems_printed)  // once each
        std::fprintf(stderr, "rope-lab: warning: %s\n", state.problems[problems_printed].c_str());
      ImGui::Render();
      taps.after_frame(ImGui::GetIO());
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      glViewport(0, 0, fb_w, fb_h);
      clear_frame(state, layout, fb_w, fb_h);
      ui.render_draw_data();
      if (state.request_screenshot) {
        state.request_screenshot = false;
        save_window_screenshot(state, fb_w, fb_h);
      }
      glfwSwapBuffers(window);
      if (options.frames > 0 && ++frame >= options.frames) break;
    }
    if (options.save_settings) {
      Settings settings;
      if (is_fullscreen) {
        settings.window_width = windowed_w;
        settings.window_height = windowed_h;
      } else {
        glfwGetWindowSize(window, &settings.window_width, &settings.window_height);
      }
      const auto& before = state.before_presentation;  // remember the lecturer's own look
      settings.theme = before.active ? before.theme : state.params.theme;
      settings.ui_scale = before.active ? before.ui_scale : state.params.ui_scale;
      settings.recent_sessions = state.recent_sessions;
      if (auto s = save_settings(settings_path(), settings); !s)
        std::fprintf(stderr, "rope-lab: warning: settings not saved: %s\n",
                     s.error().to_string().c_str());
    }
    ImGui_ImplGlfw_Shutdown();  // puts back our key callback, which points at `taps`
    glfwSetKeyCallback(window, nullptr);
    glfwSetCharCallback(window, nullptr);
  }
  glfwDestroyWindow(window);
  glfwTerminate();
  return kExitOk;
}

}  // namespace rope::app
