// state/models.h — model presets: the RoPE settings of real models, read from assets/models.json
// (the file and its fields are described in assets/MODELS.md).
//
// A preset sets the head dimension, the fraction of it that rotates and what that fraction
// means, the base, the context (original and extended), the scaling method with its parameters
// and the pairing; it carries its source and a tag: V (read in the primary source), C (consistent
// across several copies, the official file not read) or U (unverified). Choosing one is setting
// the parameter `model` (flag --model NAME, session and lesson key model=NAME): its setter applies
// the preset's values through the parameter table, so they are judged by the same rules as typed
// ones, and remembers the id. What the lecturer changes afterwards is listed by
// changed_since_model (the screen shows "Llama 3.1 8B (V) · changed: base").
//
// A broken or missing models file never stops the app: the library is then empty and `problem`
// holds one message (the app shows it once; `rope-lab models` prints it and exits 1). Loading is
// all-or-nothing, so a half-read file cannot give half-right presets.
//
// Usage:
//   const ModelLibrary& lib = model_library();          // loaded once, on first use
//   if (!lib.problem.empty()) warn(lib.problem);
//   if (auto s = set_param(p, "model", "pythia-6.9b"); !s) report(s.error());
//   std::string line = model_status(p);                 // "Pythia-6.9B (V)" or ""
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rope/conventions.h"

namespace rope::app {

struct Params;

// What "rotary dims" means for a model.
enum class RotaryMeaning {
  full,          // every pair rotates
  neox,          // GPT-NeoX rotary_pct / transformers partial_rotary_factor: θ over int(d·p)
  proportional,  // p-RoPE: full-head θ for the first ⌊p·d/2⌋ pairs, the rest still
  decoupled,     // DeepSeek's MLA: a RoPE part of head_dim beside nope_dims without RoPE, its
                 // key shared by every head; the preset's d is the RoPE part
};

// One kind of layer in a model whose layers differ (Gemma 2 / 3, Llama 4, SmolLM3, gpt-oss).
// What it does not set is the preset's own: a type written {} is the preset's top-level values.
struct LayerType {
  std::string name;            // "local", "global", "nope", ...: the strip's legend
  bool rope = true;            // false: a NoPE layer, no rotation at all
  double base = 0.0;           // 0: the preset's base
  bool own_scaling = false;    // scaling_method and scaling replace the preset's scaling
  std::string scaling_method;  // "none", "linear", ... (own_scaling only)
  std::vector<std::pair<std::string, std::string>> scaling;  // its parameters, as in ModelPreset
  std::int64_t window = 0;  // sliding-window attention over this many tokens; 0: none
  std::int64_t chunk = 0;   // chunked attention in blocks of this many tokens; 0: none
};

// The layers of a model, by type. Layers are numbered from 0, as transformers' layer_idx.
struct ModelLayers {
  std::vector<LayerType> types;  // the distinct types, in legend order
  std::vector<int> type_of;      // [layer count]: layer l's index into types
  std::string source;            // where the per-layer fields were read; may be empty
  bool empty() const { return type_of.empty(); }
  int count() const { return static_cast<int>(type_of.size()); }
  const LayerType* type(int layer) const;  // nullptr outside 0 ... count()-1
  int count_of(int type_index) const;      // layers of that type
  // "5 local : 1 global, repeated": the shortest period of the type sequence in words, or the
  // counts ("40 local, 8 global") when it has no period shorter than the whole.
  std::string pattern() const;
};

inline constexpr int kMaxLayers = 1024;

struct ModelPreset {
  std::string id;        // "llama-3.1-8b": the name --model takes
  std::string name;      // "Llama 3.1 8B": shown on screen
  std::string tag;       // "V", "C" or "U"
  std::string tag_note;  // e.g. "V for the code, C for the config values"; may be empty
  std::string source;    // where the values were read
  std::string lacks;     // what the preset cannot set (e.g. LongRoPE lists not read); may be empty
  std::string notes;     // one line for the screen; may be empty

  int head_dim = 0;     // dimensions per attention head (decoupled: the RoPE part)
  int rotary_dims = 0;  // dimensions that rotate
  RotaryMeaning rotary_meaning = RotaryMeaning::full;
  double rotary_fraction = 1.0;  // the published fraction (rotary_pct, partial_rotary_factor)
  int nope_dims = 0;             // decoupled: dimensions per head without RoPE
  double base = 0.0;
  std::int64_t context = 0;           // the pre-training context L, tokens
  std::int64_t extended_context = 0;  // after the scaling; 0: not extended
  std::string scaling_method;         // "none", "llama3", ...
  // The scaling block's other parameters as parameter names and texts ("factor", "8").
  std::vector<std::pair<std::string, std::string>> scaling;
  std::string pairing_reference;     // the reference code's pairing; empty: no reference code
  std::string pairing_transformers;  // transformers' ("half")

  ModelLayers layers;  // empty: every layer has the values above
  // Multimodal RoPE (rope/mrope.h), what the multimodal view uses: the parameters mm_section
  // ("16,24,24"), mm_layout, mm_rule and mm_tokens_per_second as texts; empty: not multimodal.
  std::vector<std::pair<std::string, std::string>> mrope;

  // What choosing the preset sets, in order: parameter name and text for set_param. With a
  // layer (0 ... layers.count()-1), that layer type's values replace the preset's: its base,
  // its scaling; a NoPE layer is p-RoPE with p = 0 (scaling proportional, rotary_fraction 0:
  // no pair rotates), and the attention window and chunk are the type's.
  std::vector<std::pair<std::string, std::string>> params(int layer = -1) const;
};

struct ModelLibrary {
  std::vector<ModelPreset> presets;
  std::string path;     // the file read; empty when none was found
  std::string problem;  // one message when the file is missing or broken; then presets is empty
  const ModelPreset* find(std::string_view id) const;  // nullptr when unknown
  std::string ids() const;                             // "llama-1-7b, llama-2-7b, ..."
};

// Parses the text of a models file; `label` names it in messages. On any problem the library is
// empty and `problem` says where ("models.json: entry 3 (\"llama-3-8b\"): base must be ...").
ModelLibrary parse_models(std::string_view text, const std::string& label);
ModelLibrary load_models(const std::filesystem::path& path);

// The library of the running program: io/data_paths.h's find_models_file(), loaded on first use.
const ModelLibrary& model_library();

const char* rotary_meaning_name(RotaryMeaning m);  // "full", "neox", "proportional", "decoupled"

// Applies `preset` to `params` (every value through the parameter table) and sets params.model.
// The scaling block starts from its defaults, so nothing of a previous preset stays. `layer`
// (-1: none) chooses one of the preset's layers: params.layer is set to it.
Status apply_model(Params& params, const ModelPreset& preset, int layer = -1);

// The preset in effect: the config.json's when one is read, else the library's for
// params.model; nullptr when none.
const ModelPreset* active_preset(const Params& params);

// "layer 5 of 48: global": the chosen layer and its type; "" without one (layer_type_words has
// the type's values).
std::string layer_words(const Params& params);
// A layer type in words: "NoPE (no rotation)", "base 10 000, window 1 024", "chunks of 8 192".
std::string layer_type_words(const ModelPreset& preset, const LayerType& type);

// The preset-controlled parameters whose value differs from the active preset's, in table order
// ("base", "factor"); empty when no preset is active.
std::vector<std::string> changed_since_model(const Params& params);

// "Llama 3.1 8B (V)", " · lacks ..." (the lacks text up to its first '(' or ':') when the preset
// lacks values, and " · changed: base, factor" when something changed; "" without a preset.
std::string model_status(const Params& params);

}  // namespace rope::app
