// rotation.cpp — RoPE rotations: 2D, dense, element-wise (single and batched), both pairings,
// the permutation between them and the complex form.
#include "rope/rotation.h"

#include <cmath>
#include <cstdint>
#include <functional>

#include "internal.h"
#include "rope/frequencies.h"

namespace rope {

namespace {

// RopeTable holds at most this many cos (and as many sin) entries; larger requests give an
// empty table rather than a multi-gigabyte allocation.
constexpr std::size_t kMaxTableEntries = std::size_t{1} << 26;

template <class T>
bool overlaps(std::span<const T> a, std::span<T> b) {
  if (a.empty() || b.empty()) return false;
  const std::less<const T*> lt;
  return lt(a.data(), b.data() + b.size()) && lt(b.data(), a.data() + a.size());
}

// Rows of y = x (*) cos + rotate(x) (*) sin; x, y are [rows][d], c, s are [rows][d/2].
// Pointers are restrict-qualified parameters (callers copy overlapping rows first) and the
// blocks are processed kChunk at a time with a fixed inner trip count, so that GCC vectorises
// them even at -O2, whose cost model refuses loops that need alias checks or a scalar epilogue.
// An AVX2 clone is picked at load time where the CPU has it (no FMA: the clones round alike);
// the row loop sits inside so the clone dispatch is paid once per batch. Clang refuses
// target_clones on a template, so a clang build (the fuzzers) keeps the default code only. A
// ThreadSanitizer build keeps it too: the clones' resolvers run while the dynamic loader binds
// symbols, before the TSan runtime is initialised, and their instrumented entry crashed there.
constexpr std::size_t kChunk = 8;

#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__)) && \
    !defined(__SANITIZE_THREAD__)
#define ROPE_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define ROPE_AVX2_CLONES
#endif

template <class T>
ROPE_AVX2_CLONES void rotate_rows_interleaved(const T* __restrict x, T* __restrict y,
                                              const T* __restrict c, const T* __restrict s,
                                              std::size_t rows, std::size_t half) {
  for (std::size_t r = 0; r < rows; ++r, x += 2 * half, y += 2 * half, c += half, s += half) {
    std::size_t i = 0;
    for (; i + kChunk <= half; i += kChunk) {
      for (std::size_t j = i; j < i + kChunk; ++j) {
        const T a = x[2 * j];
        const T b = x[2 * j + 1];
        y[2 * j] = a * c[j] - b * s[j];
        y[2 * j + 1] = b * c[j] + a * s[j];
      }
    }
    for (; i < half; ++i) {
      const T a = x[2 * i];
      const T b = x[2 * i + 1];
      y[2 * i] = a * c[i] - b * s[i];
      y[2 * i + 1] = b * c[i] + a * s[i];
    }
  }
}

// Half-split, one row: block i is (x_lo[i], x_hi[i]) with x_hi = x_lo + d/2. Separate restrict
// parameters tell the compiler that the four halves do not overlap; inlined into the clone.
template <class T>
[[gnu::always_inline]] inline void rotate_half_split_row(const T* __restrict x_lo,
                                                         const T* __restrict x_hi,
                                                         T* __restrict y_lo, T* __restrict y_hi,
                                                         const T* __restrict c,
                                                         const T* __restrict s, std::size_t half) {
  std::size_t i = 0;
  for (; i + kChunk <= half; i += kChunk) {
    for (std::size_t j = i; j < i + kChunk; ++j) {
      y_lo[j] = x_lo[j] * c[j] - x_hi[j] * s[j];
      y_hi[j] = x_hi[j] * c[j] + x_lo[j] * s[j];
    }
  }
  for (; i < half; ++i) {
    y_lo[i] = x_lo[i] * c[i] - x_hi[i] * s[i];
    y_hi[i] = x_hi[i] * c[i] + x_lo[i] * s[i];
  }
}

template <class T>
ROPE_AVX2_CLONES void rotate_rows_half_split(const T* x, T* y, const T* c, const T* s,
                                             std::size_t rows, std::size_t half) {
  for (std::size_t r = 0; r < rows; ++r, x += 2 * half, y += 2 * half, c += half, s += half) {
    rotate_half_split_row(x, x + half, y, y + half, c, s, half);
  }
}

template <class T>
void rotate_rows(const T* x, T* y, const T* c, const T* s, std::size_t rows, std::size_t half,
                 Pairing pairing) {
  if (pairing == Pairing::interleaved) {
    rotate_rows_interleaved(x, y, c, s, rows, half);
  } else {
    rotate_rows_half_split(x, y, c, s, rows, half);
  }
}

}  // namespace

Vec2 rotate2d(Vec2 v, double phi) {
  const double c = std::cos(phi);
  const double s = std::sin(phi);
  return {v.x * c - v.y * s, v.x * s + v.y * c};
}

std::vector<double> dense_rotation(double position, std::span<const double> thetas,
                                   Pairing pairing) {
  if (!detail::thetas_ok(thetas)) return {};
  const std::size_t half = thetas.size();
  const std::size_t d = 2 * half;
  std::vector<double> r(d * d, 0.0);
  for (std::size_t i = 0; i < half; ++i) {
    const auto [a, b] = detail::block_index(i, half, pairing);
    const double c = std::cos(position * thetas[i]);
    const double s = std::sin(position * thetas[i]);
    r[a * d + a] = c;
    r[a * d + b] = -s;
    r[b * d + a] = s;
    r[b * d + b] = c;
  }
  return r;
}

std::vector<double> mat_vec(std::span<const double> a, std::span<const double> x) {
  if (x.empty() || a.size() % x.size() != 0) return {};
  const std::size_t cols = x.size();
  const std::size_t rows = a.size() / cols;
  std::vector<double> y(rows, 0.0);
  for (std::size_t r = 0; r < rows; ++r) {
    double acc = 0.0;
    for (std::size_t c = 0; c < cols; ++c)
      acc += a[r * cols + c] * x[c];
    y[r] = acc;
  }
  return y;
}

std::vector<double> mat_transpose_mul(std::span<const double> a, std::span<const double> b, int d) {
  if (d < 1 || d > kMaxDim) return {};
  const auto n = static_cast<std::size_t>(d);
  if (a.size() != n * n || b.size() != n * n) return {};
  // C[i][j] = sum_k A[k][i] B[k][j]: k outermost so the inner loop runs along rows of B and C.
  std::vector<double> c(n * n, 0.0);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      const double aki = a[k * n + i];
      for (std::size_t j = 0; j < n; ++j)
        c[i * n + j] += aki * b[k * n + j];
    }
  }
  return c;
}

