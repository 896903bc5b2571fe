// rope/vectors.h — the query and key vectors the views show, built for a head dimension d from
// what the lecturer chose: the first unit vector, all ones, seeded random, or given numbers.
//
// Usage:
//   auto q = rope::make_vector(rope::VectorSource::ones, 8);               // (1, ..., 1), d = 8
//   auto k = rope::make_vector(rope::VectorSource::random, 8, {}, rope::key_seed(seed));
//   auto x = rope::make_vector(rope::VectorSource::given, 4, values);      // cut or padded to 4
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rope/conventions.h"

namespace rope {

enum class VectorSource {
  unit,    // e_0 = (1, 0, ..., 0): block 0 holds the whole vector, the others are 0
  ones,    // (1, 1, ..., 1): every block the same, |x| = sqrt(d)
  random,  // d entries in [-1, 1) from random_vectors(1, d, seed) (rope/random.h)
  given,   // the given numbers, cut to their first d or padded with zeros up to d
};

// The d-vector of `source`. `given` is read only for VectorSource::given, `seed` only for
// VectorSource::random. Errors: an invalid d (validate_dim), a given entry that is not finite.
Result<std::vector<double>> make_vector(VectorSource source, int dim,
                                        std::span<const double> given = {}, std::uint64_t seed = 0);

// The seed of the key of a query/key pair drawn from one seed: seed + 1, so that a random q and
// a random k differ (the query draws from seed itself).
constexpr std::uint64_t key_seed(std::uint64_t seed) {
  return seed + 1;
}

}  // namespace rope
