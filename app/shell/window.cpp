// shell/window.cpp — the interactive window (window.h): GLFW, an OpenGL 3.3 core context, Dear
// ImGui, and the loop that draws draw_frame (shell/frame.h) when something changed.
//
// [SECTION] helpers: GLFW errors, the input counter, F12's screenshot, monitors, callbacks
// [SECTION] the presenter window: a second GLFW window sharing the GL objects
// [SECTION] run_window: the context, ImGui, the frame loop that sleeps when idle, shutdown
#include "shell/window.h"

#include "render/gl.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "backends/imgui_impl_glfw.h"
#include "export/png.h"
#include "export/screenshot_path.h"
#include "io/exit_codes.h"
#include "render/background.h"
#include "render/driver_pin.h"
#include "render/offscreen.h"
#include "shell/frame.h"
#include "shell/key_taps.h"
#include "shell/presenter.h"
#include "state/actions.h"
#include "state/settings.h"
#include "ui/ui_context.h"

namespace rope::app {
namespace {

// [SECTION] helpers: GLFW errors, the input counter, F12's screenshot, monitors, callbacks

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
// The presenter window shares it: keys typed there reach the same shortcuts.
struct WindowInput {
  KeyTaps taps;
  long events = 0;
  float presenter_wheel = 0.0f;  // the presenter window's scrolling since its last frame
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

// Callbacks of the main and the presenter window: keys and characters into the shared queue,
// every event counted.
void install_input_callbacks(GLFWwindow* window) {
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
}
void install_char_callback(GLFWwindow* window) {
  glfwSetCharCallback(window, [](GLFWwindow* w, unsigned int c) {
    auto* in = static_cast<WindowInput*>(glfwGetWindowUserPointer(w));
    in->taps.on_char(c);
    ++in->events;
  });
}

// [SECTION] the presenter window: a second GLFW window sharing the GL objects

// The presenter window (shell/presenter.h): a second GLFW window whose GL context shares the
// main one's objects (the mirror texture, the math glyphs), with an ImGui context of its own.
// ImGui's GLFW backend keeps its data in the current ImGui context, and the main window's
// backend callbacks run inside glfwPollEvents: so the main context is made current again
// after every presenter frame, and the presenter's backend installs no callbacks (its mouse
// buttons and position are polled; its keys go to the main window's queue).
class PresenterWindow {
 public:
  bool open() const { return window_ != nullptr; }

  // Opens it on a monitor other than the main window's when there is one. Leaves the main
  // window's GL and ImGui contexts current. On failure returns why.
  // wanted_monitor: --monitor, the projector's number (0: the one the main window is on).
  std::string open_beside(GLFWwindow* main, int wanted_monitor, ImGuiContext* main_ui,
                          WindowInput& input, double now) {
    int mx = 0, my = 0, mw = 0, mh = 0;  // the work area it opens in
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    // the first monitor that is not the projector (the one presentation mode fills), if any
    GLFWmonitor* projector = fullscreen_monitor(main, wanted_monitor);
    GLFWmonitor* target = count > 0 ? monitors[0] : nullptr;
    for (int i = 0; i < count; ++i)
      if (monitors[i] != projector) {
        target = monitors[i];
        break;
      }
    if (target) glfwGetMonitorWorkarea(target, &mx, &my, &mw, &mh);
    const int width = mw > 0 ? std::min(1280, mw * 9 / 10) : 1280;
    const int height = mh > 0 ? std::min(800, mh * 9 / 10) : 800;
    g_glfw_error.clear();
    window_ = glfwCreateWindow(width, height, "RoPE Lab: presenter", nullptr, main);
    if (!window_) return g_glfw_error.empty() ? "no second window could be made" : g_glfw_error;
    if (mw > 0) glfwSetWindowPos(window_, mx + 40, my + 40);
    glfwSetWindowUserPointer(window_, &input);
    install_input_callbacks(window_);
    install_char_callback(window_);
    glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double dy) {
      auto* in = static_cast<WindowInput*>(glfwGetWindowUserPointer(w));
      in->presenter_wheel += static_cast<float>(dy);
      ++in->events;
    });
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(0);  // the main window waits for the display; two waits would halve it
    presenter_ = std::make_unique<Presenter>(true);
    ImGui::SetCurrentContext(presenter_->ui().context());
    ImGui_ImplGlfw_InitForOpenGL(window_, false);
    presenter_->page().restart_clock(now);
    glfwMakeContextCurrent(main);
    ImGui::SetCurrentContext(main_ui);
    return {};
  }

