#include "cli/output_flag.h"

#include <CLI/CLI.hpp>

#include "cli/state_flags.h"
#include "io/atomic_file.h"
#include "io/exit_codes.h"
#include "state/params.h"

namespace rope::app {

void add_force_flag(CLI::App& app, bool& force) {
  add_bool_flag(app, "--force", force,
                "replace the -o file even when it is write-protected (without it such a file is "
                "kept and the command fails, as cp does)");
}

int check_output(const std::string& path, bool force, bool stdout_allowed) {
  if (path.empty()) {
    print_error("--output: needs a file name, got ''");
    return kExitUsage;
  }
  if (path == "-") {
    if (stdout_allowed) return 0;
    print_error(
        "--output: - (standard output) is not offered here: the format comes from the file "
        "name's ending; give a .gif or .mp4 file name");
    return kExitUsage;
  }
  if (path.back() == '/') {
    print_error("--output: " + quote_for_message(path) +
                " names a folder; give a file name (e.g. " + path + "figure.png)");
    return kExitUsage;
  }
  if (auto s = check_target(path, WriteOptions{force}); !s) {
    print_error(s.error().to_string());
    return kExitFailure;
  }
  return 0;
}

}  // namespace rope::app
