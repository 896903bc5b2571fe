// Fuzz target: the command line's state flags (app/cli/state_flags.h) — the flags every
// subcommand shares — on arbitrary arguments: the input is split at NUL bytes into argv. Parsing
// may refuse (CLI::ParseError, exit 2 in the app); any other exception escaping is the crash
// class of issue 16 (a boolean flag given a word). Accepted flags must give parameters that
// pass the parameter table's own checks.
#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/state_flags.h"
#include "fuzz_entry.h"
#include "state/params.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rope::app;
  const std::string_view text = rope::fuzz::as_text(data, size);
  std::vector<std::string> args{"rope-lab"};
  std::size_t start = 0;
  while (start <= text.size() && args.size() < 64) {
    const std::size_t end = std::min(text.find('\0', start), text.size());
    args.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::vector<const char*> argv;
  for (const auto& a : args)
    argv.push_back(a.c_str());

  // Built once: registering the ~80 flags is the same for every input and was most of the
  // time per input (60-285 inputs/s). clear() forgets the last parse, as a second parse of one
  // App needs; `flags` is emptied by hand (the callbacks append to it).
  static CLI::App app{"fuzz", "rope-lab"};
  static StateFlags flags;
  static const bool registered = (add_state_flags(app, flags), true);
  (void)registered;
  app.clear();
  flags.given.clear();
  if (!check_negated_flags(static_cast<int>(argv.size()), argv.data())) return 0;  // as run_cli
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {  // includes --help (CLI::Success)
    return 0;
  } catch (const std::logic_error&) {  // run_cli's last guard: a usage error (exit 2) there
    return 0;
  }
  Params p;
  if (apply_state_flags(flags, p) && !validate_params(p)) rope::fuzz::broken();
  return 0;
}
