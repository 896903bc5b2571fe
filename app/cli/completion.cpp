#include "cli/completion.h"

#include <CLI/CLI.hpp>
#include <map>
#include <string_view>
#include <vector>

#include "state/models.h"
#include "state/params.h"

namespace rope::app {
namespace {

// The words each option name takes ("--view" -> "pointers sinusoidal ..."), from the parameter
// table; the same name means the same values in every subcommand (export's --scaling is the
// window's).
std::map<std::string, std::string> option_values() {
  std::map<std::string, std::string> out;
  std::string views;
  for (const ParamSpec& spec : param_specs()) {
    const std::string flag = "--" + [&] {
      std::string n = spec.name;
      for (char& c : n)
        if (c == '_') c = '-';
      return n;
    }();
    std::vector<std::string> words;
    // (booleans are flags in the window's options, not followed by a word)
    if (spec.kind == ParamKind::choice) words = param_choices(spec);
    if (std::string_view(spec.name) == "model") {
      words = {"none"};
      for (const ModelPreset& m : model_library().presets)
        words.push_back(m.id);
    }
    std::string joined;
    for (const std::string& w : words)
      joined += (joined.empty() ? "" : " ") + w;
    if (!joined.empty()) out[flag] = joined;
    if (std::string_view(spec.name) == "view") views = joined;
  }
  // "any view but derivation"
  if (!views.empty() && !out.count("--show-view")) {
    std::string shown;
    for (std::size_t from = 0; from < views.size();) {
      std::size_t sp = views.find(' ', from);
      if (sp == std::string::npos) sp = views.size();
      const std::string w = views.substr(from, sp - from);
      if (w != "derivation") shown += (shown.empty() ? "" : " ") + w;
      from = sp + 1;
    }
    out["--show-view"] = shown;
  }
  return out;
}

// The names of an option as typed ("-o", "--output"; "--trails", "--no-trails"), without
// CLI11's {value} parts.
std::vector<std::string> option_names(const CLI::Option& opt) {
  std::vector<std::string> out;
  std::string name;
  bool braces = false;
  for (const char c : opt.get_name(false, true) + ",") {
    if (c == '{') braces = true;
    if (c == ',' && !name.empty()) {
      out.push_back(name);
      name.clear();
    } else if (!braces && c != ',') {
      name += c;
    }
    if (c == '}') braces = false;
  }
  return out;
}

bool listed(const CLI::Option& opt) {
  return !opt.get_group().empty() && !opt.get_positional();
}

// Every visible option name of `app` ("--trails --no-trails -o --output ...").
std::string option_words(const CLI::App& app) {
  std::string out;
  for (const CLI::Option* opt : app.get_options())
    if (listed(*opt))
      for (const std::string& name : option_names(*opt))
        out += (out.empty() ? "" : " ") + name;
  return out;
}

void commands(const CLI::App& app, const std::string& path, std::string& cases) {
  std::string words = option_words(app);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    words += " " + sub->get_name();
  cases += "    \"" + path + "\") words=\"" + words + "\" ;;\n";
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    commands(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), cases);
}

// The case patterns that move the command path on: "" + "export" -> "export", "export" +
// "frequencies" -> "export frequencies".
void steps(const CLI::App& app, const std::string& path, std::string& cases) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const std::string next = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    cases += "      \"" + path + ":" + sub->get_name() + "\") path=\"" + next + "\" ;;\n";
    steps(*sub, next, cases);
  }
}

// zsh: 'text' as a single-quoted word.
std::string zsh_quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A help text short enough for one line of zsh's list: up to its first " (" (where the
// allowed values begin: zsh offers those itself) or 70 bytes, cut at a space.
std::string short_help(std::string help) {
  if (const auto paren = help.find(" ("); paren != std::string::npos && paren > 0)
    help.resize(paren);
  for (char& c : help)
    if (c == '\n' || c == '\t') c = ' ';
  if (help.size() > 70) {
    const auto space = help.rfind(' ', 67);
    help.resize(space == std::string::npos ? 67 : space);
    help += "...";
  }
  return help;
}

