// lessons/library.h — the lesson folder as the app uses it: every lesson file loaded once, the
// current lesson and step, moving through them across lesson boundaries, and entering a step
// (applying the state its `show:` lines give).
//
// The current lesson and step are Params::lesson (an id, or a name find_lesson accepts) and
// Params::step (from 1), so sessions, flags and lessons all name them the same way; the library
// looks them up in the loaded list. Moving (next, previous, first, last) changes only those two
// fields; enter() applies the step's state, once per step, so the lecturer can move every slider
// afterwards (AppState::applied_lesson / applied_step remember what was applied last).
//
// Who uses it: the frame calls enter() once per frame in the derivation view before anything is
// drawn; the keys (shell/shortcuts.cpp), the presentation bar and the derivation view's buttons
// move through it; the derivation view draws the current step from it. No ImGui, no GL.
//
// Usage:
//   Library library;                         // reads lessons_directory() on first use
//   library.next(state.params);              // → : the next step, or the next lesson's first
//   library.enter(state);                    // applies the step's state if it is a new step
//   if (const LoadedLesson* l = library.current(state.params)) show(l->lesson);
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lessons/lesson.h"
#include "state/app_state.h"

namespace rope::lessons {

class Library {
 public:
  // The shipped lessons from lessons_directory() and the lecturer's own after them
  // (all_lesson_files), as the folders are when they are first needed (the tests point
  // ROPE_LAB_LESSONS elsewhere before that).
  Library() = default;
  // Lessons from `directory` alone.
  explicit Library(std::string directory);

  // Every lesson, in the order all_lesson_files gives (loaded on first use); a file that does
  // not load is listed too, with its problems.
  const std::vector<LoadedLesson>& lessons();
  // Reads every file again (the Reload button: lecturers edit lessons while the app runs).
  void reload();
  // The folder the shipped lessons come from.
  std::string directory() const;
  // The index of the lesson `name` names (find_lesson), or -1.
  int index_of(std::string_view name);

  // The current lesson (Params::lesson), or nullptr when there is none of that name.
  const LoadedLesson* current(const app::Params& p);
  int current_index(const app::Params& p);  // into lessons(); -1 without a current lesson
  int step_count(const app::Params& p);     // steps of the current lesson; 0 without one
  // "Lesson 3 · RoPE in two dimensions": the number in the list and the title (the id when it
  // has none); empty without a current lesson.
  std::string heading(const app::Params& p);
  // Whether next() from the current step starts another lesson (the last step of a lesson
  // that is not the last one).
  bool next_is_new_lesson(const app::Params& p);

  // Moving. Each first names the first lesson when Params::lesson is empty and keeps the step
  // within the lesson; without a current lesson (an unknown name) they leave Params alone.
  void next(app::Params& p);      // the next step; after a lesson's last, the next lesson's first
  void previous(app::Params& p);  // the previous step; before a lesson's first, the previous
                                  // lesson's last
  void first(app::Params& p);     // step 1 (set even without a current lesson)
  void last(app::Params& p);      // the lesson's last step
  // Lesson `index` (into lessons()) at `step`; nothing when there is no such lesson.
  void go_to(app::Params& p, int index, int step);

  // Enters the current step: names the first lesson when none is named, keeps the step within
  // the lesson, and applies the step's state unless it was the step applied last. The frame
  // calls it before drawing the derivation view, so everything drawn shows the step's state.
  void enter(app::AppState& state);
  // Makes the next enter() apply the current step's state again (the Restart step button).
  static void restart(app::AppState& state);

 private:
  void ensure_loaded();
  // The current lesson's index after naming the first lesson when none is named, with the step
  // kept within it; -1 when there is no such lesson or it has no steps.
  int settle(app::Params& p);
  int steps_of(int index) const;

  std::string directory_;  // empty: lessons_directory() at load time
  bool loaded_ = false;
  std::vector<LoadedLesson> lessons_;
  std::vector<std::string> ids_;
};

}  // namespace rope::lessons
