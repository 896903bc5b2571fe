// The presenter window's page (shell/presenter.h): the step's notes with their live values, the
// hidden answer while the class has not seen it, the next step across a lesson's end, and —
// rendered with GL — a copy of the main window that is the main window's picture.
#include <catch2/catch.hpp>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "shell/frame.h"
#include "shell/offscreen_app.h"
#include "shell/presenter.h"
#include "state/actions.h"
#include "ui/theme.h"
#include "view_harness.h"

using namespace rope::app;
using namespace rope::app::view_test;

namespace {

// Two lessons: notes with a live value and two paragraphs, a step that hides its answer, and a
// last step.
struct LessonDir {
  std::filesystem::path dir;
  LessonDir() {
    dir = std::filesystem::temp_directory_path() / ("rope-presenter-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "01-first.lesson") << "title: Notes test\n"
                                              "step: First\n"
                                              "show: view=pointers dim=2 position=3\n"
                                              "note: Say hello. Theta is {{theta.0}} here.\n"
                                              "note:\n"
                                              "note: Second paragraph.\n"
                                              "Prose of step one.\n"
                                              "step: Second\n"
                                              "show: view=pointers dim=4\n"
                                              "ask: What is d?\n"
                                              "reveal:\n"
                                              "The answer is {{d}} today.\n";
    std::ofstream(dir / "02-second.lesson") << "title: Other\n"
                                               "step: Only\n"
                                               "Last text.\n";
  }
  ~LessonDir() { std::filesystem::remove_all(dir); }
};

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words)
    s += (s.empty() ? "" : " ") + w;
  return s;
}

// The main window and the presenter, headless, frame by frame as shell/window.cpp draws them.
struct Lecture {
  UiContext ui{false};
  AppState state;
  Views views;
  Presenter presenter{false};
  explicit Lecture(const std::filesystem::path& dir) {
    views.library = rope::lessons::Library(dir.string());
    state.params.view = ViewId::derivation;
  }
  const PresenterPage::Results& frame() {
    ui.prepare(1.0f, state.params.theme);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1600, 900);
    io.DeltaTime = 1.0f / 60.0f;
    state.time += 1.0 / 60.0;
    ImGui::NewFrame();
    draw_frame(state, views, ViewEnv{&ui.fonts(), false, 1.0f});
    ImGui::Render();
    presenter.ui().prepare(1.0f, state.params.theme);
    ImGui::GetIO().DisplaySize = ImVec2(1280, 800);
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    presenter.draw(state, views, 1.0f, false);
    return presenter.page().results();
  }
};

}  // namespace

TEST_CASE("the presenter shows the step's notes, its hidden answer and the next step",
          "[app][presenter][headless]") {
  const LessonDir lessons;
  Lecture lecture(lessons.dir);
  Params& p = lecture.state.params;
  p.lesson = "01-first";
  p.step = 1;
  lecture.frame();
  const PresenterPage::Results* r = &lecture.frame();
  CHECK(r->in_lesson);
  CHECK(r->heading == "Lesson 1 · Notes test  ·  step 1 of 2");
  CHECK(r->step == "First");
  CHECK(r->note_paragraphs == 2);
  // θ_0 = 1 at every d: the live value, not the placeholder
  CHECK(joined(r->notes) == "Say hello. Theta is 1 here. Second paragraph.");
  CHECK(r->next == "2 · Second");
  CHECK_FALSE(r->answer_hidden);
  CHECK(r->timer == "0:00");

  // the next step hides its answer: the presenter shows it (at its own state, d = 4) until V
  p.step = 2;
  lecture.frame();
  r = &lecture.frame();
  CHECK(r->notes.empty());
  CHECK(r->note_paragraphs == 0);
  CHECK(r->answer_hidden);
  CHECK(joined(r->answer) == "The answer is 4 today.");
  CHECK(r->next == "Next lesson: Lesson 2 · Other, 1 · Only");
  lecture.state.reveal_requested = true;  // V: the class sees it now
  lecture.frame();
  r = &lecture.frame();
  CHECK_FALSE(r->answer_hidden);
  CHECK(r->answer.empty());

  // the last step of the last lesson has no next one; out of a lesson, no notes
  p.lesson = "02-second";
  p.step = 1;
  lecture.frame();
  r = &lecture.frame();
  CHECK(r->next.empty());
  CHECK(r->step == "Only");
  p.view = ViewId::pointers;
  r = &lecture.frame();
  CHECK_FALSE(r->in_lesson);
  CHECK(r->heading == "Not in a lesson");
  CHECK(r->step == "Rotating pointers");

  // the timer counts from its start, in minutes and seconds
  lecture.state.time += 125.0;
  CHECK(lecture.frame().timer == "2:05");
  lecture.presenter.page().restart_clock(lecture.state.time);
  CHECK(lecture.frame().timer == "0:00");
}