  void close(GLFWwindow* main, ImGuiContext* main_ui) {
    if (!window_) return;
    glfwMakeContextCurrent(window_);
    ImGui::SetCurrentContext(presenter_->ui().context());
    ImGui_ImplGlfw_Shutdown();
    presenter_.reset();
    glfwDestroyWindow(window_);
    window_ = nullptr;
    glfwMakeContextCurrent(main);
    ImGui::SetCurrentContext(main_ui);
  }

  bool close_requested() const { return window_ && glfwWindowShouldClose(window_); }
  // Whether this frame of the main window is copied and the presenter drawn: every frame, but
  // while the animation plays at most kAnimatingFps a second — the copy and a second window cost
  // as much again as the main frame on llvmpipe, and the lecturer's glance needs no 60 fps.
  bool due(bool animating) const {
    constexpr double kAnimatingFps = 15.0;
    return window_ && (!animating || glfwGetTime() - drawn_at_ >= 1.0 / kAnimatingFps);
  }
  // Seconds until the lecture timer shows its next second (the idle window wakes for it).
  double seconds_to_tick(double now) const {
    return presenter_ ? presenter_->page().seconds_to_tick(now) : 1e9;
  }

  // The main frame just drawn, into the mirror (the main context current, before its swap).
  void capture(int fb_w, int fb_h) {
    if (!presenter_) return;
    glReadBuffer(GL_BACK);
    presenter_->capture_mirror(fb_w, fb_h);
  }

  // One frame of the page; leaves the main window's contexts current.
  void draw(AppState& state, Views& views, WindowInput& input, GLFWwindow* main,
            ImGuiContext* main_ui) {
    if (!window_) return;
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window_, &fb_w, &fb_h);
    if (fb_w <= 0 || fb_h <= 0 || glfwGetWindowAttrib(window_, GLFW_ICONIFIED)) return;
    glfwMakeContextCurrent(window_);
    float xs = 1.0f, ys = 1.0f;
    glfwGetWindowContentScale(window_, &xs, &ys);
    // the lecturer's own scale: presentation mode enlarges the projected picture only
    const auto& before = state.before_presentation;
    const double own = before.active ? before.ui_scale : state.params.ui_scale;
    const float scale = static_cast<float>(own) * std::max(1.0f, xs);
    presenter_->ui().prepare(scale, state.params.theme);
    presenter_->ui().backend_new_frame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::GetIO().MouseWheel += std::exchange(input.presenter_wheel, 0.0f);
    presenter_->draw(state, views, scale, true);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fb_w, fb_h);
    clear_background(clear_colour(state), nullptr, 0, fb_w, fb_h);
    presenter_->ui().render_draw_data();
    glfwSwapBuffers(window_);
    drawn_at_ = glfwGetTime();
    glfwMakeContextCurrent(main);
    ImGui::SetCurrentContext(main_ui);
  }

 private:
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<Presenter> presenter_;
  double drawn_at_ = -1.0;  // glfwGetTime() of the last frame drawn, s
};

}  // namespace

