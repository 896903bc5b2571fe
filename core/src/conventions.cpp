// conventions.cpp — pairing names, error text helpers and the phasor stepper (internal.h).
#include "rope/conventions.h"

#include <cmath>

#include "internal.h"
#include "rope/decimal.h"

namespace rope {

const char* pairing_name(Pairing p) {
  return p == Pairing::interleaved ? "interleaved" : "half";
}

std::optional<Pairing> parse_pairing(std::string_view name) {
  if (name == "interleaved") return Pairing::interleaved;
  if (name == "half") return Pairing::half_split;
  return std::nullopt;
}

namespace detail {

std::string format_number(double v) {
  return shortest(v);
}

Error size_error(const char* parameter, std::size_t expected, std::size_t got,
                 const std::string& shape) {
  return Error{parameter, "must have " + std::to_string(expected) + " entries (" + shape +
                              "), got " + std::to_string(got)};
}

PhasorStepper::PhasorStepper(std::span<const double> thetas)
    : thetas_(thetas),
      cos_(thetas.size(), 1.0),
      sin_(thetas.size(), 0.0),
      step_cos_(thetas.size()),
      step_sin_(thetas.size()) {
  for (std::size_t i = 0; i < thetas.size(); ++i) {
    step_cos_[i] = std::cos(thetas[i]);
    step_sin_[i] = std::sin(thetas[i]);
  }
}

void PhasorStepper::advance() {
  ++r_;
  const std::size_t half = thetas_.size();
  if (r_ % kReseed == 0) {
    const double r = static_cast<double>(r_);
    for (std::size_t i = 0; i < half; ++i) {
      cos_[i] = std::cos(r * thetas_[i]);
      sin_[i] = std::sin(r * thetas_[i]);
    }
    return;
  }
  for (std::size_t i = 0; i < half; ++i) {
    const double c = cos_[i] * step_cos_[i] - sin_[i] * step_sin_[i];
    const double s = sin_[i] * step_cos_[i] + cos_[i] * step_sin_[i];
    cos_[i] = c;
    sin_[i] = s;
  }
}

}  // namespace detail
}  // namespace rope
