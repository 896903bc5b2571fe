// random.cpp — SplitMix64 (Steele, Lea and Flood, 2014) and seeded vectors built on it.
#include "rope/random.h"

#include <cmath>

#include "rope/conventions.h"

namespace rope {

namespace {

// random_vectors returns nothing above this many entries (4096 vectors of dimension 4096).
constexpr std::int64_t kMaxRandomEntries = std::int64_t{kMaxDim} * kMaxDim;

// 64-bit FNV-1a: offset basis and prime from the FNV reference.
std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char ch : s) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

std::uint64_t SplitMix64::next() {
  state_ += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() {
  // The top 53 bits scaled by 2^-53: every value is an exact multiple of 2^-53 in [0, 1).
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

double SplitMix64::uniform(double lo, double hi) {
  return lo + (hi - lo) * uniform();
}

double SplitMix64::normal() {
  // 1 - u lies in (0, 1], so the logarithm is finite.
  const double u1 = 1.0 - uniform();
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

std::vector<double> hash_embedding(std::string_view word, int dim, std::uint64_t seed) {
  if (dim < 0 || dim > kMaxDim) return {};
  // Mixing the seed through one SplitMix64 step keeps nearby seeds from giving related streams.
  SplitMix64 rng(fnv1a(word) ^ SplitMix64(seed).next());
  std::vector<double> v(static_cast<std::size_t>(dim));
  for (double& x : v)
    x = rng.uniform(-1.0, 1.0);
  return v;
}

std::vector<double> random_vectors(int count, int dim, std::uint64_t seed) {
  if (count < 0 || dim < 0 || std::int64_t{count} * dim > kMaxRandomEntries) return {};
  SplitMix64 rng(seed);
  std::vector<double> v(static_cast<std::size_t>(count) * static_cast<std::size_t>(dim));
  for (double& x : v)
    x = rng.uniform(-1.0, 1.0);
  return v;
}

}  // namespace rope
