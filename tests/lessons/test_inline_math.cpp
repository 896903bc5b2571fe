// Inline math ($...$ in prose) and digit control ({{name:5}}, {{name:.3}}) in lessons: the loader
// splits and checks them (positions of every problem), the derivation view typesets the formula
// with the value at the digits asked for, and lays it out on the prose's baseline inside the
// panel, at 1920 x 1080 and 1280 x 720, windowed and in presentation mode; offscreen, the ink of
// the typeset digits stands on the same pixel row as the ink of the words beside them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "export/png.h"
#include "lessons/lesson.h"
#include "rope/typeset/math_font.h"
#include "shell/frame.h"
#include "shell/offscreen_app.h"
#include "state/params.h"
#include "ui/theme.h"
#include "ui/ui_context.h"

using namespace rope::app;
using rope::lessons::ProseSpan;

namespace {

struct ScopedEnv {
  std::string name;
  ScopedEnv(const char* n, const char* value) : name(n) { setenv(n, value, 1); }
  ~ScopedEnv() { unsetenv(name.c_str()); }
};

std::vector<std::string> messages(const rope::lessons::LoadedLesson& l) {
  std::vector<std::string> out;
  for (const auto& p : l.problems)
    out.push_back(p.to_string());
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

void run_frames(UiContext& ui, AppState& state, Views& views, int frames, ImVec2 display) {
  for (int f = 0; f < frames; ++f) {
    update_presentation(state, display.y);
    ui.prepare(static_cast<float>(state.params.ui_scale), state.params.theme);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = display;
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw_frame(state, views,
               ViewEnv{&ui.fonts(), false, static_cast<float>(state.params.ui_scale)});
    ImGui::Render();
  }
}

// The glyph ids of `text` in the math font, one per character (digits and '.').
std::vector<std::uint32_t> glyph_ids(const rope::typeset::MathFont& font, std::string_view text) {
  std::vector<std::uint32_t> out;
  for (char c : text)
    out.push_back(font.glyph_for(static_cast<char32_t>(c)));
  return out;
}

bool contains_run(const std::vector<std::uint32_t>& hay, const std::vector<std::uint32_t>& run) {
  return std::search(hay.begin(), hay.end(), run.begin(), run.end()) != hay.end();
}

// Layout problems of the prose pieces of a step: outside the panel's column, pieces of one line
// reaching into another line, a formula that does not straddle its line's baseline.
std::vector<std::string> prose_problems(const DerivationView::Results& r) {
  std::vector<std::string> out;
  const float slack = 1.0f;
  for (const auto& p : r.prose) {
    if (p.min.x < r.panel_min_x - slack || p.max.x > r.panel_max_x + slack)
      out.push_back("outside the panel: '" + p.text + "' x " + std::to_string(p.min.x) + " - " +
                    std::to_string(p.max.x) + ", panel " + std::to_string(r.panel_min_x) + " - " +
                    std::to_string(r.panel_max_x));
    if (p.math && !(p.min.y < p.baseline && p.max.y >= p.baseline))
      out.push_back("formula off its baseline: '" + p.text + "'");
  }
  for (const auto& a : r.prose)
    for (const auto& b : r.prose) {
      if (a.baseline >= b.baseline) continue;  // a's line is above b's
      if (a.max.y > b.min.y + slack)
        out.push_back("'" + a.text + "' (line at " + std::to_string(a.baseline) + ") reaches '" +
                      b.text + "' (line at " + std::to_string(b.baseline) + ")");
    }
  return out;
}

// The word without descenders next to a formula on its line ("is" or "at" in the test lesson).
using Pieces = std::vector<DerivationView::ProsePiece>;
Pieces::const_iterator beside(const Pieces& pieces, Pieces::const_iterator formula) {
  for (auto it = pieces.begin(); it != pieces.end(); ++it)
    if (!it->math && it->baseline == formula->baseline && (it->text == "is" || it->text == "at"))
      return it;
  return pieces.end();
}

}  // namespace

TEST_CASE("inline math: $...$ splits prose, \\$ is a dollar, offsets point into the text",
          "[lessons][inline]") {
  using rope::lessons::split_inline_math;
  const auto s = split_inline_math("is $\\theta_3 = {{theta.3:5}}$, costs \\$5");
  REQUIRE(s.problems.empty());
  REQUIRE(s.spans.size() == 3);
  CHECK((s.spans[0].kind == ProseSpan::Kind::text && s.spans[0].text == "is "));
  CHECK(
      (s.spans[1].kind == ProseSpan::Kind::math && s.spans[1].text == "\\theta_3 = {{theta.3:5}}"));
  CHECK(s.spans[1].offset == 4);
  CHECK((s.spans[2].kind == ProseSpan::Kind::text && s.spans[2].text == ", costs $5"));
  CHECK(s.spans[2].offset == 29);
  // a \$ inside math does not close it; an unclosed $ keeps the rest as text
  const auto t = split_inline_math("a $x \\$ y$ b $c");
  REQUIRE(t.spans.size() == 3);
  CHECK(t.spans[1].text == "x \\$ y");
  CHECK(t.spans[2].text == " b $c");
  REQUIRE(t.problems.size() == 1);
  CHECK(t.problems[0].first == 13);
  const auto e = split_inline_math("two $ $ dollars");
  REQUIRE(e.problems.size() == 1);
  CHECK(e.problems[0].second.starts_with("empty inline math"));
  CHECK(split_inline_math("no math").spans.size() == 1);
  CHECK(split_inline_math("").spans.empty());
}

TEST_CASE("inline math and digits: the test lesson loads clean, problems have positions",
          "[lessons][inline]") {
  const auto good = rope::lessons::load_lesson_file(ROPE_TEST_GOOD_DIR "/01-inline-math.lesson");
  INFO(Catch::Detail::stringify(messages(good)));
  CHECK(good.problems.empty());
  REQUIRE(good.lesson.steps.size() == 2);

  const auto digits =
      messages(rope::lessons::load_lesson_file(ROPE_TEST_BROKEN_DIR "/live-digits.lesson"));
  INFO(Catch::Detail::stringify(digits));
  const std::string allowed =
      ":...}} must be N for N significant digits (1 to 17) or .N for N digits after the decimal "
      "point (0 to 17), got ";
  const std::string f = ROPE_TEST_BROKEN_DIR "/live-digits.lesson:";
  CHECK(has(digits, f + "4:25: digits of {{theta.3" + allowed + "''"));
  CHECK(has(digits, f + "4:40: digits of {{theta.3" + allowed + "'x'"));
  CHECK(has(digits, f + "5:17: digits of {{theta.3" + allowed + "'0'"));
  CHECK(has(digits, f + "5:35: digits of {{theta.3" + allowed + "'18'"));
  CHECK(has(digits, f + "5:51: digits of {{theta.3" + allowed + "'.18'"));
  CHECK(has(digits, f + "5:63: unknown live value {{nosuch}} (see assets/lessons/FORMAT.md)"));
  CHECK(digits.size() == 6);

  const auto inl = messages(rope::lessons::load_lesson_file(ROPE_TEST_BROKEN_DIR "/inline.lesson"));
  INFO(Catch::Detail::stringify(inl));
  const std::string g = ROPE_TEST_BROKEN_DIR "/inline.lesson:";
  CHECK(has(inl, g + "3:22: TeX: unknown command \\foo"));
  CHECK(has(inl, g + "3:41: empty inline math (write \\$ for a dollar sign)"));
  CHECK(has(inl, g + "4:37: digits of {{theta.3" + allowed + "'x'"));
  CHECK(has(inl, g + "4:59: inline math opened here is not closed with $ (write \\$ for a "
                     "dollar sign)"));
  CHECK(inl.size() == 4);
}

TEST_CASE("inline math: θ₃ = 0.42170 typeset on the prose line, inside the panel",
          "[lessons][inline][headless]") {
  ScopedEnv env("ROPE_LAB_LESSONS", ROPE_TEST_GOOD_DIR);
  UiContext ui(false);
  Views views;
  const auto font = rope::typeset::MathFont::load(rope::typeset::MathFont::kDefaultPath);
  int checked = 0;
  for (const ImVec2 display : {ImVec2(1920, 1080), ImVec2(1280, 720)}) {
    for (const bool presentation : {false, true}) {
      for (int step : {1, 2}) {
        AppState state;
        state.params.view = ViewId::derivation;
        state.params.lesson = "inline-math";
        state.params.step = step;
        state.params.presentation = presentation;
        run_frames(ui, state, views, 3, display);
        const DerivationView::Results& r = views.derivation.results();
        INFO("step " << step << ", " << display.x << " x " << display.y
                     << (presentation ? ", presentation" : ", window"));
        REQUIRE(views.derivation.font_error().empty());
        CHECK(r.equation_errors == 0);
        const auto math =
            std::count_if(r.prose.begin(), r.prose.end(), [](const auto& p) { return p.math; });
        CHECK(math == (step == 1 ? 1 : 7));
        const auto problems = prose_problems(r);
        INFO(Catch::Detail::stringify(problems));
        CHECK(problems.empty());
        CHECK(r.panel_max_x - r.panel_min_x > 200.0f);
        if (step == 1) {
          const auto it =
              std::find_if(r.prose.begin(), r.prose.end(), [](const auto& p) { return p.math; });
          REQUIRE(it != r.prose.end());
          // the value at 5 significant digits, trailing zero kept, in the TeX and in the glyphs
          CHECK(it->text == "\\theta_3 = {0.42170}");
          REQUIRE(font.font);
          CHECK(contains_run(it->glyphs, glyph_ids(*font.font, "0.42170")));
          CHECK_FALSE(contains_run(it->glyphs, glyph_ids(*font.font, "0.421697")));
          // a word beside it shares its baseline ("is" before it, or "at" after it when the
          // formula begins a line); the value in prose has 3 decimals
          const auto before = beside(r.prose, it);
          REQUIRE(before != r.prose.end());
          CHECK(before->baseline == it->baseline);
          const auto words = std::find_if(r.prose.begin(), r.prose.end(), [](const auto& p) {
            return p.text.find("$5.") != std::string::npos;
          });
          CHECK(words != r.prose.end());
          CHECK(std::any_of(r.prose.begin(), r.prose.end(),
                            [](const auto& p) { return p.text == "14.900"; }));
          // the formula is about as tall as the text: its ink within the font's line box
          CHECK(it->max.y - it->min.y <= before->max.y - before->min.y + 2.0f);
          CHECK(it->max.y - it->min.y >= 0.6f * (before->max.y - before->min.y));
        }
        ++checked;
      }
    }
  }
  CHECK(checked == 8);
}

TEST_CASE("offscreen: the inline formula's digits stand on the words' baseline",
          "[lessons][inline][gl]") {
  ScopedEnv env("ROPE_LAB_LESSONS", ROPE_TEST_GOOD_DIR);
  auto created = OffscreenApp::create(1280, 720, 1.0f);
  if (!created) {  // ctest marks the test skipped on this line (SKIP_REGULAR_EXPRESSION)
    WARN("SKIPPED: no offscreen OpenGL: " << created.error().message);
    return;
  }
  OffscreenApp& app = *created.value();
  for (const bool presentation : {false, true}) {
    AppState state;
    state.params.view = ViewId::derivation;
    state.params.lesson = "inline-math";
    state.params.step = 1;
    state.params.presentation = presentation;
    const Image img = app.render(state, 3);
    const DerivationView::Results& r = app.views().derivation.results();
    INFO((presentation ? "presentation" : "window"));
    const auto it =
        std::find_if(r.prose.begin(), r.prose.end(), [](const auto& p) { return p.math; });
    REQUIRE(it != r.prose.end());
    const auto before = beside(r.prose, it);
    REQUIRE(before != r.prose.end());
    const Palette& pal = palette(state.params.theme);
    const std::array<int, 3> bg{static_cast<int>(pal.canvas & 0xFF),
                                static_cast<int>((pal.canvas >> 8) & 0xFF),
                                static_cast<int>((pal.canvas >> 16) & 0xFF)};
    // rows of ink in a box: the first and the last (-1 when none)
    const auto ink_rows = [&](float x0, float x1, float y0, float y1) {
      int first = -1, last = -1;
      for (int y = std::max(0, static_cast<int>(y0));
           y < std::min(img.height, static_cast<int>(y1)); ++y)
        for (int x = std::max(0, static_cast<int>(x0));
             x < std::min(img.width, static_cast<int>(x1)); ++x) {
          const auto i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                          static_cast<std::size_t>(x)) *
                         4;
          bool ink = false;
          for (std::size_t c = 0; c < 3; ++c)
            ink = ink || std::abs(img.rgba[i + c] - bg[c]) > 100;
          if (ink) {
            if (first < 0) first = y;
            last = y;
            break;
          }
        }
      return std::array<int, 2>{first, last};
    };
    // the value "0.42170" is the right part of the formula: digits only, no subscript
    const auto digits =
        ink_rows(it->max.x - 0.4f * (it->max.x - it->min.x), it->max.x, it->min.y, it->max.y + 2);
    const auto word = ink_rows(before->min.x, before->max.x, before->min.y, before->max.y);
    INFO("digits rows " << digits[0] << " - " << digits[1] << ", '" << before->text << "' rows "
                        << word[0] << " - " << word[1] << ", baseline " << it->baseline);
    REQUIRE(digits[0] >= 0);
    REQUIRE(word[0] >= 0);
    CHECK(std::abs(digits[1] - word[1]) <= 1);  // the same bottom row: one baseline
    // digits about as tall as the prose's (DejaVu Sans: 0.63 of the font size)
    const float font_size = before->max.y - before->min.y;
    CHECK(static_cast<float>(digits[1] - digits[0] + 1) > 0.5f * font_size);
    CHECK(static_cast<float>(digits[1] - digits[0] + 1) < 0.8f * font_size);
  }
}