template <class T>
void apply_rope(std::span<const T> x, std::span<T> y, double position,
                std::span<const double> thetas, Pairing pairing) {
  if (!detail::thetas_ok(thetas) || x.size() != 2 * thetas.size() || y.size() != x.size()) {
    detail::fill_nan(y);
    return;
  }
  const std::size_t half = thetas.size();
  for (std::size_t i = 0; i < half; ++i) {
    const auto [a, b] = detail::block_index(i, half, pairing);
    const T c = static_cast<T>(std::cos(position * thetas[i]));
    const T s = static_cast<T>(std::sin(position * thetas[i]));
    // Both inputs are read before either output is written, so x == y works too.
    const T xa = x[a];
    const T xb = x[b];
    y[a] = xa * c - xb * s;
    y[b] = xa * s + xb * c;
  }
}

double dot(std::span<const double> a, std::span<const double> b) {
  double s = 0.0;
  for (std::size_t j = 0; j < a.size() && j < b.size(); ++j)
    s += a[j] * b[j];
  return s;
}

PairIndices pair_indices(int i, int dim, Pairing pairing) {
  if (!validate_dim(dim) || i < 0 || i >= dim / 2) return {};
  if (pairing == Pairing::interleaved) return {2 * i, 2 * i + 1};
  return {i, i + dim / 2};
}

