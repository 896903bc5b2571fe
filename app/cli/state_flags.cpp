#include "cli/state_flags.h"

// GCC 12's -Wnull-dereference flags std::function's move constructor when CLI11's
// Option::transform, inlined here, grows its vector of validators: a false positive inside the
// library headers (the moved-from function is never null there), which appears or not with
// unrelated inlining changes. Silenced for CLI11 alone, not for this file's code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "io/exit_codes.h"
#include "state/models.h"
#include "state/params.h"

namespace rope::app {

std::string flag_name(std::string_view param_name) {
  std::string f = "--";
  for (char c : param_name)
    f += (c == '_') ? '-' : c;
  return f;
}

CLI::Validator bool_flag_value() {
  // CLI11 hands a flag's "=VALUE" to its own converter, which throws std::invalid_argument past
  // the parser's error handling for a word it does not know ("--trails=maybe"). This check runs
  // first: it judges the value by the parameters' rule (state/params.h) and leaves CLI11 only
  // "true" or "false"; anything else becomes a usage error naming the flag and the values.
  // A transform, not a check: CLI11 runs a check on a copy, and then read " on" (accepted
  // here, trimmed) with std::stoll and aborted (found by tests/fuzz/fuzz_cli).
  return CLI::Validator(
      [](std::string& value) -> std::string {
        auto r = parse_bool("", value);
        if (!r) return r.error().message;
        value = r.value() ? "true" : "false";
        return {};
      },
      "");
}

CLI::Option* add_bool_flag(CLI::App& app, const std::string& names, bool& value,
                           const std::string& help) {
  return app.add_flag(names, value, help)->transform(bool_flag_value());
}

Status check_negated_flags(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;  // what follows is positional
    const std::size_t eq = arg.find('=');
    if (!arg.starts_with("--") || eq == std::string_view::npos) continue;
    const bool negated = arg.starts_with("--no-");
    // "trails" of --no-trails=... and of --trails=...: both are checked here, so that
    // "--trails=" is refused as "--no-trails=" is (CLI11 alone read "--trails=" as true;
    // review N15)
    const std::string_view flag = arg.substr(negated ? 5 : 2, eq - (negated ? 5 : 2));
    const ParamSpec* spec = nullptr;
    for (const ParamSpec& p : param_specs())
      if (p.kind == ParamKind::boolean && flag_name(p.name) == "--" + std::string(flag)) spec = &p;
    if (spec == nullptr) continue;  // not a state flag: CLI11 reports it
    // exactly a word: CLI11 negates only what its own converter reads, and passes "on " (with
    // a space) through as if the flag were not negated
    const std::string_view value = arg.substr(eq + 1);
    auto r = parse_bool("", value);
    // A negated flag's word must be exact (see above); --trails=on with spaces is CLI11's to
    // read, and reads as on.
    if (!r || (negated && value.find_first_of(" \t\r\n\v\f") != std::string_view::npos))
      return Error{
          std::string(arg.substr(0, eq)),
          "must be true or false (also on/off, yes/no, 1/0), got " + quote_for_message(value)};
  }
  return {};
}

void add_state_flags(CLI::App& app, StateFlags& flags) {
  for (const ParamSpec& spec : param_specs()) {
    const std::string flag = flag_name(spec.name);
    const std::string name = spec.name;
    if (spec.kind == ParamKind::boolean) {
      app.add_flag_function(
             flag + ",!--no-" + flag.substr(2),
             [&flags, name](std::int64_t count) {
               flags.given.emplace_back(name, count > 0 ? "true" : "false");
             },
             std::string(spec.help))
          ->transform(bool_flag_value())
          ->group("State");
    } else {
      app.add_option_function<std::string>(
             flag, [&flags, name](const std::string& v) { flags.given.emplace_back(name, v); },
             std::string(spec.help) + " (" + param_allowed(spec) + ")")
          ->group("State");
    }
  }
}

Status apply_state_flags(const StateFlags& flags, Params& params) {
  Params trial = params;
  // --model (or --config) first, wherever it was typed, then --layer: the flags beside them
  // change the preset's values.
  bool model_given = false, config_given = false;
  for (const auto& entry : flags.given) {
    model_given = model_given || entry.first == "model";
    config_given = config_given || entry.first == "config";
  }
  if (model_given && config_given) return Error{"--config", "give --config or --model, not both"};
  // Three passes: the model, then its layer (which applies that layer's values), then the rest.
  const auto pass_of = [](const std::string& name) {
    return name == "model" || name == "config" ? 0 : name == "layer" ? 1 : 2;
  };
  for (const int pass : {0, 1, 2})
    for (const auto& [name, text] : flags.given) {
      if (pass_of(name) != pass) continue;
      if (auto s = check_typed_file_name(name, text); !s)
        return Error{flag_name(s.error().parameter), s.error().message};
      if (auto s = set_param(trial, name, text); !s)
        return Error{flag_name(s.error().parameter), s.error().message};
    }
  // `rope-lab --lesson 3` means the lesson on screen: a lesson or step asked for without a view
  // opens the view that shows lessons; an explicit --view still wins.
  const auto given = [&flags](std::string_view n) {
    for (const auto& entry : flags.given)
      if (entry.first == n) return true;
    return false;
  };
  if ((given("lesson") || given("step")) && !given("view")) trial.view = ViewId::derivation;
  if (auto s = check_typed_lists(trial.extension, given); !s)
    return Error{flag_name(s.error().parameter), s.error().message};
  if (auto s = validate_params(trial); !s)
    return Error{flag_name(s.error().parameter), s.error().message};
  params = std::move(trial);
  return {};
}

bool report_problems(const AppState& state) {
  for (const std::string& problem : state.problems)
    print_error(problem);
  return !state.problems.empty();
}

}  // namespace rope::app
