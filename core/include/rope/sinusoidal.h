// rope/sinusoidal.h — the additive sinusoidal encoding of "Attention Is All You Need".
//
//   PE[pos][2i]   = sin(pos / base^(2i/d)) = sin(pos * theta_i)
//   PE[pos][2i+1] = cos(pos / base^(2i/d)) = cos(pos * theta_i)
//
// and its offset identity PE_{pos+k} = M(k) PE_pos, where M(k) is block-diagonal with blocks
// [[cos k theta_i, sin k theta_i], [-sin k theta_i, cos k theta_i]] = R(k theta_i)^T acting on the
// (sin, cos) pair: shifting the position is a rotation that does not depend on pos.
#pragma once

#include <cstdint>
#include <vector>

#include "rope/conventions.h"
#include "rope/rotation.h"

namespace rope {

// One encoding vector PE_pos, d entries. No validation of pos (NaN in, NaN out); empty if thetas
// has 0 or more than kMaxDim/2 entries.
std::vector<double> sinusoidal_vector(double pos, std::span<const double> thetas);

// The table for positions 0 ... positions-1: row-major [positions][dim].
// Errors: dim, base invalid; positions outside 1 ... 1'000'000, or positions*dim above 2^26
// entries (512 MiB), reported on "positions".
Result<std::vector<double>> sinusoidal_table(std::int64_t positions, std::int64_t dim, double base);

// M(k), row-major [d][d], d = 2 * thetas.size(); empty if thetas is empty or too long.
std::vector<double> sinusoidal_offset_matrix(double k, std::span<const double> thetas);

// The 2D pictures (d = 2, a single frequency `omega`, 1 by default as theta_0 = 1):
// additive: x + (sin(pos*omega), cos(pos*omega)); rotary: R(pos*omega) x.
// Positions first, first + step, ... (count points); empty unless 0 <= count <= 1'000'000.
std::vector<Vec2> additive_trajectory(Vec2 x, double first, double step, int count,
                                      double omega = 1.0);
std::vector<Vec2> rotary_trajectory(Vec2 x, double first, double step, int count,
                                    double omega = 1.0);

}  // namespace rope
