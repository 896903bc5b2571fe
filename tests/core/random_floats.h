// tests/core/random_floats.h — seeded inputs for the core's benchmark tools (bench_core,
// score_timer): `count` floats uniform in [-1, 1) from rope::SplitMix64, so both time the same
// q and k for the same seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rope/random.h"

inline std::vector<float> random_floats(std::size_t count, std::uint64_t seed) {
  rope::SplitMix64 rng(seed);
  std::vector<float> v(count);
  for (float& x : v)
    x = static_cast<float>(rng.uniform(-1.0, 1.0));
  return v;
}
