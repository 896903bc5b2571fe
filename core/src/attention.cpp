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
#include <immintrin.h>
#define ROPE_HAVE_AVX2_KERNEL 1
#else
#define ROPE_HAVE_AVX2_KERNEL 0
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

// x'_p for p = 0 ... N-1 in float. Positions are consecutive integers, so the phasors come from
// a PhasorStepper (no sincos per entry); the arithmetic runs in double and is rounded once.
std::vector<float> encode_rows_fast(std::span<const float> x, std::size_t n, std::size_t d,
                                    std::span<const double> thetas, Encoding encoding,
                                    Pairing pairing) {
  std::vector<float> out(x.begin(), x.end());
  if (encoding == Encoding::none) return out;
  const std::size_t half = d / 2;
  detail::PhasorStepper ph(thetas);
  for (std::size_t p = 0; p < n; ++p, ph.advance()) {
    const auto c = ph.cos();
    const auto s = ph.sin();
    const float* xr = x.data() + p * d;
    float* yr = out.data() + p * d;
    for (std::size_t i = 0; i < half; ++i) {
      if (encoding == Encoding::rope) {
        const auto [a, b] = detail::block_index(i, half, pairing);
        const auto xa = static_cast<double>(xr[a]);
        const auto xb = static_cast<double>(xr[b]);
        yr[a] = static_cast<float>(xa * c[i] - xb * s[i]);
        yr[b] = static_cast<float>(xa * s[i] + xb * c[i]);
      } else {
        yr[2 * i] = static_cast<float>(static_cast<double>(xr[2 * i]) + s[i]);
        yr[2 * i + 1] = static_cast<float>(static_cast<double>(xr[2 * i + 1]) + c[i]);
      }
    }
  }
  return out;
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
// S = Q' K'^T with Q', K' row-major [N][d]. Classic three-level blocking:
//   * depth d in chunks of kKc; keys in blocks of kNc, packed into panels of kNr keys laid out
//     [kc][kNr] (the panel for one chunk is contiguous and zero-padded past N);
//   * for every kMr-row sliver of Q' and every panel, a kMr x kNr register tile accumulates
//     kc rank-1 updates and is written (first chunk) or added (later chunks) to S.
// Sizes: the 6 x 16 tile uses 12 of the 16 AVX2 registers; a sliver (6 x 256 floats, 6 KiB)
// and a panel (256 x 16 floats, 16 KiB) stay in L1, a packed block (kKc x kNc, 512 KiB) in L2.
// Accumulation is in float: |error| grows like sqrt(d) eps |q'||k'|, far below display needs.

namespace {

constexpr std::size_t kMr = 6;
constexpr std::size_t kNr = 16;
constexpr std::size_t kKc = 256;
constexpr std::size_t kNc = 512;

// a[r] points at row r of the sliver (already offset to the chunk); bp at a [kc][kNr] panel;
// c at S[m0][n0] with row stride ldc. Only rows x cols of the tile are stored.
using TileKernel = void (*)(const float* const* a, const float* bp, std::size_t kc, float* c,
                            std::size_t ldc, std::size_t rows, std::size_t cols, bool accumulate);

void store_tile(const float (&acc)[kMr][kNr], float* c, std::size_t ldc, std::size_t rows,
                std::size_t cols, bool accumulate) {
  for (std::size_t r = 0; r < rows; ++r) {
    float* cr = c + r * ldc;
    for (std::size_t j = 0; j < cols; ++j)
      cr[j] = (accumulate ? cr[j] : 0.0f) + acc[r][j];
  }
}

// Portable fallback (SSE2, NEON): GCC vector types of 4 floats, two rows of the tile at a time
// so that the 2 x 4 vector accumulators stay in registers; the panel is re-read from L1.
using Float4 = float __attribute__((vector_size(16)));

void tile_kernel_generic(const float* const* a, const float* bp, std::size_t kc, float* c,
                         std::size_t ldc, std::size_t rows, std::size_t cols, bool accumulate) {
  constexpr std::size_t kVecs = kNr / 4;
  float acc[kMr][kNr] = {};
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
        std::memcpy(&b, bp + kk * kNr + 4 * j, sizeof b);
        top[j] += v0 * b;
        bottom[j] += v1 * b;
      }
    }
    std::memcpy(acc[r], top, sizeof top);
    std::memcpy(acc[r + 1], bottom, sizeof bottom);
  }
  store_tile(acc, c, ldc, rows, cols, accumulate);
}

