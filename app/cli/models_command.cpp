#include "cli/models_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/state_flags.h"
#include "io/exit_codes.h"
#include "io/number_format.h"
#include "state/hf_config.h"
#include "state/models.h"

namespace rope::app {

struct ModelsCommand {
  bool ids = false;
  std::string from_config;  // --from-config FILE: read a config.json instead of listing
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
      return s + " (neox: p = " + format_number(m.rotary_fraction, NumberStyle::tooltip) +
             ", theta over the rotary dims)";
    case RotaryMeaning::proportional:
      return s + " (proportional: p = " + format_number(m.rotary_fraction, NumberStyle::tooltip) +
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

// The layers of type t as runs: "5, 11, 17, ..., 47" or "0-4, 6-10, 12-16, ..., 42-46".
std::string layer_list(const ModelLayers& layers, int t) {
  std::vector<std::string> runs;
  const int n = layers.count();
  for (int l = 0; l < n;) {
    if (layers.type_of[static_cast<std::size_t>(l)] != t) {
      ++l;
      continue;
    }
    int end = l;
    while (end + 1 < n && layers.type_of[static_cast<std::size_t>(end + 1)] == t)
      ++end;
    runs.push_back(end == l ? std::to_string(l) : std::to_string(l) + "-" + std::to_string(end));
    l = end + 1;
  }
  std::string out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs.size() > 5 && i == 3) {
      out += ", ...";
      i = runs.size() - 1;
    }
    out += (out.empty() ? "" : ", ") + runs[i];
  }
  return out;
}

std::string layers_text(const ModelPreset& m) {
  if (m.layers.empty()) return {};
  std::string out = "  layers:   " + std::to_string(m.layers.count()) + " (" + m.layers.pattern() +
                    "); --layer N shows one\n";
  for (std::size_t t = 0; t < m.layers.types.size(); ++t) {
    const LayerType& type = m.layers.types[t];
    out += "    " + type.name + ": " + std::to_string(m.layers.count_of(static_cast<int>(t))) +
           " layers (" + layer_list(m.layers, static_cast<int>(t)) +
           "): " + layer_type_words(m, type) + "\n";
  }
  if (!m.layers.source.empty()) out += "    read from: " + m.layers.source + "\n";
  return out;
}

// One preset as `rope-lab models` prints it: the id line, then one line per field.
std::string preset_text(const ModelPreset& m, const std::string& tag_words) {
  std::string out = m.id + "  " + m.name + "  [" + m.tag + ": " + tag_words + "]\n";
  if (!m.tag_note.empty()) out += "  tag:      " + m.tag_note + "\n";
  out += "  rotary:   " + rotary_text(m) + "\n";
  out += "  base:     " + format_number(m.base, NumberStyle::csv) + "\n";
  out += "  context:  " + std::to_string(m.context);
  if (m.extended_context > 0) out += " -> " + std::to_string(m.extended_context);
  out += "\n  scaling:  " + scaling_text(m) + "\n";
  out += "  pairing:  reference " +
         (m.pairing_reference.empty() ? std::string("-") : m.pairing_reference) +
         ", transformers " + m.pairing_transformers + "\n";
  out += layers_text(m);
  if (!m.mrope.empty()) {  // the multimodal view's settings: mm_section, mm_layout, mm_rule ...
    out += "  M-RoPE:  ";
    for (const auto& [name, value] : m.mrope)
      out += " " + name.substr(3) + "=" + value;
    out += "\n";
  }
  out += "  source:   " + m.source + "\n";
  if (!m.lacks.empty()) out += "  LACKS:    " + m.lacks + "\n";
  if (!m.notes.empty()) out += "  note:     " + m.notes + "\n";
  return out;
}

int print_out(const std::string& out) {
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitOk : kExitFailure;
}

}  // namespace

std::shared_ptr<ModelsCommand> add_models_command(CLI::App& root) {
  auto cmd = std::make_shared<ModelsCommand>();
  auto* sub = root.add_subcommand(
      "models", "List the model presets (--model NAME) with their values, sources and tags");
  add_bool_flag(*sub, "--ids", cmd->ids, "print the preset ids only, one per line");
  sub->add_option("--from-config", cmd->from_config,
                  "read a model's Hugging Face config.json and print what RoPE Lab sets from it "
                  "(as --config FILE would) and what a careful reader would flag; exit 2 when "
                  "the file cannot be read as a model config");
  sub->footer(
      "Tags: V read in the primary source, C consistent across several copies (the official "
      "file not read), U unverified. The presets are read from assets/models.json (set "
      "ROPE_LAB_MODELS to use another file); assets/MODELS.md describes it.");
  return cmd;
}

int run_models_command(const ModelsCommand& cmd) {
  if (!cmd.from_config.empty()) {
    auto read = load_hf_config(cmd.from_config);
    if (!read) {
      print_error(cmd.from_config + ": " + read.error().to_string());
      return kExitUsage;
    }
    const ModelConfig& c = read.value();
    std::string out = preset_text(c.preset, "read from " + cmd.from_config);
    out += c.pitfalls.empty() ? "  pitfalls: none\n" : "  pitfalls:\n";
    for (const ConfigPitfall& p : c.pitfalls)
      out += "    " + p.field + ": " + p.text + "\n";
    return print_out(out);
  }
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
    for (const ModelPreset& m : lib.presets)
      out += "\n" + preset_text(m, tag_meaning(m.tag));
  }
  return print_out(out);
}

}  // namespace rope::app
