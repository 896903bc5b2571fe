// internal.h — helpers shared by the rope_core sources; not part of the public API.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "rope/conventions.h"

namespace rope::detail {

// std::bit_cast, which the browser build's standard library (LLVM 14's libc++) lacks; gcc and
// clang both have the builtin it is made of.
template <class To, class From>
constexpr To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  return __builtin_bit_cast(To, from);
}

// Shortest text that reads back as the same double: "0.5", "1e+300", "nan", "-inf".
std::string format_number(double v);

// Error for a buffer of the wrong length: "must have <expected> entries (<shape>), got <got>".
Error size_error(const char* parameter, std::size_t expected, std::size_t got,
                 const std::string& shape);

// A frequency list the span-based functions accept: 1 ... kMaxDim/2 entries.
inline bool thetas_ok(std::span<const double> thetas) {
  return !thetas.empty() && thetas.size() <= static_cast<std::size_t>(kMaxDim / 2);
}

// Indices (a, b) of the two coordinates of block i, half = d/2.
struct BlockIndex {
  std::size_t a;
  std::size_t b;
};
inline BlockIndex block_index(std::size_t i, std::size_t half, Pairing pairing) {
  return pairing == Pairing::interleaved ? BlockIndex{2 * i, 2 * i + 1} : BlockIndex{i, i + half};
}

// y = R x for per-block angles `a` (d/2 entries, radians), x and y of length d: block i turned
// counter-clockwise by a[i] (axial 2D RoPE and M-RoPE, whose angles are not position x theta).
inline void rotate_by_angles(std::span<const double> x, std::span<const double> a, Pairing pairing,
                             std::span<double> y) {
  const std::size_t half = a.size();
  for (std::size_t i = 0; i < half; ++i) {
    const auto [ia, ib] = block_index(i, half, pairing);
    const double c = std::cos(a[i]);
    const double s = std::sin(a[i]);
    y[ia] = x[ia] * c - x[ib] * s;
    y[ib] = x[ia] * s + x[ib] * c;
  }
}

// Shape errors in functions without a Status return fill their output with NaN, so the mistake
// shows on screen and in exports instead of passing as plausible numbers.
template <class T>
void fill_nan(std::span<T> y) {
  for (T& v : y)
    v = std::numeric_limits<T>::quiet_NaN();
}

// The unit phasors e^{i r theta_i} for r = 0, 1, 2, ... in order, one step at a time.
// Between exact cos/sin reseeds every kReseed steps the phasors advance by one complex product
// per block, so a row of d/2 phasors costs a few flops instead of d/2 sincos calls; the drift
// between reseeds stays at a few ulp.
class PhasorStepper {
 public:
  explicit PhasorStepper(std::span<const double> thetas);
  std::int64_t r() const { return r_; }
  std::span<const double> cos() const { return cos_; }
  std::span<const double> sin() const { return sin_; }
  void advance();

 private:
  static constexpr std::int64_t kReseed = 32;
  std::span<const double> thetas_;
  std::int64_t r_ = 0;
  std::vector<double> cos_, sin_;            // e^{i r theta_i}, [d/2]
  std::vector<double> step_cos_, step_sin_;  // e^{i theta_i}, [d/2]
};

}  // namespace rope::detail
