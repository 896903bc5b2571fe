// The pen, highlighter, eraser and laser (state/ink.h, shell/ink_layer.h): strokes drawn with the
// mouse headless as the window draws them, kept per page, undone, erased, saved in and restored
// from sessions exactly, and visible — or, with --no-ink, not — in a rendered picture.
#include <catch2/catch.hpp>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <stb_image.h>
#include <unistd.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "imgui_internal.h"  // the Ink window's place on screen
#include "shell/frame.h"
#include "shell/ink_layer.h"
#include "shell/presentation_bar.h"
#include "state/actions.h"
#include "state/session.h"
#include "ui/theme.h"
#include "view_harness.h"

using namespace rope::app;
using namespace rope::app::view_test;

template <>
struct Catch::StringMaker<InkPoint> {
  static std::string convert(const InkPoint& p) {
    return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")";
  }
};

namespace {

constexpr float kW = 1600.0f, kH = 900.0f;  // px, the display of every test here

// The app driven frame by frame with keys and the mouse, as shell/window.cpp drives it.
struct Lab {
  UiContext ui{false};
  AppState state;
  Views views;
  Params& p = state.params;

  Lab() { frames(2); }
  void frame() {
    update_presentation(state);
    ui.prepare(static_cast<float>(p.ui_scale), p.theme);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(kW, kH);
    io.DeltaTime = 1.0f / 60.0f;
    state.time += 1.0 / 60.0;
    ImGui::NewFrame();
    draw_frame(state, views, ViewEnv{&ui.fonts(), false, static_cast<float>(p.ui_scale)});
    ImGui::Render();
  }
  void frames(int n) {
    for (int i = 0; i < n; ++i)
      frame();
  }
  void press(int key, bool shift = false, bool ctrl = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[key] = true;
    io.KeyShift = shift;
    io.KeyCtrl = ctrl;
    frame();
    io.KeysDown[key] = false;
    io.KeyShift = io.KeyCtrl = false;
    frame();
  }
  // The ink area on screen: the Ink window's rectangle.
  ImRect area() {
    ImGuiWindow* w = ImGui::FindWindowByName("Ink");
    REQUIRE(w != nullptr);
    return ImRect(w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y));
  }
  // A point at fractions (fx, fy) of the ink area, on a whole pixel (ImGui floors the mouse).
  ImVec2 at(float fx, float fy) {
    const ImRect r = area();
    return ImVec2(std::floor(r.Min.x + fx * r.GetWidth()),
                  std::floor(r.Min.y + fy * r.GetHeight()));
  }
  // Where the screen point q is in ink units: its fraction of the area, rounded.
  InkPoint units(ImVec2 q) {
    const ImRect r = area();
    return InkPoint{static_cast<std::int32_t>(
                        std::lround(static_cast<double>((q.x - r.Min.x) / r.GetWidth()) * 10000.0)),
                    static_cast<std::int32_t>(std::lround(
                        static_cast<double>((q.y - r.Min.y) / r.GetHeight()) * 10000.0))};
  }
  // The left button pressed at the first point, moved through the others, released at the last.
  void drag(std::initializer_list<ImVec2> points) {
    ImGuiIO& io = ImGui::GetIO();
    bool first = true;
    for (ImVec2 q : points) {
      io.MousePos = q;
      io.MouseDown[0] = true;
      frame();
      if (first) frame();  // ImGui sees the press, then the first move
      first = false;
    }
    io.MouseDown[0] = false;
    frame();
    io.MousePos = kNoMouse;
    frame();
  }
};

InkStroke line_stroke(InkKind kind, InkColour colour, std::initializer_list<InkPoint> pts) {
  return InkStroke{kind, colour, std::vector<InkPoint>(pts)};
}

struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             ("rope-ink-" + std::to_string(::getpid()) + "-" + name)) {}
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

}  // namespace

