#include "cli/state_flags.h"

#include <CLI/CLI.hpp>

#include "state/params.h"

namespace rope::app {

std::string flag_name(std::string_view param_name) {
  std::string f = "--";
  for (char c : param_name)
    f += (c == '_') ? '-' : c;
  return f;
}

void add_state_flags(CLI::App& app, StateFlags& flags) {
  for (const ParamSpec& spec : param_specs()) {
    const std::string flag = flag_name(spec.name);
    const std::string name = spec.name;
    const std::string help = std::string(spec.help) + " (" + spec.allowed + ")";
    if (std::string_view(spec.allowed) == "true or false") {
      app.add_flag_function(
             flag + ",!--no-" + flag.substr(2),
             [&flags, name](std::int64_t count) {
               flags.given.emplace_back(name, count > 0 ? "true" : "false");
             },
             std::string(spec.help))
          ->group("State");
    } else {
      app.add_option_function<std::string>(
             flag, [&flags, name](const std::string& v) { flags.given.emplace_back(name, v); },
             help)
          ->group("State");
    }
  }
}

Status apply_state_flags(const StateFlags& flags, Params& params) {
  Params trial = params;
  for (const auto& [name, text] : flags.given) {
    if (auto s = set_param(trial, name, text); !s)
      return Error{flag_name(s.error().parameter), s.error().message};
  }
  if (auto s = validate_params(trial); !s)
    return Error{flag_name(s.error().parameter), s.error().message};
  params = std::move(trial);
  return {};
}

}  // namespace rope::app
