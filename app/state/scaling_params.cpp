#include "state/scaling_params.h"

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "io/read_file.h"
#include "io/text.h"
#include "rope/frequencies.h"
#include "state/app_state.h"
#include "state/params.h"

namespace rope::app {
namespace {

// [SECTION] text
// Echoed text goes through quote_for_message, true/false through parse_bool (state/params.h), trim
// through io/text.h (the parameter table's rule). shortest, number and integer stay
// here: no io/ formatter prints %g's shortest round trip ("1e+06", "nan"), and number() reads "nan"
// and "inf" for the range checks to name, where parse_real refuses them.

// The shortest %g text that reads back as the same double, as rope::validate_scaling prints
// numbers ("0.5", "1e+06", "nan"), so a field's own message and a cross-field one look alike.
std::string shortest(double v) {
  char buf[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (!std::isfinite(v) || std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// A number as strtod reads it, "nan" and "inf" included (the range checks name them, in
// validate_scaling's words); anything else in the text is an error.
Result<double> number(std::string_view name, std::string_view text) {
  const std::string t(trim(text));
  if (t.empty()) return Error{std::string(name), "needs a number, got nothing"};
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size())
    return Error{std::string(name), "must be a number, got " + quote_for_message(text)};
  // 100 000 digits read as inf, 1e-400 as 0: said as what they are, not as "got inf" (review N14).
  if (errno == ERANGE && (std::isinf(v) || v == 0.0))
    return Error{std::string(name),
                 "is beyond the range of a double (magnitudes from about 2.2e-308 to 1.8e308), "
                 "got " +
                     quote_for_message(text)};
  return v;
}

Result<std::int64_t> integer(std::string_view name, std::string_view text, const char* allowed) {
  const std::string_view t = trim(text);
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size())
    return Error{std::string(name),
                 std::string("must be ") + allowed + ", got " + quote_for_message(text)};
  return v;
}

// [SECTION] single-field rules (the limits of rope/scaling.h, in validate_scaling's words)

Status factor_like(std::string_view name, double v, const std::string& prefix = "") {
  if (!std::isfinite(v) || !(v > 0.0))
    return Error{std::string(name),
                 prefix + "must be a finite number greater than 0, got " + shortest(v)};
  if (v < kMinScalingFactor || v > kMaxScalingFactor)
    return Error{std::string(name), prefix + "must be a number from " +
                                        shortest(kMinScalingFactor) + " to " +
                                        shortest(kMaxScalingFactor) + ", got " + shortest(v)};
  return {};
}

Status in_range(std::string_view name, double v, double lo, double hi, const std::string& note) {
  if (!std::isfinite(v) || v < lo || v > hi)
    return Error{std::string(name), "must be a finite number from " + shortest(lo) + " to " +
                                        shortest(hi) + note + ", got " + shortest(v)};
  return {};
}

Status positive(std::string_view name, double v) {
  if (!std::isfinite(v) || !(v > 0.0))
    return Error{std::string(name), "must be a finite number greater than 0, got " + shortest(v)};
  return {};
}

Result<std::vector<double>> factor_list(std::string_view name, std::string_view text) {
  std::vector<double> out;
  const std::string_view t = trim(text);
  if (t.empty()) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = t.find(',', start);
    const std::string_view item =
        t.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const std::string prefix = "entry " + std::to_string(out.size() + 1) + " ";
    auto v = number(name, item);
    if (!v) return Error{std::string(name), prefix + v.error().message};
    if (auto s = factor_like(name, v.value(), prefix); !s) return s.error();
    out.push_back(v.value());
    if (out.size() > kMaxFactorListEntries)
      return Error{std::string(name), "must have at most " + std::to_string(kMaxFactorListEntries) +
                                          " entries (d/2 for d = 4096)"};
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string print_list(const std::vector<double>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += shortest(v[i]);
  }
  return s;
}

constexpr std::array<std::pair<const char*, ExtensionMode>, 2> kModes{{
    {"frequencies", ExtensionMode::frequencies},
    {"extrapolation", ExtensionMode::extrapolation},
}};

// A real field: parse, check, store.
template <class Check>
Status set_real(double& field, std::string_view name, std::string_view text, Check&& check) {
  auto v = number(name, text);
  if (!v) return v.error();
  if (auto s = check(v.value()); !s) return s;
  field = v.value();
  return {};
}

constexpr std::array<ScalingMethodNames, 8> kMethodNames{{
    {ScalingMethod::none, "no scaling", "no scaling", "none"},
    {ScalingMethod::linear, "PI (linear)", "Position Interpolation (linear)", "PI (linear)"},
    {ScalingMethod::ntk, "NTK-aware", "NTK-aware", "NTK-aware"},
    {ScalingMethod::dynamic, "dynamic NTK", "dynamic NTK", "dynamic NTK"},
    {ScalingMethod::yarn, "YaRN", "YaRN (transformers’ code)", "YaRN (code)"},
    {ScalingMethod::llama3, "Llama 3.1", "Llama 3.1 (llama3)", "Llama 3.1"},
    {ScalingMethod::longrope, "LongRoPE", "LongRoPE", "LongRoPE"},
    {ScalingMethod::proportional, "p-RoPE", "p-RoPE (proportional)", "p-RoPE"},
}};

}  // namespace

std::span<const ScalingMethodNames> all_scaling_method_names() {
  return kMethodNames;
}

const ScalingMethodNames& scaling_method_names(ScalingMethod m) {
  static constexpr ScalingMethodNames kUnknown{ScalingMethod::none, "?", "?", "?"};
  for (const ScalingMethodNames& n : kMethodNames)
    if (n.method == m) return n;
  return kUnknown;
}

const char* extension_mode_name(ExtensionMode m) {
  for (const auto& [n, v] : kModes)
    if (v == m) return n;
  return "?";
}

Status set_extension_param(ExtensionParams& ext, std::string_view name, std::string_view text) {
  ScalingParams& sp = ext.scaling;
  const auto context = [&](std::int64_t& field, std::int64_t lo, const char* allowed) -> Status {
    auto v = integer(name, text, allowed);
    if (!v) return v.error();
    if (v.value() < lo || v.value() > kMaxContext)
      return Error{std::string(name),
                   std::string("must be ") + allowed + ", got " + std::to_string(v.value())};
    field = v.value();
    return {};
  };
  const auto coefficient = [&](double& field, const char* zero_means) {
    return set_real(field, name, text, [&](double v) {
      return in_range(name, v, 0.0, kMaxAttentionFactor, std::string(" (0 = ") + zero_means + ")");
    });
  };
  const auto list = [&](std::vector<double>& field) -> Status {
    auto v = factor_list(name, text);
    if (!v) return v.error();
    field = std::move(v).value();
    return {};
  };
  const auto file = [&](std::vector<double>& field) -> Status {
    const std::string path(trim(text));
    if (path.empty()) return {};  // what get_extension_param prints: nothing to read
    auto v = read_factor_file(path, name);
    if (!v) return v.error();
    for (std::size_t i = 0; i < v.value().size(); ++i)
      if (auto s = factor_like(name, v.value()[i], "entry " + std::to_string(i + 1) + " "); !s)
        return s;
    if (v.value().size() > kMaxFactorListEntries)
      return Error{std::string(name), "must hold at most " + std::to_string(kMaxFactorListEntries) +
                                          " numbers (d/2 for d = 4096), got " +
                                          std::to_string(v.value().size())};
    field = std::move(v).value();
    return {};
  };

  if (name == "scaling") {
    const auto m = parse_scaling(trim(text));
    if (!m)
      return Error{"scaling",
                   "must be one of none, linear, ntk, dynamic, yarn, llama3, longrope or "
                   "proportional, got " +
                       quote_for_message(text)};
    sp.method = *m;
    return {};
  }
  if (name == "factor")
    return set_real(sp.factor, name, text, [&](double v) { return factor_like(name, v); });
  if (name == "original_context")
    return context(sp.original_context, 1, "an integer from 1 to 1073741824");
  if (name == "beta_fast" || name == "beta_slow")
    return set_real(name == "beta_fast" ? sp.beta_fast : sp.beta_slow, name, text,
                    [&](double v) { return in_range(name, v, kMinBeta, kMaxBeta, ""); });
  if (name == "truncate") {
    auto b = parse_bool(name, text);
    if (!b) return b.error();
    sp.truncate = b.value();
    return {};
  }
  if (name == "low_freq_factor" || name == "high_freq_factor")
    return set_real(name == "low_freq_factor" ? sp.low_freq_factor : sp.high_freq_factor, name,
                    text, [&](double v) { return positive(name, v); });
  if (name == "sequence_length")
    return context(sp.sequence_length, 0, "0 (unset) or an integer from 1 to 1073741824");
  if (name == "attention_factor") return coefficient(sp.attention_factor, "the method's default");
  if (name == "mscale") return coefficient(sp.mscale, "unset");
  if (name == "mscale_all_dim") return coefficient(sp.mscale_all_dim, "unset");
  if (name == "rotary_fraction")
    return set_real(sp.rotary_fraction, name, text,
                    [&](double v) { return in_range(name, v, 0.0, 1.0, ""); });
  if (name == "rotary_style") {
    const auto style = parse_rotary_style(trim(text));
    if (!style)
      return Error{"rotary_style",
                   "must be one of neox or proportional, got " + quote_for_message(text)};
    ext.rotary_style = *style;
    return {};
  }
  if (name == "long_factor") return list(sp.long_factor);
  if (name == "short_factor") return list(sp.short_factor);
  if (name == "long_factor_file") return file(sp.long_factor);
  if (name == "short_factor_file") return file(sp.short_factor);
  if (name == "extension_mode") {
    const std::string_view t = trim(text);
    for (const auto& [n, v] : kModes)
      if (t == n) {
        ext.mode = v;
        return {};
      }
    return Error{"extension_mode",
                 "must be one of frequencies or extrapolation, got " + quote_for_message(text)};
  }
  if (name == "compare_methods") {
    auto b = parse_bool(name, text);
    if (!b) return b.error();
    ext.compare_methods = b.value();
    return {};
  }
  return Error{std::string(name), "is not a context-extension parameter"};
}

std::string get_extension_param(const ExtensionParams& ext, std::string_view name) {
  const ScalingParams& sp = ext.scaling;
  if (name == "scaling") return scaling_name(sp.method);
  if (name == "factor") return shortest(sp.factor);
  if (name == "original_context") return std::to_string(sp.original_context);
  if (name == "beta_fast") return shortest(sp.beta_fast);
  if (name == "beta_slow") return shortest(sp.beta_slow);
  if (name == "truncate") return sp.truncate ? "true" : "false";
  if (name == "low_freq_factor") return shortest(sp.low_freq_factor);
  if (name == "high_freq_factor") return shortest(sp.high_freq_factor);
  if (name == "sequence_length") return std::to_string(sp.sequence_length);
  if (name == "attention_factor") return shortest(sp.attention_factor);
  if (name == "mscale") return shortest(sp.mscale);
  if (name == "mscale_all_dim") return shortest(sp.mscale_all_dim);
  if (name == "rotary_fraction") return shortest(sp.rotary_fraction);
  if (name == "rotary_style") return rotary_style_name(ext.rotary_style);
  if (name == "long_factor") return print_list(sp.long_factor);
  if (name == "short_factor") return print_list(sp.short_factor);
  if (name == "extension_mode") return extension_mode_name(ext.mode);
  if (name == "compare_methods") return ext.compare_methods ? "true" : "false";
  return {};  // the *_file parameters: the list they read is kept in long/short_factor
}

bool partial_rotary(const ExtensionParams& ext) {
  return ext.scaling.method == ScalingMethod::proportional || ext.scaling.rotary_fraction < 1.0;
}

bool normalise_extension(ExtensionParams& ext) {
  ScalingParams& sp = ext.scaling;
  bool changed = false;
  if (sp.beta_fast < sp.beta_slow) {
    sp.beta_fast = sp.beta_slow;
    changed = true;
  }
  if (sp.high_freq_factor <= sp.low_freq_factor) {
    sp.high_freq_factor = 2.0 * sp.low_freq_factor;
    changed = true;
  }
  return changed;
}

Status check_typed_file_name(std::string_view name, std::string_view text) {
  if (name.ends_with("_file") && text.find_first_not_of(" \t") == std::string_view::npos)
    return Error{std::string(name), "needs a file name, got ''"};
  return {};
}

Status validate_extension(const ExtensionParams& ext, int dim, double base) {
  if (auto s = validate_scaling(dim, base, ext.scaling); !s) return s;
  if (ext.scaling.method == ScalingMethod::proportional || ext.scaling.rotary_fraction == 1.0)
    return {};
  if (auto s = validate_partial_rotary(dim, ext.scaling.rotary_fraction, ext.rotary_style); !s)
    return s;
  if (ext.rotary_style == RotaryStyle::neox) {  // the method sees a head of rotary_dim
    const int rotary_dim = 2 * rotated_pairs(dim, ext.scaling.rotary_fraction, RotaryStyle::neox);
    if (auto s = validate_scaling(rotary_dim, base, ext.scaling); !s) return s;
  }
  return {};
}

Result<std::vector<double>> read_factor_file(const std::string& path, std::string_view parameter) {
  const std::string name(parameter);
  auto text = read_regular_file(path, kMaxFactorFileBytes);
  if (!text) return Error{name, quote_for_message(path) + " " + text.error().message};
  std::string all = std::move(text).value();
  for (char& c : all)
    if (c == ',' || c == '\n' || c == '\r' || c == '\t') c = ' ';
  std::istringstream words(all);
  std::vector<double> out;
  std::string word;
  while (words >> word) {
    auto v = number(name, word);
    if (!v)
      return Error{name, "entry " + std::to_string(out.size() + 1) + " of " +
                             quote_for_message(path) + " " + v.error().message};
    out.push_back(v.value());
  }
  return out;
}

namespace {

// θ and θ′ for d and base under `ext`: the partial rotation (scaling_params.h), then the
// method. [d/2] entries in every vector; a pair that does not rotate has θ′ = 0. Errors:
// rope::validate_scaling's and rope::validate_partial_rotary's (parameter "rotary_fraction").
Result<ScaledFrequencies> rotary_frequencies(int dim, double base, const ExtensionParams& ext) {
  if (auto s = validate_extension(ext, dim, base); !s) return s.error();
  const ScalingParams& sp = ext.scaling;
  if (sp.method == ScalingMethod::proportional || sp.rotary_fraction == 1.0)
    return scaled_frequencies(dim, base, sp);
  const auto half = static_cast<std::size_t>(dim / 2);
  const auto pairs =
      static_cast<std::size_t>(rotated_pairs(dim, sp.rotary_fraction, ext.rotary_style));
  if (ext.rotary_style == RotaryStyle::proportional) {
    auto sf = scaled_frequencies(dim, base, sp);
    if (!sf) return sf;
    for (std::size_t i = pairs; i < half; ++i)
      sf.value().theta_scaled[i] = 0.0;
    return sf;
  }
  // neox: the method runs on the rotating part alone, a head of rotary_dim = 2·pairs; the pairs
  // after it pass through (θ = θ′ = 0), as the coordinates past rotary_dim do in GPT-NeoX.
  auto sf = scaled_frequencies(static_cast<std::int64_t>(2 * pairs), base, sp);
  if (!sf) return sf;
  ScaledFrequencies& f = sf.value();
  f.theta.resize(half, 0.0);
  f.theta_scaled.resize(half, 0.0);
  if (!f.ramp.empty()) f.ramp.resize(half, 1.0);
  return sf;
}

}  // namespace

Result<DrawnFrequencies> drawn_frequencies(int dim, double base, const ExtensionParams& ext) {
  auto whole = frequencies(dim, base);
  if (!whole) return whole.error();
  DrawnFrequencies out;
  auto sf = rotary_frequencies(dim, base, ext);
  if (!sf) {  // the unscaled whole head, and why
    out.theta = out.theta_drawn = std::move(whole).value();
    out.error = sf.error();
    return out;
  }
  const ScalingMethod method = ext.scaling.method;
  out.theta_drawn = sf.value().theta_scaled;
  out.attention_factor = sf.value().attention_factor;
  out.scaled = method != ScalingMethod::none;
  if (method == ScalingMethod::proportional) {
    out.theta = sf.value().theta;
  } else if (method == ScalingMethod::none) {
    out.theta = out.theta_drawn;
  } else {  // the partial rotation alone: the same rotary_frequencies with the method off
    ExtensionParams unscaled = ext;
    unscaled.scaling.method = ScalingMethod::none;
    auto original = rotary_frequencies(dim, base, unscaled);
    if (!original) {  // not reached: what the method accepts, the partial rotation alone does
      out = DrawnFrequencies{};
      out.theta = out.theta_drawn = std::move(whole).value();
      out.error = original.error();
      return out;
    }
    out.theta = std::move(original).value().theta_scaled;
  }
  out.method = std::move(sf).value();
  return out;
}

Result<DrawnFrequencies> drawn_frequencies(const Params& params) {
  return drawn_frequencies(params.dim, params.base, params.extension);
}

}  // namespace rope::app
