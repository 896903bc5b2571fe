// scaling.cpp — θ′ and the attention factor of each context-extension method (rope/scaling.h).
//
// Each method is written in the order of operations transformers uses, so that floor/ceil of
// the YaRN correction range and the Llama 3.1 band tests land on the same side as there.
#include "rope/scaling.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "internal.h"
#include "rope/frequencies.h"

namespace rope {

namespace {

constexpr const char* kNames[] = {"none", "linear", "ntk",      "dynamic",
                                  "yarn", "llama3", "longrope", "proportional"};

std::string num(double v) {
  return detail::format_number(v);
}

bool in_range(double v, double lo, double hi) {
  return std::isfinite(v) && v >= lo && v <= hi;
}

Status check_factor_like(double v, const std::string& parameter, const std::string& prefix) {
  if (!std::isfinite(v) || !(v > 0.0))
    return Error{parameter, prefix + "must be a finite number greater than 0, got " + num(v)};
  if (v < kMinScalingFactor || v > kMaxScalingFactor)
    return Error{parameter, prefix + "must be a number from " + num(kMinScalingFactor) + " to " +
                                num(kMaxScalingFactor) + ", got " + num(v)};
  return {};
}

Status check_context(std::int64_t v, std::int64_t lo, const char* parameter, const char* why = "") {
  if (v < lo || v > kMaxContext)
    return Error{parameter, "must be an integer from " + std::to_string(lo) + " to " +
                                std::to_string(kMaxContext) + why + ", got " + std::to_string(v)};
  return {};
}

Status check_coefficient(double v, const char* parameter, const char* zero_means) {
  if (!in_range(v, 0.0, kMaxAttentionFactor))
    return Error{parameter, "must be a finite number from 0 to " + num(kMaxAttentionFactor) +
                                " (0 = " + zero_means + "), got " + num(v)};
  return {};
}

Status check_list(const std::vector<double>& list, std::size_t half, const char* parameter) {
  if (list.size() != half)
    return Error{parameter, "must have d/2 = " + std::to_string(half) + " entries, got " +
                                std::to_string(list.size())};
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (auto s = check_factor_like(list[i], parameter, "entry " + std::to_string(i + 1) + " "); !s)
      return s;
  }
  return {};
}

bool uses_ntk_base(ScalingMethod m) {
  return m == ScalingMethod::ntk || m == ScalingMethod::dynamic;
}

// ℓ as transformers' dynamic NTK sees it: the current length, never below L.
double dynamic_length(const ScalingParams& p) {
  return static_cast<double>(std::max(p.sequence_length, p.original_context));
}

// b′ for ntk and dynamic (transformers' expressions, term by term).
double ntk_base(int dim, double base, const ScalingParams& p) {
  const double exponent = static_cast<double>(dim) / static_cast<double>(dim - 2);
  if (p.method == ScalingMethod::ntk) return base * std::pow(p.factor, exponent);
  const double length = dynamic_length(p);
  const double context = static_cast<double>(p.original_context);
  // At ℓ = L the bracket is 1 in exact arithmetic; transformers then restores the cached
  // original inv_freq (dynamic_rope_update), so the original base is returned exactly.
  if (length == context) return base;
  return base * std::pow((p.factor * length / context) - (p.factor - 1.0), exponent);
}

// The YaRN correction range [low, high] in pair indices, as the ramp uses it.
void yarn_range(int dim, double base, const ScalingParams& p, double& low, double& high) {
  const double context = static_cast<double>(p.original_context);
  low = yarn_correction_dim(p.beta_fast, dim, base, context);
  high = yarn_correction_dim(p.beta_slow, dim, base, context);
  if (p.truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  // transformers clamps high to d − 1 (the rotary dimension), not to the last pair d/2 − 1.
  low = std::max(low, 0.0);
  high = std::min(high, static_cast<double>(dim - 1));
  if (low == high) high += 0.001;  // a step instead of 0/0
}

bool known(ScalingMethod m) {
  const int k = static_cast<int>(m);
  return k >= 0 && k < static_cast<int>(std::size(kNames));
}

}  // namespace

const char* scaling_name(ScalingMethod m) {
  return known(m) ? kNames[static_cast<int>(m)] : "unknown";
}

std::optional<ScalingMethod> parse_scaling(std::string_view name) {
  for (ScalingMethod m : kScalingMethods)
    if (name == kNames[static_cast<int>(m)]) return m;
  return std::nullopt;
}

double yarn_correction_dim(double rotations, int dim, double base, double original_context) {
  if (!(rotations > 0.0) || !(original_context > 0.0) || !(base > 1.0)) return std::nan("");
  return (static_cast<double>(dim) * std::log(original_context / (rotations * 2.0 * kPi))) /
         (2.0 * std::log(base));
}

double yarn_mscale(double s, double m) {
  if (s <= 1.0) return 1.0;
  return 0.1 * m * std::log(s) + 1.0;
}

double rotations_per_context(double theta, double original_context) {
  return original_context * theta / kTwoPi;
}

Status validate_scaling(std::int64_t dim, double base, const ScalingParams& p) {
  if (auto s = validate_dim(dim); !s) return s;
  if (auto s = validate_base(base); !s) return s;
  const ScalingMethod m = p.method;
  if (!known(m))
    return Error{"scaling",
                 "must be one of none, linear, ntk, dynamic, yarn, llama3, longrope "
                 "or proportional, got method number " +
                     std::to_string(static_cast<int>(m))};
  if (m == ScalingMethod::none) return {};
  if (uses_ntk_base(m) && dim < 4)
    return Error{"dim", std::string("must be an even integer from 4 to ") +
                            std::to_string(kMaxDim) + " for " + scaling_name(m) +
                            " (its exponent d/(d-2) needs d > 2), got " + std::to_string(dim)};

  if (auto s = check_factor_like(p.factor, "factor", ""); !s) return s;

  const bool uses_context = m == ScalingMethod::dynamic || m == ScalingMethod::yarn ||
                            m == ScalingMethod::llama3 || m == ScalingMethod::longrope;
  if (uses_context) {
    const Status s = m == ScalingMethod::longrope
                         ? check_context(p.original_context, 2, "original_context",
                                         " for longrope (its attention factor divides by ln L)")
                         : check_context(p.original_context, 1, "original_context");
    if (!s) return s;
  }
  if (m == ScalingMethod::dynamic || m == ScalingMethod::longrope) {
    if (p.sequence_length < 0 || p.sequence_length > kMaxContext)
      return Error{"sequence_length", "must be 0 (unset) or an integer from 1 to " +
                                          std::to_string(kMaxContext) + ", got " +
                                          std::to_string(p.sequence_length)};
  }

  const std::size_t half = static_cast<std::size_t>(dim / 2);
  switch (m) {
    case ScalingMethod::yarn: {
      for (const auto& [value, name] :
           {std::pair{p.beta_fast, "beta_fast"}, std::pair{p.beta_slow, "beta_slow"}}) {
        if (!in_range(value, kMinBeta, kMaxBeta))
          return Error{name, "must be a finite number from " + num(kMinBeta) + " to " +
                                 num(kMaxBeta) + ", got " + num(value)};
      }
      if (p.beta_fast < p.beta_slow)
        return Error{"beta_fast", "must be at least beta_slow (" + num(p.beta_slow) + "), got " +
                                      num(p.beta_fast)};
      if (auto s = check_coefficient(p.mscale, "mscale", "unset"); !s) return s;
      if (auto s = check_coefficient(p.mscale_all_dim, "mscale_all_dim", "unset"); !s) return s;
      if (auto s =
              check_coefficient(p.attention_factor, "attention_factor", "the method's default");
          !s)
        return s;
      break;
    }
    case ScalingMethod::llama3: {
      for (const auto& [value, name] : {std::pair{p.low_freq_factor, "low_freq_factor"},
                                        std::pair{p.high_freq_factor, "high_freq_factor"}}) {
        if (!std::isfinite(value) || !(value > 0.0))
          return Error{name, "must be a finite number greater than 0, got " + num(value)};
      }
      // equal is a step at λ = L/low with no blended pairs: Llama 4 Scout's low = high = 1
      // (transformers only warns when high <= low)
      if (!(p.low_freq_factor <= p.high_freq_factor))
        return Error{"low_freq_factor", "must be at most high_freq_factor (" +
                                            num(p.high_freq_factor) + "), got " +
                                            num(p.low_freq_factor)};
      break;
    }
    case ScalingMethod::longrope: {
      if (auto s = check_list(p.short_factor, half, "short_factor"); !s) return s;
      if (auto s = check_list(p.long_factor, half, "long_factor"); !s) return s;
      if (auto s =
              check_coefficient(p.attention_factor, "attention_factor", "the method's default");
          !s)
        return s;
      break;
    }
    case ScalingMethod::proportional: {
      if (!in_range(p.rotary_fraction, 0.0, 1.0))
        return Error{"rotary_fraction",
                     "must be a finite number from 0 to 1, got " + num(p.rotary_fraction)};
      break;
    }
    default:
      break;
  }

  if (uses_ntk_base(m)) {
    // With s < 1 (ntk) b′ can fall to 1 or below, with a huge b it can overflow; either way the
    // frequencies would stop being a decreasing geometric sequence or become 0/inf.
    const double b2 = ntk_base(static_cast<int>(dim), base, p);
    if (!std::isfinite(b2) || !(b2 > 1.0))
      return Error{"factor", "gives the base b' = " + num(b2) + " (factor " + num(p.factor) +
                                 ", base " + num(base) +
                                 "), which must be a finite number greater than 1"};
  }
  return {};
}

Result<ScaledFrequencies> scaled_frequencies(std::int64_t dim, double base,
                                             const ScalingParams& p) {
  if (auto s = validate_scaling(dim, base, p); !s) return s.error();
  const int d = static_cast<int>(dim);
  const std::size_t half = static_cast<std::size_t>(d / 2);
  const double s = p.factor;
  const double context = static_cast<double>(p.original_context);

  ScaledFrequencies out;
  out.theta = frequencies(dim, base).value();
  out.theta_scaled = out.theta;
  out.attention_factor = 1.0;
  out.base_used = base;
  const std::vector<double>& th = out.theta;
  std::vector<double>& th2 = out.theta_scaled;

  switch (p.method) {
    case ScalingMethod::none:
      break;

    case ScalingMethod::linear:
      for (std::size_t i = 0; i < half; ++i)
        th2[i] = th[i] / s;
      break;

    case ScalingMethod::ntk:
    case ScalingMethod::dynamic:
      out.base_used = ntk_base(d, base, p);
      for (std::size_t i = 0; i < half; ++i)
        th2[i] = theta(static_cast<int>(i), d, out.base_used);
      break;

    case ScalingMethod::yarn: {
      yarn_range(d, base, p, out.ramp_low, out.ramp_high);
      out.ramp.resize(half);
      for (std::size_t i = 0; i < half; ++i) {
        const double t = (static_cast<double>(i) - out.ramp_low) / (out.ramp_high - out.ramp_low);
        const double keep = 1.0 - std::clamp(t, 0.0, 1.0);  // transformers' extrapolation factor
        out.ramp[i] = keep;
        th2[i] = (th[i] / s) * (1.0 - keep) + th[i] * keep;
      }
      if (p.attention_factor > 0.0)
        out.attention_factor = p.attention_factor;
      else if (p.mscale > 0.0 && p.mscale_all_dim > 0.0)
        out.attention_factor = yarn_mscale(s, p.mscale) / yarn_mscale(s, p.mscale_all_dim);
      else
        out.attention_factor = yarn_mscale(s);
      break;
    }

    case ScalingMethod::llama3: {
      const double low_wavelength = context / p.low_freq_factor;    // longer: θ/s
      const double high_wavelength = context / p.high_freq_factor;  // shorter: θ kept
      out.ramp.resize(half);
      for (std::size_t i = 0; i < half; ++i) {
        const double lambda = kTwoPi / th[i];
        if (lambda < high_wavelength) {
          out.ramp[i] = 1.0;
        } else if (lambda > low_wavelength) {
          out.ramp[i] = 0.0;
          th2[i] = th[i] / s;
        } else if (p.high_freq_factor == p.low_freq_factor) {
          // λ = L/low exactly, the step itself (0/0 in the formula below): kept
          out.ramp[i] = 1.0;
        } else {
          const double smooth =
              (context / lambda - p.low_freq_factor) / (p.high_freq_factor - p.low_freq_factor);
          out.ramp[i] = smooth;
          th2[i] = (1.0 - smooth) * th[i] / s + smooth * th[i];
        }
      }
      break;
    }

    case ScalingMethod::longrope: {
      const bool is_long = p.sequence_length > p.original_context;
      const std::vector<double>& ext = is_long ? p.long_factor : p.short_factor;
      for (std::size_t i = 0; i < half; ++i)
        th2[i] = th[i] / ext[i];
      if (p.attention_factor > 0.0)
        out.attention_factor = p.attention_factor;
      else if (s > 1.0)
        out.attention_factor = std::sqrt(1.0 + std::log(s) / std::log(context));
      break;
    }

    case ScalingMethod::proportional: {
      // transformers: int(p * head_dim // 2), i.e. floor((p·d)/2) with p·d rounded first.
      const auto rotated = static_cast<std::size_t>(std::floor(p.rotary_fraction * d / 2.0));
      for (std::size_t i = 0; i < half; ++i)
        th2[i] = i < rotated ? th[i] / s : 0.0;
      break;
    }
  }
  return out;
}

}  // namespace rope