TEST_CASE("ink is kept per page, erased near a point, and compared by content", "[ink]") {
  Ink ink;
  CHECK(ink.empty());
  ink.add("pointers", line_stroke(InkKind::pen, InkColour::red, {{0, 0}, {1000, 0}}));
  ink.add("pointers", line_stroke(InkKind::pen, InkColour::blue, {{0, 5000}, {1000, 5000}}));
  ink.add("decay", line_stroke(InkKind::highlighter, InkColour::red, {{200, 200}}));
  ink.add("decay", InkStroke{});  // no point: nothing added
  CHECK(ink.page_count() == 2);
  CHECK(ink.strokes("pointers").size() == 2);
  CHECK(ink.strokes("decay").size() == 1);
  CHECK(ink.strokes("heatmap").empty());

  // (500, 40) is 40 units from the first stroke and 4960 from the second
  const InkFrames units{};  // ink units as px
  CHECK(ink.erase_near("pointers", 500, 40, 39.0, units) == 0);
  CHECK(ink.erase_near("pointers", 500, 40, 41.0, units) == 1);
  REQUIRE(ink.strokes("pointers").size() == 1);
  CHECK(ink.strokes("pointers")[0]->colour == InkColour::blue);
  // scaled distances: x counts 2 px a unit, y 0.1 px; (1010, 5100) is 20 px and 10 px away
  InkFrames scaled{};
  scaled[0] = InkFrame{0, 0, 2.0 * kInkUnits, 0.1 * kInkUnits};
  CHECK(ink.erase_near("pointers", 2020, 500, 19.0, scaled) == 0);
  CHECK(ink.erase_near("pointers", 2000, 510, 11.0, scaled) == 1);
  CHECK(ink.strokes("pointers").empty());
  CHECK(ink.page_count() == 1);  // an emptied page is gone
  // a stroke is placed by its anchor's frame: (5000, 5000) of a view at (1000, 0), 500 px wide
  InkStroke dot = line_stroke(InkKind::pen, InkColour::red, {{5000, 5000}});
  dot.anchor = InkAnchor::view;
  ink.add("03-rope-2d/1", dot);
  InkFrames split{};
  split[static_cast<std::size_t>(InkAnchor::view)] = InkFrame{1000, 0, 500, 500};
  CHECK(ink.erase_near("03-rope-2d/1", 250, 250, 5.0, split) == 0);  // the lesson's spot
  CHECK(ink.erase_near("03-rope-2d/1", 1250, 250, 5.0, split) == 1);

  // equal content, different storage: equal; one point different: not
  Ink a, b;
  a.add("x", line_stroke(InkKind::pen, InkColour::green, {{1, 2}, {3, 4}}));
  b.add("x", line_stroke(InkKind::pen, InkColour::green, {{1, 2}, {3, 4}}));
  CHECK(a == b);
  Ink c = a;
  c.add("x", line_stroke(InkKind::pen, InkColour::green, {{1, 2}}));
  CHECK_FALSE(a == c);
  b.clear_page("x");
  CHECK(b.empty());

  // limits: a stroke longer than kMaxInkPoints is cut, a full page takes no more
  InkStroke long_stroke;
  long_stroke.points.assign(kMaxInkPoints + 5, InkPoint{7, 7});
  Ink big;
  big.add("p", long_stroke);
  CHECK(big.strokes("p")[0]->points.size() == kMaxInkPoints);
  for (std::size_t i = 1; i < kMaxInkStrokes + 3; ++i)
    big.add("p", line_stroke(InkKind::pen, InkColour::red, {{1, 1}}));
  CHECK(big.strokes("p").size() == kMaxInkStrokes);
}

TEST_CASE("a lesson step is a page of its own, a view is one page (per d where d moves it)",
          "[ink]") {
  Params p;
  p.view = ViewId::heatmap;
  CHECK(ink_page(p) == "heatmap");
  p.dim = 64;
  CHECK(ink_page(p) == "heatmap");  // its axes are positions: d does not move them
  // the pointers' dials move with d: what was drawn round dial 3 at d = 16 is not shown at 64
  p.view = ViewId::pointers;
  CHECK(ink_page(p) == "pointers@d64");
  p.dim = 16;
  CHECK(ink_page(p) == "pointers@d16");
  p.view = ViewId::derivation;
  p.lesson = "03-rope-2d";
  p.step = 2;
  CHECK(ink_page(p) == "03-rope-2d/2");
}

