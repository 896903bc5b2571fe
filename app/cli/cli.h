// cli/cli.h — the rope-lab command line: the GUI and its subcommands.
//
//   rope-lab [SESSION.json] [state flags] [--frames N]
//   rope-lab screenshot -o FILE.png [state flags] [--size WxH] [--scale S]
//   rope-lab export DATASET [-o FILE.csv] [flags]
//   rope-lab bench [--view NAME | KERNEL] [state flags] [--frames N]
//
// Exit codes and error lines: io/exit_codes.h.
#pragma once

#include "io/exit_codes.h"

namespace rope::app {

int run_cli(int argc, char** argv);

}  // namespace rope::app
