// rope/scaling.h — context extension: the frequencies θ′_i and the attention factor of each
// scaling method, as Hugging Face transformers computes them (modeling_rope_utils.py).
//
// Usage:
//   rope::ScalingParams p;
//   p.method = rope::ScalingMethod::yarn;
//   p.factor = 8.0;                 // s: target context / original context
//   p.original_context = 4096;      // L
//   if (auto s = rope::validate_scaling(128, 10000.0, p); !s) show(s.error().to_string());
//   auto sf = rope::scaled_frequencies(128, 10000.0, p).value();
//   // sf.theta[i] -> sf.theta_scaled[i]; cos and sin are multiplied by sf.attention_factor.
//
// CONVENTIONS (in addition to rope/conventions.h)
//   * d (`dim`) is the rotary dimension: head_dim × transformers' `partial_rotary_factor`.
//     Exception: for `proportional` it is the whole head_dim (see below).
//   * θ_i = b^(−2i/d) for i = 0 … d/2 − 1 (transformers' `inv_freq`), radians per token;
//     λ_i = 2π/θ_i tokens; r_i = L/λ_i = L·θ_i/2π rotations in the original context L.
//   * s = `factor`, the ratio target context / L. L = `original_context`, the pre-training
//     context (`original_max_position_embeddings`; for `dynamic`, `max_position_embeddings`).
//   * The attention factor multiplies cos and sin, so a logit q·k scales by its square.
//   * Each method follows one transformers function (read in the 4.4x and 5.x lines):
//       none          θ′ = θ, attention factor 1.
//       linear        _compute_linear_scaling_rope_parameters. Position Interpolation (Chen,
//                     Wong, Chen, Tian 2023, arXiv 2306.15595): θ′ = θ/s.
//       ntk           _compute_ntk_parameters (4.4x only). NTK-aware (bloc97 2023; YaRN §3.1):
//                     b′ = b·s^(d/(d−2)), θ′_i = b′^(−2i/d): θ′_0 = θ_0, θ′_{d/2−1} = θ_{d/2−1}/s.
//       dynamic       _compute_dynamic_ntk_parameters, the code, not YaRN §3.3's wording:
//                     ℓ = max(sequence_length, L), b′ = b·(s·ℓ/L − (s − 1))^(d/(d−2)).
//                     ℓ ≤ L gives the original θ. The paper scales by ℓ/L instead; at ℓ = s·L
//                     the code divides the slowest pair by s² − s + 1 (57 at s = 8), the paper
//                     by s (the extension view says so).
//       yarn          _compute_yarn_parameters. YaRN (Peng, Quesnelle, Fan, Shippole 2023, arXiv
//                     2309.00071). The code, not the paper's wording: the ramp is linear in the
//                     PAIR INDEX between low = floor(c(β_fast)) and high = ceil(c(β_slow)),
//                     c(n) = d·ln(L/(2πn))/(2 ln b) (yarn_correction_dim), floor/ceil only when
//                     `truncate`, clamped to low ≥ 0, high ≤ d − 1 (sic: d − 1, not d/2 − 1),
//                     high += 0.001 if equal; γ_i = 1 − clamp((i − low)/(high − low), 0, 1),
//                     θ′ = (θ/s)·(1 − γ) + θ·γ. Attention factor 0.1·ln s + 1 (1 for s ≤ 1), or
//                     mscale(s, mscale)/mscale(s, mscale_all_dim) when both are set (DeepSeek).
//       llama3        _compute_llama3_parameters; Meta llama-models `apply_scaling` (Llama 3.1).
//                     λ < L/high_freq_factor: θ kept; λ > L/low_freq_factor: θ/s; between:
//                     γ = (L/λ − low)/(high − low), θ′ = (1 − γ)·θ/s + γ·θ. Attention factor 1.
//       longrope      _compute_longrope_parameters. LongRoPE (Ding et al. 2024, arXiv 2402.13753):
//                     θ′_i = θ_i/ext_i, ext = long_factor if sequence_length > L, else
//                     short_factor. Attention factor √(1 + ln s/ln L) (1 for s ≤ 1), whichever
//                     list is in use.
//       proportional  _compute_proportional_rope_parameters (5.x). p-RoPE (Barbero et al. 2024,
//                     arXiv 2410.06205): θ′_i = θ_i/s for i < ⌊p·d/2⌋, θ′_i = 0 after; d is the
//                     whole head. transformers divides by `factor` (default 1) here too.
//   * All arithmetic is in double; transformers computes inv_freq in float32 (2i/d, the power
//     and the reciprocal each rounded), so a real model's θ differ from these by up to 8.3e-8
//     relative when d is a power of two, and by 2.3e-7 … 3.8e-7 for d = 24, 80, 96 (2i/d is
//     then not exact in float32); measured for bases 10⁴, 5·10⁵, 10⁶ with each float32
//     operation rounded once.
//   * A validated call never yields NaN: θ′ ≥ 0 and finite, attention factor finite and > 0.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "rope/conventions.h"

