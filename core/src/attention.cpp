// attention.cpp — score matrices (reference, fast, shared content), score transforms and
// linear attention.
//
// [SECTION] Names and validation
// [SECTION] Encoding rows
// [SECTION] Reference score matrix (double)
// [SECTION] Fast score matrix (float GEMM)
// [SECTION] Shared content: O(N d + N^2)
// [SECTION] Score transforms
// [SECTION] Linear attention
#include "rope/attention.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>

#include "internal.h"
#include "rope/frequencies.h"
#include "rope/rotation.h"
#include "rope/sinusoidal.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
// The x86 tile kernels (AVX2 + FMA, AVX-512) are compiled with per-function target attributes
// and picked at run time; elsewhere (the browser build, ARM) only the portable kernel exists.
#include <immintrin.h>
#define ROPE_HAVE_X86_KERNELS 1
#else
#define ROPE_HAVE_X86_KERNELS 0
#endif

namespace rope {

// [SECTION] Names and validation -------------------------------------------------------------

const char* encoding_name(Encoding e) {
  switch (e) {
    case Encoding::none:
      return "none";
    case Encoding::sinusoidal:
      return "sinusoidal";
    case Encoding::rope:
      return "rope";
  }
  return "none";
}

std::optional<Encoding> parse_encoding(std::string_view name) {
  if (name == "none") return Encoding::none;
  if (name == "sinusoidal") return Encoding::sinusoidal;
  if (name == "rope") return Encoding::rope;
  return std::nullopt;
}

namespace {

constexpr std::int64_t kMaxPositions = 4096;
constexpr std::int64_t kMaxValueDim = 4096;

Status validate_common(std::int64_t n_positions, std::int64_t dim, double base) {
  if (auto s = validate_dim(dim); !s) return s;
  if (auto s = validate_base(base); !s) return s;
  return validate_count(n_positions, kMaxPositions, "positions");
}

// A [rows][cols] buffer named `parameter` must have rows*cols entries.
Status validate_shape(std::size_t size, std::int64_t rows, std::int64_t cols, const char* parameter,
                      const char* shape) {
  const auto expected = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (size != expected) {
    return detail::size_error(
        parameter, expected, size,
        std::string(shape) + " = [" + std::to_string(rows) + "][" + std::to_string(cols) + "]");
  }
  return {};
}

// The checks every entry point taking per-position q and k ([N][d] each) starts with.
Status validate_step(double step) {
  if (!(std::isfinite(step) && step > 0.0))
    return Error{"position_step", "must be a finite number greater than 0"};
  return {};
}

// θ_i · step: a position p·step at θ is the position p at θ·step, for the rotation and for the
// sinusoidal encoding alike, so a stride is a change of the frequencies alone.
std::vector<double> stepped_frequencies(std::int64_t dim, double base, double step) {
  std::vector<double> thetas = frequencies(dim, base).value();
  if (step != 1.0)
    for (double& t : thetas)
      t *= step;
  return thetas;
}

Status validate_qk(std::size_t q_size, std::size_t k_size, std::int64_t n_positions,
                   std::int64_t dim, double base) {
  if (auto s = validate_common(n_positions, dim, base); !s) return s;
  if (auto s = validate_shape(q_size, n_positions, dim, "q", "[positions][dim]"); !s) return s;
  return validate_shape(k_size, n_positions, dim, "k", "[positions][dim]");
}

// [SECTION] Encoding rows --------------------------------------------------------------------

// x'_p for p = 0 ... N-1 in double with exact angles; x is [N][d].
std::vector<double> encode_rows_reference(std::span<const double> x, std::size_t n, std::size_t d,
                                          std::span<const double> thetas, Encoding encoding,
                                          Pairing pairing) {
  std::vector<double> out(x.begin(), x.end());
  for (std::size_t p = 0; p < n && encoding != Encoding::none; ++p) {
    const auto row_in = x.subspan(p * d, d);
    const auto row_out = std::span<double>(out).subspan(p * d, d);
    if (encoding == Encoding::rope) {
      apply_rope<double>(row_in, row_out, static_cast<double>(p), thetas, pairing);
    } else {
      const auto pe = sinusoidal_vector(static_cast<double>(p), thetas);
      for (std::size_t j = 0; j < d; ++j)
        row_out[j] += pe[j];
    }
  }
  return out;
}

// One row x' of the fast path at the phasors (c, s) of its position ([d/2] each); x, y: [d].
// Arithmetic in double, rounded to float once per entry. One loop per encoding and pairing, so
// that each is a plain loop the compiler vectorises.
void encode_row_fast(const float* x, float* y, std::size_t half, const double* c, const double* s,
                     Encoding encoding, Pairing pairing) {
  if (encoding == Encoding::rope && pairing == Pairing::interleaved) {
    for (std::size_t i = 0; i < half; ++i) {
      const auto xa = static_cast<double>(x[2 * i]);
      const auto xb = static_cast<double>(x[2 * i + 1]);
      y[2 * i] = static_cast<float>(xa * c[i] - xb * s[i]);
      y[2 * i + 1] = static_cast<float>(xa * s[i] + xb * c[i]);
    }
  } else if (encoding == Encoding::rope) {
    for (std::size_t i = 0; i < half; ++i) {
      const auto xa = static_cast<double>(x[i]);
      const auto xb = static_cast<double>(x[i + half]);
      y[i] = static_cast<float>(xa * c[i] - xb * s[i]);
      y[i + half] = static_cast<float>(xa * s[i] + xb * c[i]);
    }
  } else if (encoding == Encoding::sinusoidal) {  // PE is (sin, cos) per block
    for (std::size_t i = 0; i < half; ++i) {
      y[2 * i] = static_cast<float>(static_cast<double>(x[2 * i]) + s[i]);
      y[2 * i + 1] = static_cast<float>(static_cast<double>(x[2 * i + 1]) + c[i]);
    }
  } else {
    std::copy(x, x + 2 * half, y);
  }
}

}  // namespace

// [SECTION] Reference score matrix (double) --------------------------------------------------

Result<std::vector<double>> score_matrix(std::span<const double> q, std::span<const double> k,
                                         std::int64_t n_positions, std::int64_t dim, double base,
                                         Encoding encoding, Pairing pairing) {
  if (auto s = validate_qk(q.size(), k.size(), n_positions, dim, base); !s) return s.error();
  const auto n = static_cast<std::size_t>(n_positions);
  const auto d = static_cast<std::size_t>(dim);
  const auto thetas = frequencies(dim, base).value();
  const auto qe = encode_rows_reference(q, n, d, thetas, encoding, pairing);
  const auto ke = encode_rows_reference(k, n, d, thetas, encoding, pairing);
  std::vector<double> s(n * n);
  for (std::size_t m = 0; m < n; ++m) {
    for (std::size_t j = 0; j < n; ++j) {
      double acc = 0.0;
      for (std::size_t i = 0; i < d; ++i)
        acc += qe[m * d + i] * ke[j * d + i];
      s[m * n + j] = acc;
    }
  }
  return s;
}

// [SECTION] Fast score matrix (float GEMM) ---------------------------------------------------
//
// S = Q' K'^T with Q', K' row-major [N][d] in float: N^2 d multiply-adds, 2 N^2 d flops.
//
// Layout. encode_qk_fast packs K' once into panels of kPanel = 48 keys (pack_key_panels): for
// each depth chunk k0 = 0, kKc, 2 kKc, ... (kc = min(kKc, d - k0) entries) and each panel, a
// contiguous [kc][48] block, keys past N zero. A tile kernel reads `cols` = 16, 24 or 48 of the
// 48 columns (one, two or three vectors per row of the panel) and broadcasts entries of `mr`
// rows of Q' straight from Q' (no copy), so that one depth step is `mr` x `cols` multiply-adds
// held in registers. Packing once matters: the heatmap asks for about 2^22 / (N d) rows per call
// (16 at N = 2048, 8 at N = 4096, d = 128), and repacking all of K' for every such call cost as
// much as the multiply-adds it fed. mr = 4 and 8 divide those row counts, so no tile is wasted.
//
// Kernels (picked at run time by what the CPU has; testing::score_kernels lists them):
//   avx512   8 x 48: 24 of the 32 zmm registers accumulate; per depth step 3 loads of K',
//            8 broadcasts of Q', 24 FMA
//   avx2     4 x 24: 12 of the 16 ymm registers accumulate; 3 loads, 4 broadcasts, 12 FMA (12
//            independent sums cover the FMA latency x throughput of 4-5 cycles x 2 per cycle)
//   generic  4 x 16 in GCC vectors of 4 floats (SSE2, NEON, WebAssembly SIMD128 with -msimd128)
// Blocking: keys in blocks of kNc (a block of panels, kc x kNc floats = 240 KiB at kc = 128,
// stays in L2), rows in blocks of kMc; inside, for each tile of `cols` keys (its part of the
// panel, <= 24 KiB, stays in L1) every `mr`-row sliver of the row block.
//
// Error bound (fp32 score ŝ against s = q'·k' with the rotations exact):
//   |ŝ − s| ≤ γ_{d+2} Σ_i |q'_i| |k'_i|,   γ_n = n u / (1 − n u),  u = 2^-24,
// from the roundings of q' and k' to float (one relative error ≤ u each: the rotation itself
// runs in double, so it adds ≈ 2^-50 relative, left out) and the float dot product of length d
// in any order of summation, with or without FMA (≤ γ_d relative to Σ|a_i b_i|; Higham,
// Accuracy and Stability, 2nd ed., §3.1): (1+δ)(1+ε)(1+θ_d) = 1 + θ_{d+2}. For d = 128,
// γ_130 = 7.75e-6: with q, k uniform in [-1, 1), Σ|q'_i||k'_i| ≈ 32, the bound is ≈ 2.5e-4 while
// the scores spread over about ±10; tests check it entry by entry, and the measured worst case
// is far below it (README, performance). The heatmap colours come from ŝ; its hover read-out and
// the exports use the fp64 path.

namespace {

constexpr std::size_t kPanel = 48;    // keys per packed panel: lcm of the tile widths 16, 24, 48
constexpr std::size_t kKc = 256;      // depth chunk: d <= 256 is one chunk, written once
constexpr std::size_t kNc = 10 * 48;  // keys per L2 block (whole panels)
// Rows per block (a multiple of every kernel's mr): 32 rows of Q' (16 KiB at d = 128) stay in L1
// beside the tile's part of the panel. 96 rows (48 KiB) did not: on a Xeon with AVX-512
// (2026-12-07, one pinned thread, N = 2048) 96 took 9.9 ms at d = 128 and 11.4 ms at d = 64,
// 32 takes 8.0 and 4.3 ms; the AVX2 kernel gains 3 %.
constexpr std::size_t kMc = 32;
constexpr std::size_t kMaxMr = 8;

// Keys in the packed layout: N rounded up to whole panels.
std::size_t padded_keys(std::size_t n) {
  return (n + kPanel - 1) / kPanel * kPanel;
}

// K' ([n][d]) in the layout above: chunk k0 at k0 * padded_keys(n), in it panel p at
// p * kc * kPanel, entry [kk][j] = K'[p kPanel + j][k0 + kk]. Sequential reads; the writes of
// one panel stay in L1.
std::vector<float> pack_key_panels(const float* k, std::size_t n, std::size_t d) {
  const std::size_t np = padded_keys(n);
  std::vector<float> out(d * np);  // zeros: the padding keys
  for (std::size_t k0 = 0; k0 < d; k0 += kKc) {
    const std::size_t kc = std::min(kKc, d - k0);
    float* chunk = out.data() + k0 * np;
    for (std::size_t key = 0; key < n; ++key) {
      const float* src = k + key * d + k0;
      float* dst = chunk + (key / kPanel) * kc * kPanel + key % kPanel;
      for (std::size_t kk = 0; kk < kc; ++kk)
        dst[kk * kPanel] = src[kk];
    }
  }
  return out;
}

// a[r]: row r of the sliver at depth k0 (rows from `rows` on repeat the last valid row: read
// and computed, never stored); bp: the tile's first column in its panel, row stride kPanel;
// c: S[m0][n0] with row stride ldc. Stores rows x cols of the tile, or adds it (`accumulate`,
// depth chunks after the first).
using TileFn = void (*)(const float* const* a, const float* bp, std::size_t kc, float* c,
                        std::size_t ldc, std::size_t rows, std::size_t cols, bool accumulate);
struct TileKernel {
  const char* name;
  std::size_t mr;    // rows per tile
  std::size_t cols;  // keys per tile, a divisor of kPanel
  TileFn run;
};

// The ragged edge: a tile held as [rows][ld] floats into S.
void store_tile(const float* tile, std::size_t ld, float* c, std::size_t ldc, std::size_t rows,
                std::size_t cols, bool accumulate) {
  for (std::size_t r = 0; r < rows; ++r) {
    float* cr = c + r * ldc;
    const float* tr = tile + r * ld;
    for (std::size_t j = 0; j < cols; ++j)
      cr[j] = (accumulate ? cr[j] : 0.0f) + tr[j];
  }
}

// Portable kernel, 4 x 16: GCC vector types of 4 floats, two rows at a time so that the 2 x 4
// vector accumulators stay in registers; the panel is re-read from L1.
using Float4 = float __attribute__((vector_size(16)));
constexpr std::size_t kGenericMr = 4;
constexpr std::size_t kGenericCols = 16;

void tile_kernel_generic(const float* const* a, const float* bp, std::size_t kc, float* c,
                         std::size_t ldc, std::size_t rows, std::size_t cols, bool accumulate) {
  constexpr std::size_t kVecs = kGenericCols / 4;
  float acc[kGenericMr][kGenericCols] = {};
  for (std::size_t r = 0; r < rows; r += 2) {
    Float4 top[kVecs] = {};
    Float4 bottom[kVecs] = {};
    const float* a0 = a[r];
    const float* a1 = a[r + 1];
    for (std::size_t kk = 0; kk < kc; ++kk) {
      const float v0 = a0[kk];
      const float v1 = a1[kk];
#pragma GCC unroll 4
      for (std::size_t j = 0; j < kVecs; ++j) {
        Float4 b;
        std::memcpy(&b, bp + kk * kPanel + 4 * j, sizeof b);
        top[j] += v0 * b;
        bottom[j] += v1 * b;
      }
    }
    std::memcpy(acc[r], top, sizeof top);
    std::memcpy(acc[r + 1], bottom, sizeof bottom);
  }
  store_tile(acc[0], kGenericCols, c, ldc, rows, cols, accumulate);
}

#if ROPE_HAVE_X86_KERNELS
constexpr std::size_t kAvx2Mr = 4;
constexpr std::size_t kAvx2Cols = 24;

__attribute__((target("avx2,fma"))) void tile_kernel_avx2(const float* const* a, const float* bp,
                                                          std::size_t kc, float* c, std::size_t ldc,
                                                          std::size_t rows, std::size_t cols,
                                                          bool accumulate) {
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps(), c02 = _mm256_setzero_ps();
  __m256 c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps(), c12 = _mm256_setzero_ps();
  __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps(), c22 = _mm256_setzero_ps();
  __m256 c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps(), c32 = _mm256_setzero_ps();
  const float* a0 = a[0];
  const float* a1 = a[1];
  const float* a2 = a[2];
  const float* a3 = a[3];
  for (std::size_t kk = 0; kk < kc; ++kk) {
    const float* b = bp + kk * kPanel;
    const __m256 b0 = _mm256_loadu_ps(b);
    const __m256 b1 = _mm256_loadu_ps(b + 8);
    const __m256 b2 = _mm256_loadu_ps(b + 16);
    __m256 av = _mm256_broadcast_ss(a0 + kk);
    c00 = _mm256_fmadd_ps(av, b0, c00);
    c01 = _mm256_fmadd_ps(av, b1, c01);
    c02 = _mm256_fmadd_ps(av, b2, c02);
    av = _mm256_broadcast_ss(a1 + kk);
    c10 = _mm256_fmadd_ps(av, b0, c10);
    c11 = _mm256_fmadd_ps(av, b1, c11);
    c12 = _mm256_fmadd_ps(av, b2, c12);
    av = _mm256_broadcast_ss(a2 + kk);
    c20 = _mm256_fmadd_ps(av, b0, c20);
    c21 = _mm256_fmadd_ps(av, b1, c21);
    c22 = _mm256_fmadd_ps(av, b2, c22);
    av = _mm256_broadcast_ss(a3 + kk);
    c30 = _mm256_fmadd_ps(av, b0, c30);
    c31 = _mm256_fmadd_ps(av, b1, c31);
    c32 = _mm256_fmadd_ps(av, b2, c32);
  }
  const __m256 acc[kAvx2Mr][3] = {
      {c00, c01, c02}, {c10, c11, c12}, {c20, c21, c22}, {c30, c31, c32}};
  if (rows == kAvx2Mr && cols == kAvx2Cols) {
    for (std::size_t r = 0; r < kAvx2Mr; ++r) {
      float* cr = c + r * ldc;
      for (std::size_t v = 0; v < 3; ++v) {
        __m256 x = acc[r][v];
        if (accumulate) x = _mm256_add_ps(x, _mm256_loadu_ps(cr + 8 * v));
        _mm256_storeu_ps(cr + 8 * v, x);
      }
    }
    return;
  }
  float tile[kAvx2Mr][kAvx2Cols];
  for (std::size_t r = 0; r < kAvx2Mr; ++r)
    for (std::size_t v = 0; v < 3; ++v)
      _mm256_storeu_ps(tile[r] + 8 * v, acc[r][v]);
  store_tile(tile[0], kAvx2Cols, c, ldc, rows, cols, accumulate);
}

// The AVX2 kernel's scheme with twice the rows and twice the vector width: 8 x 48, 24 zmm
// accumulators. Measured on a 2-core Xeon with AVX-512 (2026-12-07): 7.7 ms for N = 2048,
// d = 128 on one thread, encode included (multiply-adds at about 85 % of the FMA peak).
constexpr std::size_t kAvx512Mr = 8;
constexpr std::size_t kAvx512Cols = 48;

__attribute__((target("avx512f"))) void tile_kernel_avx512(const float* const* a, const float* bp,
                                                           std::size_t kc, float* c,
                                                           std::size_t ldc, std::size_t rows,
                                                           std::size_t cols, bool accumulate) {
  __m512 c00 = _mm512_setzero_ps(), c01 = _mm512_setzero_ps(), c02 = _mm512_setzero_ps();
  __m512 c10 = _mm512_setzero_ps(), c11 = _mm512_setzero_ps(), c12 = _mm512_setzero_ps();
  __m512 c20 = _mm512_setzero_ps(), c21 = _mm512_setzero_ps(), c22 = _mm512_setzero_ps();
  __m512 c30 = _mm512_setzero_ps(), c31 = _mm512_setzero_ps(), c32 = _mm512_setzero_ps();
  __m512 c40 = _mm512_setzero_ps(), c41 = _mm512_setzero_ps(), c42 = _mm512_setzero_ps();
  __m512 c50 = _mm512_setzero_ps(), c51 = _mm512_setzero_ps(), c52 = _mm512_setzero_ps();
  __m512 c60 = _mm512_setzero_ps(), c61 = _mm512_setzero_ps(), c62 = _mm512_setzero_ps();
  __m512 c70 = _mm512_setzero_ps(), c71 = _mm512_setzero_ps(), c72 = _mm512_setzero_ps();
  const float* a0 = a[0];
  const float* a1 = a[1];
  const float* a2 = a[2];
  const float* a3 = a[3];
  const float* a4 = a[4];
  const float* a5 = a[5];
  const float* a6 = a[6];
  const float* a7 = a[7];
  for (std::size_t kk = 0; kk < kc; ++kk) {
    const float* b = bp + kk * kPanel;
    const __m512 b0 = _mm512_loadu_ps(b);
    const __m512 b1 = _mm512_loadu_ps(b + 16);
    const __m512 b2 = _mm512_loadu_ps(b + 32);
    __m512 av;
    av = _mm512_set1_ps(a0[kk]);
    c00 = _mm512_fmadd_ps(av, b0, c00);
    c01 = _mm512_fmadd_ps(av, b1, c01);
    c02 = _mm512_fmadd_ps(av, b2, c02);
    av = _mm512_set1_ps(a1[kk]);
    c10 = _mm512_fmadd_ps(av, b0, c10);
    c11 = _mm512_fmadd_ps(av, b1, c11);
    c12 = _mm512_fmadd_ps(av, b2, c12);
    av = _mm512_set1_ps(a2[kk]);
    c20 = _mm512_fmadd_ps(av, b0, c20);
    c21 = _mm512_fmadd_ps(av, b1, c21);
    c22 = _mm512_fmadd_ps(av, b2, c22);
    av = _mm512_set1_ps(a3[kk]);
    c30 = _mm512_fmadd_ps(av, b0, c30);
    c31 = _mm512_fmadd_ps(av, b1, c31);
    c32 = _mm512_fmadd_ps(av, b2, c32);
    av = _mm512_set1_ps(a4[kk]);
    c40 = _mm512_fmadd_ps(av, b0, c40);
    c41 = _mm512_fmadd_ps(av, b1, c41);
    c42 = _mm512_fmadd_ps(av, b2, c42);
    av = _mm512_set1_ps(a5[kk]);
    c50 = _mm512_fmadd_ps(av, b0, c50);
    c51 = _mm512_fmadd_ps(av, b1, c51);
    c52 = _mm512_fmadd_ps(av, b2, c52);
    av = _mm512_set1_ps(a6[kk]);
    c60 = _mm512_fmadd_ps(av, b0, c60);
    c61 = _mm512_fmadd_ps(av, b1, c61);
    c62 = _mm512_fmadd_ps(av, b2, c62);
    av = _mm512_set1_ps(a7[kk]);
    c70 = _mm512_fmadd_ps(av, b0, c70);
    c71 = _mm512_fmadd_ps(av, b1, c71);
    c72 = _mm512_fmadd_ps(av, b2, c72);
  }
  const __m512 acc[kAvx512Mr][3] = {{c00, c01, c02}, {c10, c11, c12}, {c20, c21, c22},
                                    {c30, c31, c32}, {c40, c41, c42}, {c50, c51, c52},
                                    {c60, c61, c62}, {c70, c71, c72}};
  if (rows == kAvx512Mr && cols == kAvx512Cols) {  // a whole tile straight to S: 2-3 % faster
    for (std::size_t r = 0; r < kAvx512Mr; ++r) {
      float* cr = c + r * ldc;
      for (std::size_t v = 0; v < 3; ++v) {
        __m512 x = acc[r][v];
        if (accumulate) x = _mm512_add_ps(x, _mm512_loadu_ps(cr + 16 * v));
        _mm512_storeu_ps(cr + 16 * v, x);
      }
    }
    return;
  }
  float tile[kAvx512Mr][kAvx512Cols];
  for (std::size_t r = 0; r < kAvx512Mr; ++r)
    for (std::size_t v = 0; v < 3; ++v)
      _mm512_storeu_ps(tile[r] + 16 * v, acc[r][v]);
  store_tile(tile[0], kAvx512Cols, c, ldc, rows, cols, accumulate);
}
#endif

static_assert(kPanel % kGenericCols == 0 && kMc % kGenericMr == 0 && kGenericMr <= kMaxMr);
#if ROPE_HAVE_X86_KERNELS
static_assert(kPanel % kAvx2Cols == 0 && kMc % kAvx2Mr == 0 && kAvx2Mr <= kMaxMr);
static_assert(kPanel % kAvx512Cols == 0 && kMc % kAvx512Mr == 0 && kAvx512Mr <= kMaxMr);
#endif
static_assert(kNc % kPanel == 0);

// The kernels this CPU runs, best first (the generic one always).
std::vector<TileKernel> runnable_kernels() {
  std::vector<TileKernel> out;
#if ROPE_HAVE_X86_KERNELS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    out.push_back({"avx512", kAvx512Mr, kAvx512Cols, tile_kernel_avx512});
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    out.push_back({"avx2", kAvx2Mr, kAvx2Cols, tile_kernel_avx2});

#endif
  out.push_back({"generic", kGenericMr, kGenericCols, tile_kernel_generic});
  return out;
}

// Rows [row_begin, row_end) of Q' K'^T into out ([row_end - row_begin][n]); sizes checked.
// `panels`: pack_key_panels of K'.
void gemm_rows(const float* q, const float* panels, std::size_t n, std::size_t d,
               std::size_t row_begin, std::size_t row_end, float* out, const TileKernel& kernel) {
  const std::size_t np = padded_keys(n);
  for (std::size_t k0 = 0; k0 < d; k0 += kKc) {
    const std::size_t kc = std::min(kKc, d - k0);
    const float* chunk = panels + k0 * np;
    for (std::size_t n0 = 0; n0 < n; n0 += kNc) {
      const std::size_t n1 = std::min(n, n0 + kNc);
      for (std::size_t mb = row_begin; mb < row_end; mb += kMc) {
        const std::size_t mb_end = std::min(row_end, mb + kMc);
        for (std::size_t j0 = n0; j0 < n1; j0 += kernel.cols) {
          const std::size_t cols = std::min(kernel.cols, n1 - j0);
          const float* bp = chunk + (j0 / kPanel) * kc * kPanel + j0 % kPanel;
          for (std::size_t m0 = mb; m0 < mb_end; m0 += kernel.mr) {
            const std::size_t rows = std::min(kernel.mr, mb_end - m0);
            const float* a[kMaxMr];
            for (std::size_t r = 0; r < kernel.mr; ++r)
              a[r] = q + (m0 + std::min(r, rows - 1)) * d + k0;
            kernel.run(a, bp, kc, out + (m0 - row_begin) * n + j0, n, rows, cols, k0 > 0);
          }
        }
      }
    }
  }
}

// score_rows_fast's checks; `out` as score_rows_fast's.
Status validate_rows(const EncodedQK& encoded, std::int64_t row_begin, std::int64_t row_end,
                     std::size_t out_size) {
  const std::int64_t n = encoded.n_positions;
  if (auto s = validate_dim(encoded.dim); !s) return s;
  if (auto s = validate_count(n, kMaxPositions, "positions"); !s) return s;
  if (auto s = validate_shape(encoded.q.size(), n, encoded.dim, "q", "[positions][dim]"); !s) {
    return s;
  }
  if (auto s = validate_shape(encoded.k.size(), n, encoded.dim, "k", "[positions][dim]"); !s) {
    return s;
  }
  if (row_begin < 0 || row_begin > n) {
    return Error{"row_begin", "must be an integer from 0 to " + std::to_string(n) + ", got " +
                                  std::to_string(row_begin)};
  }
  if (row_end < row_begin || row_end > n) {
    return Error{"row_end", "must be an integer from " + std::to_string(row_begin) + " to " +
                                std::to_string(n) + ", got " + std::to_string(row_end)};
  }
  return validate_shape(out_size, row_end - row_begin, n, "out",
                        "[row_end - row_begin][positions]");
}

// The rows with `kernel`, from encoded.k_panels when it is K' packed (encode_qk_fast made it)
// and from a packing of its own otherwise.
Status score_rows_with(const EncodedQK& encoded, std::int64_t row_begin, std::int64_t row_end,
                       std::span<float> out, const TileKernel& kernel) {
  if (auto s = validate_rows(encoded, row_begin, row_end, out.size()); !s) return s;
  const auto n = static_cast<std::size_t>(encoded.n_positions);
  const auto d = static_cast<std::size_t>(encoded.dim);
  if (row_begin == row_end) return {};
  std::vector<float> own;
  const float* panels = encoded.k_panels.data();
  if (encoded.k_panels.size() != d * padded_keys(n)) {
    own = pack_key_panels(encoded.k.data(), n, d);
    panels = own.data();
  }
  gemm_rows(encoded.q.data(), panels, n, d, static_cast<std::size_t>(row_begin),
            static_cast<std::size_t>(row_end), out.data(), kernel);
  return {};
}

}  // namespace

Result<EncodedQK> encode_qk_fast(std::span<const float> q, std::span<const float> k,
                                 std::int64_t n_positions, std::int64_t dim, double base,
                                 Encoding encoding, Pairing pairing, double position_step) {
  if (auto s = validate_qk(q.size(), k.size(), n_positions, dim, base); !s) return s.error();
  if (auto s = validate_step(position_step); !s) return s.error();
  const auto n = static_cast<std::size_t>(n_positions);
  const auto d = static_cast<std::size_t>(dim);
  const auto thetas = stepped_frequencies(dim, base, position_step);
  EncodedQK e;
  e.n_positions = n_positions;
  e.dim = dim;
  e.q.resize(n * d);
  e.k.resize(n * d);
  // q and k of a position share its phasors: one PhasorStepper for both halves the sincos calls
  detail::PhasorStepper ph(thetas);
  for (std::size_t p = 0; p < n; ++p, ph.advance()) {
    const double* c = ph.cos().data();
    const double* s = ph.sin().data();
    encode_row_fast(q.data() + p * d, e.q.data() + p * d, d / 2, c, s, encoding, pairing);
    encode_row_fast(k.data() + p * d, e.k.data() + p * d, d / 2, c, s, encoding, pairing);
  }
  e.k_panels = pack_key_panels(e.k.data(), n, d);
  return e;
}

Status score_rows_fast(const EncodedQK& encoded, std::int64_t row_begin, std::int64_t row_end,
                       std::span<float> out) {
  return score_rows_with(encoded, row_begin, row_end, out, runnable_kernels().front());
}

Result<std::vector<float>> score_matrix_fast(std::span<const float> q, std::span<const float> k,
                                             std::int64_t n_positions, std::int64_t dim,
                                             double base, Encoding encoding, Pairing pairing) {
  auto encoded = encode_qk_fast(q, k, n_positions, dim, base, encoding, pairing);
  if (!encoded) return encoded.error();
  const auto n = static_cast<std::size_t>(n_positions);
  std::vector<float> s(n * n);
  if (auto st = score_rows_fast(encoded.value(), 0, n_positions, s); !st) return st.error();
  return s;
}

namespace testing {

std::vector<std::string> score_kernels() {
  std::vector<std::string> names;
  for (const TileKernel& kernel : runnable_kernels())
    names.emplace_back(kernel.name);
  return names;
}

Status score_rows_fast_with(const EncodedQK& encoded, std::int64_t row_begin, std::int64_t row_end,
                            std::span<float> out, std::string_view kernel) {
  for (const TileKernel& k : runnable_kernels())
    if (kernel == k.name) return score_rows_with(encoded, row_begin, row_end, out, k);
  return Error{"kernel",
               "must be one of the kernels this CPU runs (testing::score_kernels), got '" +
                   std::string(kernel) + "'"};
}

}  // namespace testing

// [SECTION] Shared content: O(N d + N^2) -----------------------------------------------------

namespace {

// out[j] = a + b[j] + c[j]. Fixed-size chunks vectorise at -O2 too (see rotation.cpp; no clones
// in a ThreadSanitizer build either, for the reason given there).
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("avx2", "default")))
#endif
void add_row(float a, const float* __restrict b, const float* __restrict c, float* __restrict out,
             std::size_t n) {
  constexpr std::size_t kChunk = 16;
  std::size_t j = 0;
  for (; j + kChunk <= n; j += kChunk) {
    for (std::size_t i = j; i < j + kChunk; ++i)
      out[i] = a + b[i] + c[i];
  }
  for (; j < n; ++j)
    out[j] = a + b[j] + c[j];
}

}  // namespace
//
// With the same q, k at every position:
//   rope:        S[m][n] = g(n - m),  g(r) = sum_i Re(h_i e^{i r theta_i}),  h_i = conj(z_q,i)
//   z_k,i sinusoidal:  S[m][n] = q.k + q.PE_n + k.PE_m + c(n - m),  c(r) = sum_i cos(r theta_i)
//                (PE_m . PE_n = sum_i sin sin + cos cos = sum_i cos((n - m) theta_i))
//   none:        S[m][n] = q.k
// g, c are tabulated for r = -(N-1) ... N-1 (index r + N - 1) and row m of S is read off them.

