#include "shell/web_window.h"

#include <emscripten/emscripten.h>

#include "render/gl.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "backends/imgui_impl_glfw.h"
#include "export/png.h"
#include "export/screenshot_path.h"
#include "io/exit_codes.h"
#include "io/number_format.h"
#include "render/offscreen.h"
#include "shell/export_dialog.h"
#include "shell/frame.h"
#include "shell/key_taps.h"
#include "shell/offscreen_app.h"
#include "shell/shortcuts.h"
#include "state/actions.h"
#include "state/params.h"
#include "ui/ui_context.h"

// app/shell/web_page.js
extern "C" {
void rope_web_canvas_size(int* width, int* height, double* ratio);
char* rope_web_fragment();
void rope_web_set_fragment(const char* text);
void rope_web_download(const char* name, const char* mime, const void* data, int size);
char* rope_web_storage_get(const char* key);
void rope_web_storage_set(const char* key, const char* value);
void rope_web_frame_drawn(double ms);
void rope_web_state(const char* json);
void rope_web_fail(const char* text);
void rope_web_install_drop(void* app);
void rope_web_claim_keys(const int* keys, const int* with_ctrl, int count);
int rope_web_fullscreen();
void rope_web_set_fullscreen(int on);
}

namespace rope::app {
namespace {

constexpr const char* kThemeKey = "rope-lab.theme";
constexpr const char* kScaleKey = "rope-lab.ui_scale";

// A string the page malloc'ed, freed here.
std::string take_string(char* text) {
  if (!text) return {};
  std::string s(text);
  std::free(text);
  return s;
}

// Everything the frames need; lives as long as the page (the browser calls frame() with it).
struct WebApp {
  AppState& state;
  WebOptions options;
  GLFWwindow* window = nullptr;
  UiContext ui{true};
  KeyTaps taps;
  Views views;
  double last = 0.0;
  std::string fragment;  // the address bar's fragment, last written
  Theme saved_theme = Theme::dark;
  double saved_scale = 1.0;
  std::size_t problems_printed = 0;
  // The browser's full screen, which presentation mode and F11 ask for (follow_full_screen).
  bool full_requested = false;  // asked for, as the state last wanted
  bool full_seen = false;       // the page was seen in full screen since it was asked for

