// score_timer.cpp — times RoPE Lab's fast score matrix for scripts/bench_scores.py, and writes
// one for it to check against NumPy.
//
//   score_timer time --n N --dim D [--reps R] [--threads T] [--chunk-rows C] [--kernel K]
//       R repetitions (after one warm-up) of encode_qk_fast + score_rows_fast over all N rows
//       (RoPE, base 10 000, interleaved pairs, q and k uniform in [-1, 1) per position, seeded),
//       into an output buffer allocated once, as the heatmap's is. T threads share the rows:
//       C = 0 (the default) gives each thread one contiguous block of N/T rows; C > 0 hands out
//       chunks of C rows through one counter, as the heatmap does (it uses about 2^22 / (N d)).
//       Prints one line of key=value pairs, times in ms:
//         n=2048 dim=128 threads=2 chunk_rows=0 kernel=avx2 reps=15 median_ms=… min_ms=…
//         encode_median_ms=… cpu_median_ms=… gflops=…
//       cpu_median_ms: CPU time of all threads (with 1 thread, the cost without other processes'
//       turns); gflops = 2 N^2 d / median (the multiply-adds of Q' K'^T only).
//   score_timer scores --n N --dim D --input FILE --output FILE [--kernel K]
//       q then k, each [N][D] float32 little-endian, from --input; S = Q' K'^T ([N][N] float32,
//       RoPE base 10 000 interleaved, 1 thread) to --output.
//   score_timer peak [--seconds S]
//       The fp32 multiply-add rate one thread reaches on an FMA loop with no memory traffic
//       (the widest kernel the CPU runs), in GFLOP/s: the measured peak the GEMM is held against.
//   score_timer kernels
//       The tile kernels this CPU can run, best first, one per line.
// Bad flags: "score_timer: error: ..." on stderr, exit 2.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "random_floats.h"
#include "rope/attention.h"
#include "rope/random.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define SCORE_TIMER_X86 1
#else
#define SCORE_TIMER_X86 0
#endif

namespace {

constexpr double kBase = 10000.0;
using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "score_timer: error: %s\n", message.c_str());
  std::exit(2);
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// CPU time of the whole process (every thread), ms: with one thread, what the work costs when
// other processes take turns on the core.
double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 == 1 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// score_rows_fast, or the testing hook when a kernel is named.
bool score_rows(const rope::EncodedQK& e, std::int64_t b, std::int64_t end, std::span<float> out,
                const std::string& kernel) {
  if (kernel.empty()) return rope::score_rows_fast(e, b, end, out).ok();
  return rope::testing::score_rows_fast_with(e, b, end, out, kernel).ok();
}

// Rows of S over `threads` threads (this one and threads - 1 new ones), split as --chunk-rows says.
void score_all(const rope::EncodedQK& e, std::vector<float>& s, int threads,
               std::int64_t chunk_rows, const std::string& kernel) {
  const std::int64_t n = e.n_positions;
  std::atomic<std::int64_t> next{0};
  std::atomic<bool> failed{false};
  const auto rows = [&](std::int64_t b, std::int64_t end) {
    const std::span<float> out(s.data() + b * n, static_cast<std::size_t>((end - b) * n));
    if (!score_rows(e, b, end, out, kernel)) failed = true;
  };
  const auto work = [&](int t) {
    if (chunk_rows <= 0) {  // one block of rows per thread
      rows(n * t / threads, n * (t + 1) / threads);
      return;
    }
    for (std::int64_t b = next.fetch_add(chunk_rows); b < n; b = next.fetch_add(chunk_rows))
      rows(b, std::min(n, b + chunk_rows));
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t)
    helpers.emplace_back(work, t);
  work(0);
  for (auto& h : helpers)
    h.join();
  if (failed) fail("score_rows_fast failed");
}