TEST_CASE("ink is saved in a session and restored exactly; sessions without it stay version 1",
          "[ink][session]") {
  Params p;
  CHECK_THAT(session_to_json(p), Catch::Contains("\"version\": 1"));
  CHECK_THAT(session_to_json(p), !Catch::Contains("\"ink\""));
  p.ink.add("pointers", line_stroke(InkKind::pen, InkColour::blue, {{0, 10000}, {2500, 7}}));
  p.ink.add("03-rope-2d/1", line_stroke(InkKind::highlighter, InkColour::red, {{9999, 1}}));
  InkStroke on_view = line_stroke(InkKind::pen, InkColour::green, {{-300, 5000}, {19000, 2}});
  on_view.anchor = InkAnchor::view;  // anchored to the step's view, past its left edge
  p.ink.add("03-rope-2d/1", on_view);
  // a page named by d, as ink_page names it now
  p.ink.add("pointers@d16", line_stroke(InkKind::pen, InkColour::red, {{1, 2}}));
  const std::string text = session_to_json(p);
  CHECK_THAT(text, Catch::Contains("\"anchor\": \"view\""));
  CHECK_THAT(text, Catch::Contains("\"version\": 2"));
  Params back;
  REQUIRE(session_from_json(text, back).ok());
  // a session written before pages were named by d: its "pointers" page is the session's d's
  // (16), after the stroke already there
  REQUIRE(back.ink.strokes("pointers").empty());
  REQUIRE(back.ink.strokes("pointers@d16").size() == 2);
  CHECK(back.ink.strokes("pointers@d16")[0]->points[0] == InkPoint{1, 2});
  CHECK(back.ink.strokes("pointers@d16")[1]->points[1] == InkPoint{2500, 7});
  // and a session of this build reads back as it was written
  p.ink.clear_page("pointers");
  p.ink.add("pointers@d16", line_stroke(InkKind::pen, InkColour::blue, {{0, 10000}, {2500, 7}}));
  Params again;
  REQUIRE(session_from_json(session_to_json(p), again).ok());
  CHECK(again.ink == p.ink);
  CHECK(again == p);
  CHECK(back.ink.strokes("03-rope-2d/1")[0]->kind == InkKind::highlighter);
  CHECK(back.ink.strokes("03-rope-2d/1")[0]->anchor == InkAnchor::area);
  CHECK(*back.ink.strokes("03-rope-2d/1")[1] == on_view);

  // a session without ink takes away the ink there was
  Params none;
  REQUIRE(session_from_json(session_to_json(Params{}), back).ok());
  CHECK(back.ink.empty());
  (void)none;
}

TEST_CASE("broken ink in a session is refused with what is allowed, the state unchanged",
          "[ink][session]") {
  const std::string head = R"({"format": "rope-lab-session", "version": 2, "params": {"dim": 8}, )";
  const std::pair<std::string, std::string> cases[] = {
      {R"("ink": [1, 2])", "must be an object of pages"},
      {R"("ink": {"pointers": {}})", "must be a list of strokes"},
      {R"("ink": {"pointers": [3]})", "stroke 1 must be an object"},
      {R"("ink": {"pointers": [{"kind": "chalk", "colour": "red", "points": [1, 2]}]})",
       "\"pen\" or \"highlighter\""},
      {R"("ink": {"pointers": [{"kind": "pen", "colour": "pink", "points": [1, 2]}]})",
       "\"red\", \"blue\", \"green\" or \"text\""},
      {R"("ink": {"pointers": [{"kind": "pen", "colour": "red", "points": [1, 2, 3]}]})",
       "x, y pairs"},
      {R"("ink": {"pointers": [{"kind": "pen", "colour": "red", "points": []}]})", "x, y pairs"},
      {R"("ink": {"pointers": [{"kind": "pen", "colour": "red", "points": [1, 10001]}]})",
       "integer from 0 to 10000"},
      {R"("ink": {"pointers": [{"kind": "pen", "colour": "red", "points": [0.5, 2]}]})",
       "integer from 0 to 10000"},
      {R"("ink": {"pointers": [{"kind": "pen", "colour": "red", "points": [-1, 2]}]})",
       "integer from 0 to 10000"},
      {R"("ink": {"pointers": [{"kind": "pen", "colour": "red", "points": [1, 2], "w": 3}]})",
       "unknown key \"w\""},
      {R"("ink": {"": []})", "1 to 200 characters"},
      {R"("ink": {"l/1": [{"kind": "pen", "colour": "red", "points": [1, 2], "anchor": "x"}]})",
       "\"anchor\" must be \"lesson\" or \"view\""},
      {R"("ink": {"l/1": [{"kind": "pen", "colour": "red", "points": [1, 2], "anchor": 1}]})",
       "\"anchor\" must be \"lesson\" or \"view\""},
      {R"("ink": {"l/1": [{"kind": "pen", "colour": "red", "points": [1, 20001],
                           "anchor": "view"}]})",
       "integer from -10000 to 20000"},
  };
  for (const auto& [ink, message] : cases) {
    INFO(ink);
    Params p;
    p.dim = 32;
    p.ink.add("decay", line_stroke(InkKind::pen, InkColour::red, {{5, 5}}));
    const Params before = p;
    const auto s = session_from_json(head + ink + "}", p);
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.error().message, Catch::Contains(message));
    CHECK(p == before);
  }
}