// Predict, then reveal: `ask:` is drawn, what follows `reveal:` is not, until V (or the button);
// entering the step again hides it again; pictures (AppState::reveal_all) show it.
TEST_CASE(
    "predict, then reveal: the hidden part is drawn only after V, and hidden again on "
    "entering the step",
    "[lessons][reveal][headless]") {
  ScopedEnv env("ROPE_LAB_LESSONS", ROPE_TEST_GOOD_DIR);
  UiContext ui(false);
  Views views;
  AppState state;
  state.params.view = ViewId::derivation;
  state.params.lesson = "predict-reveal";
  const ImVec2 display(1280, 720);
  const auto has_text = [&](const std::string& word) {
    const auto& prose = views.derivation.results().prose;
    return std::any_of(prose.begin(), prose.end(), [&](const auto& p) { return p.text == word; });
  };
  const auto press = [&](int key) {
    ImGui::GetIO().KeysDown[key] = true;
    run_frames(ui, state, views, 1, display);
    ImGui::GetIO().KeysDown[key] = false;
    run_frames(ui, state, views, 1, display);
  };
  const auto& step = views.library.lessons().at(1).lesson.steps.at(0);
  REQUIRE(step.hides());
  REQUIRE(step.reveal_show.size() == 1);  // show: after reveal: is the revealed state
  CHECK(step.show.size() == 4);
  CHECK(step.reveal_block == 2);
  CHECK(step.reveal_check == 0);
  for (int round = 0; round < 2; ++round) {
    INFO("round " << round);
    run_frames(ui, state, views, 2, display);
    REQUIRE(state.params.step == 1);
    const auto& r = views.derivation.results();
    // before: the question is there, the answer, its equation and its check are not
    CHECK(r.hiding);
    CHECK(has_text("grow"));  // from the question
    CHECK_FALSE(has_text("No:"));
    CHECK(r.equations_drawn == 0);
    CHECK(r.marks.empty());
    CHECK(state.params.layout == rope::app::PointerLayout::dials);  // the view holds back too
    press(GLFW_KEY_V);
    CHECK_FALSE(r.hiding);
    // the show: line after reveal: is applied with the answer
    CHECK(state.params.layout == rope::app::PointerLayout::circle);
    CHECK(has_text("No:"));
    CHECK(r.equations_drawn == 1);
    REQUIRE(r.marks.size() == 1);
    CHECK(r.marks[0].passed);
    CHECK(state.params.step == 1);  // V only reveals
    // away and back: hidden again
    press(GLFW_KEY_RIGHT);
    CHECK(state.params.step == 2);
    CHECK_FALSE(views.derivation.results().hiding);  // a step without reveal: hides nothing
    press(GLFW_KEY_LEFT);
  }
  CHECK(state.params.layout == rope::app::PointerLayout::dials);  // hidden again: its own state
  // pictures show the answer, and the state it brings
  state.reveal_all = true;
  run_frames(ui, state, views, 2, display);
  CHECK_FALSE(views.derivation.results().hiding);
  CHECK(state.params.layout == rope::app::PointerLayout::circle);
  CHECK(views.derivation.results().equations_drawn == 1);
}

