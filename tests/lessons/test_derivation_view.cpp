// The derivation view: every lesson step drawn headless in both themes, the step's view keeping
// its text inside its half of the canvas (and the equations inside the lesson panel) on a
// 1920 x 1080 screen and a 1280 x 720 projector, windowed and in presentation mode, the keys
// that step through a lesson, a broken lesson folder and a missing math font shown in place,
// and an offscreen render checked for typeset equations and a green check mark.
#include <catch2/catch.hpp>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "lessons/model_quantities.h"
#include "shell/frame.h"
#include "shell/offscreen_app.h"
#include "state/params.h"
#include "ui/theme.h"
#include "ui/ui_context.h"

using namespace rope::app;

namespace {

void run_frames(UiContext& ui, AppState& state, Views& views, int frames,
                ImVec2 display = ImVec2(1600, 900)) {
  for (int f = 0; f < frames; ++f) {
    update_presentation(state);
    ui.prepare(static_cast<float>(state.params.ui_scale), state.params.theme);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = display;
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    advance_animation(state, 1.0 / 60.0);
    draw_frame(state, views,
               ViewEnv{&ui.fonts(), false, static_cast<float>(state.params.ui_scale)});
    ImGui::Render();
  }
}

// The derivation view at step `index` (from 0) of lesson `id`, in the window or presenting.
AppState at_step(const std::string& id, std::size_t index, bool presentation) {
  AppState state;
  state.params.view = ViewId::derivation;
  state.params.lesson = id;
  state.params.step = static_cast<int>(index) + 1;
  state.params.presentation = presentation;
  return state;
}

// The text a view drew in its last Draw (nullptr for a view that does not record it).
const DrawnText* drawn_text(Views& views, ViewId id) {
  return views.visit(id, [](auto& view) -> const DrawnText* {
    if constexpr (requires { view.drawn(); }) {  // the view skeleton's accessor
      return &view.drawn();
    } else if constexpr (requires { view.drawn; }) {
      return &view.drawn;
    } else {
      return nullptr;
    }
  });
}

// Problems of the recorded text: a line outside the canvas, two lines on top of each other.
std::vector<std::string> text_problems(const DrawnText& d) {
  std::vector<std::string> out;
  const float slack = 1.0f;  // px: rounding of positions
  for (const TextBox& b : d.boxes) {
    if (b.min.x < d.canvas_min.x - slack || b.min.y < d.canvas_min.y - slack ||
        b.max.x > d.canvas_max.x + slack || b.max.y > d.canvas_max.y + slack) {
      std::ostringstream os;
      os << "outside the canvas: '" << b.text << "' at (" << b.min.x << ", " << b.min.y << ") - ("
         << b.max.x << ", " << b.max.y << "), canvas (" << d.canvas_min.x << ", " << d.canvas_min.y
         << ") - (" << d.canvas_max.x << ", " << d.canvas_max.y << ")";
      out.push_back(os.str());
    }
  }
  for (std::size_t i = 0; i < d.boxes.size(); ++i)
    for (std::size_t j = i + 1; j < d.boxes.size(); ++j) {
      const TextBox& a = d.boxes[i];
      const TextBox& b = d.boxes[j];
      const float w = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
      const float h = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
      if (w > slack && h > slack) out.push_back("'" + a.text + "' overlaps '" + b.text + "'");
    }
  return out;
}

void press(UiContext& ui, AppState& state, Views& views, int key) {
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[key] = true;
  run_frames(ui, state, views, 1);
  io.KeysDown[key] = false;
  run_frames(ui, state, views, 1);
}

// Ink in a box of an RGBA image, measured so that typeset glyphs pass and filled rectangles (the
// headless fallback's box per glyph, a texture that failed to upload, a stray panel) do not:
// glyphs are thin strokes, so most of their ink pixels touch the background, and a row through
// a line of text crosses from background into ink many times.
struct GlyphInk {
  int area = 0;       // pixels in the box
  int rows = 0;       // rows of the box
  int pixels = 0;     // ink: further than `tolerance` from the background in some channel
  int edges = 0;      // ink pixels with a background pixel among their 4 neighbours
  int crossings = 0;  // background -> ink steps along the rows
  // Text-like: some ink but not a filled box, mostly edges, and at least 4 strokes crossed per
  // row of the box on average.
  bool glyph_like() const {
    return pixels > area / 100 && pixels < area / 2 && 2 * edges > pixels && crossings > 4 * rows;
  }
};

GlyphInk measure_ink(const Image& img, ImVec2 box_min, ImVec2 box_max,
                     std::array<int, 3> background, int tolerance) {
  const auto is_ink = [&](int x, int y) {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return false;
    const auto i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                    static_cast<std::size_t>(x)) *
                   4;
    for (int c = 0; c < 3; ++c)
      if (std::abs(img.rgba[i + static_cast<std::size_t>(c)] -
                   background[static_cast<std::size_t>(c)]) > tolerance)
        return true;
    return false;
  };
  GlyphInk k;
  const int x0 = std::max(0, static_cast<int>(box_min.x)),
            x1 = std::min(img.width, static_cast<int>(box_max.x));
  const int y0 = std::max(0, static_cast<int>(box_min.y)),
            y1 = std::min(img.height, static_cast<int>(box_max.y));
  for (int y = y0; y < y1; ++y) {
    ++k.rows;
    for (int x = x0; x < x1; ++x) {
      ++k.area;
      if (!is_ink(x, y)) continue;
      ++k.pixels;
      if (!is_ink(x - 1, y) || !is_ink(x + 1, y) || !is_ink(x, y - 1) || !is_ink(x, y + 1))
        ++k.edges;
      if (x > x0 && !is_ink(x - 1, y)) ++k.crossings;
    }
  }
  return k;
}

