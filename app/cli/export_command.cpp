#include "cli/export_command.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <string>
#include <system_error>
#include <vector>

#include "cli/cli.h"
#include "cli/output_flag.h"
#include "cli/state_flags.h"
#include "export/csv.h"
#include "export/datasets.h"
#include "io/atomic_file.h"
#include "state/params.h"

namespace rope::app {

struct DatasetCommand {
  const DatasetSpec* spec = nullptr;
  CLI::App* app = nullptr;        // the dataset's subcommand, owned by the root App
  ExportArgs args;                // dataset flags as typed, in order
  CLI::Option* output = nullptr;  // -o,--output
  std::string output_path;
  bool force = false;  // --force: replace a write-protected -o file
};

struct ExportCommand {
  CLI::App* app = nullptr;               // `export`, owned by the root App
  std::vector<DatasetCommand> datasets;  // one per dataset_specs() entry; never resized after
                                         // registration (the option callbacks point into it)
};

namespace {

std::string flag_help(const ExportFlag& f) {
  std::string help = std::string(f.what) + ": " + flag_allowed(f);
  if (!f.default_text) {
    help += " (required)";
  } else if (*f.default_text) {
    help += std::string(" (default ") + f.default_text + ")";
  }
  return help;
}

Status write_to_stdout(const CsvTable& table) {
  const auto stdout_error = [](int err) {
    if (err == EPIPE)  // SIGPIPE is ignored (io/atomic_file.h): `| head` ends the reading early
      return Error{"standard output", "the reader closed the pipe before the end"};
    return Error{"standard output", "cannot write: " + std::system_category().message(err)};
  };
  const Status s = write_csv(table, [&](std::string_view bytes) -> Status {
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size())
      return stdout_error(errno);
    return {};
  });
  if (!s) return s;
  if (std::fflush(stdout) != 0) return stdout_error(errno);
  return {};
}

Status write_to_file(const CsvTable& table, const std::string& path, bool force) {
  AtomicFile file;
  if (auto s = file.open(path, WriteOptions{force}); !s) return s;
  if (auto s = write_csv(table, [&file](std::string_view bytes) { return file.write(bytes); }); !s)
    return s;
  return file.commit();
}

}  // namespace

std::shared_ptr<ExportCommand> add_export_command(CLI::App& root) {
  auto cmd = std::make_shared<ExportCommand>();
  cmd->app = root.add_subcommand("export", "Write exact numbers as CSV (no display needed)");
  cmd->app->footer(
      "Each dataset has its own flags and --help, e.g. rope-lab export frequencies --help.\n"
      "Output: CSV with a header row, every number with 17 significant digits, to standard "
      "output or -o FILE.");
  cmd->app->require_subcommand(0, 1);

  const auto specs = dataset_specs();
  cmd->datasets.resize(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    DatasetCommand& ds = cmd->datasets[i];
    ds.spec = &specs[i];
    ds.app = cmd->app->add_subcommand(ds.spec->name, ds.spec->summary);
    ds.app->footer(std::string("Columns: ") + ds.spec->columns);
    ds.app->allow_extras(false);
    for (const ExportFlag& f : ds.spec->flags) {
      const std::string name = f.name;
      ds.app
          ->add_option_function<std::string>(
              flag_name(name),
              [&args = ds.args, name](const std::string& text) { args.emplace_back(name, text); },
              flag_help(f))
          ->type_name(f.value_name);
    }
    ds.output = ds.app
                    ->add_option("-o,--output", ds.output_path,
                                 "write the CSV to FILE instead of standard output (through a "
                                 "temporary file and a rename: never half-written; - is "
                                 "standard output)")
                    ->type_name("FILE");
    add_force_flag(*ds.app, ds.force);
  }
  // A word that is not a dataset stays with `export` so that run_export_command can name it
  // and list the datasets; CLI11 alone would only say it was "not expected".
  cmd->app->allow_extras(true);
  return cmd;
}

int run_export_command(const ExportCommand& cmd) {
  const DatasetCommand* chosen = nullptr;
  for (const DatasetCommand& ds : cmd.datasets)
    if (ds.app->parsed()) chosen = &ds;

  const std::vector<std::string> extra = cmd.app->remaining();
  if (!extra.empty()) {
    const std::string& word = extra.front();
    if (!chosen && !word.empty() && word.front() != '-')
      print_error("export: unknown dataset " + quote_for_message(word) + "; choose " +
                  dataset_names());
    else
      print_error("export: unexpected argument " + quote_for_message(word) +
                  "; write the dataset first, then its flags (rope-lab export DATASET --help)");
    return kExitUsage;
  }
  if (!chosen) {
    print_error("export: needs a dataset: " + dataset_names() + " (rope-lab export --help)");
    return kExitUsage;
  }

  // Everything that can be wrong with the input is found here, before any output exists.
  Result<CsvTable> table = build_dataset(*chosen->spec, chosen->args);
  if (!table) {
    print_error(flag_name(table.error().parameter) + ": " + table.error().message);
    return kExitUsage;
  }
  const bool to_file = chosen->output->count() > 0 && chosen->output_path != "-";
  if (to_file) {
    if (const int code = check_output(chosen->output_path, chosen->force, true); code != 0)
      return code;
  }

  const Status written = to_file ? write_to_file(table.value(), chosen->output_path, chosen->force)
                                 : write_to_stdout(table.value());
  if (!written) {
    print_error(written.error().to_string());
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace rope::app
