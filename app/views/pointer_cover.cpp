// views/pointer_cover.cpp — shafts under shafts on the shared circle (pointer_cover.h).
#include "views/pointer_cover.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numbers>

namespace rope::app {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kTwoPi = 2.0 * std::numbers::pi;

double to_turn(double a) {  // [0, 2π)
  a = std::fmod(a, kTwoPi);
  if (a < 0.0) a += kTwoPi;
  return a >= kTwoPi ? 0.0 : a;
}

// Half the angle a width `half` px either side of an axis spans on the circle of radius rho.
double half_angle(double half, double rho) {
  return half >= rho ? 0.5 * kPi : std::asin(half / rho);
}

}  // namespace

void ShaftCover::clear() {
  for (Band& b : bands_) {
    b.angle.clear();
    b.length.clear();
  }
  longest_ = 0.0f;
}

void ShaftCover::add(double angle, float length, float core) {
  if (!(core > 0.0f) || !(length > 0.0f) || !std::isfinite(angle)) return;
  auto band =
      std::find_if(bands_.begin(), bands_.end(), [&](const Band& b) { return b.core == core; });
  if (band == bands_.end()) {
    bands_.push_back(Band{core, {}, {}});
    band = std::prev(bands_.end());
  }
  const double a = to_turn(angle);
  const auto at = std::upper_bound(band->angle.begin(), band->angle.end(), a);
  const auto i = at - band->angle.begin();
  band->angle.insert(at, a);
  band->length.insert(band->length.begin() + i, length);
  longest_ = std::max(longest_, length);
}

bool ShaftCover::arc_covered(double a, double alpha, double rho1) {
  // The sweep: `reach` is how far from −alpha (as an angle from a, δ) the arc is covered
  // without a gap. Each step takes the core reaching furthest among those that begin by
  // `reach`: in each band (one core width γ) the last shaft, going round from a − π, at
  // δ <= reach + γ, if it is long enough (else the one before it, and so on while that one
  // still reaches past `reach`). No step forward is a gap.
  gammas_.clear();
  for (const Band& b : bands_)
    gammas_.push_back(half_angle(static_cast<double>(b.core), rho1));
  double reach = -alpha;
  while (reach < alpha) {
    double best = reach;
    for (std::size_t k = 0; k < bands_.size(); ++k) {
      const Band& b = bands_[k];
      const std::size_t n = b.angle.size();
      if (n == 0) continue;
      const double gamma = gammas_[k];
      const double limit = reach + gamma;  // <= alpha + gamma <= π
      const auto j = static_cast<std::size_t>(
          std::upper_bound(b.angle.begin(), b.angle.end(), to_turn(a + limit)) - b.angle.begin());
      for (std::size_t back = 1; back <= n; ++back) {
        const std::size_t i = (j + n - back) % n;
        const double delta = std::remainder(b.angle[i] - a, kTwoPi);
        if (delta > limit) break;  // round past a − π
        const double hi = delta + gamma;
        if (hi <= best) break;
        if (static_cast<double>(b.length[i]) >= rho1) {
          best = hi;
          break;
        }
      }
    }
    if (best <= reach) return false;
    reach = best;
  }
  return true;
}

ShaftCover::Stretch ShaftCover::covered(double angle, float half) {
  if (!(half > 0.0f) || longest_ <= 0.0f || !std::isfinite(angle)) return {};
  const double a = to_turn(angle);
  const double h = static_cast<double>(half);
  const double longest = static_cast<double>(longest_);
  // Circles checked in steps [rho0, rho1]: the footprint taken as wide as at rho0 and the cores
  // as narrow as at rho1, which holds for every circle in between (both widths shrink as the
  // radius grows). Where the shafts above fan out less than a right angle either side, the
  // footprint's corners at the centre stay bare: the covered stretch then begins further out,
  // at the first of the radii 0, 2h, 3h, 4.5h ... from which a step of a quarter is covered.
  double from = 0.0, rho0 = 0.0;
  for (;; from = from == 0.0 ? 2.0 * h : 1.5 * from) {
    const double rho1 = from == 0.0 ? 2.0 * h : 1.25 * from;
    if (rho1 > longest) return {};
    if (arc_covered(a, half_angle(h, from), rho1)) {
      rho0 = rho1;
      break;
    }
  }
  // then outward in steps of half the radius, halved where that fails, down to an eighth
  constexpr double kLongest = 0.5, kShortest = 0.125;
  double step = kLongest;
  for (;;) {
    const double rho1 = std::max(rho0 * (1.0 + step), rho0 + 0.5);
    const bool covered = rho1 <= longest && arc_covered(a, half_angle(h, rho0), rho1);
    if (covered) {
      rho0 = rho1;
    } else if (step > kShortest) {
      step = 0.5 * step;
    } else {
      break;
    }
  }
  // the part of the shaft from `from` out to R lies on the circles up to √(R² + h²) = rho0
  const double to = rho0 > h ? std::sqrt(rho0 * rho0 - h * h) : 0.0;
  return to > from ? Stretch{static_cast<float>(from), static_cast<float>(to)} : Stretch{};
}

}  // namespace rope::app