TEST_CASE("the pen draws a stroke with the mouse, over the views, one undo step", "[ink][app]") {
  Lab lab;
  const double m = lab.p.position, n = lab.p.key_position;
  lab.press(GLFW_KEY_W);
  CHECK(lab.state.ink_tool == AppState::InkTool::pen);
  const ImVec2 a = lab.at(0.2f, 0.5f), b = lab.at(0.5f, 0.5f), c = lab.at(0.8f, 0.6f);
  lab.drag({a, b, c});
  const auto& strokes = lab.p.ink.strokes(ink_page(lab.p));
  REQUIRE(strokes.size() == 1);
  const InkStroke& s = *strokes[0];
  CHECK(s.kind == InkKind::pen);
  CHECK(s.colour == InkColour::red);
  REQUIRE(s.points.size() == 3);
  CHECK(s.points.front() == lab.units(a));
  CHECK(s.points[1] == lab.units(b));
  CHECK(s.points.back() == lab.units(c));
  CHECK(std::abs(s.points.back().x - 8000) <= 12);  // within a pixel: 1 px is 8 or 11 units
  CHECK(std::abs(s.points.back().y - 6000) <= 12);
  CHECK(lab.p.position == m);  // the views under the pen did not move
  CHECK(lab.p.key_position == n);

  // the next colour, a second stroke; Ctrl+Z takes it back, Ctrl+Shift+Z brings it again
  lab.press(GLFW_KEY_W, /*shift=*/true);
  CHECK(lab.state.ink_colour == InkColour::blue);
  lab.drag({lab.at(0.3f, 0.2f), lab.at(0.4f, 0.2f)});
  REQUIRE(lab.p.ink.strokes(ink_page(lab.p)).size() == 2);
  CHECK(lab.p.ink.strokes(ink_page(lab.p))[1]->colour == InkColour::blue);
  lab.press(GLFW_KEY_Z, false, /*ctrl=*/true);
  CHECK(lab.p.ink.strokes(ink_page(lab.p)).size() == 1);
  lab.press(GLFW_KEY_Z, true, true);
  CHECK(lab.p.ink.strokes(ink_page(lab.p)).size() == 2);

  // another view is another page; coming back shows the strokes again
  lab.press(GLFW_KEY_3);
  CHECK(lab.p.view != ViewId::pointers);
  CHECK(lab.p.ink.strokes(ink_page(lab.p)).empty());
  lab.press(GLFW_KEY_1);
  CHECK(lab.p.ink.strokes(ink_page(lab.p)).size() == 2);

  // the eraser takes the stroke it is dragged over, and only that one
  lab.press(GLFW_KEY_X);
  CHECK(lab.state.ink_tool == AppState::InkTool::eraser);
  lab.drag({lab.at(0.35f, 0.21f)});
  REQUIRE(lab.p.ink.strokes(ink_page(lab.p)).size() == 1);
  CHECK(lab.p.ink.strokes(ink_page(lab.p))[0]->colour == InkColour::red);
  // Delete clears the page; Ctrl+Z brings it back
  lab.press(GLFW_KEY_DELETE);
  CHECK(lab.p.ink.empty());
  lab.press(GLFW_KEY_Z, false, true);
  CHECK(lab.p.ink.strokes(ink_page(lab.p)).size() == 1);

  // Esc puts the tool down before it leaves presentation mode; the same key again too
  lab.p.presentation = true;
  lab.press(GLFW_KEY_ESCAPE);
  CHECK(lab.state.ink_tool == AppState::InkTool::none);
  CHECK(lab.p.presentation);
  lab.press(GLFW_KEY_L);
  CHECK(lab.state.ink_tool == AppState::InkTool::laser);
  lab.press(GLFW_KEY_L);
  CHECK(lab.state.ink_tool == AppState::InkTool::none);
}