TEST_CASE("predict, then reveal: ask: and reveal: problems are reported with positions",
          "[lessons][reveal]") {
  const auto m = messages(rope::lessons::parse_lesson(
      "title: t\nask: too early\nstep: s\nask:\nreveal: now\nreveal:\nx\nreveal:\n", "r.lesson",
      "r"));
  INFO(Catch::Detail::stringify(m));
  CHECK(has(m, "r.lesson:2:1: ask: must be inside a step (after step:)"));
  CHECK(has(m, "r.lesson:4:5: ask: needs a question"));
  CHECK(has(m, "r.lesson:5:9: reveal: takes no text (what follows it in the step is hidden)"));
  CHECK(has(m, "r.lesson:8:1: a second reveal: in this step (one part of a step is hidden)"));
  CHECK(m.size() == 4);
  const auto nothing = messages(
      rope::lessons::parse_lesson("title: t\nstep: s\nask: why?\nreveal:\n", "n.lesson", "n"));
  CHECK(has(nothing, "n.lesson:4:1: nothing follows reveal: in this step, so nothing is hidden"));
}

TEST_CASE("offscreen: the hidden answer leaves no ink until revealed", "[lessons][reveal][gl]") {
  ScopedEnv env("ROPE_LAB_LESSONS", ROPE_TEST_GOOD_DIR);
  auto created = OffscreenApp::create(1280, 720, 1.0f);
  if (!created) {
    WARN("SKIPPED: no offscreen OpenGL: " << created.error().message);
    return;
  }
  OffscreenApp& app = *created.value();
  AppState state;
  state.params.view = ViewId::derivation;
  state.params.lesson = "predict-reveal";
  state.params.presentation = true;
  state.reveal_all = true;
  (void)app.render(state, 3);
  const auto shown = app.views().derivation.results();
  REQUIRE(shown.equations_drawn == 1);
  const Image revealed = app.render(state, 1);
  state.reveal_all = false;
  state.applied_step = 0;  // enter the step again: hidden
  const Image hidden = app.render(state, 3);
  CHECK(app.views().derivation.results().hiding);
  if (const char* dir = std::getenv("ROPE_TEST_SAVE_DIR")) {  // to look at them
    (void)write_png(std::string(dir) + "/reveal-hidden.png", hidden);
    (void)write_png(std::string(dir) + "/reveal-shown.png", revealed);
  }
  // the equation's box: ink when revealed, none (the button's flat fill) when hidden
  const auto distinct_colours = [](const Image& img, ImVec2 a, ImVec2 b) {
    std::vector<std::uint32_t> seen;
    for (int y = static_cast<int>(a.y); y < static_cast<int>(b.y); ++y)
      for (int x = static_cast<int>(a.x); x < static_cast<int>(b.x); ++x) {
        const auto i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                        static_cast<std::size_t>(x)) *
                       4;
        const std::uint32_t c = static_cast<std::uint32_t>(img.rgba[i]) << 16 |
                                static_cast<std::uint32_t>(img.rgba[i + 1]) << 8 | img.rgba[i + 2];
        if (std::find(seen.begin(), seen.end(), c) == seen.end()) seen.push_back(c);
      }
    return seen.size();
  };
  const auto in_revealed = distinct_colours(revealed, shown.equations_min, shown.equations_max);
  const auto in_hidden = distinct_colours(hidden, shown.equations_min, shown.equations_max);
  INFO("colours in the equation's box: revealed " << in_revealed << ", hidden " << in_hidden);
  CHECK(in_revealed > 20);  // anti-aliased glyphs
  CHECK(in_hidden <= 3);    // background and the button's fill
}
