// state/scaling_params.h — the context-extension settings (issue 11): the scaling method and its
// parameters (rope::ScalingParams, rope/scaling.h), how the extension view shows them, and
// drawn_frequencies, the θ′ every view, export and lesson quantity uses.
//
// Params has one member of this type, `extension`. Its fields are parameters of the table in
// state/params.cpp under the names below (flag --name with '-' for '_', JSON and lesson key
// name); the rows call set_extension_param / get_extension_param, and validate_params adds
// validate_extension for what one field alone cannot judge (low < high, a list of d/2 entries,
// ntk's b′ > 1, ...). Messages are those of rope::validate_scaling.
//
//   scaling            none, linear, ntk, dynamic, yarn, llama3, longrope, proportional
//   factor             s, target context / L                       1e-6 ... 1e6
//   original_context   L, tokens                                   1 ... 2^30
//   beta_fast, beta_slow, truncate, low_freq_factor, high_freq_factor, sequence_length,
//   attention_factor, mscale, mscale_all_dim                        as in rope::ScalingParams
//   rotary_fraction    p, the fraction of the head that rotates, 0 ... 1 (1: all of it)
//   rotary_style       neox or proportional: what p means (rope/partial_rotary.h)
//   long_factor, short_factor     the LongRoPE lists, inline: "1,1.02,..." (empty: none)
//   long_factor_file, short_factor_file   read such a list from a file (numbers separated by
//                      commas, spaces or new lines); the list itself is what a session keeps,
//                      so these print as "" and setting "" does nothing
//   extension_mode     frequencies (θ′ per pair) or extrapolation (PI's Fig. 2 and 5)
//   compare_methods    the extension view overlays every method at the same s
//
// Usage:
//   auto f = rope::app::drawn_frequencies(state.params);   // Result<DrawnFrequencies>
//   if (f && !f.value().error.empty()) show(f.value().error);
//   if (f) use(f.value().theta_drawn, f.value().attention_factor);
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rope/conventions.h"
#include "rope/partial_rotary.h"
#include "rope/scaling.h"

