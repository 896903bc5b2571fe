#include "cli/cli.h"

#include <algorithm>
#include <cerrno>
#include <system_error>

#include <stdexcept>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <new>
#include <utility>

#include "cli/animate_command.h"
#include "cli/bench_command.h"
#include "cli/completion.h"
#include "cli/export_command.h"
#include "cli/lessons_command.h"
#include "cli/man_page.h"
#include "cli/models_command.h"
#include "cli/render_flags.h"
#include "cli/screenshot_command.h"
#include "cli/state_flags.h"
#include "io/atomic_file.h"
#include "shell/window.h"
#include "state/actions.h"
#include "state/models.h"
#include "state/params.h"
#include "state/session.h"
#include "state/settings.h"

#ifndef ROPE_LAB_VERSION
#define ROPE_LAB_VERSION "0.0.0"
#endif

namespace rope::app {

namespace {

// CLI11 reports problems as multi-line text in places; we promise one line.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ')
    s.pop_back();
  return s;
}

// The option `name` ("--fps") as the command line being parsed knows it: in the deepest
// subcommand reached (`export scores`), else in the ones above it.
const CLI::Option* find_option(const CLI::App& root, const std::string& name) {
  std::vector<const CLI::App*> chain{&root};
  for (;;) {
    const auto reached =
        chain.back()->get_subcommands([](const CLI::App* sub) { return sub->parsed(); });
    if (reached.empty()) break;
    chain.push_back(reached.front());
  }
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    if (const CLI::Option* opt = (*it)->get_option_no_throw(name)) return opt;
  return nullptr;
}

// CLI11's own wording names the flag but not what it takes ("Could not convert: --fps = abc",
// "--dim: 1 required D missing", reliability review N14); the flag's help text states the
// allowed values and ranges, so the message quotes it.
std::string parse_error_message(const CLI::App& root, const CLI::ParseError& e) {
  const std::string what = one_line(e.what());
  std::string name, problem;
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
    constexpr std::string_view kPrefix = "Could not convert: ";
    const auto eq = what.find(" = ");
    if (what.rfind(kPrefix, 0) != 0 || eq == std::string::npos) return what;
    name = what.substr(kPrefix.size(), eq - kPrefix.size());
    problem = "cannot read " + quote_for_message(what.substr(eq + 3));
  } else if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    const auto colon = what.find(": ");
    if (colon == std::string::npos || what.find(" missing") == std::string::npos) return what;
    name = what.substr(0, colon);
    problem = "needs a value";
  } else {
    return what;
  }
  const CLI::Option* opt = find_option(root, name);
  if (opt == nullptr || opt->get_description().empty()) return what;
  return name + ": " + problem + "; its help: " + one_line(opt->get_description());
}

}  // namespace

