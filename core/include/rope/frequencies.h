// rope/frequencies.h — block frequencies theta_i, wavelengths, and parameter validation.
//
// Usage:
//   if (auto s = rope::validate_dim(d); !s) show(s.error().to_string());
//   auto th = rope::frequencies(128, 10000.0);   // Result<std::vector<double>>, size 64
//   double lambda = rope::wavelength(th.value()[63]);
#pragma once

#include <cstdint>
#include <vector>

#include "rope/conventions.h"

namespace rope {

// d must be even with kMinDim <= d <= kMaxDim. Takes int64 so that a huge or negative value
// from a flag or a file is judged, not truncated.
Status validate_dim(std::int64_t dim);
// base must be finite and > 1 (base <= 1 gives frequencies that do not decay, or NaN).
Status validate_base(double base);
// A position (m, n, pos) must be finite. `parameter` names it in the message.
Status validate_position(double position, const char* parameter = "position");
// A count of positions (N, context length...) must be in [1, max_count].
// Messages: "must be an even integer from 2 to 4096, got 7", "must be a finite number greater
// than 1, got nan", "must be a finite number, got inf", "must be an integer from 1 to 4096, got 0".
Status validate_count(std::int64_t count, std::int64_t max_count, const char* parameter);

// theta_i = base^(-2i/d) for one block; no validation (callers validated dim and base).
double theta(int i, int dim, double base);

// All d/2 frequencies, theta_0 = 1 first, decreasing. Error if dim or base is invalid.
Result<std::vector<double>> frequencies(std::int64_t dim, double base);

// 2*pi / theta: the number of positions for one full turn of a block of frequency theta (> 0).
// theta = 0 gives +inf (a block that never turns); negative or NaN theta gives NaN.
double wavelength(double theta);

}  // namespace rope
