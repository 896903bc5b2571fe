// frequencies.cpp — theta_i = base^(-2i/d), wavelengths, and the parameter validators.
#include "rope/frequencies.h"

#include <cmath>

#include "internal.h"

namespace rope {

Status validate_dim(std::int64_t dim) {
  if (dim < kMinDim || dim > kMaxDim || dim % 2 != 0) {
    return Error{"dim", "must be an even integer from " + std::to_string(kMinDim) + " to " +
                            std::to_string(kMaxDim) + ", got " + std::to_string(dim)};
  }
  return {};
}

Status validate_base(double base) {
  if (!std::isfinite(base) || !(base > 1.0)) {
    return Error{"base",
                 "must be a finite number greater than 1, got " + detail::format_number(base)};
  }
  return {};
}

Status validate_position(double position, const char* parameter) {
  if (!std::isfinite(position)) {
    return Error{parameter, "must be a finite number, got " + detail::format_number(position)};
  }
  return {};
}

Status validate_count(std::int64_t count, std::int64_t max_count, const char* parameter) {
  if (count < 1 || count > max_count) {
    return Error{parameter, "must be an integer from 1 to " + std::to_string(max_count) + ", got " +
                                std::to_string(count)};
  }
  return {};
}

double theta(int i, int dim, double base) {
  return std::pow(base, -2.0 * static_cast<double>(i) / static_cast<double>(dim));
}

Result<std::vector<double>> frequencies(std::int64_t dim, double base) {
  if (auto s = validate_dim(dim); !s) return s.error();
  if (auto s = validate_base(base); !s) return s.error();
  const int d = static_cast<int>(dim);
  std::vector<double> out(static_cast<std::size_t>(d / 2));
  for (int i = 0; i < d / 2; ++i)
    out[static_cast<std::size_t>(i)] = theta(i, d, base);
  return out;
}

double wavelength(double theta) {
  if (theta == 0.0) return HUGE_VAL;
  if (!(theta > 0.0)) return std::nan("");
  return kTwoPi / theta;
}

}  // namespace rope