namespace rope {

enum class ScalingMethod { none, linear, ntk, dynamic, yarn, llama3, longrope, proportional };

inline constexpr ScalingMethod kScalingMethods[] = {
    ScalingMethod::none,     ScalingMethod::linear,      ScalingMethod::ntk,
    ScalingMethod::dynamic,  ScalingMethod::yarn,        ScalingMethod::llama3,
    ScalingMethod::longrope, ScalingMethod::proportional};

// "none", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional": the names
// used by the command line (--scaling), session files and lessons; transformers' `rope_type`
// except "none" (transformers: "default").
const char* scaling_name(ScalingMethod m);
std::optional<ScalingMethod> parse_scaling(std::string_view name);

// Limits of the scaling parameters (validate_scaling reports values outside them).
inline constexpr double kMinScalingFactor = 1e-6;  // factor, and each long/short_factor entry
inline constexpr double kMaxScalingFactor = 1e6;
inline constexpr std::int64_t kMaxContext = std::int64_t{1} << 30;  // original_context, sequence
inline constexpr double kMinBeta = 1e-3;                            // beta_fast, beta_slow
inline constexpr double kMaxBeta = 1e5;
inline constexpr double kMaxAttentionFactor = 100.0;  // attention_factor, mscale, mscale_all_dim

// The parameters of every method in one struct, so a view can switch methods and keep the
// values. Fields a method does not use are ignored (neither validated nor read). Each comment:
// meaning, unit, default, the methods that read it, transformers' `rope_scaling` key.
struct ScalingParams {
  ScalingMethod method = ScalingMethod::none;  // `rope_type`
  // s, dimensionless: target context / original context. Default 1 (no change). Range
  // [1e-6, 1e6]. All methods but none; longrope uses it only for its attention factor. `factor`.
  double factor = 1.0;
  // L, tokens: the pre-training context. Default 4096 (Llama 2). Integer in [1, 2^30] (2 for
  // longrope). dynamic, yarn, llama3, longrope. `original_max_position_embeddings` (dynamic
  // reads the config's `max_position_embeddings` instead: the context it was trained with).
  std::int64_t original_context = 4096;
  // YaRN's ramp ends, in rotations per original context: pairs turning more than beta_fast
  // times in L keep θ, fewer than beta_slow get θ/s. Defaults 32 and 1 (the paper's α = 1,
  // β = 32 for Llama). Range [1e-3, 1e5], beta_fast ≥ beta_slow. yarn. `beta_fast`, `beta_slow`.
  double beta_fast = 32.0;
  double beta_slow = 1.0;
  // YaRN: round the correction range out to whole pair indices (floor/ceil). Default true, as
  // in transformers (recent versions read this key; older ones always rounded). yarn.
  // `truncate`.
  bool truncate = true;
  // DeepSeek's YaRN temperature coefficients m in 0.1·m·ln s + 1, dimensionless. 0 = unset
  // (the default); only when both are set is the attention factor their ratio. Range [0, 100].
  // yarn. `mscale`, `mscale_all_dim`.
  double mscale = 0.0;
  double mscale_all_dim = 0.0;
  // The factor on cos and sin, dimensionless. 0 = derive the method's default (the default);
  // > 0 = use this value. Range [0, 100]. yarn, longrope (others always use 1).
  // `attention_factor`.
  double attention_factor = 0.0;
  // Llama 3.1's band edges, in rotations per original context: pairs with λ < L/high keep θ,
  // λ > L/low get θ/s. Defaults 1 and 4 (Llama 3.1). low > 0, high ≥ low (equal: a step with
  // no blended pairs, as in Llama 4 Scout), both finite. llama3. `low_freq_factor`,
  // `high_freq_factor`.
  double low_freq_factor = 1.0;
  double high_freq_factor = 4.0;
  // ℓ, tokens: the current sequence length. 0 = unset (the default: as when a model is loaded,
  // dynamic keeps θ and longrope uses short_factor); else an integer in [1, 2^30]. dynamic,
  // longrope. Not a config key: transformers' `seq_len` argument (max position id + 1).
  std::int64_t sequence_length = 0;
  // LongRoPE's per-pair divisors ext_i, dimensionless, d/2 entries each in [1e-6, 1e6]; both
  // lists are required. Default empty. longrope. `short_factor`, `long_factor`.
  std::vector<double> short_factor;
  std::vector<double> long_factor;
  // p, the fraction of the head's pairs that rotate: the first ⌊p·d/2⌋. Default 1. Range
  // [0, 1]. proportional. `partial_rotary_factor` (which means a reduced d for the other
  // methods; here d is the whole head).
  double rotary_fraction = 1.0;