// A stroke on a lesson step is anchored to the part it begins in: drawn at the centre of the
// step's view, it is still there when F9 hides the control panel (the lesson gets wider, the
// view moves and narrows); the eraser at the view's new centre finds it. Anchored to the whole
// area, it would be 150 px away.
TEST_CASE("a stroke on a lesson step stays over its panel when the layout changes", "[ink][app]") {
  Lab lab;
  lab.p.view = ViewId::derivation;
  lab.p.lesson = "03-rope-2d";
  lab.p.step = 1;
  lab.frames(2);
  const auto canvas = [] {
    ImGuiWindow* w = ImGui::FindWindowByName("Canvas");
    REQUIRE(w != nullptr);
    return ImRect(w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y));
  };
  const ImRect before = canvas();
  lab.press(GLFW_KEY_W);
  const ImVec2 centre(std::floor(before.GetCenter().x), std::floor(before.GetCenter().y));
  lab.drag({centre, ImVec2(centre.x + 1.0f, centre.y)});
  const auto& strokes = lab.p.ink.strokes("03-rope-2d/1");
  REQUIRE(strokes.size() == 1);
  CHECK(strokes[0]->anchor == InkAnchor::view);
  CHECK(std::abs(strokes[0]->points[0].x - 5000) <= 20);
  CHECK(std::abs(strokes[0]->points[0].y - 5000) <= 20);
  // a stroke begun on the lesson's text is the lesson's
  lab.drag({lab.at(0.1f, 0.5f), lab.at(0.12f, 0.5f)});
  REQUIRE(lab.p.ink.strokes("03-rope-2d/1").size() == 2);
  CHECK(lab.p.ink.strokes("03-rope-2d/1")[1]->anchor == InkAnchor::lesson);

  lab.press(GLFW_KEY_F9);  // the control panel goes: every panel moves
  const ImRect after = canvas();
  REQUIRE(after.Min.x < before.Min.x - 100.0f);
  lab.press(GLFW_KEY_X);
  const ImVec2 moved(std::floor(after.GetCenter().x), std::floor(after.GetCenter().y));
  lab.drag({moved});
  REQUIRE(lab.p.ink.strokes("03-rope-2d/1").size() == 1);
  CHECK(lab.p.ink.strokes("03-rope-2d/1")[0]->anchor == InkAnchor::lesson);
}

TEST_CASE("without a tool the mouse works the views; the laser leaves nothing behind",
          "[ink][app]") {
  Lab lab;
  lab.drag({lab.at(0.2f, 0.5f), lab.at(0.6f, 0.5f)});
  CHECK(lab.p.ink.empty());
  lab.press(GLFW_KEY_L);
  lab.drag({lab.at(0.2f, 0.5f), lab.at(0.6f, 0.5f), lab.at(0.6f, 0.7f)});
  CHECK(lab.p.ink.empty());
  CHECK_FALSE(lab.views.ink.drawing().has_value());
}

