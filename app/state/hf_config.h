// state/hf_config.h — a Hugging Face `config.json` read as a model preset: the RoPE settings
// transformers would compute from it, and the pitfalls a careful reader would flag.
//
// What is read (transformers' modeling_rope_utils and the model configs are the reference; every
// rule names its source beside its code in hf_config.cpp):
//   head dimension   `head_dim`, else hidden_size / num_attention_heads; DeepSeek's MLA:
//                    `qk_rope_head_dim` (the RoPE part) beside `qk_nope_head_dim`
//   base             `rope_theta`, or `rope_parameters.rope_theta` (the newer block)
//   scaling          `rope_scaling` or `rope_parameters`, by `rope_type` or its old name `type`:
//                    default, linear, dynamic, yarn, longrope (old name "su"), llama3; "mrope"
//                    (Qwen2-VL) is read as default: for text tokens t = h = w, so every pair
//                    turns as in plain RoPE (said as a pitfall)
//   partial rotary   `partial_rotary_factor` (GPT-NeoX's `rotary_pct` too): θ over int(d·p)
//   contexts         `original_max_position_embeddings` (in the scaling block, or at the top
//                    level as Phi-3 has it), `max_position_embeddings`
//   nesting          a vision-language model's `text_config` is read in place of the top level
//   per layer       `layer_types`, `sliding_window_pattern` (Gemma 3), Gemma 2's even sliding
//                    layers, `rope_local_base_freq`, `no_rope_layers` / `no_rope_layer_interval`
//                    (Llama 4, SmolLM3), `sliding_window`, `attention_chunk_size`: the preset's
//                    layers (state/models.h: ModelLayers), needing `num_hidden_layers`
//
// Bad input gives one Error whose `parameter` is the field path ("rope_scaling.long_factor") and
// whose message says what is allowed. A file over 4 MB (a config is a few kB) or nested deeper
// than 32 levels is refused before it is parsed in full.
//
// Usage:
//   auto read = load_hf_config("config.json");
//   if (!read) { print_error(read.error()); return 2; }
//   apply_model(params, read.value().preset);   // state/models.h
//   for (const ConfigPitfall& p : read.value().pitfalls) say(p.field + ": " + p.text);
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "rope/conventions.h"
#include "state/models.h"

namespace rope::app {

// Something a careful reader of the config would flag; `field` is its path.
struct ConfigPitfall {
  std::string field;
  std::string text;
};

struct ModelConfig {
  ModelPreset preset;  // id "config", tag "config.json", source: the file
  std::vector<ConfigPitfall> pitfalls;
};

inline constexpr std::uintmax_t kMaxConfigBytes = 4u << 20;
inline constexpr int kMaxConfigDepth = 32;

// Whether `text` is a JSON object that reads as a model config rather than a RoPE Lab session:
// no "format" key, and one of the keys a config.json has (model_type, hidden_size, head_dim,
// rope_theta, rope_scaling, text_config). File ▸ Open takes either kind of file.
bool looks_like_model_config(std::string_view text);

// `label` names the file in the preset's source ("config.json").
Result<ModelConfig> parse_hf_config(std::string_view text, const std::string& label);
Result<ModelConfig> load_hf_config(const std::filesystem::path& path);

}  // namespace rope::app