Result<std::vector<float>> score_matrix_shared(std::span<const float> q, std::span<const float> k,
                                               std::int64_t n_positions, std::int64_t dim,
                                               double base, Encoding encoding, Pairing pairing,
                                               double position_step) {
  if (auto s = validate_common(n_positions, dim, base); !s) return s.error();
  if (auto s = validate_shape(q.size(), 1, dim, "q", "[1][dim]"); !s) return s.error();
  if (auto s = validate_shape(k.size(), 1, dim, "k", "[1][dim]"); !s) return s.error();
  if (auto s = validate_step(position_step); !s) return s.error();
  const auto n = static_cast<std::size_t>(n_positions);
  const auto d = static_cast<std::size_t>(dim);
  const std::size_t half = d / 2;
  const auto thetas = stepped_frequencies(dim, base, position_step);

  double qk = 0.0;
  for (std::size_t j = 0; j < d; ++j)
    qk += static_cast<double>(q[j]) * static_cast<double>(k[j]);

  // Rows are appended to reserved storage: each entry is written once, no zero fill first.
  std::vector<float> s;
  s.reserve(n * n);
  if (encoding == Encoding::none) {
    s.assign(n * n, static_cast<float>(qk));
    return s;
  }

  std::vector<float> diag(2 * n - 1);  // g or c at index r + N - 1
  std::vector<float> key_term(n);      // sinusoidal: q . PE_n
  std::vector<float> query_term(n);    // sinusoidal: q . k + k . PE_m
  std::vector<std::complex<double>> h(half);
  if (encoding == Encoding::rope) {
    for (std::size_t i = 0; i < half; ++i) {
      const auto [a, b] = detail::block_index(i, half, pairing);
      const std::complex<double> qa(static_cast<double>(q[a]), static_cast<double>(q[b]));
      const std::complex<double> ka(static_cast<double>(k[a]), static_cast<double>(k[b]));
      h[i] = std::conj(qa) * ka;
    }
  }
  detail::PhasorStepper ph(thetas);
  for (std::size_t r = 0; r < n; ++r, ph.advance()) {
    const auto c = ph.cos();
    const auto sn = ph.sin();
    if (encoding == Encoding::rope) {
      double even = 0.0;  // sum_i Re(h_i) cos(r theta_i), the same for -r
      double odd = 0.0;   // sum_i Im(h_i) sin(r theta_i), changes sign with r
      for (std::size_t i = 0; i < half; ++i) {
        even += h[i].real() * c[i];
        odd += h[i].imag() * sn[i];
      }
      diag[n - 1 + r] = static_cast<float>(even - odd);
      diag[n - 1 - r] = static_cast<float>(even + odd);
    } else {
      double cos_sum = 0.0;
      double q_pe = 0.0;
      double k_pe = 0.0;
      for (std::size_t i = 0; i < half; ++i) {
        cos_sum += c[i];
        q_pe += static_cast<double>(q[2 * i]) * sn[i] + static_cast<double>(q[2 * i + 1]) * c[i];
        k_pe += static_cast<double>(k[2 * i]) * sn[i] + static_cast<double>(k[2 * i + 1]) * c[i];
      }
      diag[n - 1 + r] = static_cast<float>(cos_sum);
      diag[n - 1 - r] = static_cast<float>(cos_sum);
      key_term[r] = static_cast<float>(q_pe);
      query_term[r] = static_cast<float>(qk + k_pe);
    }
  }

  std::vector<float> row(n);
  for (std::size_t m = 0; m < n; ++m) {
    const float* g = diag.data() + (n - 1 - m);  // g[j] is the value at n - m = j - m
    if (encoding == Encoding::rope) {
      s.insert(s.end(), g, g + n);
    } else {
      add_row(query_term[m], key_term.data(), g, row.data(), n);
      s.insert(s.end(), row.begin(), row.end());
    }
  }
  return s;
}