  WebApp(AppState& s, WebOptions o, GLFWwindow* w) : state(s), options(std::move(o)), window(w) {}
};

void save_settings_if_changed(WebApp& app) {
  // the lecturer's own look, not presentation mode's
  const auto& before = app.state.before_presentation;
  const Theme theme = before.active ? before.theme : app.state.params.theme;
  const double scale = before.active ? before.ui_scale : app.state.params.ui_scale;
  if (theme == app.saved_theme && scale == app.saved_scale) return;
  rope_web_storage_set(kThemeKey, theme_name(theme));
  rope_web_storage_set(kScaleKey, format_number(scale, NumberStyle::csv).c_str());
  app.saved_theme = theme;
  app.saved_scale = scale;
}

// F12: the canvas as drawn, as a PNG download (the name a desktop screenshot would get).
void download_screenshot(AppState& state, int fb_w, int fb_h) {
  Image img;
  img.width = fb_w;
  img.height = fb_h;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  img.rgba = read_pixels_rgba(fb_w, fb_h);
  auto png = encode_png(img);
  if (!png) {
    show_notice(state, "Screenshot not made: " + png.error().to_string(), true);
    return;
  }
  const std::string name = screenshot_name(state.params);
  rope_web_download(name.c_str(), "image/png", png.value().data(),
                    static_cast<int>(png.value().size()));
  show_notice(state, "Screenshot downloaded: " + name, false);
}

// File ▸ Export picture… in a page: the dialog's picture (ExportDialog::PagePicture) drawn at
// its scale by an OffscreenApp in the page's own WebGL context, between two frames, exactly as
// `rope-lab screenshot` draws it on the desktop (the same state, flags and frame count), then
// downloaded. The app's own ImGui context is current again afterwards.
void export_picture_in_page(AppState& state, const ExportDialog::PagePicture& job) {
  ImGuiContext* main_context = ImGui::GetCurrentContext();
  const std::string name = std::filesystem::path(job.settings.path).filename().string();
  const std::string path = "/tmp/" + name;
  Status result;
  int width = 0, height = 0;
  {
    auto offscreen =
        OffscreenApp::create(job.width, job.height, static_cast<float>(job.settings.scale));
    if (!offscreen) {
      result = offscreen.error();
    } else {
      AppState shot;  // as render_state and the screenshot command make it
      shot.params = job.params;
      shot.applied_lesson = shot.params.lesson;
      shot.applied_step = shot.params.step;
      shot.show_menu = shot.show_controls = !job.settings.canvas_only;
      shot.reveal_all = true;
      shot.transparent_background = job.settings.transparent;
      offscreen.value()->run(shot, 3, 0.0);
      if (!shot.problems.empty())
        result = Error{"picture", shot.problems.front()};
      else
        result = offscreen.value()->write_png(path, job.settings.transparent);
      width = offscreen.value()->pixel_width();
      height = offscreen.value()->pixel_height();
    }
  }  // the picture's ImGui context and GL objects end here
  ImGui::SetCurrentContext(main_context);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (!result) {
    show_notice(state, "Picture not made: " + result.error().to_string(), true);
    return;
  }
  if (!download_web_file(path, name, "image/png")) {
    show_notice(state, "Picture not made: the page could not read it back", true);
    return;
  }
  show_notice(state,
              "Picture downloaded: " + name + " (" + std::to_string(width) + " × " +
                  std::to_string(height) + " px)",
              false);
  if (state.export_dialog == AppState::ExportDialog::picture)
    state.export_dialog = AppState::ExportDialog::none;
}

// Presentation mode and F11 are the browser's full screen. A browser grants it only just after
// a key press or a click, so a link that opens in presentation mode gets the larger picture in
// the page as it is. When the browser leaves full screen by itself (Esc, its own button), the
// app leaves presentation mode and F11's full screen with it, as the desktop's Esc does.
void follow_full_screen(WebApp& app) {
  AppState& state = app.state;
  const bool want = state.params.presentation || state.fullscreen;
  if (want != app.full_requested) {
    rope_web_set_fullscreen(want ? 1 : 0);
    app.full_requested = want;
    app.full_seen = false;
  } else if (want) {
    if (rope_web_fullscreen() != 0) {
      app.full_seen = true;
    } else if (app.full_seen) {
      state.params.presentation = false;
      state.fullscreen = false;
      app.full_requested = false;
      app.full_seen = false;
    }
  }
}

// A short summary for the page's tests: what is on screen.
void publish_state(const WebApp& app) {
  const Params& p = app.state.params;
  std::string json = "{\"view\":\"" + std::string(view_name(p.view)) +
                     "\",\"dim\":" + std::to_string(p.dim) + ",\"lesson\":\"" + p.lesson +
                     "\",\"step\":" + std::to_string(p.step) + ",\"notice\":\"";
  for (char c : app.state.notice.text) {
    if (c == '"' || c == '\\') json += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) json += c;
  }
  json += "\",\"computing\":" + std::string(app.views.heatmap.computing() ? "true" : "false");
  json += ",\"presentation\":" + std::string(p.presentation ? "true" : "false") +
          ",\"fullscreen\":" + std::string(app.state.fullscreen ? "true" : "false");
  json += ",\"notice_is_error\":" + std::string(app.state.notice.is_error ? "true" : "false") +
          ",\"link\":\"" + app.fragment + "\"}";
  rope_web_state(json.c_str());
}

void frame(void* arg) {
  WebApp& app = *static_cast<WebApp*>(arg);
  AppState& state = app.state;
  const double started = emscripten_get_now();
  int fb_w = 0, fb_h = 0;
  double ratio = 1.0;
  rope_web_canvas_size(&fb_w, &fb_h, &ratio);
  const double now = glfwGetTime();
  const double dt = now - app.last;
  app.last = now;
  update_presentation(state, static_cast<float>(fb_h / std::max(1.0, ratio)));
  state.keep_drawing = false;
  const float scale = static_cast<float>(state.params.ui_scale * std::max(1.0, ratio));
  app.ui.prepare(scale, state.params.theme);
  app.ui.backend_new_frame();
  ImGui_ImplGlfw_NewFrame();
  // The canvas's drawing buffer is sized here in device pixels (web_page.js), and the mouse
  // arrives in the same pixels; GLFW's own idea of the window's size is not used.
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(fb_w), static_cast<float>(fb_h));
  io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
  app.taps.before_frame(io);
  ImGui::NewFrame();
  advance_animation(state, dt);
  const FrameLayout layout =
      draw_frame(state, app.views, ViewEnv{&app.ui.fonts(), true, scale, nullptr});
  if (!state.saved) mark_saved(state);
  report_problem(state, app.ui.fonts().warning);  // on the console once, as in the window
  for (; app.problems_printed < state.problems.size(); ++app.problems_printed)
    std::fprintf(stderr, "rope-lab: warning: %s\n", state.problems[app.problems_printed].c_str());
  ImGui::Render();
  app.taps.after_frame(io);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fb_w, fb_h);
  clear_frame(state, layout, fb_w, fb_h);
  app.ui.render_draw_data();
  if (state.request_screenshot) {
    state.request_screenshot = false;
    download_screenshot(state, fb_w, fb_h);
  }
  if (auto& picture = app.views.export_dialog.page_picture) {
    const ExportDialog::PagePicture job = std::move(*picture);
    picture.reset();
    export_picture_in_page(state, job);
  }
  if (app.options.link_of) {
    if (std::string f = app.options.link_of(state.params); f != app.fragment) {
      app.fragment = std::move(f);
      rope_web_set_fragment(app.fragment.c_str());
    }
  }
  follow_full_screen(app);
  save_settings_if_changed(app);
  publish_state(app);
  rope_web_frame_drawn(emscripten_get_now() - started);
}

}  // namespace