TEST_CASE("F6 opens and closes the presenter window", "[app][presenter][headless]") {
  const LessonDir lessons;
  Lecture lecture(lessons.dir);
  lecture.frame();
  for (bool want : {true, false}) {
    lecture.ui.prepare(1.0f, lecture.state.params.theme);
    ImGui::GetIO().KeysDown[GLFW_KEY_F6] = true;
    lecture.frame();
    lecture.ui.prepare(1.0f, lecture.state.params.theme);
    ImGui::GetIO().KeysDown[GLFW_KEY_F6] = false;
    lecture.frame();
    CHECK(lecture.state.show_presenter == want);
  }
}

TEST_CASE("the presenter's copy of the projector is the main window's picture", "[app][gl]") {
  const LessonDir lessons;
  auto created = OffscreenApp::create(1280, 800, 1.0f);
  REQUIRE(created.ok());
  OffscreenApp& app = *created.value();
  app.views().library = rope::lessons::Library(lessons.dir.string());
  AppState state;
  state.params.view = ViewId::derivation;
  state.params.lesson = "01-first";
  const Image main = app.render(state, 3);
  REQUIRE(app.presenter_frame(state).ok());
  const Image page = app.capture();
  REQUIRE(app.presenter() != nullptr);
  const PresenterPage::Results& r = app.presenter()->page().results();
  CHECK(joined(r.notes) == "Say hello. Theta is 1 here. Second paragraph.");
  const float mw = r.mirror_max.x - r.mirror_min.x, mh = r.mirror_max.y - r.mirror_min.y;
  REQUIRE(mw > 300.0f);
  CHECK(mh == Approx(mw * 800.0f / 1280.0f).margin(2.0));

  // Cell by cell (16 x 10 over the picture) the copy's mean colour is the main window's: the
  // right picture, the right way up (the menu bar at the top, the lesson's light text left).
  const auto mean = [](const Image& img, float x0, float y0, float x1, float y1) {
    long sum[3] = {0, 0, 0}, n = 0;
    for (int y = static_cast<int>(std::ceil(y0)); y < static_cast<int>(y1); ++y)
      for (int x = static_cast<int>(std::ceil(x0)); x < static_cast<int>(x1); ++x) {
        const Rgb c = pixel(img, x, y);
        sum[0] += c.r, sum[1] += c.g, sum[2] += c.b, ++n;
      }
    return Rgb{static_cast<int>(sum[0] / n), static_cast<int>(sum[1] / n),
               static_cast<int>(sum[2] / n)};
  };
  int worst = 0, varied = 0;
  const Rgb canvas = rgb(palette(state.params.theme).canvas);
  for (float cy = 0; cy < 10; ++cy)
    for (float cx = 0; cx < 16; ++cx) {
      const float fx0 = cx / 16.0f, fx1 = (cx + 1) / 16.0f;
      const float fy0 = cy / 10.0f, fy1 = (cy + 1) / 10.0f;
      const Rgb want = mean(main, fx0 * 1280, fy0 * 800, fx1 * 1280, fy1 * 800);
      // one px in from each side of the cell: the copy's edges blend with its frame
      const Rgb got = mean(page, r.mirror_min.x + fx0 * mw + 1, r.mirror_min.y + fy0 * mh + 1,
                           r.mirror_min.x + fx1 * mw - 1, r.mirror_min.y + fy1 * mh - 1);
      INFO("cell " << cx << ", " << cy);
      worst = std::max(worst, distance(got, want));
      varied += distance(want, canvas) > 20 ? 1 : 0;
    }
  CHECK(worst <= 24);
  CHECK(varied >= 20);  // the main picture is not one flat colour: the comparison means something
}
