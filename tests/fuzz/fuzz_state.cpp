// Fuzz target: the state's property (tests/app/lecturer.h; issue 28) with libFuzzer's bytes as the
// lecturer's choices: each action reads the bytes it needs (8 per choice, zeros once they run
// out), up to kMaxActions actions. After every action the state must validate, save, reload to
// itself and export; a break traps, with the actions printed. The test suite runs the same
// lecturer on seeded sequences (tests/app/test_state_property.cpp); this runs as long as
// scripts/fuzz.sh is given, guided by coverage towards the action orders that reach new code.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "fuzz_entry.h"
#include "lecturer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using rope::app::testing::Lecturer;
  constexpr int kMaxActions = 12;         // as the seeded test (each action checks an export)
  static rope::lessons::Library lessons;  // loaded once per process: it checks every step
  std::size_t at = 0;
  Lecturer who(
      [&]() -> std::uint64_t {
        std::uint64_t v = 0;
        const std::size_t n = std::min<std::size_t>(8, size - at);
        if (n > 0) std::memcpy(&v, data + at, n);
        at += n;
        return v;
      },
      lessons);
  for (int i = 0; i < kMaxActions && at < size; ++i) {
    who.act();
    const std::string broken = rope::app::testing::property_broken(who);
    if (!broken.empty()) {
      std::fprintf(stderr, "fuzz_state: %s\nafter: %s\n", broken.c_str(),
                   rope::app::testing::trail(who).c_str());
      rope::fuzz::broken();
    }
  }
  return 0;
}
