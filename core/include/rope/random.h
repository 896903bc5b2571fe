// rope/random.h — a small, portable, seeded random generator and the hash embedding of words.
//
// std::mt19937 is portable but the std:: distributions are not (their algorithms are
// implementation-defined), and lessons, tests and exports must show the same numbers on every
// machine; so the core draws its numbers from SplitMix64 with explicit conversions.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace rope {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();                      // [0, 1), 53 random bits
  double uniform(double lo, double hi);  // [lo, hi)
  double normal();                       // standard normal (Box-Muller, no cached second value)

 private:
  std::uint64_t state_;
};

// d entries in [-1, 1) seeded by the word's FNV-1a hash mixed with `seed`; the same word always
// gives the same vector. Used as a stand-in embedding in the sentence demo.
std::vector<double> hash_embedding(std::string_view word, int dim, std::uint64_t seed);

// `count` * dim entries in [-1, 1): seeded random vectors, row-major [count][dim]. Empty if count
// or dim is negative or count * dim exceeds 4096 * 4096.
std::vector<double> random_vectors(int count, int dim, std::uint64_t seed);

}  // namespace rope
