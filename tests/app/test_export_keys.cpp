// The export dialogs driven by the keyboard alone, headless, the way the window drives them: each
// key tapped between two frames through KeyTaps (shell/key_taps.h) with the character it types,
// as GLFW reports a quick tap. Ctrl + P, the dialog's single keys, Tab into the file name (the
// name is edited, not replaced), Enter to export; and the app's own keys do not act behind it.
#include <stb_image.h>
#include <catch2/catch.hpp>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "shell/frame.h"
#include "shell/key_taps.h"
#include "ui/ui_context.h"

using namespace rope::app;
namespace fs = std::filesystem;

namespace {

constexpr float kW = 800.0f, kH = 600.0f;  // px: the display of every frame

// Sets an environment variable while alive (the pictures folder the dialog proposes).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("rope-export-keys-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

struct KeyLab {
  UiContext ui{false};
  AppState state;
  Views views;
  KeyTaps taps;
  Params& p = state.params;

  KeyLab() {
    views.export_dialog.program = ROPE_LAB_BINARY;
    frames(2);
  }

  void frame() {
    ui.prepare(static_cast<float>(p.ui_scale), p.theme);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(kW, kH);
    io.DeltaTime = 1.0f / 60.0f;
    taps.before_frame(io);
    ImGui::NewFrame();
    advance_animation(state, io.DeltaTime);
    draw_frame(state, views, ViewEnv{&ui.fonts(), false, static_cast<float>(p.ui_scale)});
    ImGui::Render();
    taps.after_frame(io);
  }
  void frames(int n) {
    for (int i = 0; i < n; ++i)
      frame();
  }
  // A quick tap: press, its character (0: none), release, all before the next frame.
  void queue(int key, int mods = 0, unsigned int ch = 0) {
    taps.on_key(key, GLFW_PRESS, mods);
    if (ch != 0) taps.on_char(ch);
    taps.on_key(key, GLFW_RELEASE, mods);
  }
  // A tap, then enough frames for it and what it opens or focuses to settle.
  void tap(int key, int mods = 0, unsigned int ch = 0) {
    queue(key, mods, ch);
    frames(3);
  }
  void type(const std::string& text) {  // each character its own tap, between two frames
    for (char c : text) {
      int key = c == '-' ? GLFW_KEY_MINUS : c == '.' ? GLFW_KEY_PERIOD : 0;
      if (c >= 'a' && c <= 'z') key = GLFW_KEY_A + (c - 'a');
      if (c >= '0' && c <= '9') key = GLFW_KEY_0 + (c - '0');
      REQUIRE(key != 0);
      queue(key, 0, static_cast<unsigned char>(c));
      frame();
    }
    frame();
  }
  ExportSettings& settings() { return views.export_dialog.settings; }
};

std::string without_extension(const std::string& path) {
  return (fs::path(path).parent_path() / fs::path(path).stem()).string();
}

}  // namespace