BlockRange band_blocks(int half, PairBand band) {
  if (half < 1) return {};
  const int quarter = (half + 3) / 4;  // ceil(half / 4), at least 1
  if (band == PairBand::fast) return {0, quarter};
  if (band == PairBand::slow) return {half - quarter, half};
  return {0, half};
}

template <class T>
void keep_band(std::span<T> x, PairBand band, Pairing pairing) {
  const auto d = static_cast<std::int64_t>(x.size());
  if (band == PairBand::all || !validate_dim(d)) return;
  const int dim = static_cast<int>(d);
  const BlockRange keep = band_blocks(dim / 2, band);
  for (int i = 0; i < dim / 2; ++i) {
    if (i >= keep.first && i < keep.last) continue;
    const PairIndices ab = pair_indices(i, dim, pairing);
    x[static_cast<std::size_t>(ab.first)] = T{0};
    x[static_cast<std::size_t>(ab.second)] = T{0};
  }
}

std::vector<int> interleaved_to_half_permutation(int dim) {
  if (!validate_dim(dim)) return {};
  const int half = dim / 2;
  std::vector<int> perm(static_cast<std::size_t>(dim));
  for (int i = 0; i < half; ++i) {
    perm[static_cast<std::size_t>(i)] = 2 * i;
    perm[static_cast<std::size_t>(i + half)] = 2 * i + 1;
  }
  return perm;
}

template <class T>
std::vector<T> permute(std::span<const T> x, std::span<const int> perm) {
  std::vector<T> out(perm.size());
  for (std::size_t j = 0; j < perm.size(); ++j) {
    if (perm[j] < 0 || static_cast<std::size_t>(perm[j]) >= x.size()) return {};
    out[j] = x[static_cast<std::size_t>(perm[j])];
  }
  return out;
}

std::vector<std::complex<double>> to_complex(std::span<const double> x) {
  if (x.size() % 2 != 0) return {};
  std::vector<std::complex<double>> z(x.size() / 2);
  for (std::size_t i = 0; i < z.size(); ++i)
    z[i] = {x[2 * i], x[2 * i + 1]};
  return z;
}

std::vector<double> from_complex(std::span<const std::complex<double>> z) {
  std::vector<double> x(2 * z.size());
  for (std::size_t i = 0; i < z.size(); ++i) {
    x[2 * i] = z[i].real();
    x[2 * i + 1] = z[i].imag();
  }
  return x;
}

std::vector<std::complex<double>> rotate_complex(std::span<const std::complex<double>> z,
                                                 double position, std::span<const double> thetas) {
  if (z.size() != thetas.size()) return {};
  std::vector<std::complex<double>> out(z.size());
  for (std::size_t i = 0; i < z.size(); ++i) {
    const double angle = position * thetas[i];
    out[i] = z[i] * std::complex<double>(std::cos(angle), std::sin(angle));
  }
  return out;
}

template <class T>
RopeTable<T>::RopeTable(std::span<const double> positions, std::span<const double> thetas) {
  if (!detail::thetas_ok(thetas) || positions.size() > kMaxTableEntries / thetas.size()) return;
  const std::size_t n = positions.size();
  const std::size_t h = thetas.size();
  count = static_cast<int>(n);
  half = static_cast<int>(h);
  cos_tab.resize(n * h);
  sin_tab.resize(n * h);
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t i = 0; i < h; ++i) {
      const double angle = positions[p] * thetas[i];
      cos_tab[p * h + i] = static_cast<T>(std::cos(angle));
      sin_tab[p * h + i] = static_cast<T>(std::sin(angle));
    }
  }
}

