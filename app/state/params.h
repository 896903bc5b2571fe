// state/params.h — every settable parameter by name: parsing, validation, and printing.
//
// One table maps the snake_case name of each Params field to a setter that parses and checks a
// text value and a getter that prints it. The command line (--key-position 7), lesson steps
// (key_position=7) and session files ("key_position": 7) all go through it, so a value is judged
// by the same rule and reported with the same message wherever it comes from.
//
// Usage:
//   if (auto s = rope::app::set_param(state.params, "dim", "12"); !s) report(s.error());
//   std::vector<double> q = rope::app::effective_vector(state.params.query, state.params);
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rope/conventions.h"
#include "state/app_state.h"

namespace rope::app {

struct ParamSpec {
  const char* name;     // snake_case; the flag is --name with '_' -> '-'
  const char* allowed;  // what values are accepted, for --help and messages
  const char* help;     // one line
  Status (*set)(Params&, std::string_view text);
  std::string (*get)(const Params&);
};

std::span<const ParamSpec> param_specs();
const ParamSpec* find_param(std::string_view name);  // nullptr when unknown

// Parses and sets one parameter. On error `params` is unchanged and the Error names the
// parameter, the value given and what is allowed.
Status set_param(Params& params, std::string_view name, std::string_view text);

// Checks what single setters cannot: a custom query/key must have exactly d values.
Status validate_params(const Params& params);

// The query or key as a d-vector for the current dim and seed (custom values padded with 0 or
// cut to d; `random` draws from rope::random_vectors with seed, and the key uses seed + 1).
std::vector<double> effective_vector(const VectorChoice& choice, const Params& params, bool is_key);

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
// "1,2.5,-3" -> {1, 2.5, -3}; every entry finite.
Result<std::vector<double>> parse_real_list(std::string_view parameter, std::string_view text);
// Prints a double with 17 significant digits (round-trips exactly), or an integer cleanly.
std::string format_real(double v);

}  // namespace rope::app