TEST_CASE("pen strokes are in the picture, restored from a saved session, left out with --no-ink",
          "[ink][gl]") {
  auto app = offscreen_app(1600, 900);
  AppState state;
  set(state.params, "dim", "8");
  // a horizontal red stroke across the middle of the ink area, a blue one below it
  state.params.ink.add(ink_page(state.params),
                       line_stroke(InkKind::pen, InkColour::red, {{1000, 5000}, {9000, 5000}}));
  state.params.ink.add(ink_page(state.params),
                       line_stroke(InkKind::pen, InkColour::blue, {{1000, 8000}, {9000, 8000}}));
  const Image img = app->render(state, 3);
  ImGuiWindow* w = ImGui::FindWindowByName("Ink");
  REQUIRE(w != nullptr);
  const auto px = [&](float fx, float fy) {
    return ImVec2(w->Pos.x + fx * w->Size.x, w->Pos.y + fy * w->Size.y);
  };
  const auto red = rgb(pen_colour(InkColour::red, state.params.theme));
  const auto blue = rgb(pen_colour(InkColour::blue, state.params.theme));
  for (float fx : {0.15f, 0.5f, 0.85f}) {
    const ImVec2 r = px(fx, 0.5f), b = px(fx, 0.8f);
    check_colour(pixel(img, static_cast<int>(r.x), static_cast<int>(r.y)), red, 3);
    check_colour(pixel(img, static_cast<int>(b.x), static_cast<int>(b.y)), blue, 3);
  }

  // saved, loaded into a fresh state, drawn again: the same pixels
  TempFile session("session.json");
  REQUIRE(save_session(session.path, state.params).ok());
  AppState again;
  REQUIRE(load_session(session.path, again.params).ok());
  CHECK(again.params.ink == state.params.ink);
  const Image img2 = app->render(again, 3);
  const ImVec2 mid = px(0.5f, 0.5f);
  check_colour(pixel(img2, static_cast<int>(mid.x), static_cast<int>(mid.y)), red, 3);

  // the command line: with the strokes, and without them
  TempFile with("with.png"), without("without.png");
  for (const auto& [file, extra] : {std::pair{&with, ""}, std::pair{&without, " --no-ink"}}) {
    const std::string cmd = std::string(ROPE_LAB_BINARY) + " screenshot --size 1600x900 -o '" +
                            file->path.string() + "' --session '" + session.path.string() + "'" +
                            extra + " > /dev/null";
    REQUIRE(std::system(cmd.c_str()) == 0);
  }
  int width = 0, height = 0, channels = 0;
  unsigned char* a = stbi_load(with.path.c_str(), &width, &height, &channels, 4);
  REQUIRE(a != nullptr);
  Image with_img{width, height, std::vector<std::uint8_t>(a, a + width * height * 4)};
  stbi_image_free(a);
  unsigned char* b = stbi_load(without.path.c_str(), &width, &height, &channels, 4);
  REQUIRE(b != nullptr);
  Image without_img{width, height, std::vector<std::uint8_t>(b, b + width * height * 4)};
  stbi_image_free(b);
  check_colour(pixel(with_img, static_cast<int>(mid.x), static_cast<int>(mid.y)), red, 3);
  CHECK(distance(pixel(without_img, static_cast<int>(mid.x), static_cast<int>(mid.y)), red) > 60);
}

TEST_CASE("quitting with unsaved changes asks first; display changes are not work to save",
          "[app][quit]") {
  Lab lab;
  // nothing marked saved (tests, offscreen): Ctrl+Q quits at once
  lab.press(GLFW_KEY_Q, false, true);
  CHECK(lab.state.request_quit);
  lab.state.request_quit = false;

  mark_saved(lab.state);
  lab.press(GLFW_KEY_T);  // theme, presentation: the room's display, not the lecture's state
  lab.press(GLFW_KEY_F5);
  CHECK_FALSE(unsaved_changes(lab.state));
  lab.press(GLFW_KEY_F5);

  lab.press(GLFW_KEY_D);  // d x 2: a change
  CHECK(unsaved_changes(lab.state));
  lab.press(GLFW_KEY_Q, false, true);
  CHECK_FALSE(lab.state.request_quit);
  CHECK(lab.state.confirm_quit);
  lab.press(GLFW_KEY_ESCAPE);  // cancel
  CHECK_FALSE(lab.state.confirm_quit);
  CHECK_FALSE(lab.state.request_quit);
  lab.press(GLFW_KEY_Q, false, true);
  lab.press(GLFW_KEY_Q, false, true);  // asked, then Ctrl+Q again: quit without saving
  CHECK(lab.state.request_quit);
}