// A session file the page read (picked in File > Open session, or dropped on the page): into
// the in-memory file system, then opened as the desktop opens a file (open_session: on a
// refusal the state stays as it was and the notice gives the reason).
extern "C" EMSCRIPTEN_KEEPALIVE void rope_web_file_opened(void* app_ptr, const char* name,
                                                          const char* text) {
  auto& app = *static_cast<WebApp*>(app_ptr);
  std::string file = name && *name ? name : "session.json";
  for (char& c : file)  // a name, never a path out of /tmp
    if (c == '/') c = '_';
  const std::string path = "/tmp/" + file;
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
      show_notice(app.state, "Session not opened: the page could not store it", true);
      return;
    }
    const std::string body = text ? text : "";
    std::fwrite(body.data(), 1, body.size(), f);
    std::fclose(f);
  }
  open_session(app.state, path);
  std::remove(path.c_str());
  // the notice names the file as the user knows it, not by the page's in-memory path
  std::string& notice = app.state.notice.text;
  for (std::size_t at; (at = notice.find(path)) != std::string::npos;)
    notice.replace(at, path.size(), file);
}

void load_web_settings(AppState& state) {
  const std::string theme = take_string(rope_web_storage_get(kThemeKey));
  const std::string scale = take_string(rope_web_storage_get(kScaleKey));
  // through the parameter table, as every value: a bad stored value is dropped with a notice
  if (!theme.empty())
    if (auto s = set_param(state.params, "theme", theme); !s)
      show_notice(state, "A stored setting was ignored: " + s.error().to_string(), true);
  if (!scale.empty())
    if (auto s = set_param(state.params, "ui_scale", scale); !s)
      show_notice(state, "A stored setting was ignored: " + s.error().to_string(), true);
}

int run_web_window(AppState& state, const WebOptions& options) {
  if (!glfwInit()) {
    rope_web_fail("GLFW could not start in this browser.");
    return kExitFailure;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  int w = 0, h = 0;
  double ratio = 1.0;
  rope_web_canvas_size(&w, &h, &ratio);
  GLFWwindow* window = glfwCreateWindow(w, h, "RoPE Lab", nullptr, nullptr);
  if (!window) {
    rope_web_fail(
        "This browser gives no WebGL 2 context, which RoPE Lab needs. Use a current Firefox, "
        "Chrome, Edge or Safari (15 or later) with hardware acceleration or WebGL turned on.");
    return kExitFailure;
  }
  glfwMakeContextCurrent(window);
  // Leaked on purpose: the page's frames use it until the tab closes.
  auto* app = new WebApp(state, options, window);
  glfwSetWindowUserPointer(window, app);
  glfwSetKeyCallback(window, [](GLFWwindow* win, int key, int, int action, int mods) {
    static_cast<WebApp*>(glfwGetWindowUserPointer(win))->taps.on_key(key, action, mods);
  });
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  glfwSetCharCallback(window, [](GLFWwindow* win, unsigned int c) {
    static_cast<WebApp*>(glfwGetWindowUserPointer(win))->taps.on_char(c);
  });
  if (!app->ui.fonts().warning.empty()) show_notice(state, app->ui.fonts().warning, true);
  app->saved_theme = state.params.theme;
  app->saved_scale = state.params.ui_scale;
  app->last = glfwGetTime();
  rope_web_install_drop(app);
  {  // the shortcut table's function keys and Ctrl keys: the app's, not the browser's
    std::vector<int> keys, with_ctrl;
    for (const ClaimedKey& k : browser_claimed_keys()) {
      keys.push_back(k.key);
      with_ctrl.push_back(k.ctrl ? 1 : 0);
    }
    rope_web_claim_keys(keys.data(), with_ctrl.data(), static_cast<int>(keys.size()));
  }
  emscripten_set_main_loop_arg(frame, app, 0, false);
  return kExitOk;
}

}  // namespace rope::app