// [SECTION] run_window: the context, ImGui, the frame loop that sleeps when idle, shutdown

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
  // WM_CLASS "rope-lab": what the desktop entry's StartupWMClass names, so that a dock groups
  // the window (and the presenter window) under RoPE Lab's icon instead of GLFW's default.
  glfwWindowHintString(GLFW_X11_CLASS_NAME, "rope-lab");
  glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "rope-lab");

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
    install_input_callbacks(window);
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    // Characters go through the same queue as the keys (in place of the backend's callback).
    install_char_callback(window);
    KeyTaps& taps = input.taps;
    Views views;
    PresenterWindow presenter;
    state.show_presenter = state.show_presenter || options.presenter;
    if (!ui.fonts().warning.empty()) show_notice(state, ui.fonts().warning, true);
    double last = glfwGetTime();
    int frame = 0;
    bool is_fullscreen = state.params.presentation && monitor;
    int windowed_x = 80, windowed_y = 60, windowed_w = width, windowed_h = height;
    int settle = kSettleFrames;        // frames still to draw after the last event
    std::size_t problems_printed = 0;  // AppState::problems already on stderr
    double main_drawn_at = 0.0;        // state.time of the main window's last frame
    while (!state.request_quit) {
      if (glfwWindowShouldClose(
              window)) {  // the close button: as Ctrl+Q, asks when work is unsaved
        glfwSetWindowShouldClose(window, GLFW_FALSE);
        ask_to_quit(state);
        if (state.request_quit) break;
      }
      if (presenter.close_requested()) state.show_presenter = false;  // its close button
      if (state.show_presenter && !presenter.open()) {
        if (const std::string why =
                presenter.open_beside(window, options.monitor, ui.context(), input, state.time);
            !why.empty()) {
          state.show_presenter = false;
          show_notice(state, "The presenter window cannot be opened: " + why, true);
        }
      } else if (!state.show_presenter && presenter.open()) {
        presenter.close(window, ui.context());
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
        if (presenter.open())  // the lecture timer's next second
          wait = std::clamp(presenter.seconds_to_tick(state.time) + 0.02, 0.05, wait);
        glfwWaitEventsTimeout(wait);
      }
      settle = input.events != events_before ? kSettleFrames : std::max(0, settle - 1);
      // Woken by the lecture timer alone (no event, nothing running): only the presenter window
      // has something new to show, so the main window and its copy are not drawn again (each
      // costs milliseconds on llvmpipe) — unless a notice is due to go or kIdleSeconds passed.
      if (!busy && input.events == events_before && presenter.open()) {
        const double now = glfwGetTime();
        const double shown = state.notice.shown_at, until = shown + notice_seconds(state.notice);
        const bool notice_due =
            shown >= 0.0 && main_drawn_at <= until && state.time + (now - last) > until;
        if (!notice_due && state.time + (now - last) - main_drawn_at < kIdleSeconds) {
          advance_animation(state, now - last);
          last = now;
          presenter.draw(state, views, input, window, ui.context());
          continue;
        }
      }
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
      main_drawn_at = state.time;
      const FrameLayout layout = draw_frame(state, views, ViewEnv{&ui.fonts(), true, scale});
      if (!state.saved) mark_saved(state);  // what the first frame shows (a lesson step entered)
      // A font that did not load (start) or a font texture too large for this GL (scale
      // change): on stderr once, as every missing resource is, besides the notice.
      report_problem(state, ui.fonts().warning);
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
      const bool presenter_due = presenter.due(state.params.playing);
      if (presenter_due) presenter.capture(fb_w, fb_h);
      glfwSwapBuffers(window);
      if (presenter_due) presenter.draw(state, views, input, window, ui.context());
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
    presenter.close(window, ui.context());
    ImGui_ImplGlfw_Shutdown();  // puts back our key callback, which points at `taps`
    glfwSetKeyCallback(window, nullptr);
    glfwSetCharCallback(window, nullptr);
  }
  glfwDestroyWindow(window);
  glfwTerminate();
  return kExitOk;
}

}  // namespace rope::app
