// Fuzz target: the lesson loader (app/lessons/lesson.h) on arbitrary text, then the state of
// every step it found applied to the parameters, as entering each step in the app does.
#include "fuzz_entry.h"
#include "lessons/lesson.h"
#include "state/app_state.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rope::lessons;
  // Fixed quantities are pure functions of their names, so remembering them across inputs
  // changes no result; without it, inputs grown from lessons 8 and 10 recompute their decay
  // curves and precision sweeps (~100 ms) on every mutation and the target runs ~100 inputs/s.
  static const auto fixed = std::make_shared<FixedValues>();
  if (fixed->size() > 4096) fixed->clear();  // bounded: a mutated name is a new entry
  const LoadedLesson l =
      parse_lesson(rope::fuzz::as_text(data, size), "fuzz.lesson", "fuzz", fixed);
  for (const Problem& p : l.problems)
    if (p.to_string().empty()) rope::fuzz::broken();  // every problem names itself
  for (std::size_t i = 0; i < l.lesson.steps.size(); ++i) {
    rope::app::Params p;
    apply_step_state(l.lesson, static_cast<int>(i), p);
  }
  return 0;
}
