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
}

namespace rope::app {

struct StateFlags {
  std::vector<std::pair<std::string, std::string>> given;  // (param name, text) as parsed
};

// Registers --name for every parameter (booleans as --name / --no-name), in group "State".
void add_state_flags(CLI::App& app, StateFlags& flags);

// Applies the given flags to a copy of params, checks the whole, and only then commits.
// Error.parameter is the flag as typed (--key-position).
Status apply_state_flags(const StateFlags& flags, Params& params);

// "key_position" -> "--key-position"
std::string flag_name(std::string_view param_name);

}  // namespace rope::app
