#include "lessons/library.h"

#include <algorithm>
#include <utility>

namespace rope::lessons {

Library::Library(std::string directory) : directory_(std::move(directory)) {}

const std::vector<LoadedLesson>& Library::lessons() {
  ensure_loaded();
  return lessons_;
}

void Library::ensure_loaded() {
  if (loaded_) return;
  loaded_ = true;
  lessons_.clear();
  ids_.clear();
  std::vector<LessonFile> files;
  if (directory_.empty()) {
    files = all_lesson_files(lessons_directory());
  } else {
    for (std::string& f : lesson_files(directory_))
      files.push_back({std::move(f), false, false});
  }
  for (const LessonFile& file : files) {
    lessons_.push_back(load_lesson_file(file.path));
    lessons_.back().own = file.own;
    lessons_.back().replaces = file.replaces;
    ids_.push_back(lessons_.back().lesson.id);
  }
}

std::string Library::directory() const {
  return directory_.empty() ? lessons_directory() : directory_;
}

void Library::reload() {
  loaded_ = false;
  ensure_loaded();
}

int Library::index_of(std::string_view name) {
  ensure_loaded();
  return find_lesson(ids_, name);
}

int Library::steps_of(int index) const {
  return static_cast<int>(lessons_[static_cast<std::size_t>(index)].lesson.steps.size());
}

const LoadedLesson* Library::current(const app::Params& p) {
  const int index = current_index(p);
  return index < 0 ? nullptr : &lessons_[static_cast<std::size_t>(index)];
}

int Library::current_index(const app::Params& p) {
  return index_of(p.lesson);
}

int Library::step_count(const app::Params& p) {
  const int index = current_index(p);
  return index < 0 ? 0 : steps_of(index);
}

std::string Library::heading(const app::Params& p) {
  const LoadedLesson* l = current(p);
  if (l == nullptr) return std::string();
  return "Lesson " + std::to_string(current_index(p) + 1) + " · " +
         (l->lesson.title.empty() ? l->lesson.id : l->lesson.title);
}

bool Library::next_is_new_lesson(const app::Params& p) {
  const int index = current_index(p);
  return index >= 0 && p.step >= steps_of(index) && index + 1 < static_cast<int>(lessons_.size());
}

int Library::settle(app::Params& p) {
  ensure_loaded();
  if (p.lesson.empty() && !ids_.empty()) p.lesson = ids_.front();
  const int index = find_lesson(ids_, p.lesson);
  if (index < 0 || steps_of(index) == 0) return -1;
  p.step = std::clamp(p.step, 1, steps_of(index));
  return index;
}

void Library::next(app::Params& p) {
  const int index = settle(p);
  if (index < 0) return;
  if (p.step < steps_of(index)) {
    ++p.step;
  } else if (index + 1 < static_cast<int>(lessons_.size())) {
    p.lesson = ids_[static_cast<std::size_t>(index + 1)];
    p.step = 1;
  }
}

void Library::previous(app::Params& p) {
  const int index = settle(p);
  if (index < 0) return;
  if (p.step > 1) {
    --p.step;
  } else if (index > 0) {
    p.lesson = ids_[static_cast<std::size_t>(index - 1)];
    p.step = std::max(1, steps_of(index - 1));
  }
}

void Library::first(app::Params& p) {
  settle(p);
  p.step = 1;
}

void Library::last(app::Params& p) {
  const int index = settle(p);
  if (index >= 0) p.step = steps_of(index);
}

void Library::go_to(app::Params& p, int index, int step) {
  ensure_loaded();
  if (index < 0 || index >= static_cast<int>(lessons_.size())) return;
  p.lesson = ids_[static_cast<std::size_t>(index)];
  p.step = step;
}

void Library::enter(app::AppState& state) {
  app::Params& p = state.params;
  const int index = settle(p);
  if (index < 0) return;
  if (state.applied_lesson == p.lesson && state.applied_step == p.step) return;
  apply_step_state(lessons_[static_cast<std::size_t>(index)].lesson, p.step - 1, p);
  state.applied_lesson = p.lesson;
  state.applied_step = p.step;
}

void Library::restart(app::AppState& state) {
  state.applied_step = 0;
}

}  // namespace rope::lessons
