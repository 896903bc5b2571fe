// cli/export_command.h — `rope-lab export DATASET [-o FILE.csv] [flags]`: exact numbers as CSV.
//
// Each dataset of export/datasets.h is a subcommand of `export` with its own flags and --help:
//   rope-lab export frequencies --dim 64 --base 10000 -o freq.csv
//   rope-lab export scores --query 1,0,0,1 --key 0,1,1,0 --positions 32 --base 10000
// The CSV goes to standard output, or to -o FILE through a temporary file and a rename. No
// display is needed: nothing here touches GL or GLFW. Exit codes as in cli/cli.h: 2 for a bad
// dataset, flag or value (before anything is written), 1 when the output cannot be written.
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace rope::app {

struct ExportCommand;  // options, filled by CLI11 while parsing

// Registers the `export` subcommand on root. The returned object holds the parsed options and
// must outlive parsing.
std::shared_ptr<ExportCommand> add_export_command(CLI::App& root);

// Runs the export after a successful parse; returns the exit code (cli/cli.h).
int run_export_command(const ExportCommand& cmd);

}  // namespace rope::app