  bool operator==(const ScalingParams&) const = default;
};

// Checks the fields `p.method` reads, plus dim and base. dim: even, 2 … 4096 (4 … 4096 for ntk
// and dynamic, whose exponent d/(d − 2) needs d > 2); base: finite, > 1. Error parameters are the
// field names above (the command line's flags with - for _; "scaling" for an unknown method), e.g.
//   "factor": "must be a finite number greater than 0, got -1"
//   "low_freq_factor": "must be less than high_freq_factor (4), got 4"
//   "long_factor": "must have d/2 = 48 entries, got 47"
//   "original_context": "must be an integer from 1 to 1073741824, got -5"
Status validate_scaling(std::int64_t dim, double base, const ScalingParams& p);

struct ScaledFrequencies {
  std::vector<double> theta;         // original θ_i = b^(−2i/d), radians per token, [d/2]
  std::vector<double> theta_scaled;  // θ′_i, radians per token, [d/2]; ≥ 0 (0: the pair is still)
  double attention_factor = 1.0;     // multiplies cos and sin; logits scale by its square
  double base_used = 0.0;            // b′ for ntk and dynamic, else b
  // YaRN's correction range in pair indices, as the ramp uses it (after floor/ceil, clamping and
  // the + 0.001); 0 and 0 for other methods.
  double ramp_low = 0.0;
  double ramp_high = 0.0;
  // Blend weight γ_i per pair for yarn and llama3: 1 = θ kept, 0 = θ/s, θ′ = γ·θ + (1 − γ)·θ/s.
  // [d/2]; empty for the other methods.
  std::vector<double> ramp;
};

// θ and θ′ for every pair, the attention factor, and the method's intermediate values.
// Errors: those of validate_scaling.
Result<ScaledFrequencies> scaled_frequencies(std::int64_t dim, double base, const ScalingParams& p);

// YaRN's inverse dimension formula (transformers' find_correction_dim): the pair index, as a
// real number, whose frequency turns `rotations` times in `original_context` tokens:
// d·ln(L/(2π·rotations))/(2 ln b). NaN unless rotations > 0, original_context > 0, base > 1.
double yarn_correction_dim(double rotations, int dim, double base, double original_context);

// YaRN's temperature term (transformers' get_mscale): 0.1·m·ln s + 1, and 1 for s ≤ 1.
// yarn_mscale(8, 1) = 1.2079441541679836 (YaRN Eq. 25's √(1/t) at s = 8).
double yarn_mscale(double s, double m = 1.0);

// r = L·θ/2π: how many full turns a pair of frequency θ (radians per token) makes in L tokens.
double rotations_per_context(double theta, double original_context);

}  // namespace rope
