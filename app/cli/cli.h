// cli/cli.h — the rope-lab command line: the GUI and the subcommands of DESIGN.md.
//
//   rope-lab [SESSION.json] [state flags] [--frames N]
//   rope-lab screenshot -o FILE.png [state flags] [--size WxH] [--scale S]
//   rope-lab export DATASET [-o FILE.csv] [flags]
//   rope-lab bench [--view NAME | KERNEL] [state flags] [--frames N]
//
// Exit codes: 0 success; 2 bad usage or bad input (one line on stderr naming the flag, the
// value and what is allowed); 1 runtime failure (no OpenGL 3.3, a file that cannot be written).
#pragma once

#include <string>

namespace rope::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Prints "rope-lab: error: <message>" as one line on stderr.
void print_error(const std::string& message);

int run_cli(int argc, char** argv);

}  // namespace rope::app