// Sets an environment variable for the lifetime of the object.
struct ScopedEnv {
  std::string name;
  ScopedEnv(const char* n, const char* value) : name(n) { setenv(n, value, 1); }
  ~ScopedEnv() { unsetenv(name.c_str()); }
};

}  // namespace

TEST_CASE("every step of every lesson draws headless with equations and passing checks",
          "[lessons][headless]") {
  UiContext ui(false);
  for (Theme theme : {Theme::dark, Theme::light}) {
    Views views;
    const auto& lessons = views.library.lessons();
    REQUIRE(lessons.size() == 17);
    for (const auto& l : lessons) {
      for (std::size_t s = 0; s < l.lesson.steps.size(); ++s) {
        AppState state;
        state.params.view = ViewId::derivation;
        state.params.theme = theme;
        state.params.lesson = l.lesson.id;
        state.params.step = static_cast<int>(s) + 1;
        state.reveal_all = true;  // as pictures show a step: its answer out
        run_frames(ui, state, views, 2);
        INFO(l.lesson.id << " step " << s + 1 << " theme " << theme_name(theme));
        const auto& step = l.lesson.steps[s];
        const auto equations = std::count_if(step.blocks.begin(), step.blocks.end(), [](auto& b) {
          return b.kind == rope::lessons::Block::Kind::equation;
        });
        CHECK(views.library.current_index(state.params) >= 0);
        CHECK(views.derivation.results().equation_errors == 0);
        if (views.derivation.font_error().empty())
          CHECK(views.derivation.results().equations_drawn == equations);
        CHECK(views.derivation.results().marks.size() == step.checks.size());
        for (const auto& m : views.derivation.results().marks)
          CHECK(m.passed);
      }
    }
  }
}

