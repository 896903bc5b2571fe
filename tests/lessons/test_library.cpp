// The lesson library (lessons/library.h) on the shipped lessons and the broken folder: finding
// lessons by name, moving step by step across lesson boundaries, first / last, entering a step
// (its state applied once, the lecturer's changes kept until the step changes), and the heading
// the presentation bar shows.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "lessons/library.h"

using rope::app::AppState;
using rope::app::Params;
using rope::app::ViewId;
using rope::lessons::Library;

namespace {

// Every (lesson id, step) of the library in lecture order.
std::vector<std::pair<std::string, int>> all_steps(Library& library) {
  std::vector<std::pair<std::string, int>> out;
  for (const auto& l : library.lessons())
    for (std::size_t s = 0; s < l.lesson.steps.size(); ++s)
      out.emplace_back(l.lesson.id, static_cast<int>(s) + 1);
  return out;
}

}  // namespace

TEST_CASE("the library loads the lesson folder in name order and finds lessons by name",
          "[lessons][library]") {
  Library library(ROPE_TEST_LESSON_DIR);
  const auto& lessons = library.lessons();
  REQUIRE(lessons.size() == 17);
  CHECK(lessons[0].lesson.id == "01-why-positions");
  CHECK(lessons[2].lesson.id == "03-rope-2d");
  CHECK(lessons[8].lesson.id == "09-linear");
  CHECK(library.directory() == ROPE_TEST_LESSON_DIR);
  CHECK(library.index_of("03-rope-2d") == 2);
  CHECK(library.index_of("rope-2d") == 2);  // without the number
  CHECK(library.index_of("3") == 2);        // the number alone
  CHECK(library.index_of("nope") == -1);
  CHECK(library.index_of("") == -1);

  Params p;
  p.lesson = "rope-2d";
  CHECK(library.current_index(p) == 2);
  REQUIRE(library.current(p) != nullptr);
  CHECK(library.current(p)->lesson.id == "03-rope-2d");
  CHECK(library.step_count(p) == 3);
  CHECK(library.heading(p) == "Lesson 3 · RoPE in two dimensions");
  p.lesson = "nope";
  CHECK(library.current(p) == nullptr);
  CHECK(library.step_count(p) == 0);
  CHECK(library.heading(p).empty());
}

TEST_CASE("next and previous cross lesson boundaries and stop at the ends", "[lessons][library]") {
  Library library(ROPE_TEST_LESSON_DIR);
  Params p;
  p.lesson = "03-rope-2d";
  p.step = 3;  // its last step
  CHECK(library.next_is_new_lesson(p));
  library.next(p);
  CHECK(p.lesson == "04-complex");
  CHECK(p.step == 1);
  CHECK_FALSE(library.next_is_new_lesson(p));
  library.previous(p);
  CHECK(p.lesson == "03-rope-2d");
  CHECK(p.step == 3);
  library.previous(p);
  CHECK(p.step == 2);

  SECTION("a whole lecture forwards and back, one step per move") {
    const auto steps = all_steps(library);
    REQUIRE(steps.size() == 81);
    p.lesson = steps.front().first;
    p.step = 1;
    for (std::size_t i = 1; i < steps.size(); ++i) {
      library.next(p);
      CHECK(p.lesson == steps[i].first);
      CHECK(p.step == steps[i].second);
    }
    library.next(p);  // the very end: stays
    CHECK(p.lesson == steps.back().first);
    CHECK(p.step == steps.back().second);
    CHECK_FALSE(library.next_is_new_lesson(p));
    for (std::size_t i = steps.size() - 1; i-- > 0;) {
      library.previous(p);
      CHECK(p.lesson == steps[i].first);
      CHECK(p.step == steps[i].second);
    }
    library.previous(p);  // the very start: stays
    CHECK(p.lesson == steps.front().first);
    CHECK(p.step == 1);
  }
  SECTION("a step outside the lesson is kept within it before moving") {
    p.step = 50;
    library.next(p);  // from the last step (3): on into the next lesson
    CHECK(p.lesson == "04-complex");
    CHECK(p.step == 1);
    p.step = -4;
    library.previous(p);  // from step 1: back to the previous lesson's last
    CHECK(p.lesson == "03-rope-2d");
    CHECK(p.step == 3);
  }
  SECTION("first and last") {
    library.last(p);
    CHECK(p.step == 3);
    library.first(p);
    CHECK(p.step == 1);
    CHECK(p.lesson == "03-rope-2d");
  }
  SECTION("no lesson named: the first lesson") {
    p.lesson.clear();
    p.step = 1;
    library.next(p);
    CHECK(p.lesson == "01-why-positions");
    CHECK(p.step == 2);
  }
  SECTION("an unknown lesson: moves leave the parameters alone, first still goes to step 1") {
    p.lesson = "nope";
    p.step = 2;
    library.next(p);
    library.previous(p);
    library.last(p);
    CHECK(p.lesson == "nope");
    CHECK(p.step == 2);
    library.first(p);
    CHECK(p.step == 1);
  }
  SECTION("go_to names a lesson by its index") {
    library.go_to(p, 7, 2);
    CHECK(p.lesson == "08-decay");
    CHECK(p.step == 2);
    library.go_to(p, 17, 1);  // no such lesson (17 of them: 0 ... 16): nothing
    CHECK(p.lesson == "08-decay");
  }
}

