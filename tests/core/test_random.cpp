// Tests for rope/random.h: SplitMix64, its uniform and normal draws, hash embeddings.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rope/random.h"

using Catch::Matchers::WithinAbs;

// --- Exact small cases (reference outputs from an independent Python implementation) --------

TEST_CASE("random: SplitMix64 reference outputs", "[random]") {
  rope::SplitMix64 zero(0);
  CHECK(zero.next() == 0xe220a8397b1dcdafULL);
  CHECK(zero.next() == 0x6e789e6aa1b965f4ULL);
  CHECK(zero.next() == 0x06c45d188009454fULL);
  CHECK(zero.next() == 0xf88bb8a8724c81ecULL);
  rope::SplitMix64 other(1234567);
  CHECK(other.next() == 0x599ed017fb08fc85ULL);
  CHECK(other.next() == 0x2c73f08458540fa5ULL);
}

TEST_CASE("random: uniform is the top 53 bits times 2^-53", "[random]") {
  rope::SplitMix64 a(99);
  rope::SplitMix64 b(99);
  for (int i = 0; i < 100; ++i) {
    const double u = a.uniform();
    CHECK(u == static_cast<double>(b.next() >> 11) * 0x1.0p-53);
    CHECK((u >= 0.0 && u < 1.0));
  }
}

TEST_CASE("random: reference vectors", "[random][reference]") {
  // -1 + 2 u with u from SplitMix64(42): exact in double.
  CHECK(rope::random_vectors(1, 3, 42) ==
        std::vector<double>{0.4831297575436466, -0.6801792142461598, -0.4427977394897227});
  // FNV-1a("rope") = 0xa3b81c1ff11919cd, xor the first SplitMix64 output of the seed.
  CHECK(rope::hash_embedding("rope", 4, 0) ==
        std::vector<double>{-0.6159243730988586, 0.6098441899052662, 0.5032498253761519,
                            -0.9913606927587519});
  CHECK(rope::hash_embedding("rope", 4, 7) ==
        std::vector<double>{0.52996858412511, 0.8690303589420678, -0.45092620669408423,
                            0.44997503928314364});
}

// --- Properties over seeds ------------------------------------------------------------------

TEST_CASE("random: uniform(lo, hi) stays in range, normal has mean 0 and variance 1", "[random]") {
  const std::uint64_t seed = GENERATE(1u, 2u, 3u, 0xdeadbeefu);
  rope::SplitMix64 rng(seed);
  for (int i = 0; i < 1000; ++i) {
    const double u = rng.uniform(-3.0, 5.0);
    CHECK((u >= -3.0 && u < 5.0));
  }
  constexpr int kCount = 200'000;
  double sum = 0.0;
  double sum_sq = 0.0;
  for (int i = 0; i < kCount; ++i) {
    const double z = rng.normal();
    REQUIRE(std::isfinite(z));
    sum += z;
    sum_sq += z * z;
  }
  // Standard errors: mean 1/sqrt(N) = 0.0022, variance sqrt(2/N) = 0.0032; 5 sigma.
  CHECK_THAT(sum / kCount, WithinAbs(0.0, 0.012));
  CHECK_THAT(sum_sq / kCount, WithinAbs(1.0, 0.016));
}

TEST_CASE("random: hash embeddings are deterministic per word and seed", "[random]") {
  const std::string word = GENERATE("the", "cat", "sat", "", "rotary position");
  const auto a = rope::hash_embedding(word, 64, 5);
  CHECK(a.size() == 64);
  CHECK(a == rope::hash_embedding(word, 64, 5));
  CHECK(a != rope::hash_embedding(word, 64, 6));
  CHECK(a != rope::hash_embedding(word + "s", 64, 5));
  for (const double x : a)
    CHECK((x >= -1.0 && x < 1.0));
  const auto v = rope::random_vectors(7, 9, 11);
  CHECK(v.size() == 63);
  CHECK(v == rope::random_vectors(7, 9, 11));
  for (const double x : v)
    CHECK((x >= -1.0 && x < 1.0));
}

// --- Bad input ------------------------------------------------------------------------------

TEST_CASE("random: negative or huge sizes give empty vectors", "[random][errors]") {
  CHECK(rope::hash_embedding("x", -1, 0).empty());
  CHECK(rope::hash_embedding("x", 4097, 0).empty());
  CHECK(rope::hash_embedding("x", 0, 0).empty());
  CHECK(rope::random_vectors(-1, 4, 0).empty());
  CHECK(rope::random_vectors(4, std::numeric_limits<int>::min(), 0).empty());
  CHECK(rope::random_vectors(std::numeric_limits<int>::max(), std::numeric_limits<int>::max(), 0)
            .empty());
  CHECK(rope::random_vectors(4096, 4097, 0).empty());
}