// [SECTION] Score transforms -----------------------------------------------------------------

namespace {

template <class T>
void transform_rows(std::span<T> s, std::int64_t n_positions, std::int64_t dim, ScoreTransform t,
                    std::int64_t first_row, std::int64_t end_row) {
  constexpr T kInf = std::numeric_limits<T>::infinity();
  if (n_positions < 1 || n_positions > (std::int64_t{1} << 31) ||
      s.size() != static_cast<std::size_t>(n_positions) * static_cast<std::size_t>(n_positions) ||
      (t.scale && !validate_dim(dim)) || first_row < 0 || end_row < first_row ||
      end_row > n_positions) {
    detail::fill_nan(s);
    return;
  }
  const auto n = static_cast<std::size_t>(n_positions);
  const T scale = t.scale ? static_cast<T>(1.0 / std::sqrt(static_cast<double>(dim))) : T{1};
  for (auto m = static_cast<std::size_t>(first_row); m < static_cast<std::size_t>(end_row); ++m) {
    const std::span<T> row = s.subspan(m * n, n);
    const VisibleKeys keys = visible_keys(static_cast<std::int64_t>(m), n_positions, t);
    const auto first = static_cast<std::size_t>(keys.first);
    const auto last = static_cast<std::size_t>(keys.last);
    for (std::size_t j = first; j < last; ++j)
      row[j] *= scale;
    for (std::size_t j = 0; j < n; ++j)
      if (j < first || j >= last) row[j] = t.softmax ? T{0} : -kInf;
    if (!t.softmax) continue;

    // Stable softmax over the visible keys: exp(x - max) never overflows. A row whose visible
    // maximum is -inf has no mass (all zeros); +inf entries share the whole mass; NaN spreads.
    T mx = -kInf;
    bool has_nan = false;
    for (std::size_t j = first; j < last; ++j) {
      has_nan = has_nan || std::isnan(row[j]);
      mx = std::max(mx, row[j]);
    }
    if (has_nan) {
      detail::fill_nan(row);
      continue;
    }
    if (mx == -kInf || mx == kInf) {
      T count{0};
      for (std::size_t j = first; j < last; ++j)
        count += row[j] == kInf ? T{1} : T{0};
      for (std::size_t j = first; j < last; ++j)
        row[j] = row[j] == kInf ? T{1} / count : T{0};
      continue;
    }
    T sum{0};
    for (std::size_t j = first; j < last; ++j) {
      row[j] = std::exp(row[j] - mx);
      sum += row[j];
    }
    for (std::size_t j = first; j < last; ++j)
      row[j] /= sum;
  }
}

}  // namespace

