// cli/output_flag.h — what the commands that write a file (`export`, `screenshot`, `animate`)
// say about -o and --force, in one place: "-" is standard output where the output is a stream
// (a CSV, a PNG), a write-protected file is kept unless --force (as `cp` keeps it), and a target
// that cannot take the output is refused before any work is done.
//
// Usage:
//   add_force_flag(*sub, cmd->force);
//   ...
//   if (const int code = check_output(cmd.output, cmd.force, /*stdout_allowed=*/true); code != 0)
//     return code;  // the message is printed
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace rope::app {

// --force: replace a write-protected -o file.
void add_force_flag(CLI::App& app, bool& force);

// 0 when `path` can take the output; else the exit code after printing why: kExitUsage for a
// value that is no file name ("", "DIR/", "-" where standard output is not offered), kExitFailure
// for a target the file system refuses (a directory, a write-protected file without --force, a
// folder that does not exist, a block device).
int check_output(const std::string& path, bool force, bool stdout_allowed);

}  // namespace rope::app
