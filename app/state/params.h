// state/params.h — every settable parameter by name: parsing, validation, and printing.
//
// One table maps the snake_case name of each Params field to its kind, its range, a setter that
// parses and checks a text value and a getter that prints it. The command line (--key-position 7),
// lesson steps (key_position=7), session files ("key_position": 7) and the control panel's
// sliders all read it, so a value is judged by the same rule and reported with the same message
// wherever it comes from, and a slider covers no more than the parameter allows.
//
// Usage:
//   if (auto s = rope::app::set_param(state.params, "dim", "12"); !s) report(s.error());
//   std::vector<double> q = rope::app::effective_vector(state.params.query, state.params);
//   const ParamRange& r = param_range("dim");  // a slider over r.slider_min ... r.slider_max,
//   set_param_value(p, "dim", dragged);         // kept within r.min ... r.max
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/number_format.h"
#include "rope/conventions.h"
#include "state/app_state.h"

namespace rope::app {

// What a parameter holds: decides how a flag is parsed (a boolean is --name / --no-name), how a
// session stores it (JSON true/false, a number or a string) and what its range means.
enum class ParamKind { boolean, integer, real, choice, text, vector };

// The values an integer or real parameter accepts, and the part of them a slider shows.
struct ParamRange {
  double min = 0.0, max = 0.0;  // accepted: min <= v <= max (max may be +inf: any finite v)
  bool above_min = false;       // v > min instead of v >= min (base: greater than 1)
  bool even = false;            // integers: even ones only (d)
  bool zero_is_off = false;     // 0 is accepted besides the range and means "off"
  // A slider's ends. Equal to min and max unless the slider deliberately shows the part a lecture
  // uses (d 2 ... 512 of 2 ... 4096); values beyond it are typed (Ctrl+click) or given by flag,
  // and are kept: a control clamps to min ... max, never to the slider's ends.
  double slider_min = 0.0, slider_max = 0.0;
  bool logarithmic = false;  // the slider moves in ratios (base 10 ... 1e7)
  // How a widget shows and moves the value (ui/param_widgets.h): a printf format for the
  // parameter's type ("d = %d" for an integer, "s = %.3g" for a real; nullptr: "%d" or "%.6g"),
  // and the grid a dragged value snaps to (base: whole numbers; 0: none).
  const char* format = nullptr;
  double snap = 0.0;

  // Whether v is accepted (finite, in range, even if required, or 0 when zero_is_off).
  bool contains(double v) const;
  // v moved into the accepted values: clamped to min ... max, an odd integer of an even range
  // up by one (down by one at max), 0 kept when zero_is_off; NaN gives min.
  double clamp(double v) const;
};

struct ParamSpec {
  const char* name;  // snake_case; the flag is --name with '_' -> '-'
  ParamKind kind;
  ParamRange range;     // integer and real kinds
  const char* allowed;  // choice, text and vector kinds: what is accepted; nullptr for the
                        // others, whose text comes from the kind and range (param_allowed)
  const char* help;     // one line
  Status (*set)(Params&, std::string_view text);
  std::string (*get)(const Params&);
};

std::span<const ParamSpec> param_specs();
const ParamSpec* find_param(std::string_view name);  // nullptr when unknown

// What values are accepted, for --help and messages: "true or false", "an even integer from 2 to
// 4096", "a number from -1e9 to 1e9", "dark or light", ... ("must be " + this + ", got ...").
std::string param_allowed(const ParamSpec& spec);
// The words a choice parameter takes, from its allowed text ("dark or light" -> dark, light;
// the views for "view"); empty when that text is not a plain list of words ("a preset of
// rope-lab models, or none") or the parameter is not a choice. The completions and the state's
// property test offer these.
std::vector<std::string> param_choices(const ParamSpec& spec);

// A given text as a message echoes it ("must be ..., got 'abc'"): in single quotes, cut after 40
// bytes with "..." so that a pasted essay is not echoed whole.
std::string quote_for_message(std::string_view text);

// The range of an integer or real parameter (an empty range, min = max = 0, for other names):
// what the control panel's sliders read.
const ParamRange& param_range(std::string_view name);

// Parses and sets one parameter. On error `params` is unchanged and the Error names the
// parameter, the value given and what is allowed.
Status set_param(Params& params, std::string_view name, std::string_view text);

// The typed twin of set_param for an integer or real parameter, what widgets and shortcuts use:
// v is moved into the accepted values (integers rounded, then ParamRange::clamp: never to a
// slider's ends) and set through the row's own setter, so the same rule judges it. An error
// (an unknown or non-number name, what the row still refuses, or a value that would make a valid
// state fail validate_params) leaves `params` unchanged.
Status set_param_value(Params& params, std::string_view name, double v);
// One change as the window makes it (a widget, a key, a menu): set_param, and when the state
// held together before (validate_params), a value after which it would not is refused too, with
// validate_params' error. set_param alone is for lines of assignments (flags, a session, a lesson
// step), which may pass through such states and are validated as a whole.
Status change_param(Params& params, std::string_view name, std::string_view text);
// The value of an integer or real parameter as a double (NaN for other names).
double param_value(const Params& params, std::string_view name);

// A typed (custom) query or key holds exactly d values, for the window, the exports and sessions
// alike (classroom review D1, D2). When d changes, one typed for another d goes back to the
// default kind (all ones), never zero-padded: padding left d/2 - 1 dials empty and made every
// export and the saved session refuse the state. The dim row's setter calls it, so every way d
// changes (slider, keys, presets, lessons, flags, sessions) obeys it; returns whether a vector
// went back (the frame then says so: shell/frame.cpp).
bool fit_vectors_to_dim(Params& params);

// Checks what single setters cannot: a custom query/key must have exactly d values.
Status validate_params(const Params& params);

// The query or key as a d-vector for d = dim and `seed`: the lecturer's choice handed to
// rope::make_vector (rope/vectors.h; custom values padded with 0 or cut to d, `random` seeded
// with seed for the query and rope::key_seed(seed) = seed + 1 for the key). dim valid.
std::vector<double> effective_vector(const VectorChoice& choice, int dim, std::uint64_t seed,
                                     bool is_key);
// The same for the state's dim and seed.
inline std::vector<double> effective_vector(const VectorChoice& choice, const Params& params,
                                            bool is_key) {
  return effective_vector(choice, params.dim, params.seed, is_key);
}

// Names used in files, flags and the UI.
const char* view_name(ViewId v);
// The largest seed: 2^53 - 1, exact in a JSON number.
inline constexpr long long kMaxSeed = 9007199254740991LL;

const char* view_title(ViewId v);  // "Rotating pointers", ...
std::span<const ViewId> all_views();
const char* theme_name(Theme t);

// Strict number parsing for text from flags and files: the whole text must be a number.
Result<double> parse_real(std::string_view parameter, std::string_view text);
Result<long long> parse_integer(std::string_view parameter, std::string_view text);
// true/on/yes/1 or false/off/no/0 (spaces around it ignored).
Result<bool> parse_bool(std::string_view parameter, std::string_view text);
// "1,2.5,-3" -> {1, 2.5, -3}; every entry finite.
Result<std::vector<double>> parse_real_list(std::string_view parameter, std::string_view text);

}  // namespace rope::app
