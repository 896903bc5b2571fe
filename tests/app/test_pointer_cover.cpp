// ShaftCover (views/pointer_cover.h): the stretch of a shaft it reports lies under the cores of
// the shafts added, checked point by point; exact small cases; a uniform fan's known radius.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "views/pointer_cover.h"

using rope::app::ShaftCover;

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

struct Shaft {
  double angle;
  float length, core;
};

// True if the point (x, y) (px from the centre) lies within a shaft's core: no further than
// `core` from its axis and between the centre and its end.
bool in_core(const Shaft& s, double x, double y) {
  const double along = x * std::cos(s.angle) + y * std::sin(s.angle);
  const double across = -x * std::sin(s.angle) + y * std::cos(s.angle);
  return along >= 0.0 && along <= static_cast<double>(s.length) &&
         std::fabs(across) <= static_cast<double>(s.core);
}

}  // namespace

TEST_CASE("ShaftCover: one core hides a narrower footprint on its axis, not a wider one",
          "[app][pointer_cover]") {
  ShaftCover cover;
  CHECK(cover.covered(0.3, 2.5f).to == 0.0f);  // nothing added
  cover.add(0.3, 400.0f, 1.5f);
  // a core 1.5 px either side cannot hide a footprint 2.5 px either side, even on its axis
  const auto same = cover.covered(0.3, 2.5f);
  CHECK(same.to == 0.0f);
  CHECK(same.from == 0.0f);
  // a footprint narrower than the core, on its axis: under it nearly out to its end, from a
  // stub of 2 half-widths at the centre (there the check asks for a half-circle of cores)
  const auto thin = cover.covered(0.3, 1.0f);
  CHECK(thin.from <= 2.0f);
  CHECK(thin.to > 300.0f);
  CHECK(thin.to <= 400.0f);
  // clear() forgets the shafts
  cover.clear();
  CHECK(cover.covered(0.3, 1.0f).to == 0.0f);
}

TEST_CASE("ShaftCover: a uniform fan covers a shaft out to where its cores part",
          "[app][pointer_cover]") {
  // 256 shafts 2π/256 apart, cores 1.5 px either side: neighbouring cores touch on the circle
  // of radius ρ where 2 asin(1.5/ρ) = 2π/256, ρ ≈ 122.2 px; a shaft between two of them is
  // covered to about there (less: the check is conservative), from the centre on
  ShaftCover cover;
  for (int i = 0; i < 256; ++i)
    cover.add(kTwoPi * i / 256.0, 400.0f, 1.5f);
  for (const double at : {0.0, 0.01, 3.0, kTwoPi - 0.004}) {
    INFO("angle " << at);
    const auto s = cover.covered(at, 2.5f);
    CHECK(s.from == 0.0f);
    CHECK(s.to > 90.0f);
    CHECK(s.to < 122.2f);
  }
}

TEST_CASE("ShaftCover: every point of the stretch it reports lies under a core",
          "[app][pointer_cover]") {
  // Random fans, some clustered (the slow blocks at d = 512), of two core widths (queries,
  // keys) and random lengths; the stretch reported for random shafts is sampled every 0.25 px
  // along and across its footprint: each point must lie within some added shaft's core.
  std::mt19937 rng(20261207);
  std::uniform_real_distribution<double> turn(0.0, kTwoPi), unit(0.0, 1.0);
  int stretches = 0;
  for (int trial = 0; trial < 40; ++trial) {
    ShaftCover cover;
    std::vector<Shaft> added;
    const int n = 20 + static_cast<int>(unit(rng) * 480.0);
    const double cluster = turn(rng);
    for (int i = 0; i < n; ++i) {
      const bool clustered = unit(rng) < 0.5;
      const double a = clustered ? cluster + 0.05 * (unit(rng) - 0.5) : turn(rng);
      const float length = static_cast<float>(100.0 + 300.0 * unit(rng));
      const float core = unit(rng) < 0.5 ? 1.5f : 0.5f;
      cover.add(a, length, core);
      added.push_back({a, length, core});
    }
    for (int k = 0; k < 20; ++k) {
      const double a = unit(rng) < 0.5 ? cluster + 0.05 * (unit(rng) - 0.5) : turn(rng);
      const float half = unit(rng) < 0.5 ? 2.5f : 1.5f;
      const auto s = cover.covered(a, half);
      if (!(s.to > s.from)) continue;
      ++stretches;
      INFO("trial " << trial << ", shaft at " << a << ": " << s.from << " ... " << s.to);
      int bare = 0;
      for (double x = static_cast<double>(s.from); x <= static_cast<double>(s.to); x += 0.25)
        for (double y = -static_cast<double>(half); y <= static_cast<double>(half); y += 0.25) {
          const double px = x * std::cos(a) - y * std::sin(a);
          const double py = x * std::sin(a) + y * std::cos(a);
          bool under = false;
          for (const Shaft& sh : added)
            if ((under = in_core(sh, px, py))) break;
          if (!under) ++bare;
        }
      CHECK(bare == 0);
    }
  }
  CHECK(stretches > 100);  // the check saw many stretches
}
