// tests/app/view_harness.h — what the view tests share: setting a parameter that must be
// accepted, drawing frames without GL (the whole frame, or one view alone in a window), the text
// a view recorded (inside its canvas, no two lines overlapping), and colour probes of an
// offscreen render. One copy, so that every test draws and measures the same way.
//
// Usage:
//   using namespace rope::app::view_test;
//   UiContext ui(false);
//   AppState state;
//   DecayView view;
//   set(state.params, "dim", "64");
//   draw_alone(ui, state, view, ImVec2(1540, 1000));          // mouse off the window
//   check_text_fits(view.drawn());
//   CHECK(has_text(view.drawn(), "D(r)"));
//   check_colour(pixel(img, x, y), rgb(want), 3);             // each channel within 3 of 255
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

#include "export/png.h"
#include "imgui.h"
#include "shell/frame.h"
#include "shell/offscreen_app.h"
#include "state/actions.h"
#include "state/app_state.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/ui_context.h"
#include "ui/view_env.h"

namespace rope::app::view_test {

// [SECTION] parameters and frames

// A parameter the test relies on: REQUIREd to be accepted, the name and value reported if not.
inline void set(Params& p, const std::string& name, const std::string& value) {
  INFO(name << " = " << value);
  REQUIRE(set_param(p, name, value).ok());
}

// Several parameters in the order given, each as set() above.
inline void set_all(Params& p,
                    std::initializer_list<std::pair<const char*, const char*>> name_values) {
  for (const auto& [name, value] : name_values)
    set(p, name, value);
}

// An offscreen application of w x h px at scale 1 (REQUIREd to be created).
inline std::unique_ptr<OffscreenApp> offscreen_app(int w, int h) {
  auto created = OffscreenApp::create(w, h, 1.0f);
  REQUIRE(created.ok());
  return std::move(created).value();
}

// One whole frame (menu, panel, the current view) at 1600 x 900 px, 1/60 s after the last.
inline void run_frame(UiContext& ui, AppState& state, Views& views) {
  ui.prepare(static_cast<float>(state.params.ui_scale), state.params.theme);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(1600, 900);
  io.DeltaTime = 1.0f / 60.0f;
  ImGui::NewFrame();
  advance_animation(state, 1.0 / 60.0);
  draw_frame(state, views, ViewEnv{&ui.fonts(), false, static_cast<float>(state.params.ui_scale)});
  ImGui::Render();
}

inline void run_frames(UiContext& ui, AppState& state, Views& views, int frames) {
  for (int f = 0; f < frames; ++f)
    run_frame(ui, state, views);
}

// The canvases a lecture uses: the window's canvas (the control panel takes 400 px) and
// presentation mode (no panel, the bar at the bottom, UI scale 1.5 at 1080 lines and 1 at 720)
// on 1920 x 1080 and 1280 x 720, and the step's half of the derivation view.
struct Area {
  ImVec2 size;  // px
  double scale;
};
inline const Area kLectureCanvases[] = {{ImVec2(1520, 1050), 1.0}, {ImVec2(880, 690), 1.0},
                                        {ImVec2(1920, 1020), 1.5}, {ImVec2(1280, 680), 1.0},
                                        {ImVec2(920, 990), 1.5},   {ImVec2(615, 630), 1.5}};

// Where the mouse is when a test does not point at anything: far outside every window.
inline const ImVec2 kNoMouse{-1e4f, -1e4f};

// Draws one view alone in a window of `size` px at (40, 30) for two frames (a new window draws
// nothing on its first), at the state's UI scale and theme, with the mouse at `mouse`.
template <class View>
void draw_alone(UiContext& ui, AppState& state, View& view, ImVec2 size, ImVec2 mouse = kNoMouse) {
  const auto scale = static_cast<float>(state.params.ui_scale);
  for (int f = 0; f < 2; ++f) {
    ui.prepare(scale, state.params.theme);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(size.x + 80, size.y + 60);
    io.DeltaTime = 1.0f / 60.0f;
    io.MousePos = mouse;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(40, 30));
    ImGui::SetNextWindowSize(size);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::Begin("alone", nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                     ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings);
    if constexpr (requires { view.Draw(state, ViewEnv{}); })
      view.Draw(state, ViewEnv{&ui.fonts(), false, scale});
    else  // the derivation view draws from the lesson library (tests/lessons/)
      FAIL("draw_alone draws the views that need nothing but the state");
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::Render();
  }
}

// [SECTION] recorded text

// A line of text on screen containing `part`, no-break spaces (ui/canvas.h's nobreak) read as
// spaces.
inline bool has_text(const DrawnText& d, const std::string& part) {
  return std::any_of(d.boxes.begin(), d.boxes.end(), [&](const TextBox& b) {
    std::string t = b.text;
    for (std::size_t at; (at = t.find("\u00a0")) != std::string::npos;)
      t.replace(at, 2, " ");
    return t.find(part) != std::string::npos;
  });
}

