// cli/state_flags.h — the state flags (--dim, --base, --key-position, ...) shared by the GUI,
// `screenshot`, `bench` and `animate`: one flag per entry of state/params.h.
//
// Usage:
//   StateFlags flags;  add_state_flags(app, flags);  app.parse(argc, argv);
//   if (auto s = apply_state_flags(flags, state.params); !s) { print_error(s.error()); return 2; }
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rope/conventions.h"
#include "state/app_state.h"

namespace CLI {
class App;
class Option;
class Validator;
}  // namespace CLI

namespace rope::app {

struct StateFlags {
  std::vector<std::pair<std::string, std::string>> given;  // (param name, text) as parsed
};

// Registers --name for every parameter (booleans, by their kind in the parameter table, as
// --name / --no-name, also --name=VALUE), in group "State".
void add_state_flags(CLI::App& app, StateFlags& flags);

// CLI11 2.3.1 converts the value of a negated flag (--no-trails=VALUE) with std::stoll before any
// check runs, and a long number escapes as std::out_of_range: an abort (found by
// tests/fuzz/fuzz_cli). Call this before parsing: the first --no-NAME=VALUE of a boolean state
// flag whose VALUE is not one of the boolean words gives the usual error, naming the flag as
// typed; CLI11 then only ever sees good values there. --NAME=VALUE is checked the same way, so
// "--trails=" (empty) is refused as "--no-trails=" is.
Status check_negated_flags(int argc, const char* const* argv);

// A boolean flag of a subcommand (--canvas-only): --name, or --name=VALUE with VALUE one of
// true/on/yes/1 or false/off/no/0 (anything else is a usage error naming the flag and the
// values, as every boolean flag of rope-lab).
CLI::Option* add_bool_flag(CLI::App& app, const std::string& names, bool& value,
                           const std::string& help);

// After a picture was rendered: the resources it needed and could not get (AppState::problems),
// each printed as an error line. True when there were any; the command then exits 1 (a
// missing file of the installation, not bad input) without writing the picture.
bool report_problems(const AppState& state);

// The check behind both: lets only those six words and their opposites through, as "true" or
// "false".
CLI::Validator bool_flag_value();

// Applies the given flags to a copy of params, checks the whole, and only then commits.
// Error.parameter is the flag as typed (--key-position).
Status apply_state_flags(const StateFlags& flags, Params& params);

// "key_position" -> "--key-position"
std::string flag_name(std::string_view param_name);

}  // namespace rope::app
