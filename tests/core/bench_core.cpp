// bench_core.cpp — timings of the core kernels (run by hand in a Release build:
//   build/release/tests/core/core_bench [--benchmark-samples 20]).
//
// 1. RoPE over 16384 float rows: dense R_m x, the element-wise RopeTable batch, and a plain
//    copy of the same buffers as the memory-traffic floor.
// 2. Score matrices, N = 2048, d = 128: random per-position content (single thread, two
//    threads splitting the rows through score_rows_fast, and the heatmap's calls of 16 rows),
//    and shared content. scripts/bench_scores.py sets the random case beside NumPy.
// 3. The low-precision angle error sweep for the precision plot: 2000 log-spaced positions from
//    1 to 10^7, d = 128 (64 pairs), per preset.
// 4. PI's Fig. 2 fit, d = 128, L = 2048 (redone on every "Re-roll" click), and its three panels.
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "random_floats.h"
#include "rope/attention.h"
#include "rope/extrapolation.h"
#include "rope/frequencies.h"
#include "rope/low_precision.h"
#include "rope/random.h"
#include "rope/rotation.h"

namespace {

constexpr std::size_t kRows = 16384;

}  // namespace

TEST_CASE("RoPE over 16384 rows: copy floor, efficient batch, dense") {
  for (const int dim : {64, 128, 1024}) {
    const auto d = static_cast<std::size_t>(dim);
    const auto thetas = rope::frequencies(dim, 10000.0).value();
    std::vector<double> positions(kRows);
    for (std::size_t p = 0; p < kRows; ++p)
      positions[p] = static_cast<double>(p);
    const auto x = random_floats(kRows * d, 1);
    std::vector<float> y(x.size());
    const rope::RopeTable<float> table(positions, thetas);
    const std::string tag = " d=" + std::to_string(dim);

    BENCHMARK("copy (memory floor)" + tag + " 16384 rows") {
      std::copy(x.begin(), x.end(), y.begin());
      return y[kRows / 2];
    };
    BENCHMARK("efficient batch interleaved" + tag + " 16384 rows") {
      rope::apply_rope_batch<float>(table, x, y, rope::Pairing::interleaved);
      return y[kRows / 2];
    };
    BENCHMARK("efficient batch half-split" + tag + " 16384 rows") {
      rope::apply_rope_batch<float>(table, x, y, rope::Pairing::half_split);
      return y[kRows / 2];
    };
    // Dense d = 1024 costs d^2 per row; time 1024 rows and multiply by 16 for 16384.
    const std::size_t dense_rows = dim >= 1024 ? 1024 : kRows;
    std::vector<float> scratch(d * d);
    const std::span<const double> dense_pos(positions.data(), dense_rows);
    const std::span<const float> dense_x(x.data(), dense_rows * d);
    const std::span<float> dense_y(y.data(), dense_rows * d);
    BENCHMARK("dense R_m x interleaved" + tag + " " + std::to_string(dense_rows) + " rows") {
      rope::apply_rope_batch_dense<float>(dense_pos, thetas, dense_x, dense_y,
                                          rope::Pairing::interleaved, scratch);
      return y[0];
    };
  }
}