// A lecture from the first step of lesson 1 to the last of lesson 12, in the window and in
// presentation mode (light theme, UI scale 1.5, no control panel), on a 1920 x 1080 screen and a
// 1280 x 720 projector: the step's view, in the narrow half beside the lesson, keeps all of its
// text inside its canvas and never draws two lines of text on top of each other.
TEST_CASE("every lesson step's view keeps its text inside the canvas and apart",
          "[lessons][headless][layout]") {
  UiContext ui(false);
  Views views;
  const auto& lessons = views.library.lessons();
  REQUIRE(lessons.size() == 17);
  int checked = 0;
  for (const ImVec2 display : {ImVec2(1920, 1080), ImVec2(1280, 720)}) {
    for (const bool presentation : {false, true}) {
      for (const auto& l : lessons) {
        for (std::size_t s = 0; s < l.lesson.steps.size(); ++s) {
          AppState state = at_step(l.lesson.id, s, presentation);
          run_frames(ui, state, views, 2, display);
          const DrawnText* d = drawn_text(views, state.params.show_view);
          INFO(l.lesson.id << " step " << s + 1 << ", " << display.x << " x " << display.y
                           << (presentation ? ", presentation" : ", window") << ": "
                           << view_name(state.params.show_view) << " view");
          REQUIRE(d != nullptr);
          CHECK_FALSE(d->boxes.empty());
          const auto problems = text_problems(*d);
          INFO(Catch::Detail::stringify(problems));
          CHECK(problems.empty());
          // every display equation fits the lesson panel (shrunk at most to 55 %), none is
          // clipped at its right edge, where the step's view begins (the panel's padding is 20 px)
          if (views.derivation.font_error().empty()) {
            const auto pad = static_cast<float>(20.0 * state.params.ui_scale);
            CHECK(views.derivation.results().equations_max.x <= d->canvas_min.x - pad + 1.0f);
          }
          // every word and inline formula of the prose inside the step's text column, which
          // ends before the step's view begins
          const auto& r = views.derivation.results();
          CHECK_FALSE(r.prose.empty());
          CHECK(r.panel_max_x <= d->canvas_min.x);
          for (const auto& piece : r.prose) {
            INFO("prose '" << piece.text << "' x " << piece.min.x << " - " << piece.max.x);
            CHECK(piece.min.x >= r.panel_min_x - 1.0f);
            CHECK(piece.max.x <= r.panel_max_x + 1.0f);
          }
          ++checked;
        }
      }
    }
  }
  CHECK(checked == 4 * 81);
}

// In front of a class nothing may hide below a scroll bar: on a 1280 x 720 projector in
// presentation mode, in a 1280 x 720 window with the control panel hidden (F9) and in a
// 1920 x 1080 window with it, every step fits its panel once the shrink factor has settled (the
// lesson panel measures each frame and bisects; 30 frames is well past the ~8 it takes). In a
// 1280 x 720 window with the control panel beside it, some steps at 60 % still scroll; that is
// reported.
TEST_CASE("every lesson step fits a 1280 x 720 projector in presentation mode",
          "[lessons][headless][layout][presentation]") {
  UiContext ui(false);
  Views views;
  enum class Mode { presentation, window_without_panel, window_1080, window };
  int checked = 0, window_scrolls = 0;
  for (const Mode mode :
       {Mode::presentation, Mode::window_without_panel, Mode::window_1080, Mode::window}) {
    for (const auto& l : views.library.lessons()) {
      for (std::size_t s = 0; s < l.lesson.steps.size(); ++s) {
        AppState state = at_step(l.lesson.id, s, mode == Mode::presentation);
        update_presentation(state, 720.0f);  // the scale a 720-line projector gets (1x)
        if (mode == Mode::window_without_panel) state.show_controls = false;
        // a 1920 x 1080 window with the control panel: the lecturer's own screen
        const ImVec2 display = mode == Mode::window_1080 ? ImVec2(1920, 1080) : ImVec2(1280, 720);
        run_frames(ui, state, views, 30, display);
        INFO(l.lesson.id << " step " << s + 1 << " mode " << static_cast<int>(mode) << ": "
                         << views.derivation.overflow() << " px over at "
                         << views.derivation.fit());
        CHECK_FALSE(views.derivation.settling());
        if (mode != Mode::window) {
          CHECK(views.derivation.overflow() <= 1.0f);
          ++checked;
        } else if (views.derivation.overflow() > 1.0f) {
          CHECK(views.derivation.fit() == DerivationView::kMinFitWindow);  // shrunk all it may
          ++window_scrolls;
        }
      }
    }
  }
  CHECK(checked == 3 * 81);
  WARN("in the window at 1280 x 720 with the control panel, " << window_scrolls
                                                              << " of 81 steps scroll at 60 %");
}

