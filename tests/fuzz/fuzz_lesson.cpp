// Fuzz target: the lesson loader (app/lessons/lesson.h) on arbitrary text, then the state of
// every step it found applied to the parameters, as entering each step in the app does.
#include "fuzz_entry.h"
#include "lessons/lesson.h"
#include "state/app_state.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rope::lessons;
  const LoadedLesson l = parse_lesson(rope::fuzz::as_text(data, size), "fuzz.lesson", "fuzz");
  for (const Problem& p : l.problems)
    if (p.to_string().empty()) rope::fuzz::broken();  // every problem names itself
  for (std::size_t i = 0; i < l.lesson.steps.size(); ++i) {
    rope::app::Params p;
    apply_step_state(l.lesson, static_cast<int>(i), p);
  }
  return 0;
}