#if ROPE_HAVE_AVX2_KERNEL
__attribute__((target("avx2,fma"))) void tile_kernel_avx2(const float* const* a, const float* bp,
                                                          std::size_t kc, float* c, std::size_t ldc,
                                                          std::size_t rows, std::size_t cols,
                                                          bool accumulate) {
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps();
  __m256 c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
  __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps();
  __m256 c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
  __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps();
  __m256 c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
  const float* a0 = a[0];
  const float* a1 = a[1];
  const float* a2 = a[2];
  const float* a3 = a[3];
  const float* a4 = a[4];
  const float* a5 = a[5];
  for (std::size_t kk = 0; kk < kc; ++kk) {
    const __m256 b0 = _mm256_loadu_ps(bp + kk * kNr);
    const __m256 b1 = _mm256_loadu_ps(bp + kk * kNr + 8);
    __m256 av = _mm256_broadcast_ss(a0 + kk);
    c00 = _mm256_fmadd_ps(av, b0, c00);
    c01 = _mm256_fmadd_ps(av, b1, c01);
    av = _mm256_broadcast_ss(a1 + kk);
    c10 = _mm256_fmadd_ps(av, b0, c10);
    c11 = _mm256_fmadd_ps(av, b1, c11);
    av = _mm256_broadcast_ss(a2 + kk);
    c20 = _mm256_fmadd_ps(av, b0, c20);
    c21 = _mm256_fmadd_ps(av, b1, c21);
    av = _mm256_broadcast_ss(a3 + kk);
    c30 = _mm256_fmadd_ps(av, b0, c30);
    c31 = _mm256_fmadd_ps(av, b1, c31);
    av = _mm256_broadcast_ss(a4 + kk);
    c40 = _mm256_fmadd_ps(av, b0, c40);
    c41 = _mm256_fmadd_ps(av, b1, c41);
    av = _mm256_broadcast_ss(a5 + kk);
    c50 = _mm256_fmadd_ps(av, b0, c50);
    c51 = _mm256_fmadd_ps(av, b1, c51);
  }
  const __m256 acc[kMr][2] = {{c00, c01}, {c10, c11}, {c20, c21},
                              {c30, c31}, {c40, c41}, {c50, c51}};
  if (rows == kMr && cols == kNr) {
    for (std::size_t r = 0; r < kMr; ++r) {
      float* cr = c + r * ldc;
      __m256 lo = acc[r][0];
      __m256 hi = acc[r][1];
      if (accumulate) {
        lo = _mm256_add_ps(lo, _mm256_loadu_ps(cr));
        hi = _mm256_add_ps(hi, _mm256_loadu_ps(cr + 8));
      }
      _mm256_storeu_ps(cr, lo);
      _mm256_storeu_ps(cr + 8, hi);
    }
    return;
  }
  float tile[kMr][kNr];
  for (std::size_t r = 0; r < kMr; ++r) {
    _mm256_storeu_ps(tile[r], acc[r][0]);
    _mm256_storeu_ps(tile[r] + 8, acc[r][1]);
  }
  store_tile(tile, c, ldc, rows, cols, accumulate);
}
#endif

TileKernel pick_tile_kernel() {
#if ROPE_HAVE_AVX2_KERNEL
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return tile_kernel_avx2;
#endif
  return tile_kernel_generic;
}

// Rows [row_begin, row_end) of Q' K'^T into out ([row_end - row_begin][n]); sizes checked.
void gemm_rows(const float* q, const float* k, std::size_t n, std::size_t d, std::size_t row_begin,
               std::size_t row_end, float* out) {
  if (row_begin >= row_end) return;
  const TileKernel kernel = pick_tile_kernel();
  std::vector<float> packed(kKc * kNc);
  for (std::size_t k0 = 0; k0 < d; k0 += kKc) {
    const std::size_t kc = std::min(kKc, d - k0);
    for (std::size_t n0 = 0; n0 < n; n0 += kNc) {
      const std::size_t nc = std::min(kNc, n - n0);
      const std::size_t panels = (nc + kNr - 1) / kNr;
      // Pack keys n0 ... n0+nc-1, depth k0 ... k0+kc-1: packed[(p kc + kk) kNr + j].
      for (std::size_t p = 0; p < panels; ++p) {
        float* panel = packed.data() + p * kc * kNr;
        for (std::size_t j = 0; j < kNr; ++j) {
          const std::size_t key = n0 + p * kNr + j;
          if (key < n0 + nc) {
            const float* src = k + key * d + k0;
            for (std::size_t kk = 0; kk < kc; ++kk)
              panel[kk * kNr + j] = src[kk];
          } else {
            for (std::size_t kk = 0; kk < kc; ++kk)
              panel[kk * kNr + j] = 0.0f;
          }
        }
      }
      for (std::size_t m0 = row_begin; m0 < row_end; m0 += kMr) {
        const std::size_t rows = std::min(kMr, row_end - m0);
        // Rows past the range repeat the last valid row: read, computed, never stored.
        const float* a[kMr];
        for (std::size_t r = 0; r < kMr; ++r)
          a[r] = q + (m0 + std::min(r, rows - 1)) * d + k0;
        float* c_row = out + (m0 - row_begin) * n + n0;
        for (std::size_t p = 0; p < panels; ++p) {
          const std::size_t cols = std::min(kNr, nc - p * kNr);
          kernel(a, packed.data() + p * kc * kNr, kc, c_row + p * kNr, n, rows, cols, k0 > 0);
        }
      }
    }
  }
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
  e.q = encode_rows_fast(q, n, d, thetas, encoding, pairing);
  e.k = encode_rows_fast(k, n, d, thetas, encoding, pairing);
  return e;
}

Status score_rows_fast(const EncodedQK& encoded, std::int64_t row_begin, std::int64_t row_end,
                       std::span<float> out) {
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
  if (auto s = validate_shape(out.size(), row_end - row_begin, n, "out",
                              "[row_end - row_begin][positions]");
      !s) {
    return s;
  }
  gemm_rows(encoded.q.data(), encoded.k.data(), static_cast<std::size_t>(n),
            static_cast<std::size_t>(encoded.dim), static_cast<std::size_t>(row_begin),
            static_cast<std::size_t>(row_end), out.data());
  return {};
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

template <class T>
void transform_scores(std::span<T> s, std::int64_t n_positions, std::int64_t dim,
                      ScoreTransform t) {
  constexpr T kInf = std::numeric_limits<T>::infinity();
  if (n_positions < 1 || n_positions > (std::int64_t{1} << 31) ||
      s.size() != static_cast<std::size_t>(n_positions) * static_cast<std::size_t>(n_positions) ||
      (t.scale && !validate_dim(dim))) {
    detail::fill_nan(s);
    return;
  }
  const auto n = static_cast<std::size_t>(n_positions);
  const T scale = t.scale ? static_cast<T>(1.0 / std::sqrt(static_cast<double>(dim))) : T{1};
  for (std::size_t m = 0; m < n; ++m) {
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

}  // namespace rope