// Readable from the back row (issue 29 §5): every piece of text the lesson panel draws for every
// step, revealed, measured at the size it was drawn at once the shrink factor has settled (the
// em of its smallest glyph after the step was shrunk to fit and a wide formula shrunk to its
// width: DerivationView::Results::sizes), on two screens:
//  - a 1920 x 1080 projector in presentation mode (UI scale 1.5): at least 14 px;
//  - a 1280 x 720 window with the control panel beside the lesson (scale 1): at least 12 px.
// The bound holds for sub- and superscripts too, not only for the base size: the index in θ_i
// or the exponent of base^{-2i/d} is as much of the formula as the letter it sits on, and a
// class that cannot read it cannot follow the step. Latin Modern Math draws a first-level
// script at 70 % of its formula and a second-level one (θ_i in e^{imθ_i}) at 50 %, so a formula
// whose smallest glyph must reach 14 px needs a base of 20 px (28 px with nested scripts). The
// lesson panel draws equations at 45 px and checks at 36 px on the 1080 projector, so the
// bound leaves room for the shrink factor; the lesson panel draws scripts at least 12 px x the UI
// scale whatever the shrink (DerivationView::kMinScriptPx), so a script is 18 px there and 12 px
// in the window. A formula wider than the panel is drawn smaller (down to 55 %) rather than
// clipped; on the projector that may take at most 15 % off (review D8: a line at 55 % of its
// neighbours): a longer formula is split or shortened in the lesson file instead.
TEST_CASE("every lesson step's text is drawn large enough to read from the back row",
          "[lessons][headless][layout][glyphs]") {
  UiContext ui(false);
  Views views;
  struct Room {
    const char* name;
    ImVec2 display;
    bool presentation;
    float least_px;       // em of the smallest glyph allowed
    float least_squeeze;  // the smallest a formula may be drawn for its width, of its size
  };
  const Room rooms[] = {
      {"1920 x 1080, presentation", ImVec2(1920, 1080), true, 14.0f, 0.85f},
      {"1280 x 720, window with the control panel", ImVec2(1280, 720), false, 12.0f, 0.0f}};
  using Kind = DerivationView::TextKind;
  const auto kind_name = [](Kind k) {
    switch (k) {
      case Kind::title:
        return "title";
      case Kind::prose:
        return "prose";
      case Kind::prose_math:
        return "inline math";
      case Kind::equation:
        return "equation";
      case Kind::check:
        return "check";
    }
    return "?";
  };
  int steps = 0;
  for (const Room& room : rooms) {
    std::vector<std::string> scrolling;  // steps that still scroll in this room
    for (const auto& l : views.library.lessons()) {
      for (std::size_t s = 0; s < l.lesson.steps.size(); ++s) {
        AppState state = at_step(l.lesson.id, s, room.presentation);
        state.reveal_all = true;  // the answer out: the most a step shows
        update_presentation(state, room.display.y);
        for (int frames = 0; frames < 40; frames += 4) {  // until the shrink factor settles
          run_frames(ui, state, views, 4, room.display);
          if (!views.derivation.settling()) break;
        }
        const std::string where = l.lesson.id + " step " + std::to_string(s + 1);
        INFO(where << ", " << room.name << ", shrunk to " << views.derivation.fit());
        CHECK_FALSE(views.derivation.settling());
        const auto& sizes = views.derivation.results().sizes;
        // something of every kind the step has was measured: title, prose and checks at least
        CHECK(std::count_if(sizes.begin(), sizes.end(),
                            [](const auto& t) { return t.kind == Kind::title; }) >= 1);
        CHECK(std::count_if(sizes.begin(), sizes.end(), [](const auto& t) {
                return t.kind == Kind::check;
              }) >= (l.lesson.steps[s].checks.empty() ? 0 : 1));
        float least = 1e9f;
        for (const auto& t : sizes) {
          if (t.em_px <= 0.0f) continue;  // a formula of rules only (none in the lessons)
          least = std::min(least, t.em_px);
          INFO(kind_name(t.kind) << " '" << t.text << "' drawn at " << t.em_px << " px");
          CHECK(t.em_px >= room.least_px);
          CHECK(t.squeezed >= room.least_squeeze);
          if (t.squeezed < 1.0f && std::getenv("ROPE_LAB_GLYPH_REPORT") != nullptr)
            WARN("squeezed " << where << " | " << room.name << " | " << t.squeezed << " | "
                             << t.text);
        }
        if (std::getenv("ROPE_LAB_GLYPH_REPORT") != nullptr)  // the table in the commit message
          WARN(where << " | " << room.name << " | smallest " << least << " px | fit "
                     << views.derivation.fit() << " | overflow " << views.derivation.overflow());
        if (views.derivation.overflow() > 1.0f) scrolling.push_back(where);
        ++steps;
      }
    }
    INFO(room.name << ": " << scrolling.size()
                   << " steps scroll: " << Catch::Detail::stringify(scrolling));
    // on the projector nothing scrolls; in the window at 1280 x 720 few steps do, once shrunk to
    // kMinFitWindow (on 2026-11-29: 13-5 alone, of 73; before the larger check heading, split
    // equations and the window's own least factor: 16)
    if (room.presentation)
      CHECK(scrolling.empty());
    else
      CHECK(scrolling.size() <= 3);
    WARN(room.name << ": " << scrolling.size()
                   << " steps scroll: " << Catch::Detail::stringify(scrolling));
  }
  CHECK(steps == 2 * 81);
}