template <class T>
void transform_scores(std::span<T> s, std::int64_t n_positions, std::int64_t dim,
                      ScoreTransform t) {
  transform_rows(s, n_positions, dim, t, 0, n_positions);
}

void transform_score_rows(std::span<float> s, std::int64_t n_positions, std::int64_t dim,
                          ScoreTransform t, std::int64_t first_row, std::int64_t end_row) {
  transform_rows(s, n_positions, dim, t, first_row, end_row);
}

template void transform_scores<float>(std::span<float>, std::int64_t, std::int64_t, ScoreTransform);
template void transform_scores<double>(std::span<double>, std::int64_t, std::int64_t,
                                       ScoreTransform);

// [SECTION] Linear attention -----------------------------------------------------------------
//
// out_m = (R_m phi(q_m))^T KV / phi(q_m) . z, with KV = sum_n (R_n phi(k_n)) v_n^T ([d][dv]) and
// z = sum_n phi(k_n) ([d]), both summed over n <= m (causal, updated as m advances) or over all
// n. O(N d dv) time, O(d dv) memory: the N x N matrix is never formed.

Result<LinearSums> linear_attention_sums(std::span<const double> q, std::span<const double> k,
                                         std::span<const double> v, std::int64_t n_positions,
                                         std::int64_t dim, std::int64_t dv, double base,
                                         Pairing pairing, bool with_rope, bool causal) {
  if (auto s = validate_qk(q.size(), k.size(), n_positions, dim, base); !s) return s.error();
  return linear_attention_sums(q, k, v, n_positions, dim, dv, frequencies(dim, base).value(),
                               pairing, with_rope, causal);
}