TEST_CASE("Score matrix N=2048 d=128") {
  constexpr std::int64_t kN = 2048;
  constexpr std::int64_t kDim = 128;
  const auto q = random_floats(kN * kDim, 2);
  const auto k = random_floats(kN * kDim, 3);
  const auto q1 = random_floats(kDim, 4);
  const auto k1 = random_floats(kDim, 5);

  BENCHMARK("score_matrix_fast rope, random content, 1 thread") {
    return rope::score_matrix_fast(q, k, kN, kDim, 10000.0, rope::Encoding::rope,
                                   rope::Pairing::interleaved)
        .value()[7];
  };
  BENCHMARK("score_matrix_fast sinusoidal, random content, 1 thread") {
    return rope::score_matrix_fast(q, k, kN, kDim, 10000.0, rope::Encoding::sinusoidal,
                                   rope::Pairing::interleaved)
        .value()[7];
  };
  BENCHMARK("encode_qk_fast rope (the O(N d) part)") {
    return rope::encode_qk_fast(q, k, kN, kDim, 10000.0, rope::Encoding::rope,
                                rope::Pairing::interleaved)
        .value()
        .q[7];
  };
  // Two threads of the benchmark's own, each computing half of the rows with score_rows_fast.
  BENCHMARK("score_rows_fast rope, random content, 2 threads (encode + split rows)") {
    const auto encoded = rope::encode_qk_fast(q, k, kN, kDim, 10000.0, rope::Encoding::rope,
                                              rope::Pairing::interleaved);
    std::vector<float> s(static_cast<std::size_t>(kN * kN));
    constexpr std::int64_t kHalf = kN / 2;
    std::thread worker([&] {
      (void)rope::score_rows_fast(
          encoded.value(), kHalf, kN,
          std::span<float>(s).subspan(static_cast<std::size_t>(kHalf * kN)));
    });
    (void)rope::score_rows_fast(encoded.value(), 0, kHalf,
                                std::span<float>(s).first(static_cast<std::size_t>(kHalf * kN)));
    worker.join();
    return s[7];
  };
  // The heatmap asks for about 2^22 / (N d) = 16 rows per call: K' is packed once by
  // encode_qk_fast, not in every call.
  BENCHMARK("score_rows_fast rope, random content, 1 thread, calls of 16 rows (the heatmap's)") {
    const auto encoded = rope::encode_qk_fast(q, k, kN, kDim, 10000.0, rope::Encoding::rope,
                                              rope::Pairing::interleaved);
    std::vector<float> s(static_cast<std::size_t>(kN * kN));
    constexpr std::int64_t kRowsPerCall = 16;
    for (std::int64_t b = 0; b < kN; b += kRowsPerCall)
      (void)rope::score_rows_fast(
          encoded.value(), b, b + kRowsPerCall,
          std::span<float>(s).subspan(static_cast<std::size_t>(b * kN),
                                      static_cast<std::size_t>(kRowsPerCall * kN)));
    return s[7];
  };
  BENCHMARK("score_matrix_shared rope, shared content") {
    return rope::score_matrix_shared(q1, k1, kN, kDim, 10000.0, rope::Encoding::rope,
                                     rope::Pairing::interleaved)
        .value()[7];
  };
  BENCHMARK("score_matrix_shared sinusoidal, shared content") {
    return rope::score_matrix_shared(q1, k1, kN, kDim, 10000.0, rope::Encoding::sinusoidal,
                                     rope::Pairing::interleaved)
        .value()[7];
  };
}

TEST_CASE("Angle error sweep: 2000 positions x 64 pairs") {
  const auto positions = rope::log_spaced_positions(2000, 1e7).value();
  for (const char* name : {"fp32", "bf16", "fp16", "fix"}) {
    const auto formats = rope::parse_precision_preset(name).value();
    BENCHMARK(std::string("sweep_angle_error ") + name + ", d=128, 2000 positions") {
      return rope::sweep_angle_error(128, 10000.0, formats, positions).value().max_abs_error[7];
    };
  }
  const auto bf16 = rope::parse_precision_preset("bf16").value();
  BENCHMARK("pair_angle_errors bf16, d=128, 2000 positions (per pair, float)") {
    return rope::pair_angle_errors(128, 10000.0, bf16, positions).value()[7];
  };
}

TEST_CASE("PI Fig. 2 fit d=128 L=2048") {
  std::uint64_t seed = 1;
  BENCHMARK("fit_random_target d=128 base=1e4 L=2048 (a new seed each run)") {
    return rope::fit_random_target(128, 10000.0, 2048, seed++).value().rank;
  };
  const auto fit = rope::fit_random_target(128, 10000.0, 2048, 1).value();
  BENCHMARK("evaluate_fit_range the three panels: [0, 2048), [0, 4096) step 1, [25, 75) step 1/8") {
    return rope::evaluate_fit_range(fit, 0.0, 2048.0, 1.0).value()[7] +
           rope::evaluate_fit_range(fit, 0.0, 4096.0, 1.0).value()[7] +
           rope::evaluate_fit_range(fit, 25.0, 75.0, 0.125).value()[7];
  };
  BENCHMARK("b_over_d d=128 s=0..4095") {
    return rope::b_over_d(128, 10000.0, 4095).value()[7];
  };
}