TEST_CASE("arrow and page keys step the lesson in the derivation view only", "[lessons][keys]") {
  UiContext ui(false);
  AppState state;
  Views views;
  state.params.view = ViewId::derivation;
  state.params.lesson = "rope-2d";
  run_frames(ui, state, views, 2);
  CHECK(state.params.step == 1);
  CHECK(state.params.dim == 2);  // step 1's state was applied
  CHECK(state.params.show_view == ViewId::pointers);
  const double m = state.params.position;
  press(ui, state, views, GLFW_KEY_RIGHT);
  CHECK(state.params.step == 2);
  CHECK(state.params.position == m);  // the arrow stepped the lesson, not the position
  press(ui, state, views, GLFW_KEY_PAGE_DOWN);
  CHECK(state.params.step == 3);
  const auto& lessons = views.library.lessons();
  const auto index = static_cast<std::size_t>(views.library.current_index(state.params));
  const std::string this_id = lessons.at(index).lesson.id;
  press(ui, state, views, GLFW_KEY_RIGHT);  // past the last step: on into the next lesson
  if (index + 1 < lessons.size()) {
    CHECK(state.params.lesson == lessons[index + 1].lesson.id);
    CHECK(state.params.step == 1);
    press(ui, state, views, GLFW_KEY_LEFT);  // and back to this one's last step
  }
  CHECK(state.params.lesson == this_id);
  CHECK(state.params.step == 3);
  press(ui, state, views, GLFW_KEY_HOME);
  CHECK(state.params.step == 1);
  press(ui, state, views, GLFW_KEY_END);
  CHECK(state.params.step == 3);
  press(ui, state, views, GLFW_KEY_LEFT);
  CHECK(state.params.step == 2);
  press(ui, state, views, GLFW_KEY_PAGE_UP);
  CHECK(state.params.step == 1);
  // moving a slider after entering keeps the value until the step changes
  state.params.position = 42;
  run_frames(ui, state, views, 1);
  CHECK(state.params.position == 42);
  // in another view the arrows move the position again
  state.params.view = ViewId::pointers;
  press(ui, state, views, GLFW_KEY_RIGHT);
  CHECK(state.params.position == 43);
  CHECK(state.params.step == 1);
}

