// Fuzz target: the settings document (app/state/settings.h, parse_settings) on arbitrary text.
// A document it accepts must hold values the window can use.
#include "fuzz_entry.h"
#include "state/settings.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rope::app;
  Settings s;
  bool newer = false;
  const auto problem = parse_settings(rope::fuzz::as_text(data, size), s, newer);
  if (problem && problem->empty()) rope::fuzz::broken();  // a refusal says why
  if (!problem && !newer) {
    const bool size_ok = s.window_width == 0 || (s.window_width >= 320 && s.window_height >= 240);
    const bool scale_ok = s.ui_scale >= 0.5 && s.ui_scale <= 4.0;
    if (!size_ok || !scale_ok || s.recent_sessions.size() > kMaxRecentSessions)
      rope::fuzz::broken();
  }
  return 0;
}
