// rope/rotation.h — rotations: 2D, the dense block-diagonal R^d_{Theta,m}, the efficient
// element-wise form, both pairings and the permutation between them, and the complex form.
//
// Usage:
//   auto th = rope::frequencies(d, base).value();
//   std::vector<double> y(d);
//   rope::apply_rope<double>(x, y, m, th, rope::Pairing::interleaved);          // y = R_m x
//   auto R = rope::dense_rotation(m, th, rope::Pairing::interleaved);           // [d][d]
//   // Many positions at once (benchmarks, heatmaps): precompute cos/sin per position.
//   rope::RopeTable<float> table(positions, th);  apply_rope_batch(table, X, Y, pairing);
//
// Shapes: x and y have d = 2 * thetas.size() entries. R is row-major [d][d].
// Bad shapes: these functions return no Status. Those that return a vector return an empty one;
// those that write into a span fill it with NaN. thetas must hold 1 ... kMaxDim/2 entries.
#pragma once

#include <complex>
#include <span>
#include <type_traits>
#include <vector>

#include "rope/conventions.h"

namespace rope {

struct Vec2 {
  double x = 0.0;
  double y = 0.0;
};

// R(phi) v: counter-clockwise rotation of v by phi radians.
Vec2 rotate2d(Vec2 v, double phi);

// The dense block-diagonal rotation R^d_{Theta,m}, row-major [d][d], d = 2 * thetas.size().
// For display and for checking the efficient form; O(d^2).
std::vector<double> dense_rotation(double position, std::span<const double> thetas,
                                   Pairing pairing);

// y = A x for a row-major [rows][cols] matrix A; x has cols entries, y rows entries.
// Empty if x is empty or a.size() is not a multiple of x.size().
std::vector<double> mat_vec(std::span<const double> a, std::span<const double> x);
// C = A^T B for square row-major [d][d] matrices. Empty unless 1 <= d <= kMaxDim and both
// inputs have d*d entries.
std::vector<double> mat_transpose_mul(std::span<const double> a, std::span<const double> b, int d);

// The efficient form y = x (*) cos + rotate(x) (*) sin, where for interleaved pairing
// rotate(x) = (-x1, x0, -x3, x2, ...) and for half-split rotate(x) = (-x_{d/2..d-1}, x_{0..d/2-1}).
// x, y: d entries each; y may be x itself (in place), but not a partial overlap. T is float or
// double; angles are computed in double.
template <class T>
void apply_rope(std::span<const T> x, std::span<T> y, double position,
                std::span<const double> thetas, Pairing pairing);

// Dot product a . b = sum_j a[j] b[j], summed in index order in double, over
// j < min(a.size(), b.size()) (the sizes should agree: [d] each). Every score in the app and the
// exports that is not a score matrix goes through it, so the same inputs round the same way.
double dot(std::span<const double> a, std::span<const double> b);

// The two coordinates that form block i of a d-dimensional vector under `pairing`
// (conventions.h): (2i, 2i+1) interleaved, (i, i + d/2) half-split. `first` is the block's x
// (the real part of z_i), `second` its y. {-1, -1} unless d is a valid head dimension and
// 0 <= i < d/2.
struct PairIndices {
  int first = -1;
  int second = -1;
  bool operator==(const PairIndices&) const = default;
};
PairIndices pair_indices(int i, int dim, Pairing pairing);

// Blocks grouped by speed (lesson 13: in trained heads the fastest pairs build positional
// patterns, the slowest carry content). A band keeps the blocks [first, last) of a head of
// half = d/2 blocks: all 0 ... half; fast, the fastest quarter, 0 ... ceil(half/4); slow, the
// slowest quarter, half - ceil(half/4) ... half. {0, 0} if half < 1.
enum class PairBand { all, fast, slow };
struct BlockRange {
  int first = 0;
  int last = 0;  // one past the last block kept
  bool operator==(const BlockRange&) const = default;
};
BlockRange band_blocks(int half, PairBand band);

// Sets to 0 the coordinates of every block of x ([d]) outside `band`, so that a dot product
// of two such vectors, rotated or not, sums the band's blocks only. Nothing happens unless
// x.size() is a valid head dimension.
template <class T>
void keep_band(std::span<T> x, PairBand band, Pairing pairing);

// Permutation between the pairings: half[j] = inter[perm[j]], i.e. a vector laid out for
// interleaved pairing becomes one laid out for half-split pairing. perm[i] = 2i and
// perm[i + d/2] = 2i + 1. Applying it to q and k (equivalently, to the rows of W_q and W_k)
// makes the two pairings give identical scores.
// Empty if dim is not a valid head dimension. permute returns empty if any perm[j] is outside
// 0 ... x.size()-1.
std::vector<int> interleaved_to_half_permutation(int dim);
template <class T>
std::vector<T> permute(std::span<const T> x, std::span<const int> perm);  // out[j] = x[perm[j]]

// Complex form (interleaved pairing): z_i = x[2i] + i x[2i+1], rotated as z_i * e^{i m theta_i}.
// to_complex: empty if x has an odd size. rotate_complex: empty if z.size() != thetas.size().
std::vector<std::complex<double>> to_complex(std::span<const double> x);    // d/2 entries
std::vector<double> from_complex(std::span<const std::complex<double>> z);  // d entries
std::vector<std::complex<double>> rotate_complex(std::span<const std::complex<double>> z,
                                                 double position, std::span<const double> thetas);

// cos(p * theta_i) and sin(p * theta_i) for a list of positions, laid out [position][d/2]:
// the cache that makes applying RoPE to many vectors as cheap as a few streaming passes.
// Angles are computed in double, then rounded to T. The table is empty (count = half = 0) if
// thetas is invalid or it would exceed 2^26 entries per table.
template <class T>
struct RopeTable {
  RopeTable(std::span<const double> positions, std::span<const double> thetas);
  int count = 0;           // number of positions
  int half = 0;            // d/2
  std::vector<T> cos_tab;  // [count][half]
  std::vector<T> sin_tab;  // [count][half]
};

// Y[p] = R_{positions[p]} X[p] for every row p; X, Y are row-major [count][d], d = 2 * half.
// In place (y == x) is allowed. Sizes that do not match the table fill y with NaN.
// T is deduced from the table alone, so std::vector arguments convert.
template <class T>
void apply_rope_batch(const RopeTable<T>& table, std::span<const std::type_identity_t<T>> x,
                      std::span<std::type_identity_t<T>> y, Pairing pairing);

// The same rows rotated with the dense matrix built per position (the slow reference the
// benchmark compares against). `scratch` must hold d*d entries; x, y, scratch must not
// overlap. x, y: [positions.size()][d]. Bad sizes or overlap fill y with NaN.
template <class T>
void apply_rope_batch_dense(std::span<const double> positions, std::span<const double> thetas,
                            std::span<const T> x, std::span<T> y, Pairing pairing,
                            std::span<T> scratch);

}  // namespace rope