// The entries _describe takes for `app`'s options, "--view:the view shown", one per name.
std::string zsh_options(const CLI::App& app) {
  std::string out;
  for (const CLI::Option* opt : app.get_options())
    if (listed(*opt))
      for (const std::string& name : option_names(*opt))
        out += " " + zsh_quote(name + ":" + short_help(opt->get_description()));
  return out;
}

void zsh_commands(const CLI::App& app, const std::string& path, std::string& cases) {
  std::string subs;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    subs += " " + zsh_quote(sub->get_name() + ":" + short_help(sub->get_description()));
  cases +=
      "    \"" + path + "\") options=(" + zsh_options(app) + " ); commands=(" + subs + " ) ;;\n";
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    zsh_commands(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), cases);
}

}  // namespace

std::string zsh_completion(const CLI::App& root) {
  std::string values;
  for (const auto& [flag, words] : option_values())
    values += "    " + flag + ") compadd -- " + words + "; return ;;\n";
  std::string step_cases, command_cases;
  steps(root, "", step_cases);  // the same moves as bash's; its "path" is cmdpath here
  for (std::size_t at; (at = step_cases.find(") path=")) != std::string::npos;)
    step_cases.replace(at, 7, ") cmdpath=");
  zsh_commands(root, "", command_cases);
  // (zsh's own $path is the PATH array: the command path is "cmdpath")
  return "#compdef rope-lab\n"
         "# zsh completion for rope-lab, written by `rope-lab --zsh-completion` from the command\n"
         "# line's own options and parameter table (app/cli/completion.cpp): edit those, not "
         "this.\n"
         "_rope_lab() {\n"
         "  local cmdpath=\"\" i\n"
         "  local -a options commands\n"
         "  for (( i = 2; i < CURRENT; i++ )); do\n"
         "    case \"$cmdpath:${words[i]}\" in\n" +
         step_cases +
         "    esac\n"
         "  done\n"
         "  case \"${words[CURRENT-1]}\" in\n" +
         values +
         "    --lessons-dir) _files -/; return ;;\n"
         "    -o|--output|--session|--*-file) _files; return ;;\n"
         "  esac\n"
         "  case \"$cmdpath\" in\n" +
         command_cases +
         "  esac\n"
         "  if [[ $PREFIX == -* ]]; then\n"
         "    _describe -t options option options\n"
         "  else\n"
         "    (( ${#commands} )) && _describe -t commands command commands\n"
         "    # the window's session file\n"
         "    if [[ -z $cmdpath ]]; then _files; fi\n"
         "  fi\n"
         "}\n"
         "_rope_lab \"$@\"\n";
}

std::string bash_completion(const CLI::App& root) {
  std::string values;
  for (const auto& [flag, words] : option_values())
    values +=
        "    " + flag + ") COMPREPLY=($(compgen -W \"" + words + "\" -- \"$cur\")); return ;;\n";
  std::string step_cases, command_cases;
  steps(root, "", step_cases);
  commands(root, "", command_cases);
  return "# bash completion for rope-lab, written by `rope-lab --bash-completion` from the "
         "command\n"
         "# line's own options and parameter table (app/cli/completion.cpp): edit those, not "
         "this.\n"
         "_rope_lab() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=\"\" path=\"\" words=\"\" w\n"
         "  (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
         "  for w in \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"; do\n"
         "    case \"$path:$w\" in\n" +
         step_cases +
         "    esac\n"
         "  done\n"
         "  case \"$prev\" in\n" +
         values +
         "    --lessons-dir) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
         "    -o|--output|--session|--*-file) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
         "  esac\n"
         "  case \"$path\" in\n" +
         command_cases +
         "  esac\n"
         "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
         "  # the window's session file\n"
         "  if [[ -z $path && $cur != -* ]]; then COMPREPLY+=($(compgen -f -- \"$cur\")); fi\n"
         "}\n"
         "complete -o filenames -F _rope_lab rope-lab\n";
}

}  // namespace rope::app