TEST_CASE("the picture export from the keyboard alone: keys, Tab into the name, Enter",
          "[export][dialog][keys][gl]") {
  TempDir dir;
  const ScopedEnv pictures("XDG_PICTURES_DIR", dir.path.string());
  KeyLab lab;
  lab.p.dim = 8;
  lab.p.theme = Theme::light;
  lab.frames(2);
  lab.tap(GLFW_KEY_P, GLFW_MOD_CONTROL);
  REQUIRE(lab.state.export_dialog == AppState::ExportDialog::picture);
  const std::string proposed = lab.settings().path;
  REQUIRE_THAT(proposed, Catch::EndsWith(".png"));
  CHECK(fs::path(proposed).parent_path() == dir.path / "RoPE Lab");
  CHECK(lab.settings().scale == 1);
  CHECK_FALSE(lab.settings().canvas_only);
  CHECK_FALSE(lab.settings().transparent);

  // the dialog's keys, and the app's keys that must not act behind it
  const ViewId view = lab.p.view;
  const double m = lab.p.position;
  lab.tap(GLFW_KEY_4, 0, '4');
  CHECK(lab.settings().scale == 4);
  lab.tap(GLFW_KEY_A, 0, 'a');
  CHECK(lab.settings().canvas_only);
  lab.tap(GLFW_KEY_B, 0, 'b');
  CHECK(lab.settings().transparent);
  CHECK(lab.p.base == 10000.0);  // B is not the base here
  lab.tap(GLFW_KEY_3, 0, '3');   // a view key
  lab.tap(GLFW_KEY_RIGHT);
  lab.tap(GLFW_KEY_T, 0, 't');
  CHECK(lab.p.view == view);
  CHECK(lab.p.position == m);
  CHECK(lab.p.theme == Theme::light);
  CHECK(lab.state.export_dialog == AppState::ExportDialog::picture);

  // Tab into the file name: the cursor before ".png", nothing selected
  lab.tap(GLFW_KEY_TAB);
  REQUIRE(ImGui::GetIO().WantTextInput);
  lab.type("-keys");
  CHECK(lab.settings().path == without_extension(proposed) + "-keys.png");
  lab.tap(GLFW_KEY_4, 0, '4');  // in the field a digit is typed, not a resolution
  CHECK(lab.settings().path == without_extension(proposed) + "-keys4.png");
  lab.tap(GLFW_KEY_BACKSPACE);  // and Backspace edits, it does not restart anything
  CHECK(lab.settings().path == without_extension(proposed) + "-keys.png");
  CHECK(lab.settings().scale == 4);

  // what Enter would export: the command line of a 4x canvas-only transparent picture
  auto args = ExportDialog::arguments(lab.settings(), "s.json", ImVec2(kW, kH));
  REQUIRE(args.ok());
  CHECK(args.value() == std::vector<std::string>{"screenshot", "-o",
                                                 without_extension(proposed) + "-keys.png",
                                                 "--session", "s.json", "--size", "800x600",
                                                 "--scale", "4", "--canvas-only", "--transparent"});

  // a quick 1x export instead, with Enter from inside the field
  lab.tap(GLFW_KEY_ESCAPE);  // Esc in the field closes the dialog at once
  CHECK(lab.state.export_dialog == AppState::ExportDialog::none);
  lab.tap(GLFW_KEY_P, GLFW_MOD_CONTROL);
  REQUIRE(lab.state.export_dialog == AppState::ExportDialog::picture);
  CHECK(lab.settings().canvas_only);  // the choices stay for the next export
  lab.tap(GLFW_KEY_1, 0, '1');
  CHECK(lab.settings().scale == 1);
  lab.tap(GLFW_KEY_TAB);
  REQUIRE(ImGui::GetIO().WantTextInput);
  lab.type("-one");
  const std::string wanted = without_extension(lab.settings().path) + ".png";
  CHECK_THAT(wanted, Catch::EndsWith("-one.png"));
  lab.tap(GLFW_KEY_ENTER);
  REQUIRE(lab.views.export_dialog.job);
  for (int i = 0; i < 6000 && lab.views.export_dialog.job; ++i) {
    lab.frame();  // the dialog polls the child while it draws
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK_FALSE(lab.views.export_dialog.job);
  CHECK_FALSE(lab.state.notice.is_error);
  CHECK_THAT(lab.state.notice.text, Catch::Contains("-one.png"));
  int w = 0, h = 0, channels = 0;
  unsigned char* png = stbi_load(wanted.c_str(), &w, &h, &channels, 4);
  REQUIRE(png != nullptr);
  CHECK(w == static_cast<int>(kW));  // 1x
  CHECK(h == static_cast<int>(kH));
  CHECK(png[3] == 0);  // the canvas alone, see-through: no opaque menu bar at the top left
  stbi_image_free(png);
}

TEST_CASE("the animation dialog from the keyboard: G / M, Tab and Shift + Tab through its fields",
          "[export][dialog][keys]") {
  TempDir dir;
  const ScopedEnv pictures("XDG_PICTURES_DIR", dir.path.string());
  KeyLab lab;
  lab.p.position = 7.0;
  lab.tap(GLFW_KEY_M, GLFW_MOD_CONTROL);
  REQUIRE(lab.state.export_dialog == AppState::ExportDialog::animation);
  ExportSettings& s = lab.settings();
  CHECK(s.from == 7.0);
  CHECK(s.to == 23.0);
  lab.tap(GLFW_KEY_M, 0, 'm');
  CHECK(s.mp4);
  CHECK_THAT(s.path, Catch::EndsWith(".mp4"));
  lab.tap(GLFW_KEY_G, 0, 'g');
  CHECK_FALSE(s.mp4);
  CHECK_THAT(s.path, Catch::EndsWith(".gif"));
  lab.tap(GLFW_KEY_4, 0, '4');  // no 4x animation
  CHECK(s.scale == 1);
  lab.tap(GLFW_KEY_2, 0, '2');
  CHECK(s.scale == 2);
  lab.tap(GLFW_KEY_B, 0, 'b');  // no transparent animation
  CHECK_FALSE(s.transparent);

  // Tab: from (its number selected: typing replaces it), to, length, frames/s, the file
  lab.tap(GLFW_KEY_TAB);
  lab.type("0");
  lab.tap(GLFW_KEY_TAB);
  lab.type("3");
  lab.tap(GLFW_KEY_TAB);
  lab.type("2");
  CHECK(s.from == 0.0);
  CHECK(s.to == 3.0);
  CHECK(s.seconds == 2.0);
  lab.tap(GLFW_KEY_TAB);  // frames per second
  lab.type("5");
  lab.tap(GLFW_KEY_TAB);  // the file
  const std::string before = s.path;
  lab.type("-sweep");
  CHECK(s.path == without_extension(before) + "-sweep.gif");
  CHECK(s.fps == 5);
  lab.tap(GLFW_KEY_TAB, GLFW_MOD_SHIFT);  // back to frames per second
  lab.type("4");
  CHECK(s.fps == 4);
  // Shift + Tab three times more: length, to, from
  for (int i = 0; i < 3; ++i)
    lab.tap(GLFW_KEY_TAB, GLFW_MOD_SHIFT);
  lab.type("1");
  CHECK(s.from == 1.0);
  CHECK(s.to == 3.0);
  auto args = ExportDialog::arguments(s, "s.json", ImVec2(kW, kH));
  REQUIRE(args.ok());
  CHECK(args.value() == std::vector<std::string>{"animate", "-o", s.path, "--session", "s.json",
                                                 "--size", "800x600", "--scale", "2", "--from", "1",
                                                 "--to", "3", "--fps", "4", "--seconds", "2",
                                                 "--progress"});
  lab.tap(GLFW_KEY_ESCAPE);
  CHECK(lab.state.export_dialog == AppState::ExportDialog::none);
  CHECK(lab.p.position == 7.0);  // nothing typed moved m behind the dialog
}

TEST_CASE("a click in the file field still puts the cursor where it clicked",
          "[export][dialog][keys]") {
  TempDir dir;
  const ScopedEnv pictures("XDG_PICTURES_DIR", dir.path.string());
  KeyLab lab;
  lab.tap(GLFW_KEY_P, GLFW_MOD_CONTROL);
  const std::string proposed = lab.settings().path;
  // find the field: the mouse down the dialog's middle until ImGui reports a text field hovered
  ImGuiIO& io = ImGui::GetIO();
  bool found = false;
  for (float y = 0; y < kH && !found; y += 3) {
    io.MousePos = ImVec2(0.5f * kW, y);
    lab.frame();
    found = ImGui::GetMouseCursor() == ImGuiMouseCursor_TextInput;
  }
  REQUIRE(found);
  io.MouseDown[0] = true;
  lab.frame();
  io.MouseDown[0] = false;
  lab.frame();
  REQUIRE(io.WantTextInput);
  lab.type("x");
  // not before the extension: the click's place, which is somewhere in the path's middle
  CHECK(lab.settings().path != without_extension(proposed) + "x.png");
  CHECK(lab.settings().path.size() == proposed.size() + 1);
}

TEST_CASE("the animation dialog keys all tapped within one slow frame still land in order",
          "[export][dialog][keys]") {
  TempDir dir;
  const ScopedEnv pictures("XDG_PICTURES_DIR", dir.path.string());
  KeyLab lab;
  lab.p.position = 7.0;
  lab.queue(GLFW_KEY_M, GLFW_MOD_CONTROL);
  const auto key_of = [](char c) {
    if (c >= 'a' && c <= 'z') return GLFW_KEY_A + (c - 'a');
    if (c >= '0' && c <= '9') return GLFW_KEY_0 + (c - '0');
    return c == '-' ? GLFW_KEY_MINUS : c == '\t' ? GLFW_KEY_TAB : 0;
  };
  // M, G, 2, 1, then Tab 0 Tab 3 Tab 1 Tab 4 Tab -sweep: as the lecture test types them
  for (char c : std::string("mg21\t0\t3\t1\t4\t-sweep")) {
    const bool typed = c != '\t';
    lab.queue(key_of(c), 0, typed ? static_cast<unsigned char>(c) : 0u);
  }
  lab.frames(60);
  ExportSettings& s = lab.settings();
  CHECK(lab.state.export_dialog == AppState::ExportDialog::animation);
  CHECK_FALSE(s.mp4);
  CHECK(s.scale == 1);
  CHECK(s.from == 0.0);
  CHECK(s.to == 3.0);
  CHECK(s.seconds == 1.0);
  CHECK(s.fps == 4);
  CHECK_THAT(s.path, Catch::EndsWith("-sweep.gif"));
  CHECK(lab.p.position == 7.0);
}