TEST_CASE("entering a step applies its state once; the lecturer's changes stay until it changes",
          "[lessons][library]") {
  Library library(ROPE_TEST_LESSON_DIR);
  AppState state;
  Params& p = state.params;
  p.view = ViewId::derivation;
  p.lesson = "rope-2d";
  p.step = 1;
  p.dim = 64;
  library.enter(state);
  CHECK(p.dim == 2);  // show: dim=2
  CHECK(p.position == 3);
  CHECK(p.key_position == 5);
  CHECK(p.show_view == ViewId::pointers);
  CHECK(p.view == ViewId::derivation);  // the lecturer's own fields are kept
  CHECK(state.applied_lesson == "rope-2d");
  CHECK(state.applied_step == 1);

  p.position = 42;  // a slider moved after entering
  library.enter(state);
  CHECK(p.position == 42);

  Library::restart(state);  // Restart step: the step's values again on the next enter
  CHECK(p.position == 42);
  library.enter(state);
  CHECK(p.position == 3);

  library.next(p);
  library.next(p);
  CHECK(p.show_view == ViewId::pointers);  // moving alone applies nothing
  library.enter(state);
  CHECK(p.step == 3);
  CHECK(p.show_view == ViewId::sentence);
  CHECK(p.key_position == 2);

  SECTION("the step is kept within the lesson") {
    p.step = 99;
    library.enter(state);
    CHECK(p.step == 3);
    p.step = 0;
    library.enter(state);
    CHECK(p.step == 1);
    CHECK(p.position == 3);  // step 1's state: a new step
  }
  SECTION("no lesson named: the first lesson's first step") {
    p.lesson.clear();
    p.step = 1;
    library.enter(state);
    CHECK(p.lesson == "01-why-positions");
    CHECK(state.applied_lesson == "01-why-positions");
  }
  SECTION("an unknown lesson changes nothing") {
    const Params before = p;
    p.lesson = "nope";
    library.enter(state);
    CHECK(p.dim == before.dim);
    CHECK(p.step == before.step);
    CHECK(state.applied_lesson == "rope-2d");  // what was applied last
  }
}

TEST_CASE("broken lessons are listed with their problems and never move or crash",
          "[lessons][library]") {
  Library library(ROPE_TEST_BROKEN_DIR);
  const auto& lessons = library.lessons();
  REQUIRE(lessons.size() == 9);
  for (const auto& l : lessons)
    CHECK_FALSE(l.problems.empty());
  AppState state;
  state.params.lesson = "empty";  // no steps at all
  state.params.step = 4;
  library.enter(state);
  library.next(state.params);
  library.previous(state.params);
  CHECK(state.params.lesson == "empty");
  CHECK(state.params.step == 4);
  CHECK(state.applied_step == 0);
  CHECK(library.step_count(state.params) == 0);
  CHECK(library.heading(state.params) == "Lesson 1 · empty");  // the id when there is no title
}
