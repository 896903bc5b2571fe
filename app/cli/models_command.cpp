#include "cli/models_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "cli/cli.h"
#include "cli/state_flags.h"
#include "io/exit_codes.h"
#include "io/number_format.h"
#include "state/models.h"

namespace rope::app {

struct ModelsCommand {
  bool ids = false;
};

namespace {

const char* tag_meaning(const std::string& tag) {
  if (tag == "V") return "verified in the primary source";
  if (tag == "C") return "consistent across copies, official file not read";
  return "unverified";
}

std::string rotary_text(const ModelPreset& m) {
  std::string s = std::to_string(m.rotary_dims) + " of " + std::to_string(m.head_dim);
  switch (m.rotary_meaning) {
    case RotaryMeaning::full:
      return s + " (every pair rotates)";
    case RotaryMeaning::neox:
      return s + " (neox: p = " + format_number(m.rotary_fraction, NumberStyle::csv) +
             ", theta over the rotary dims)";
    case RotaryMeaning::proportional:
      return s + " (proportional: p = " + format_number(m.rotary_fraction, NumberStyle::csv) +
             ", full-head theta, slow pairs still)";
    case RotaryMeaning::decoupled:
      return std::to_string(m.rotary_dims) + " RoPE + " + std::to_string(m.nope_dims) +
             " without RoPE per head (decoupled; the RoPE key is shared by all heads)";
  }
  return s;
}

std::string scaling_text(const ModelPreset& m) {
  std::string s = m.scaling_method;
  for (const auto& [name, value] : m.scaling)
    s += " " + name + "=" + value;
  return s;
}

}  // namespace

std::shared_ptr<ModelsCommand> add_models_command(CLI::App& root) {
  auto cmd = std::make_shared<ModelsCommand>();
  auto* sub = root.add_subcommand(
      "models", "List the model presets (--model NAME) with their values, sources and tags");
  add_bool_flag(*sub, "--ids", cmd->ids, "print the preset ids only, one per line");
  sub->footer(
      "Tags: V read in the primary source, C consistent across several copies (the official "
      "file not read), U unverified. The presets are read from assets/models.json (set "
      "ROPE_LAB_MODELS to use another file); assets/MODELS.md describes it.");
  return cmd;
}

int run_models_command(const ModelsCommand& cmd) {
  const ModelLibrary& lib = model_library();
  if (!lib.problem.empty()) {
    print_error(lib.problem);
    return kExitFailure;
  }
  std::string out;
  if (cmd.ids) {
    for (const ModelPreset& m : lib.presets)
      out += m.id + "\n";
  } else {
    out += std::to_string(lib.presets.size()) + " model presets from " + lib.path + "\n";
    for (const ModelPreset& m : lib.presets) {
      out += "\n" + m.id + "  " + m.name + "  [" + m.tag + ": " + tag_meaning(m.tag) + "]\n";
      if (!m.tag_note.empty()) out += "  tag:      " + m.tag_note + "\n";
      out += "  rotary:   " + rotary_text(m) + "\n";
      out += "  base:     " + format_number(m.base, NumberStyle::csv) + "\n";
      out += "  context:  " + std::to_string(m.context);
      if (m.extended_context > 0) out += " -> " + std::to_string(m.extended_context);
      out += "\n  scaling:  " + scaling_text(m) + "\n";
      out += "  pairing:  reference " +
             (m.pairing_reference.empty() ? std::string("-") : m.pairing_reference) +
             ", transformers " + m.pairing_transformers + "\n";
      out += "  source:   " + m.source + "\n";
      if (!m.lacks.empty()) out += "  LACKS:    " + m.lacks + "\n";
      if (!m.notes.empty()) out += "  note:     " + m.notes + "\n";
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitOk : kExitFailure;
}

}  // namespace rope::app
