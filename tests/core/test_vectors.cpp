// Tests for rope/vectors.h: the query and key vectors of the views for a head dimension d.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "rope/random.h"
#include "rope/vectors.h"

using rope::make_vector;
using rope::VectorSource;
using V = std::vector<double>;

TEST_CASE("vectors: unit, ones and given values, worked out by hand", "[vectors]") {
  CHECK(make_vector(VectorSource::unit, 6).value() == V{1, 0, 0, 0, 0, 0});
  CHECK(make_vector(VectorSource::ones, 4).value() == V{1, 1, 1, 1});
  const V given{1.5, -2, 3};
  CHECK(make_vector(VectorSource::given, 6, given).value() == V{1.5, -2, 3, 0, 0, 0});  // padded
  CHECK(make_vector(VectorSource::given, 2, given).value() == V{1.5, -2});              // cut
  CHECK(make_vector(VectorSource::given, 4).value() == V{0, 0, 0, 0});  // nothing given
  // the seed and the given values are read only by the source that uses them
  CHECK(make_vector(VectorSource::ones, 2, given, 99).value() == V{1, 1});
}

TEST_CASE("vectors: random is random_vectors(1, d, seed), the key draws from seed + 1",
          "[vectors]") {
  for (int d : {2, 64, 4096}) {
    for (std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{123456789}}) {
      INFO("d " << d << " seed " << seed);
      const V q = make_vector(VectorSource::random, d, {}, seed).value();
      CHECK(q == rope::random_vectors(1, d, seed));
      const V k = make_vector(VectorSource::random, d, {}, rope::key_seed(seed)).value();
      CHECK(k == rope::random_vectors(1, d, seed + 1));
      CHECK(q != k);
      for (double x : q)
        CHECK((x >= -1.0 && x < 1.0));
    }
  }
}

TEST_CASE("vectors: every source gives exactly d entries for every valid d", "[vectors]") {
  const V given{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  for (int d = rope::kMinDim; d <= rope::kMaxDim; d += 2)
    for (VectorSource s :
         {VectorSource::unit, VectorSource::ones, VectorSource::random, VectorSource::given}) {
      const auto v = make_vector(s, d, given, 7);
      REQUIRE(v.ok());
      CHECK(v.value().size() == static_cast<std::size_t>(d));
    }
}

TEST_CASE("vectors: an invalid d or a non-finite value is an error, not a vector", "[vectors]") {
  for (int d : {0, -2, 3, 4098}) {
    const auto v = make_vector(VectorSource::ones, d);
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().parameter == "dim");
  }
  const V bad{1.0, std::numeric_limits<double>::quiet_NaN()};
  const auto v = make_vector(VectorSource::given, 4, bad);
  REQUIRE_FALSE(v.ok());
  CHECK(v.error().message == "entry 2 must be a finite number");
}