TEST_CASE("Save, then quit: Enter in the question, Enter in the session dialog, then quit",
          "[app][quit][session]") {
  TempFile file("quit-session.json");
  Lab lab;
  mark_saved(lab.state);
  lab.state.session_path = file.path.string();
  lab.press(GLFW_KEY_W);
  lab.drag({lab.at(0.2f, 0.4f), lab.at(0.7f, 0.4f)});
  lab.press(GLFW_KEY_ESCAPE);  // the pen down
  REQUIRE(unsaved_changes(lab.state));
  lab.press(GLFW_KEY_Q, false, true);
  REQUIRE(lab.state.confirm_quit);
  lab.press(GLFW_KEY_ENTER);
  CHECK(lab.state.session_dialog == AppState::SessionDialog::save);
  CHECK_FALSE(lab.state.request_quit);
  lab.frames(2);
  lab.press(GLFW_KEY_ENTER);  // the path field has the keyboard: Enter saves
  CHECK(lab.state.request_quit);
  CHECK_FALSE(unsaved_changes(lab.state));
  Params back;
  REQUIRE(load_session(file.path, back).ok());
  CHECK(back.ink == lab.p.ink);
  CHECK(back.ink.strokes(ink_page(back)).size() == 1);
}

TEST_CASE("a position the animation left between integers is saved with six decimals",
          "[session]") {
  Params p;
  p.position = 465.11047331627805;
  p.key_position = -3.0000004;
  const std::string text = session_to_json(p);
  CHECK_THAT(text, Catch::Contains("\"position\": 465.110473,"));
  CHECK_THAT(text, Catch::Contains("\"key_position\": -3,"));
  Params back;
  REQUIRE(session_from_json(text, back).ok());
  CHECK(back.position == 465.110473);
}

TEST_CASE("F12's picture leaves out a confirmation notice, not an error", "[app][notice]") {
  Lab lab;
  const auto notice_vertices = [&](bool error, bool capture) {
    show_notice(lab.state, "Screenshot saved: /tmp/x.png", error);
    lab.state.request_screenshot = capture;
    lab.frame();
    // draw_notice paints on the foreground draw list, and nothing else in this frame does
    return ImGui::GetForegroundDrawList()->VtxBuffer.Size;
  };
  CHECK(notice_vertices(false, false) > 0);
  CHECK(notice_vertices(false, true) == 0);
  CHECK(notice_vertices(true, true) > 0);
  lab.state.request_screenshot = false;
}

TEST_CASE("projected, a notice sits on the presentation bar, not over the plot's axis labels",
          "[app][notice]") {
  Lab lab;
  lab.p.presentation = true;
  lab.frames(2);
  const auto notice_top = [&](const std::string& text) {
    show_notice(lab.state, text, false);
    lab.frame();
    const ImVector<ImDrawVert>& vb = ImGui::GetForegroundDrawList()->VtxBuffer;
    REQUIRE(vb.Size > 0);
    float top = FLT_MAX;
    for (const ImDrawVert& v : vb)
      top = std::min(top, v.pos.y);
    return top;
  };
  const ViewEnv env{&lab.ui.fonts(), false, static_cast<float>(lab.p.ui_scale)};
  const float bar_top = ImGui::GetIO().DisplaySize.y - PresentationBar::height(env);
  CHECK(notice_top("Screenshot saved: /tmp/x.png") >= bar_top);
  // a notice taller than the bar goes back over the canvas, whole
  std::string three_lines;
  for (int i = 0; i < 40; ++i)
    three_lines += "refused ";
  const float tall = notice_top(three_lines);
  CHECK(tall < bar_top);
  CHECK(tall >= 0.0f);
  lab.p.presentation = false;
  lab.frames(2);
  CHECK(notice_top("Screenshot saved: /tmp/x.png") < ImGui::GetIO().DisplaySize.y);
}