Result<LinearSums> linear_attention_sums(std::span<const double> q, std::span<const double> k,
                                         std::span<const double> v, std::int64_t n_positions,
                                         std::int64_t dim, std::int64_t dv,
                                         std::span<const double> thetas, Pairing pairing,
                                         bool with_rope, bool causal) {
  if (auto s = validate_dim(dim); !s) return s.error();
  if (auto s = validate_count(n_positions, kMaxPositions, "positions"); !s) return s.error();
  if (auto s = validate_shape(q.size(), n_positions, dim, "q", "[positions][dim]"); !s)
    return s.error();
  if (auto s = validate_shape(k.size(), n_positions, dim, "k", "[positions][dim]"); !s)
    return s.error();
  if (thetas.size() != static_cast<std::size_t>(dim / 2))
    return detail::size_error("thetas", static_cast<std::size_t>(dim / 2), thetas.size(),
                              "[dim/2]");
  for (std::size_t i = 0; i < thetas.size(); ++i)
    if (!(std::isfinite(thetas[i]) && thetas[i] >= 0.0))
      return Error{"thetas", "entry " + std::to_string(i) +
                                 " must be a finite number of at least 0, got " +
                                 detail::format_number(thetas[i])};
  if (auto s = validate_count(dv, kMaxValueDim, "dv"); !s) return s.error();
  if (auto s = validate_shape(v.size(), n_positions, dv, "v", "[positions][dv]"); !s) {
    return s.error();
  }
  const auto n = static_cast<std::size_t>(n_positions);
  const auto d = static_cast<std::size_t>(dim);
  const auto w = static_cast<std::size_t>(dv);

  // phi(x) = elu(x) + 1: x + 1 for x > 0, e^x otherwise; always > 0 for finite x.
  auto phi = [](std::span<const double> x) {
    std::vector<double> y(x.size());
    for (std::size_t j = 0; j < x.size(); ++j)
      y[j] = x[j] > 0.0 ? x[j] + 1.0 : std::exp(x[j]);
    return y;
  };
  LinearSums out;
  out.phi_q = phi(q);
  out.phi_k = phi(k);
  const Encoding numerator_encoding = with_rope ? Encoding::rope : Encoding::none;
  out.rot_q = encode_rows_reference(out.phi_q, n, d, thetas, numerator_encoding, pairing);
  const auto rot_k = encode_rows_reference(out.phi_k, n, d, thetas, numerator_encoding, pairing);

  out.kv.assign(d * w, 0.0);
  out.z.assign(d, 0.0);
  out.denominator.assign(n, 0.0);
  out.numerator.assign(n * w, 0.0);
  auto accumulate = [&](std::size_t j) {
    for (std::size_t i = 0; i < d; ++i) {
      const double rk = rot_k[j * d + i];
      for (std::size_t c = 0; c < w; ++c)
        out.kv[i * w + c] += rk * v[j * w + c];
      out.z[i] += out.phi_k[j * d + i];
    }
  };
  if (!causal) {
    for (std::size_t j = 0; j < n; ++j)
      accumulate(j);
  }
  for (std::size_t m = 0; m < n; ++m) {
    if (causal) accumulate(m);
    double den = 0.0;
    for (std::size_t i = 0; i < d; ++i)
      den += out.phi_q[m * d + i] * out.z[i];
    out.denominator[m] = den;
    double* o = out.numerator.data() + m * w;
    for (std::size_t i = 0; i < d; ++i) {
      const double rq = out.rot_q[m * d + i];
      for (std::size_t c = 0; c < w; ++c)
        o[c] += rq * out.kv[i * w + c];
    }
  }
  return out;
}

