// rope/conventions.h — shared conventions and small types of the RoPE Lab math core.
//
// CONVENTIONS (every header in rope/ follows them)
//   * Angles are in radians.
//   * d is the head dimension: even, 2 <= d <= 4096. It splits into d/2 two-dimensional blocks.
//   * Block frequencies are zero-based: theta_i = base^(-2i/d), i = 0 ... d/2-1 (RoFormer counts
//     from 1 and writes theta_i = 10000^(-2(i-1)/d); the values are the same). base is finite, > 1.
//   * The wavelength of block i is 2*pi/theta_i positions: how far the position must advance
//     for pointer i to make one full turn.
//   * Pairing says which coordinates form block i:
//       Pairing::interleaved  (x[2i], x[2i+1])   RoFormer; complex form z_i = x[2i] + i x[2i+1]
//       Pairing::half_split   (x[i],  x[i+d/2])  the `rotate_half` implementations
//     Under either pairing, block i at position m is rotated counter-clockwise by m * theta_i:
//       (a, b) -> (a cos(m theta_i) - b sin(m theta_i),  a sin(m theta_i) + b cos(m theta_i)).
//   * Positions are real numbers (the app animates between integers); they must be finite.
//   * Matrices are dense, row-major std::vector with the shape written beside them, e.g. [d][d].
//     Score matrices are [query position m][key position n].
//   * double is the reference precision (exports, checks). Functions that feed the GPU or the
//     benchmarks also come in float.
//   * Invalid input is reported through Status / Result with the parameter's name and its allowed
//     range; nothing in the core aborts, throws on bad input, or has undefined behaviour.
//   * The core has no GL, no ImGui, no file I/O and starts no threads.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace rope {

inline constexpr double kPi = 3.14159265358979323846264338327950288;
inline constexpr double kTwoPi = 2.0 * kPi;

inline constexpr int kMinDim = 2;
inline constexpr int kMaxDim = 4096;

enum class Pairing { interleaved, half_split };

// "interleaved" / "half": the names used by the command line, session files and lessons.
const char* pairing_name(Pairing p);
std::optional<Pairing> parse_pairing(std::string_view name);

// What went wrong with one parameter. `parameter` is the canonical snake_case name used by
// flags (--key-position), JSON (key_position) and lessons; `message` says what is allowed and
// what was given, e.g. parameter "dim", message "must be an even integer from 2 to 4096, got 7".
struct Error {
  std::string parameter;
  std::string message;
  std::string to_string() const { return parameter + ": " + message; }
};

// Success, or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error e) : error_(std::move(e)) {}  // NOLINT: implicit by design, like std::expected
  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

// A value, or an Error. Accessing value() of an error is a programming error; check ok() first.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T v) : v_(std::move(v)) {}      // NOLINT: implicit by design
  Result(Error e) : v_(std::move(e)) {}  // NOLINT: implicit by design
  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const Error& error() const { return std::get<Error>(v_); }
  Status status() const { return ok() ? Status{} : Status{error()}; }

 private:
  std::variant<T, Error> v_;
};

}  // namespace rope