int time_scores(std::int64_t n, std::int64_t d, int reps, int threads, std::int64_t chunk_rows,
                const std::string& kernel) {
  const auto size = static_cast<std::size_t>(n * d);
  const auto q = random_floats(size, 2);
  const auto k = random_floats(size, 3);
  std::vector<float> s(static_cast<std::size_t>(n * n));
  std::vector<double> total, encode, cpu;
  for (int r = -1; r < reps; ++r) {  // r = -1: warm-up, not counted
    const double c0 = cpu_ms();
    const auto t0 = Clock::now();
    const auto e =
        rope::encode_qk_fast(q, k, n, d, kBase, rope::Encoding::rope, rope::Pairing::interleaved);
    if (!e) fail(e.error().parameter + ": " + e.error().message);
    const double t_encode = ms_since(t0);
    score_all(e.value(), s, threads, chunk_rows, kernel);
    const double t_total = ms_since(t0);
    const double t_cpu = cpu_ms() - c0;
    if (r >= 0) {
      cpu.push_back(t_cpu);
      total.push_back(t_total);
      encode.push_back(t_encode);
    }
  }
  const double med = median(total);
  const double flops =
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(d);
  const std::string used = kernel.empty() ? rope::testing::score_kernels().front() : kernel;
  std::printf(
      "n=%lld dim=%lld threads=%d chunk_rows=%lld kernel=%s reps=%d median_ms=%.4f min_ms=%.4f "
      "encode_median_ms=%.4f cpu_median_ms=%.4f gflops=%.2f check=%.6g\n",
      static_cast<long long>(n), static_cast<long long>(d), threads,
      static_cast<long long>(chunk_rows), used.c_str(), reps, med,
      *std::min_element(total.begin(), total.end()), median(encode), median(cpu),
      flops / (med * 1e6), static_cast<double>(s[static_cast<std::size_t>(n * n / 2 + 7)]));
  return 0;
}

int write_scores(std::int64_t n, std::int64_t d, const std::string& input,
                 const std::string& output, const std::string& kernel) {
  const auto size = static_cast<std::size_t>(n * d);
  std::vector<float> qk(2 * size);
  std::ifstream in(input, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(qk.data()),
               static_cast<std::streamsize>(qk.size() * sizeof(float))))
    fail("--input: cannot read 2 N D float32 values from '" + input + "'");
  const std::span<const float> all(qk);
  const auto e = rope::encode_qk_fast(all.first(size), all.subspan(size), n, d, kBase,
                                      rope::Encoding::rope, rope::Pairing::interleaved);
  if (!e) fail(e.error().parameter + ": " + e.error().message);
  std::vector<float> s(static_cast<std::size_t>(n * n));
  if (!score_rows(e.value(), 0, n, s, kernel)) fail("score_rows_fast failed");
  std::ofstream out(output, std::ios::binary);
  if (!out.write(reinterpret_cast<const char*>(s.data()),
                 static_cast<std::streamsize>(s.size() * sizeof(float))))
    fail("--output: cannot write '" + output + "'");
  return 0;
}

// Peak: 12 independent accumulators (enough to cover the FMA latency x throughput of current
// x86 cores: 4-5 cycles x 2 per cycle), 8 or 16 lanes each: 12 x lanes x 2 flops per iteration.
// The sum goes to a volatile so that the loop is not removed.
volatile float g_sink = 0.0f;

#if SCORE_TIMER_X86
__attribute__((target("avx2,fma"))) void fma_loop_avx2(long iterations) {
  __m256 acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm256_set1_ps(static_cast<float>(i));
  const __m256 a = _mm256_set1_ps(0.999999f);
  const __m256 b = _mm256_set1_ps(1e-7f);
  for (long it = 0; it < iterations; ++it)
    for (auto& c : acc)
      c = _mm256_fmadd_ps(c, a, b);
  __m256 sum = acc[0];
  for (int i = 1; i < 12; ++i)
    sum = _mm256_add_ps(sum, acc[i]);
  g_sink = _mm256_cvtss_f32(sum);
}

