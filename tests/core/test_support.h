// test_support.h — seeded random cases and tolerances shared by the core tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "rope/random.h"

namespace rope_test {

// Every randomised test draws from this seed (plus the case index), so failures reproduce.
inline constexpr std::uint64_t kSeed = 20240611;
inline std::uint64_t seed(int salt) {
  return kSeed + static_cast<std::uint64_t>(salt);
}

// A random RoPE setting: even d in [2, max_dim], base log-uniform in [2, 1e6], positions in
// [-max_pos, max_pos].
struct Case {
  int dim;
  double base;
  double m;
  double n;
  double t;
};

inline Case random_case(int index, int max_dim = 256, double max_pos = 1000.0) {
  rope::SplitMix64 rng(kSeed + static_cast<std::uint64_t>(index));
  Case c{};
  c.dim = 2 * (1 + static_cast<int>(rng.next() % static_cast<std::uint64_t>(max_dim / 2)));
  c.base = std::exp(rng.uniform(std::log(2.0), std::log(1e6)));
  c.m = std::round(rng.uniform(-max_pos, max_pos));
  c.n = std::round(rng.uniform(-max_pos, max_pos));
  c.t = std::round(rng.uniform(-max_pos, max_pos));
  return c;
}

template <class T>
std::vector<T> random_vector(std::size_t size, std::uint64_t seed, double lo = -1.0,
                             double hi = 1.0) {
  rope::SplitMix64 rng(seed);
  std::vector<T> v(size);
  for (T& x : v)
    x = static_cast<T>(rng.uniform(lo, hi));
  return v;
}

template <class T>
constexpr double eps() {
  return static_cast<double>(std::numeric_limits<T>::epsilon());
}

// Absolute tolerance for a value of magnitude `scale` built from `terms` rounded operations in T
// whose angles were computed in double at position |pos| (angle error ~ |pos| * eps<double>).
template <class T>
double tol(double scale, double terms = 1.0, double pos = 0.0) {
  return 16.0 * scale * (eps<T>() * terms + eps<double>() * (1.0 + std::abs(pos)));
}

template <class T>
double norm(const std::vector<T>& v) {
  double s = 0.0;
  for (T x : v)
    s += static_cast<double>(x) * static_cast<double>(x);
  return std::sqrt(s);
}

template <class T>
double dot(const std::vector<T>& a, const std::vector<T>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    s += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  return s;
}

}  // namespace rope_test