TEST_CASE("a broken lesson folder, an unknown lesson and a missing font never crash",
          "[lessons][headless]") {
  UiContext ui(false);
  {
    ScopedEnv env("ROPE_LAB_LESSONS", ROPE_TEST_BROKEN_DIR);
    Views views;
    for (const auto& l : views.library.lessons()) {
      for (int step = 1; step <= 3; ++step) {
        AppState state;
        state.params.view = ViewId::derivation;
        state.params.lesson = l.lesson.id;
        state.params.step = step;
        run_frames(ui, state, views, 2);
        CHECK_FALSE(l.problems.empty());
      }
    }
  }
  {
    AppState state;
    Views views;
    state.params.view = ViewId::derivation;
    state.params.lesson = "no-such-lesson";
    run_frames(ui, state, views, 2);
    CHECK(views.library.current_index(state.params) == -1);
  }
  {
    ScopedEnv env("ROPE_LAB_MATH_FONT", "/no/such/font.otf");
    AppState state;
    Views views;
    state.params.view = ViewId::derivation;
    state.params.lesson = "general-d";
    run_frames(ui, state, views, 2);
    CHECK_FALSE(views.derivation.font_error().empty());
    CHECK(views.derivation.results().marks.size() == 1);  // the checks still run
  }
}

TEST_CASE("offscreen: typeset equations and a green check mark on screen", "[lessons][gl]") {
  auto created = OffscreenApp::create(1600, 900, 1.0f);
  if (!created) {  // ctest marks the test skipped on this line (SKIP_REGULAR_EXPRESSION)
    WARN("SKIPPED: no offscreen OpenGL: " << created.error().message);
    return;
  }
  OffscreenApp& app = *created.value();
  for (Theme theme : {Theme::dark, Theme::light}) {
    AppState state;
    state.params.view = ViewId::derivation;
    state.params.lesson = "03-rope-2d";
    state.params.step = 2;
    state.params.theme = theme;
    const Image img = app.render(state, 3);
    const DerivationView& v = app.views().derivation;
    const DerivationView::Results& r = v.results();
    INFO("theme " << theme_name(theme));
    REQUIRE(v.font_error().empty());
    REQUIRE(r.equations_drawn == 2);
    REQUIRE(r.marks.size() == 1);
    const Palette& pal = palette(theme);
    const auto rgb = [&](int x, int y) {
      const auto i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                      static_cast<std::size_t>(x)) *
                     4;
      return std::array<int, 3>{img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]};
    };
    const auto unpack = [](ImU32 c) {
      return std::array<int, 3>{static_cast<int>(c & 0xFF), static_cast<int>((c >> 8) & 0xFF),
                                static_cast<int>((c >> 16) & 0xFF)};
    };
    const auto near = [](std::array<int, 3> a, std::array<int, 3> b, int tol) {
      return std::abs(a[0] - b[0]) <= tol && std::abs(a[1] - b[1]) <= tol &&
             std::abs(a[2] - b[2]) <= tol;
    };
    // the equations: glyph-like ink (strokes, not filled boxes) inside their box
    const GlyphInk ink = measure_ink(img, r.equations_min, r.equations_max, unpack(pal.canvas), 40);
    INFO("equation box: " << ink.area << " px, " << ink.pixels << " ink, " << ink.edges
                          << " on edges, " << ink.crossings << " crossings over " << ink.rows
                          << " rows");
    CHECK(ink.area > 20000);
    CHECK(ink.glyph_like());
    // the check mark: pixels of the theme's "good" colour around its centre
    const auto good = unpack(pal.good);
    int green = 0;
    const ImVec2 c = r.marks[0].centre;
    for (int y = static_cast<int>(c.y) - 16; y <= static_cast<int>(c.y) + 16; ++y)
      for (int x = static_cast<int>(c.x) - 16; x <= static_cast<int>(c.x) + 16; ++x)
        if (near(rgb(x, y), good, 24)) ++green;
    CHECK(green > 20);
  }
}

