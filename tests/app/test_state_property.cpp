// The state's property test (tests/app/lecturer.h; issue 28, classroom review D1, D2), driven by
// seeded random sequences: after every action the state validates, saves, reloads to itself and
// exports. tests/fuzz/fuzz_state.cpp drives the same lecturer with libFuzzer's bytes, for longer.
//
// Sequences: ROPE_PROPERTY_SEQUENCES of ROPE_PROPERTY_LENGTH actions each (defaults 1 000 and 12,
// about 20 s in a Release build; the sanitizer presets run 150), from seeds 1, 2, ...; a failure
// names its seed and the actions up to it, so it can be replayed. Longer runs: CONTRIBUTING.md.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <random>
#include <string>

#include "lecturer.h"

using rope::app::testing::Lecturer;

namespace {

int env_count(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : fallback;
}

}  // namespace

TEST_CASE("random action sequences leave a state that validates, saves, reloads and exports",
          "[state][property]") {
  const int sequences = env_count("ROPE_PROPERTY_SEQUENCES", 1000);
  const int length = env_count("ROPE_PROPERTY_LENGTH", 12);
  rope::lessons::Library lessons;
  for (int s = 1; s <= sequences; ++s) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(s));
    Lecturer lecturer([&rng] { return rng(); }, lessons);
    for (int i = 0; i < length; ++i) {
      lecturer.act();
      const std::string broken = rope::app::testing::property_broken(lecturer);
      INFO("seed " << s << ": " << rope::app::testing::trail(lecturer));
      INFO(broken);
      REQUIRE(broken.empty());
    }
  }
}