template <class T>
void apply_rope_batch(const RopeTable<T>& table, std::span<const std::type_identity_t<T>> x,
                      std::span<std::type_identity_t<T>> y, Pairing pairing) {
  if (table.count < 0 || table.half < 0) {
    detail::fill_nan(y);
    return;
  }
  const auto n = static_cast<std::size_t>(table.count);
  const auto half = static_cast<std::size_t>(table.half);
  const std::size_t d = 2 * half;
  if (table.cos_tab.size() != n * half || table.sin_tab.size() != n * half || x.size() != n * d ||
      y.size() != n * d) {
    detail::fill_nan(y);
    return;
  }
  if (!overlaps(x, y)) {
    rotate_rows(x.data(), y.data(), table.cos_tab.data(), table.sin_tab.data(), n, half, pairing);
    return;
  }
  // In place or overlapping: rotate through a one-row copy, so the kernel may assume no alias.
  std::vector<T> row(d);
  for (std::size_t p = 0; p < n; ++p) {
    std::copy(x.data() + p * d, x.data() + (p + 1) * d, row.begin());
    rotate_rows(row.data(), y.data() + p * d, table.cos_tab.data() + p * half,
                table.sin_tab.data() + p * half, 1, half, pairing);
  }
}

template <class T>
void apply_rope_batch_dense(std::span<const double> positions, std::span<const double> thetas,
                            std::span<const T> x, std::span<T> y, Pairing pairing,
                            std::span<T> scratch) {
  const std::size_t half = thetas.size();
  const std::size_t d = 2 * half;
  if (!detail::thetas_ok(thetas) || x.size() / d != positions.size() || x.size() % d != 0 ||
      y.size() != x.size() || scratch.size() < d * d || overlaps(x, y) ||
      overlaps(std::span<const T>(scratch), y)) {
    detail::fill_nan(y);
    return;
  }
  // Per position: write R_m into scratch ([d][d], row-major), then y = R_m x with eight
  // independent partial sums per row so the O(d^2) product runs at vector speed; the dense
  // form is slow because of its d^2 work, not because of a handicapped loop.
  constexpr std::size_t kLanes = 8;
  T* r = scratch.data();
  for (std::size_t p = 0; p < positions.size(); ++p) {
    std::fill(r, r + d * d, T{0});
    for (std::size_t i = 0; i < half; ++i) {
      const auto [a, b] = detail::block_index(i, half, pairing);
      const double angle = positions[p] * thetas[i];
      const T c = static_cast<T>(std::cos(angle));
      const T s = static_cast<T>(std::sin(angle));
      r[a * d + a] = c;
      r[a * d + b] = -s;
      r[b * d + a] = s;
      r[b * d + b] = c;
    }
    const T* xp = x.data() + p * d;
    T* yp = y.data() + p * d;
    for (std::size_t row = 0; row < d; ++row) {
      const T* rr = r + row * d;
      T acc[kLanes] = {};
      std::size_t c = 0;
      for (; c + kLanes <= d; c += kLanes) {
        for (std::size_t l = 0; l < kLanes; ++l)
          acc[l] += rr[c + l] * xp[c + l];
      }
      T sum{0};
      for (; c < d; ++c)
        sum += rr[c] * xp[c];
      for (std::size_t l = 0; l < kLanes; ++l)
        sum += acc[l];
      yp[row] = sum;
    }
  }
}

template void apply_rope<float>(std::span<const float>, std::span<float>, double,
                                std::span<const double>, Pairing);
template void apply_rope<double>(std::span<const double>, std::span<double>, double,
                                 std::span<const double>, Pairing);
template void keep_band<float>(std::span<float>, PairBand, Pairing);
template void keep_band<double>(std::span<double>, PairBand, Pairing);
template std::vector<float> permute<float>(std::span<const float>, std::span<const int>);
template std::vector<double> permute<double>(std::span<const double>, std::span<const int>);
template struct RopeTable<float>;
template struct RopeTable<double>;
template void apply_rope_batch<float>(const RopeTable<float>&, std::span<const float>,
                                      std::span<float>, Pairing);
template void apply_rope_batch<double>(const RopeTable<double>&, std::span<const double>,
                                       std::span<double>, Pairing);
template void apply_rope_batch_dense<float>(std::span<const double>, std::span<const double>,
                                            std::span<const float>, std::span<float>, Pairing,
                                            std::span<float>);
template void apply_rope_batch_dense<double>(std::span<const double>, std::span<const double>,
                                             std::span<const double>, std::span<double>, Pairing,
                                             std::span<double>);

}  // namespace rope