TEST_CASE("the ink measure passes strokes and fails filled boxes", "[lessons]") {
  // a 300 x 100 white image; `paint` fills a rectangle black
  const auto blank = [] {
    Image img;
    img.width = 300;
    img.height = 100;
    img.rgba.assign(300 * 100 * 4, 255);
    return img;
  };
  const auto paint = [](Image& img, int x0, int y0, int x1, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x)
        for (int c = 0; c < 3; ++c)
          img.rgba[(static_cast<std::size_t>(y) * 300 + static_cast<std::size_t>(x)) * 4 +
                   static_cast<std::size_t>(c)] = 0;
  };
  const std::array<int, 3> white{255, 255, 255};
  const ImVec2 a(0, 0), b(300, 100);
  Image strokes = blank();  // 2 px stems every 7 px, cut by a 2 px gap every 10 rows
  for (int x = 5; x + 2 < 295; x += 7)
    for (int y = 10; y < 90; y += 10)
      paint(strokes, x, y, x + 2, y + 8);
  const GlyphInk s = measure_ink(strokes, a, b, white, 40);
  INFO("strokes: " << s.pixels << " ink, " << s.edges << " edges, " << s.crossings << " crossings");
  CHECK(s.glyph_like());
  Image solid = blank();  // one filled box
  paint(solid, 20, 20, 280, 80);
  CHECK_FALSE(measure_ink(solid, a, b, white, 40).glyph_like());
  Image boxes = blank();  // a box per glyph, as drawn without GL: 13 x 18 px, 5 px apart
  for (int x = 5; x + 13 < 295; x += 18)
    paint(boxes, x, 40, x + 13, 58);
  CHECK_FALSE(measure_ink(boxes, a, b, white, 40).glyph_like());
  CHECK_FALSE(measure_ink(blank(), a, b, white, 40).glyph_like());
}

TEST_CASE("presentation mode scales the UI with the screen's height", "[lessons][presentation]") {
  CHECK(presentation_scale(720.0f) == 1.0);
  CHECK(presentation_scale(768.0f) == 1.0);
  CHECK(presentation_scale(900.0f) == 1.25);
  CHECK(presentation_scale(1080.0f) == 1.5);
  CHECK(presentation_scale(1440.0f) == 2.0);
  CHECK(presentation_scale(2160.0f) == 3.0);
  CHECK(presentation_scale(4320.0f) == 3.0);  // at most 3
  CHECK(presentation_scale(480.0f) == 1.0);   // at least 1
  CHECK(presentation_scale(0.0f) == 1.5);     // unknown screen: as on 1080 lines
  AppState state;
  state.params.presentation = true;
  update_presentation(state, 1440.0f);
  CHECK(state.params.ui_scale == 2.0);
  state.params.presentation = false;
  update_presentation(state, 1440.0f);
  CHECK(state.params.ui_scale == 1.0);
  state.params.ui_scale = 2.5;  // a larger scale of the lecturer's own is kept
  state.params.presentation = true;
  update_presentation(state, 1080.0f);
  CHECK(state.params.ui_scale == 2.5);
}

