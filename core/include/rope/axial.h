// rope/axial.h — axial 2D RoPE for images: a patch at (row r, column c) of a grid.
//
// A vision transformer cuts an image into patches on a grid; each patch's position is a pair
// (r, c) of whole numbers, not one index. Axial 2D RoPE (the "axial" variant of Heo et al. 2024,
// "Rotary Position Embedding for Vision Transformer", arXiv 2403.13298, as in EVA-02) gives half
// of the d/2 blocks to the row and half to the column, each half with the 1D frequencies of a
// d/2-dimensional head.
//
// CONVENTIONS (those of rope/conventions.h, plus):
//   * d must be a multiple of 4 with 4 <= d <= 4096: d/2 blocks split into two halves of d/4.
//   * Block i (the pair of coordinates given by Pairing, as in 1D) turns by
//       r * theta_i            for i = 0 ... d/4-1      (the row half, first)
//       c * theta_{i - d/4}    for i = d/4 ... d/2-1    (the column half, second)
//     with theta_j = base^(-4j/d) = base^(-2j/(d/2)), j = 0 ... d/4-1: the 1D frequencies of a
//     head of size d/2, so both halves run from theta_0 = 1 down to base^(-(d-4)/d).
//   * Counter-clockwise as in 1D: (a, b) -> (a cos(phi) - b sin(phi), a sin(phi) + b cos(phi)).
//   * Rows and columns are real numbers (integers on a grid); they must be finite.
//   * A score is (R(r1, c1) q) . (R(r2, c2) k); since R(r, c) is a block-diagonal rotation with
//     angles linear in (r, c), R(r1, c1)^T R(r2, c2) = R(r2 - r1, c2 - c1): the score depends
//     only on the offset (r2 - r1, c2 - c1) (axial_relative_score).
//
// Usage:
//   auto th = rope::axial_frequencies(16, 100.0);   // 4 values: 1, 0.316.., 0.1, 0.0316..
//   auto s = rope::axial_score(q, k, {2, 3}, {5, 1}, 100.0, rope::Pairing::interleaved);
//   auto t = rope::axial_relative_score(q, k, {3, -2}, 100.0, rope::Pairing::interleaved);
//   // s.value() == t.value() up to rounding
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rope/conventions.h"

namespace rope {

// A patch position: row r (down the image) and column c (across), in patches.
struct Patch {
  double row = 0.0;
  double column = 0.0;
};

// d a multiple of 4 from 4 to 4096, reported as "dim":
// "must be a multiple of 4 from 4 to 4096 for axial 2D RoPE, got 6".
Status validate_axial_dim(std::int64_t dim);

// The d/4 frequencies theta_j = base^(-4j/d), theta_0 = 1 first. Errors: dim, base.
Result<std::vector<double>> axial_frequencies(std::int64_t dim, double base);

// The d/2 block angles at `at`, radians: r theta_j for the first d/4 blocks, c theta_j for the
// rest. Errors: dim, base, "row" / "column" not finite.
Result<std::vector<double>> axial_angles(std::int64_t dim, double base, Patch at);

// R(r, c) x: x rotated block by block. d = x.size(). Errors as axial_angles, reported with
// the parameter "dim" for a bad length.
Result<std::vector<double>> axial_rotate(std::span<const double> x, Patch at, double base,
                                         Pairing pairing);

// (R(r1, c1) q) . (R(r2, c2) k). q and k have the same length d. Errors: as axial_rotate,
// "key" for a length that differs from the query's.
Result<double> axial_score(std::span<const double> q, std::span<const double> k, Patch query_at,
                           Patch key_at, double base, Pairing pairing);

// q . (R(dr, dc) k): the score from the offset (dr, dc) = (r2 - r1, c2 - c1) alone.
Result<double> axial_relative_score(std::span<const double> q, std::span<const double> k,
                                    Patch offset, double base, Pairing pairing);

// The scores of a query at `query_at` against the same key k at every patch of a rows x columns
// grid (rows, columns 1 ... 1024): [row][column], row-major, rows * columns entries.
Result<std::vector<double>> axial_score_grid(std::span<const double> q, std::span<const double> k,
                                             Patch query_at, int rows, int columns, double base,
                                             Pairing pairing);

}  // namespace rope
