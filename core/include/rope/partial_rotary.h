// rope/partial_rotary.h — rotating only part of a head: the two meanings of "rotary fraction" p.
//
//   RotaryStyle::neox          GPT-NeoX `rotary_pct`, transformers `partial_rotary_factor`.
//     rotary_dim = int(head_dim * p), truncated toward zero as Python's int() does on the same
//     double product (so 100 * 0.29 = 28.999999999999996 gives 28, exactly as transformers).
//     The frequencies are recomputed over the reduced dimension:
//       theta_i = base^(-2i/rotary_dim), i < rotary_dim/2;  the other coordinates pass through.
//     rotary_dim must be even and at least 2, otherwise an error: an odd count cannot be split
//     into pairs (transformers' rotate_half would fail on the mismatched halves), and 0 means
//     nothing rotates at all.
//   RotaryStyle::proportional  p-RoPE (Barbero et al. 2024, arXiv 2410.06205), transformers'
//     newest "proportional". The frequencies of the full head are kept for the fastest pairs:
//       theta_i = base^(-2i/head_dim), i < floor(p * head_dim / 2);  theta = 0 for the rest.
//     At least one pair must rotate.
//   At p = 1 both give rope::frequencies(head_dim, base) exactly.
//
//   Example, head_dim 128, p = 0.25: both rotate 16 pairs (32 dimensions), but the slowest kept
//   wavelength is 2 pi 10000^(30/32) = 35 333 tokens under neox and 2 pi 10000^(30/128) = 54.4
//   tokens under proportional.
//
// WHICH COORDINATES. partial_frequencies returns one theta per pair index i = 0 ... head_dim/2-1
// in the app's own pairing (block i of rope/conventions.h), with 0 meaning "not rotated"; it
// describes which frequencies exist, not where the coordinates sit. GPT-NeoX rotates the first
// rotary_dim coordinates of the head, pairing (x_i, x_{i + rotary_dim/2}) in rotate_half form, and
// leaves x_{rotary_dim} ... x_{head_dim-1} alone; the app's half-split block i of the whole head
// is (x_i, x_{i + head_dim/2}), a different pair whenever rotary_dim < head_dim. Code that applies
// a neox partial rotation to vectors must split the head at rotary_dim itself.
//
// Usage:
//   auto th = rope::partial_frequencies(128, 10000.0, 0.25, rope::RotaryStyle::neox);
//   // th.value(): 64 entries, 16 non-zero
//   int pairs = rope::rotated_pairs(128, 0.25, rope::RotaryStyle::neox);   // 16
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "rope/conventions.h"

namespace rope {

enum class RotaryStyle { neox, proportional };

// "neox" / "proportional": the names used by flags (--rotary-style), sessions and lessons.
const char* rotary_style_name(RotaryStyle style);
std::optional<RotaryStyle> parse_rotary_style(std::string_view name);

// head_dim valid (even, 2 ... 4096, reported as "dim"), p in (0, 1] and finite (reported as
// "rotary_fraction"), and p leaves something to rotate: under neox int(head_dim * p) even and
// >= 2, under proportional floor(p * head_dim / 2) >= 1 (also "rotary_fraction").
Status validate_partial_rotary(std::int64_t head_dim, double fraction, RotaryStyle style);

// The number of rotated pairs: rotary_dim/2 under neox, floor(p * head_dim / 2) under
// proportional. 0 when validate_partial_rotary fails (call it for the reason).
int rotated_pairs(std::int64_t head_dim, double fraction, RotaryStyle style);

// head_dim/2 angular frequencies (radians per token) indexed by pair: the rotated_pairs()
// non-zero ones first (decreasing, theta_0 = 1), then zeros. Errors: as validate_partial_rotary,
// plus an invalid base.
Result<std::vector<double>> partial_frequencies(std::int64_t head_dim, double base, double fraction,
                                                RotaryStyle style);

}  // namespace rope