TEST_CASE("a lesson step taller than its panel is drawn smaller until it fits",
          "[lessons][presentation]") {
  UiContext ui(false);
  AppState state;
  Views views;
  state.params.view = ViewId::derivation;
  state.params.lesson = "rope-2d";
  state.params.step = 2;
  state.params.presentation = true;
  run_frames(ui, state, views, 6, ImVec2(1600, 900));
  REQUIRE(views.library.step_count(state.params) == 3);
  // at a 1.5x UI on 900 lines this step's prose, two equations and its check do not fit whole
  CHECK(views.derivation.fit() < 1.0f);
  CHECK(views.derivation.fit() >= DerivationView::kMinFit);
  const float shrunk = views.derivation.fit();
  state.params.presentation = false;  // a roomier panel: the factor is found again
  run_frames(ui, state, views, 6, ImVec2(1600, 900));
  CHECK(views.derivation.fit() > shrunk);
}

// Lesson 13 steps 4 and 5 quote (R_m q)·(R_n k) from lessons/model_quantities.h; the pointers'
// read-out beside them must show the same number. Step 5 is DeepSeek-V3 under YaRN (s = 40):
// the pointers turn at θ′ and multiply by a² (a = 1 there: mscale = mscale_all_dim), and the
// lesson's RoPE part uses the same θ′.
TEST_CASE("lesson 13's RoPE scores equal the pointers' read-out, θ′ under YaRN included",
          "[lessons][headless][models]") {
  UiContext ui(false);
  Views views;
  struct Step {
    std::vector<std::pair<const char*, const char*>> show;
    const char* quantity;
  };
  const Step steps[] = {{{{"model", "pythia-6.9b"},
                          {"dim", "16"},
                          {"rotary_fraction", "0.25"},
                          {"query", "random"},
                          {"key", "random"}},
                         "effective_score"},
                        {{{"model", "deepseek-v3"},
                          {"query", "random"},
                          {"key", "random"},
                          {"position", "3"},
                          {"key_position", "10"}},
                         "mla_rope_score"}};
  for (const Step& st : steps) {
    AppState state;
    for (const auto& [name, value] : st.show)
      REQUIRE(set_param(state.params, name, value).ok());
    state.params.view = ViewId::pointers;
    run_frames(ui, state, views, 2);
    const Params& p = state.params;
    const auto q = effective_vector(p.query, p, false);
    const auto k = effective_vector(p.key, p, true);
    const auto v = rope::lessons::model_quantity(p, q, k, st.quantity);
    REQUIRE(v.has_value());
    REQUIRE(v->ok());
    INFO(st.quantity << " with scaling " << find_param("scaling")->get(p));
    CHECK(views.pointers.score() == Approx(v->value().at(0)).epsilon(1e-12));
    CHECK(views.pointers.relative() == Approx(v->value().at(0)).epsilon(1e-12));
  }
}

// `assumes:` (issue 29): a step whose prose holds only at the values it names draws nothing
// extra at those values, and says what it assumes under its title once one is changed.
TEST_CASE("a step that assumes values says so once the lecturer changes one",
          "[lessons][headless][assumes]") {
  UiContext ui(false);
  Views views;
  AppState state = at_step("10-precision", 3, false);  // fp16, d = 32, m = 1857
  run_frames(ui, state, views, 2);
  REQUIRE(views.library.current_index(state.params) >= 0);
  REQUIRE_FALSE(views.library.current(state.params)->lesson.steps[3].assumes.empty());
  CHECK(views.derivation.results().assumption.empty());
  REQUIRE(set_param(state.params, "dim", "64").ok());
  REQUIRE(set_param(state.params, "position", "20000").ok());
  run_frames(ui, state, views, 2);
  CHECK(views.derivation.results().assumption ==
        "This step assumes d = 32 (now 64), m = 1857 (now 20 000).");
  // the line is drawn as text of the step: the first prose piece comes below it
  state = at_step("10-precision", 3, false);
  run_frames(ui, state, views, 2);
  CHECK(views.derivation.results().assumption.empty());
}