__attribute__((target("avx512f"))) void fma_loop_avx512(long iterations) {
  __m512 acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm512_set1_ps(static_cast<float>(i));
  const __m512 a = _mm512_set1_ps(0.999999f);
  const __m512 b = _mm512_set1_ps(1e-7f);
  for (long it = 0; it < iterations; ++it)
    for (auto& c : acc)
      c = _mm512_fmadd_ps(c, a, b);
  __m512 sum = acc[0];
  for (int i = 1; i < 12; ++i)
    sum = _mm512_add_ps(sum, acc[i]);
  float lanes[16];
  _mm512_storeu_ps(lanes, sum);
  g_sink = lanes[0];
}
#endif

int measure_peak(double seconds) {
#if SCORE_TIMER_X86
  __builtin_cpu_init();
  const bool wide = __builtin_cpu_supports("avx512f");
  if (!wide && !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")))
    fail("peak: needs AVX2 + FMA");
  const auto loop = wide ? fma_loop_avx512 : fma_loop_avx2;
  const double flops_per_iteration = 12.0 * (wide ? 16.0 : 8.0) * 2.0;
  constexpr long kIterations = 1 << 20;
  double best = 0.0;
  const auto start = Clock::now();
  while (ms_since(start) < seconds * 1000.0) {
    const auto t0 = Clock::now();
    loop(kIterations);
    best = std::max(best, flops_per_iteration * kIterations / (ms_since(t0) * 1e6));
  }
  std::printf("peak_gflops=%.2f isa=%s\n", best, wide ? "avx512" : "avx2");
  return 0;
#else
  (void)seconds;
  fail("peak: x86 only");
#endif
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"times RoPE Lab's fast score matrix (scripts/bench_scores.py)"};
  app.require_subcommand(1);
  std::int64_t n = 2048, d = 128, chunk_rows = 0;
  int reps = 15, threads = 1;
  std::string kernel, input, output;
  double seconds = 1.0;
  auto* time = app.add_subcommand("time", "median and minimum time of encode + score");
  auto* scores = app.add_subcommand("scores", "S for given q, k, as float32");
  auto* peak = app.add_subcommand("peak", "the FMA rate of one thread, GFLOP/s");
  auto* kernels = app.add_subcommand("kernels", "the tile kernels this CPU runs");
  for (auto* sub : {time, scores}) {
    sub->add_option("--n", n, "positions N")->check(CLI::Range(1, 4096));
    sub->add_option("--dim", d, "head dimension d (even)")->check(CLI::Range(2, 4096));
    sub->add_option("--kernel", kernel, "a name from `score_timer kernels`");
  }
  time->add_option("--reps", reps, "timed repetitions")->check(CLI::Range(1, 10000));
  time->add_option("--threads", threads, "threads sharing the rows")->check(CLI::Range(1, 64));
  time->add_option("--chunk-rows", chunk_rows, "0: a block per thread; C: chunks of C rows")
      ->check(CLI::Range(0, 4096));
  scores->add_option("--input", input, "q then k, float32")->required();
  scores->add_option("--output", output, "S, float32")->required();
  peak->add_option("--seconds", seconds, "how long to run")->check(CLI::Range(0.05, 60.0));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    fail(e.what());
  }
  if (!kernel.empty()) {
    const auto names = rope::testing::score_kernels();
    if (std::find(names.begin(), names.end(), kernel) == names.end())
      fail("--kernel: '" + kernel + "' does not run on this CPU (see `score_timer kernels`)");
  }
  if (*time) return time_scores(n, d, reps, threads, chunk_rows, kernel);
  if (*scores) return write_scores(n, d, input, output, kernel);
  if (*peak) return measure_peak(seconds);
  if (!*kernels) return 2;
  for (const auto& name : rope::testing::score_kernels())
    std::printf("%s\n", name.c_str());
  return 0;
}
