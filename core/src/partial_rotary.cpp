// partial_rotary.cpp — the neox and proportional meanings of a rotary fraction.
#include "rope/partial_rotary.h"

#include <cmath>

#include "internal.h"
#include "rope/frequencies.h"

namespace rope {

namespace {

// int(head_dim * p) with the product rounded to double first, as Python computes it. Callers
// checked 0 < p <= 1, so the result is in [0, head_dim].
std::int64_t truncated_rotary_dim(std::int64_t head_dim, double fraction) {
  return static_cast<std::int64_t>(static_cast<double>(head_dim) * fraction);
}

}  // namespace

const char* rotary_style_name(RotaryStyle style) {
  return style == RotaryStyle::neox ? "neox" : "proportional";
}

std::optional<RotaryStyle> parse_rotary_style(std::string_view name) {
  if (name == "neox") return RotaryStyle::neox;
  if (name == "proportional") return RotaryStyle::proportional;
  return std::nullopt;
}

Status validate_partial_rotary(std::int64_t head_dim, double fraction, RotaryStyle style) {
  if (auto s = validate_dim(head_dim); !s) return s.error();
  if (!std::isfinite(fraction) || !(fraction > 0.0) || !(fraction <= 1.0)) {
    // 0 is refused here but allowed by the p-RoPE method (scaling "proportional"), where p = 0
    // is the paper's own NoPE baseline; as a partial rotary head (partial_rotary_factor) it
    // would leave no rotating coordinates, which transformers cannot build. The message says
    // both, since the two read the same field (review N15).
    return Error{"rotary_fraction",
                 "must be a number greater than 0 and at most 1 for a partial rotary head (0, "
                 "no rotation at all, is p-RoPE's NoPE: scaling proportional), got " +
                     detail::format_number(fraction)};
  }
  const std::int64_t rotary_dim = truncated_rotary_dim(head_dim, fraction);
  const std::string product = "int(" + std::to_string(head_dim) + " x " +
                              detail::format_number(fraction) + ") = " + std::to_string(rotary_dim);
  if (style == RotaryStyle::neox && (rotary_dim < 2 || rotary_dim % 2 != 0)) {
    return Error{
        "rotary_fraction",
        "must give an even number of at least 2 rotated dimensions under neox, got " + product};
  }
  if (style == RotaryStyle::proportional && rotary_dim / 2 < 1) {
    return Error{"rotary_fraction",
                 "must leave at least one rotated pair under proportional (floor(dim x "
                 "rotary_fraction / 2) >= 1), got " +
                     product};
  }
  return {};
}

int rotated_pairs(std::int64_t head_dim, double fraction, RotaryStyle style) {
  if (!validate_partial_rotary(head_dim, fraction, style)) return 0;
  // neox: rotary_dim / 2 (rotary_dim is even). proportional: floor(p head_dim / 2) =
  // floor(floor(p head_dim) / 2), and halving a double is exact, so the same integer division.
  return static_cast<int>(truncated_rotary_dim(head_dim, fraction) / 2);
}

Result<std::vector<double>> partial_frequencies(std::int64_t head_dim, double base, double fraction,
                                                RotaryStyle style) {
  if (auto s = validate_dim(head_dim); !s) return s.error();
  if (auto s = validate_base(base); !s) return s.error();
  if (auto s = validate_partial_rotary(head_dim, fraction, style); !s) return s.error();
  const int pairs = rotated_pairs(head_dim, fraction, style);
  // The dimension the exponent is measured against: the reduced one for neox, the full head for
  // proportional.
  const int exponent_dim = style == RotaryStyle::neox ? 2 * pairs : static_cast<int>(head_dim);
  std::vector<double> out(static_cast<std::size_t>(head_dim / 2), 0.0);
  for (int i = 0; i < pairs; ++i)
    out[static_cast<std::size_t>(i)] = theta(i, exponent_dim, base);
  return out;
}

}  // namespace rope