namespace {

int run_command(int argc, char** argv) {
  remove_temporaries_on_signals();  // Ctrl+C during an export leaves no hidden temporary file
  CLI::App root{"RoPE Lab: an interactive lab for Rotary Position Embedding", "rope-lab"};
  root.set_version_flag("--version", std::string("rope-lab ") + ROPE_LAB_VERSION);
  root.footer("Subcommands have their own --help, e.g. rope-lab screenshot --help.");
  bool print_man_page = false;  // hidden (no group): the build writes rope-lab.1 with it
  root.add_flag("--man-page", print_man_page, "print the manual page rope-lab(1) in roff")
      ->group("");
  bool print_completion = false;  // hidden too: the build writes the bash completion with it
  root.add_flag("--bash-completion", print_completion, "print the bash completion script")
      ->group("");
  bool print_zsh_completion = false;
  root.add_flag("--zsh-completion", print_zsh_completion, "print the zsh completion script")
      ->group("");

  GuiOptions gui;
  StateFlags gui_flags;
  root.add_option("session", gui.session_path, "session file (.json) to open");
  root.add_option("--frames", gui.frames, "quit by itself after N frames (0: run until closed)")
      ->check(CLI::Range(0, 100000000));
  root.add_option("--monitor", gui.monitor,
                  "full screen (F5, F11, --presentation) on monitor N; 1 is the primary")
      ->check(CLI::Range(1, 16));
  add_bool_flag(root, "--presenter", gui.presenter,
                "open the presenter window too: the step's notes, its hidden answer and the next "
                "step, on a second screen (F6)");
  add_state_flags(root, gui_flags);
  add_lessons_dir_flag(root);

  auto export_cmd = add_export_command(root);
  auto screenshot_cmd = add_screenshot_command(root);
  auto bench_cmd = add_bench_command(root);
  auto animate_cmd = add_animate_command(root);
  auto lessons_cmd = add_lessons_command(root);
  auto models_cmd = add_models_command(root);

  if (const Status negated = check_negated_flags(argc, argv); !negated) {
    print_error(negated.error().to_string());
    return kExitUsage;
  }
  try {
    root.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return root.exit(e);
  } catch (const CLI::ParseError& e) {
    print_error(parse_error_message(root, e));
    return kExitUsage;
  } catch (const std::logic_error&) {
    // CLI11 2.3.1 reads some flag values with std::stoll outside its own error handling
    // (std::invalid_argument, std::out_of_range); check_negated_flags and bool_flag_value
    // catch the known ways in, this is the last guard (fuzz_cli found two ways before them).
    print_error(
        "a flag's value could not be read: boolean flags take true or false (also "
        "on/off, yes/no, 1/0), numbers at most 19 digits");
    return kExitUsage;
  }

  if (print_zsh_completion) {
    std::fputs(zsh_completion(root).c_str(), stdout);
    return kExitOk;
  }
  if (print_completion) {
    std::fputs(bash_completion(root).c_str(), stdout);
    return kExitOk;
  }
  if (print_man_page) {
    std::fputs(man_page(root, ROPE_LAB_VERSION).c_str(), stdout);
    return kExitOk;
  }

  // The commands that build large buffers (a 4x picture, a long 4K animation, a big export) may
  // find the memory short: one clear line and exit 1, never an abort. Temporary files go with
  // their writers' destructors as the exception unwinds.
  try {
    if (root.got_subcommand("export")) return run_export_command(*export_cmd);
    if (root.got_subcommand("screenshot")) return run_screenshot_command(*screenshot_cmd);
    if (root.got_subcommand("bench")) return run_bench_command(*bench_cmd);
    if (root.got_subcommand("animate")) return run_animate_command(*animate_cmd);
    if (root.got_subcommand("lessons")) return run_lessons_command(*lessons_cmd);
    if (root.got_subcommand("models")) return run_models_command(*models_cmd);
  } catch (const std::bad_alloc&) {
    print_error(
        "out of memory: the picture, animation or table is too large for this machine; "
        "choose a smaller size, scale, frame count or range");
    return kExitFailure;
  }

  AppState state;
  // defaults < remembered settings < the session file < flags
  {
    SettingsLoad loaded = load_settings(settings_path());
    state.params.theme = loaded.settings.theme;
    state.params.ui_scale = loaded.settings.ui_scale;
    state.recent_sessions = std::move(loaded.settings.recent_sessions);
    gui.width = loaded.settings.window_width;
    gui.height = loaded.settings.window_height;
    gui.save_settings = gui.save_settings && loaded.may_save;
    if (!loaded.notice.empty()) {  // once: on stderr, and in the window
      std::fprintf(stderr, "rope-lab: warning: %s\n", loaded.notice.c_str());
      show_notice(state, loaded.notice, true);
    }
  }
  if (!gui.session_path.empty()) {  // the session first; flags given with it override it
    if (auto s = load_session_state(gui.session_path, state); !s) {
      print_error(s.error().to_string());
      return kExitUsage;
    }
    state.session_path = std::filesystem::absolute(gui.session_path).string();
    stamp_session_file(state, state.session_path);
    remember_session(state.recent_sessions, state.session_path);
  }
  if (auto s = apply_state_flags(gui_flags, state.params); !s) {
    print_error(s.error().to_string());
    return kExitUsage;
  }
  // a lesson or step typed on the command line that is not there: refused before the window
  // opens (one named by a session alone opens, the lesson view saying so, the work not lost)
  const bool lesson_flag =
      std::any_of(gui_flags.given.begin(), gui_flags.given.end(),
                  [](const auto& f) { return f.first == "lesson" || f.first == "step"; });
  if (lesson_flag)
    if (auto s = check_lesson(state.params); !s) {
      print_error(s.error().to_string());
      return kExitUsage;
    }
  // A broken models file costs the presets, never the start: one warning, here and on screen.
  if (const ModelLibrary& models = model_library(); !models.problem.empty()) {
    std::fprintf(stderr, "rope-lab: warning: %s\n", models.problem.c_str());
    show_notice(state, models.problem, true);
  }
  return run_window(state, gui);
}

}  // namespace

int run_cli(int argc, char** argv) {
  int code = run_command(argc, argv);
  // What every command wrote on stdout (a table, a list, --help, --version): a write that failed
  // (a full disk, a closed pipe) is an error and exit 1, as `export` has always said; the
  // others exited 0 into /dev/full. stdio keeps the error, so a flush at the end finds it.
  errno = 0;
  if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && code == kExitOk) {
    const int err = errno;
    if (err == EPIPE)  // SIGPIPE is ignored (io/atomic_file.h): `| head` stopped reading
      print_error("standard output: the reader closed the pipe before the end");
    else
      print_error("standard output: cannot write" +
                  (err != 0 ? ": " + std::system_category().message(err) : std::string()));
    code = kExitFailure;
  }
  return code;
}

}  // namespace rope::app