namespace rope::app {

struct Params;

enum class ExtensionMode { frequencies, extrapolation };

// PARTIAL ROTARY, ONE STATE. The rotary fraction p is one field, scaling.rotary_fraction (the
// core's proportional scaling method reads it there), with rotary_style beside it:
//   p = 1                   the whole head rotates; rotary_style changes nothing.
//   method proportional     p-RoPE with the factor s (rope/scaling.h): p always has the
//                           proportional meaning there, whatever rotary_style says.
//   any other method, p < 1 the head rotates partly, in rotary_style's meaning, and the method
//                           then scales what rotates, as transformers does:
//     neox          θ over rotary_dim = int(d·p) (rope::partial_frequencies), scaled as a head of
//                   rotary_dim; pairs rotary_dim/2 ... d/2 − 1 get θ = θ′ = 0 (not rotated).
//     proportional  θ of the whole head, scaled; pairs from ⌊p·d/2⌋ on get θ′ = 0 (θ is kept,
//                   as the core's proportional method keeps it).
// So a preset such as Pythia (rotary_pct 0.25) is rotary_fraction=0.25 rotary_style=neox, and the
// one slider moves both meanings; the spectrum draws the other meaning beside it.
struct ExtensionParams {
  ScalingParams scaling;  // method none by default: θ′ = θ, and no view changes
  RotaryStyle rotary_style = RotaryStyle::neox;  // what scaling.rotary_fraction means (above)
  ExtensionMode mode = ExtensionMode::frequencies;
  bool compare_methods = false;
  bool operator==(const ExtensionParams&) const = default;
};

// The most entries a LongRoPE list may have: d/2 for the largest d.
inline constexpr std::size_t kMaxFactorListEntries = static_cast<std::size_t>(kMaxDim / 2);
// A factor file larger than this is refused unread (2048 numbers of 17 digits are ~40 kB).
inline constexpr std::uintmax_t kMaxFactorFileBytes = 1 << 20;

// The rank tolerance of PI's Fig. 2 fit wherever the app shows or exports it
// (rope::fit_random_target): the explosion beyond L depends on it, and 1e-6 gives the paper's
// scale (max |a| about 10^4 beyond L for d = 128, L = 2048); NumPy's default max(L, d)·eps gives
// about 10^10 (rope/extrapolation.h).
inline constexpr double kFitRankTolerance = 1e-6;

// PI Fig. 2's third panel: a(s) between the integers, s in [from, to) in steps of 1/8. The
// paper's [25, 75), moved inside [0, L) for L < 75 (from = floor(L/4), to = min(from + 50, L)),
// so that it always shows interpolation between fitted points.
struct FitRange {
  double from = 25.0, to = 75.0;
};
inline FitRange between_integers_range(std::int64_t context) {
  const auto L = static_cast<double>(context);
  const double from = L >= 75.0 ? 25.0 : std::floor(0.25 * L);
  return FitRange{from, std::min(from + 50.0, L)};
}
inline constexpr double kBetweenStep = 0.125;

// The parameter names above, in table order.
inline constexpr const char* kExtensionParamNames[] = {
    "scaling",      "factor",           "original_context",  "beta_fast",       "beta_slow",
    "truncate",     "low_freq_factor",  "high_freq_factor",  "sequence_length", "attention_factor",
    "mscale",       "mscale_all_dim",   "rotary_fraction",   "rotary_style",    "long_factor",
    "short_factor", "long_factor_file", "short_factor_file", "extension_mode",  "compare_methods"};

// Parses and checks one field by its parameter name (the field's own range; cross-field rules
// are validate_extension's). On error `ext` is unchanged.
Status set_extension_param(ExtensionParams& ext, std::string_view name, std::string_view text);
// The field as text that set_extension_param reads back to the same value.
std::string get_extension_param(const ExtensionParams& ext, std::string_view name);

// rope::validate_scaling for the method in use, at the app's d and base.
Status validate_extension(const ExtensionParams& ext, int dim, double base);

// Two rules for values *typed* on a command line (the window's flags and `export`), which a
// session or a lesson step does not follow (reliability review N14, N15):
//   * a factor file flag given as '' names no file (a session's "" means "none");
//   * LongRoPE's lists (inline or from a file) given with another method would be kept unread.
// Error parameters are the snake_case names; the callers turn them into flags.
Status check_typed_file_name(std::string_view name, std::string_view text);
// `given(name)`: whether the command line typed that parameter.
template <class Given>
Status check_typed_lists(const ExtensionParams& ext, Given&& given) {
  if (ext.scaling.method == ScalingMethod::longrope) return {};
  for (const char* list : {"long_factor", "short_factor", "long_factor_file", "short_factor_file"})
    if (given(std::string_view(list)))
      return Error{list, std::string("is read only by --scaling longrope; the method is ") +
                             scaling_name(ext.scaling.method)};
  return {};
}

// The two cross-field rules one slider can break while the other field stays, repaired the way
// the drag means them, for a control that edits one field at a time (the extension view): yarn's
// beta_fast >= beta_slow (beta_fast follows beta_slow up) and llama3's high_freq_factor >
// low_freq_factor (high becomes 2·low). Every other path (flags, sessions, lessons) is judged by
// validate_extension instead, with a message. Returns whether anything changed.
bool normalise_extension(ExtensionParams& ext);

// "none", "linear", ... and "frequencies" / "extrapolation".
const char* extension_mode_name(ExtensionMode m);

// How the views name a scaling method on screen (the parameter's own spelling, "yarn", is
// rope::scaling_name's): one row per method, the one place these words live.
//   words   in a sentence or a label (decay, spectrum, scaling_words): "YaRN"
//   title   the extension view's heading: "YaRN (transformers’ code)"
//   short   the extension view's legend: "YaRN (code)"
struct ScalingMethodNames {
  ScalingMethod method;
  const char* words;
  const char* title;
  const char* short_name;
};
// The row of `m`; "?" in every spelling for a value outside the enum.
const ScalingMethodNames& scaling_method_names(ScalingMethod m);
// Every row, none first, in the order a list of methods shows them.
std::span<const ScalingMethodNames> all_scaling_method_names();

// Numbers separated by commas, spaces, tabs or new lines, from a file; Error.parameter is
// `parameter`. Every entry must be a number (range checks are the caller's).
Result<std::vector<double>> read_factor_file(const std::string& path, std::string_view parameter);

// Whether the head rotates only partly under `ext` (p < 1 in either meaning).
bool partial_rotary(const ExtensionParams& ext);

// THE θ′ IN USE. The frequencies every picture, export and lesson quantity computes with, derived
// here once from d, base and the extension settings (the partial rotation, then the method):
//   theta        θ_i before the method: after the partial rotation (0 for a pair that does not
//                rotate), except under p-RoPE (method proportional), whose θ is the whole head's
//                (its fraction is the method's parameter and stills pairs in θ′ only)
//   theta_drawn  θ′_i: theta under the method (equal to theta for method none)
//   attention_factor   a, on cos and sin (a score q·k scales by a²); 1 for method none
// [d/2] entries in both, radians per position. When the extension settings are invalid (a
// fraction that leaves nothing to rotate, a method's bad parameter) `error` holds
// rope::validate_scaling's or validate_partial_rotary's Error and the frequencies are the
// unscaled whole head's, θ_i = base^(−2i/d): every view shows the same fallback and the message.
struct DrawnFrequencies {
  std::vector<double> theta;
  std::vector<double> theta_drawn;
  double attention_factor = 1.0;
  bool scaled = false;         // a method is on (and valid): theta_drawn may differ from theta
  ScaledFrequencies method;    // the method's own results (ramp, b′), after the partial rotation
  std::optional<Error> error;  // set when the extension settings are invalid
};
// Errors (the Result's): an invalid d or base only (rope::validate_dim, validate_base).
Result<DrawnFrequencies> drawn_frequencies(int dim, double base, const ExtensionParams& ext);
Result<DrawnFrequencies> drawn_frequencies(const Params& params);

}  // namespace rope::app