Result<std::vector<double>> linear_attention(std::span<const double> q, std::span<const double> k,
                                             std::span<const double> v, std::int64_t n_positions,
                                             std::int64_t dim, std::int64_t dv, double base,
                                             Pairing pairing, bool with_rope, bool causal) {
  auto sums =
      linear_attention_sums(q, k, v, n_positions, dim, dv, base, pairing, with_rope, causal);
  if (!sums) return sums.error();
  LinearSums& ls = sums.value();
  const auto w = static_cast<std::size_t>(dv);
  std::vector<double> out = std::move(ls.numerator);
  for (std::size_t m = 0; m < ls.denominator.size(); ++m)
    for (std::size_t c = 0; c < w; ++c)
      out[m * w + c] /= ls.denominator[m];
  return out;
}

Result<DiagonalFit> diagonal_fit(std::span<const double> q, std::span<const double> k,
                                 std::int64_t n_positions, std::int64_t dim, double base,
                                 Pairing pairing, std::int64_t offset, double position_step) {
  if (auto s = validate_dim(dim); !s) return s.error();
  if (auto s = validate_base(base); !s) return s.error();
  if (auto s = validate_count(n_positions, kMaxPositions, "positions"); !s) return s.error();
  if (auto s = validate_shape(q.size(), n_positions, dim, "q", "[positions][dim]"); !s)
    return s.error();
  if (auto s = validate_shape(k.size(), n_positions, dim, "k", "[positions][dim]"); !s)
    return s.error();
  if (!(offset > -n_positions && offset < n_positions))
    return Error{"offset", "must be more than -N and less than N = " + std::to_string(n_positions) +
                               ", got " + std::to_string(offset)};
  if (!(std::isfinite(position_step) && position_step > 0.0))
    return Error{"position_step", "must be a finite number greater than 0, got " +
                                      detail::format_number(position_step)};
  const std::vector<double> thetas = frequencies(dim, base).value();
  const auto d = static_cast<std::size_t>(dim);
  std::vector<double> rq(d), rk(d);
  DiagonalFit out;
  // pass 1: the cells of the diagonal, plain and rotated
  for (std::int64_t j = std::max<std::int64_t>(0, -offset);
       j < n_positions && j + offset < n_positions; ++j) {
    const std::span<const double> qj = q.subspan(static_cast<std::size_t>(j) * d, d);
    const std::span<const double> kj = k.subspan(static_cast<std::size_t>(j + offset) * d, d);
    apply_rope<double>(qj, rq, static_cast<double>(j) * position_step, thetas, pairing);
    apply_rope<double>(kj, rk, static_cast<double>(j + offset) * position_step, thetas, pairing);
    out.plain.push_back(dot(qj, kj));
    out.rotated.push_back(dot(rq, rk));
  }
  // pass 2: the one factor that fits best, and what it leaves
  const double cc = dot(out.plain, out.plain), ss = dot(out.rotated, out.rotated);
  out.factor = cc > 0.0 ? dot(out.rotated, out.plain) / cc : 0.0;
  double rest = 0.0;
  for (std::size_t t = 0; t < out.plain.size(); ++t) {
    const double e = out.rotated[t] - out.factor * out.plain[t];
    rest += e * e;
  }
  out.residual = ss > 0.0 ? std::sqrt(rest / ss) : 0.0;
  return out;
}

}  // namespace rope