// A line of text on screen containing `part` byte for byte (a no-break space is not a space).
inline bool has_exact_text(const DrawnText& d, const std::string& part) {
  return std::any_of(d.boxes.begin(), d.boxes.end(),
                     [&](const TextBox& b) { return b.text.find(part) != std::string::npos; });
}

// Whether text shows a NaN: "NaN" (the label style) or printf's "nan" as a word of its own.
inline bool shows_nan(const std::string& text) {
  if (text.find("NaN") != std::string::npos) return true;
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  for (std::size_t i = text.find("nan"); i != std::string::npos; i = text.find("nan", i + 1))
    if ((i == 0 || !letter(text[i - 1])) && (i + 3 >= text.size() || !letter(text[i + 3])))
      return true;
  return false;
}

// Inside the canvas, with 1 px of slack for rounding.
inline bool inside(const TextBox& b, const DrawnText& d) {
  return b.min.x >= d.canvas_min.x - 1 && b.min.y >= d.canvas_min.y - 1 &&
         b.max.x <= d.canvas_max.x + 1 && b.max.y <= d.canvas_max.y + 1;
}

// Sharing more than 1 px in both directions.
inline bool overlap(const TextBox& a, const TextBox& b) {
  return std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x) > 1 &&
         std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y) > 1;
}

// Some text recorded, every line inside the canvas, none on top of another.
inline void check_text_fits(const DrawnText& d) {
  REQUIRE_FALSE(d.boxes.empty());
  for (const TextBox& b : d.boxes) {
    INFO("'" << b.text << "' at x " << b.min.x << " … " << b.max.x << ", y " << b.min.y << " … "
             << b.max.y << "; canvas x " << d.canvas_min.x << " … " << d.canvas_max.x << ", y "
             << d.canvas_min.y << " … " << d.canvas_max.y);
    CHECK(b.min.x >= d.canvas_min.x - 1);
    CHECK(b.min.y >= d.canvas_min.y - 1);
    CHECK(b.max.x <= d.canvas_max.x + 1);
    CHECK(b.max.y <= d.canvas_max.y + 1);
  }
  for (std::size_t i = 0; i < d.boxes.size(); ++i)
    for (std::size_t j = i + 1; j < d.boxes.size(); ++j) {
      INFO("'" << d.boxes[i].text << "' and '" << d.boxes[j].text << "'");
      CHECK_FALSE(overlap(d.boxes[i], d.boxes[j]));
    }
}

// The text a view drew in its last Draw: its drawn() accessor (the view skeleton), or its drawn
// field; nullptr for a view that does not record it.
template <class View>
const DrawnText* drawn_text(const View& view) {
  if constexpr (requires { view.drawn(); }) {
    return &view.drawn();
  } else if constexpr (requires { view.drawn; }) {
    return &view.drawn;
  } else {
    return nullptr;
  }
}

// [SECTION] colours of a rendered image

struct Rgb {
  int r, g, b;  // 0 ... 255
};

// The pixel at (x, y), top row 0 (Image is RGBA, rows top to bottom).
inline Rgb pixel(const Image& img, int x, int y) {
  const auto i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                  static_cast<std::size_t>(x)) *
                 4;
  return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]};
}

// A colour of 0 ... 1 channels as 8-bit channels, rounded to nearest.
inline Rgb rgb(const ImVec4& c) {
  return {static_cast<int>(c.x * 255.0f + 0.5f), static_cast<int>(c.y * 255.0f + 0.5f),
          static_cast<int>(c.z * 255.0f + 0.5f)};
}

// An ImGui colour (IM_COL32: red in the low byte).
inline Rgb rgb(ImU32 c) {
  return {static_cast<int>(c & 0xFF), static_cast<int>((c >> 8) & 0xFF),
          static_cast<int>((c >> 16) & 0xFF)};
}

// Every channel within `tolerance` of the wanted one.
inline bool near_colour(const Rgb& got, const Rgb& want, int tolerance) {
  return std::abs(got.r - want.r) <= tolerance && std::abs(got.g - want.g) <= tolerance &&
         std::abs(got.b - want.b) <= tolerance;
}

// The sum of the three channels' differences.
inline int distance(const Rgb& a, const Rgb& b) {
  return std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b);
}

// near_colour(), one CHECK per channel so that a failure names the channel.
inline void check_colour(const Rgb& got, const Rgb& want, int tolerance) {
  INFO("got (" << got.r << ", " << got.g << ", " << got.b << "), want (" << want.r << ", " << want.g
               << ", " << want.b << ") within " << tolerance);
  CHECK(std::abs(got.r - want.r) <= tolerance);
  CHECK(std::abs(got.g - want.g) <= tolerance);
  CHECK(std::abs(got.b - want.b) <= tolerance);
}

}  // namespace rope::app::view_test
