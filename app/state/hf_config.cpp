#include "state/hf_config.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

#include "io/number_format.h"
#include "io/read_file.h"
#include "state/app_state.h"
#include "state/params.h"

namespace rope::app {
namespace {

using Json = nlohmann::json;

// The keys read below; any other key with "rope" in its name is listed as not used.
const std::set<std::string> kRopeScalingKeys = {"type",
                                                "rope_type",
                                                "factor",
                                                "original_max_position_embeddings",
                                                "beta_fast",
                                                "beta_slow",
                                                "mscale",
                                                "mscale_all_dim",
                                                "truncate",
                                                "attention_factor",
                                                "short_factor",
                                                "long_factor",
                                                "low_freq_factor",
                                                "high_freq_factor",
                                                "rope_theta",
                                                "mrope_section",
                                                "mrope_interleaved",
                                                "short_mscale",
                                                "long_mscale"};

struct Reader {
  const Json& top;   // the file's object
  const Json* text;  // text_config when there is one, else &top

  // A key of the language model's config: text_config's, else the top level's (Qwen2-VL keeps
  // rope_scaling at the top beside a text_config). Returns the path it was found at.
  const Json* find(const std::string& key, std::string& path) const {
    if (text != &top) {
      if (auto it = text->find(key); it != text->end() && !it->is_null()) {
        path = "text_config." + key;
        return &*it;
      }
    }
    if (auto it = top.find(key); it != top.end() && !it->is_null()) {
      path = key;
      return &*it;
    }
    path = key;
    return nullptr;
  }
};

Error field_error(const std::string& path, const std::string& message) {
  return Error{path, message};
}

Result<double> number_at(const Json& v, const std::string& path, double lo, double hi,
                         const std::string& what) {
  if (!v.is_number())
    return field_error(path, "must be a number (" + what + "), got " + std::string(v.type_name()));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi)
    return field_error(path, "must be " + what + ", got " + format_number(x, NumberStyle::csv));
  return x;
}

Result<long long> integer_at(const Json& v, const std::string& path, long long lo, long long hi,
                             const std::string& what) {
  // transformers' configs write some integers as 4096.0: a whole number is accepted
  if (!v.is_number())
    return field_error(path,
                       "must be an integer (" + what + "), got " + std::string(v.type_name()));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x != std::floor(x) || x < static_cast<double>(lo) ||
      x > static_cast<double>(hi))
    return field_error(path, "must be " + what + ", got " + format_number(x, NumberStyle::csv));
  return static_cast<long long>(x);
}

std::string csv(double x) {
  return format_number(x, NumberStyle::csv);
}

// The scaling block: `rope_scaling`, or the newer `rope_parameters` (which also holds
// rope_theta). Null when neither is there.
const Json* scaling_block(const Reader& r, std::string& path) {
  std::string p;
  if (const Json* s = r.find("rope_scaling", p); s) {
    path = p;
    return s;
  }
  if (const Json* s = r.find("rope_parameters", p); s) {
    path = p;
    // newer transformers write one block per layer kind (Gemma 3: full_attention and
    // sliding_attention); the full-attention layers' block is the model's main one, the others
    // are read with the layers (read_layers)
    if (s->is_object())
      if (auto it = s->find("full_attention"); it != s->end() && it->is_object()) {
        path = p + ".full_attention";
        return &*it;
      }
    return s;
  }
  return nullptr;
}

// The sliding-window layers' own block of a rope_parameters written per layer kind, or null.
const Json* sliding_block(const Reader& r, std::string& path) {
  std::string p;
  const Json* s = r.find("rope_parameters", p);
  if (!s || !s->is_object()) return nullptr;
  auto it = s->find("sliding_attention");
  if (it == s->end() || !it->is_object()) return nullptr;
  path = p + ".sliding_attention";
  return &*it;
}

// What one layer does, before the distinct kinds become the preset's LayerTypes.
struct LayerShape {
  bool rope = true;
  bool local = false;  // Gemma 3: the sliding layers' own base (rope_local_base_freq), no scaling
  std::int64_t window = 0;
  std::int64_t chunk = 0;
  bool operator==(const LayerShape&) const = default;
};

// The per-layer fields, as transformers' configs turn them into one kind per layer_idx:
//   layer_types             a list of "sliding_attention" / "full_attention" / "chunked_attention"
//                           (gpt-oss, Gemma 2 / 3 in newer files), with sliding_window and
//                           attention_chunk_size
//   sliding_window_pattern  Gemma 3: layer l slides unless (l + 1) % pattern == 0 (Gemma3Text-
//                           Config; 6 when a gemma3_text config leaves it out)
//   model_type gemma2       Gemma2Config: layer l slides when l is even
//   rope_local_base_freq    Gemma 3: the sliding layers' base, without rope_scaling (10000 when a
//                           gemma3_text config leaves it out)
//   no_rope_layers          Llama 4, SmolLM3: 1 = the layer uses RoPE, 0 = NoPE; when absent or
//                           empty, no_rope_layer_interval N gives NoPE to layers with (l + 1) % N
//                           == 0 (Llama4TextConfig, SmolLM3Config)
//   attention_chunk_size    Llama 4: the RoPE layers attend in chunks of this many tokens
// Nothing per layer: the preset keeps no layers. Needs num_hidden_layers.
Status read_layers(const Reader& r, ModelPreset& m, std::vector<ConfigPitfall>& pit) {
  std::string path, type_path;
  std::string model_type;
  if (const Json* t = r.find("model_type", path); t && t->is_string())
    model_type = t->get<std::string>();
  const bool gemma3 = model_type == "gemma3_text" || model_type == "gemma3";
  const bool gemma2 = model_type == "gemma2";
  const Json* types = r.find("layer_types", type_path);
  std::string pattern_path, nope_path, interval_path, window_path, chunk_path, local_path;
  const Json* pattern = r.find("sliding_window_pattern", pattern_path);
  const Json* nope = r.find("no_rope_layers", nope_path);
  const Json* interval = r.find("no_rope_layer_interval", interval_path);
  const Json* window = r.find("sliding_window", window_path);
  const Json* chunk = r.find("attention_chunk_size", chunk_path);
  const Json* local = r.find("rope_local_base_freq", local_path);
  if (nope && nope->is_array() && nope->empty()) nope = nullptr;
  const bool per_layer = types || pattern || nope || interval || gemma2 || gemma3;
  if (!per_layer) {
    if (window)
      pit.push_back({window_path, "a sliding window for every layer (Mistral's kind): not drawn"});
    return {};
  }
  const Json* count_json = r.find("num_hidden_layers", path);
  if (!count_json) {
    pit.push_back({path,
                   "missing: the per-layer fields cannot be laid out, every layer is "
                   "shown as the model's main one"});
    return {};
  }
  auto count = integer_at(*count_json, path, 1, kMaxLayers, "an integer from 1 to 1024");
  if (!count) return count.error();
  const auto n = static_cast<std::size_t>(count.value());
  std::vector<LayerShape> shape(n);

  std::int64_t window_size = 0, chunk_size = 0;
  if (window) {
    auto w = integer_at(*window, window_path, 1, 1LL << 30, "an integer from 1 to 2³⁰");
    if (!w) return w.error();
    window_size = w.value();
  }
  if (chunk) {
    auto c = integer_at(*chunk, chunk_path, 1, 1LL << 30, "an integer from 1 to 2³⁰");
    if (!c) return c.error();
    chunk_size = c.value();
  }
  const auto sliding = [&](std::size_t l) {
    if (window_size == 0)
      return Status(field_error(
          window_path, "is missing: layer " + std::to_string(l) + " is a sliding-window layer"));
    shape[l].window = window_size;
    return Status();
  };

  if (types) {  // an explicit kind per layer
    if (!types->is_array() || types->size() != n)
      return field_error(
          type_path, "must be a list of num_hidden_layers = " + std::to_string(n) + " layer kinds");
    for (std::size_t l = 0; l < n; ++l) {
      const Json& k = (*types)[l];
      const std::string kind = k.is_string() ? k.get<std::string>() : std::string();
      if (kind == "sliding_attention") {
        if (auto s = sliding(l); !s) return s;
      } else if (kind == "chunked_attention") {
        if (chunk_size == 0)
          return field_error(chunk_path, "is missing: layer " + std::to_string(l) +
                                             " is a chunked-attention layer");
        shape[l].chunk = chunk_size;
      } else if (kind != "full_attention") {
        return field_error(
            type_path + "[" + std::to_string(l) + "]",
            "must be sliding_attention, full_attention or chunked_attention, got " + k.dump());
      }
    }
  } else if (pattern || gemma3) {
    long long every = 6;  // Gemma3TextConfig's default
    if (pattern) {
      auto v = integer_at(*pattern, pattern_path, 1, kMaxLayers, "an integer from 1 to 1024");
      if (!v) return v.error();
      every = v.value();
    } else {
      pit.push_back({"sliding_window_pattern", "missing: Gemma3TextConfig's default 6 is used"});
    }
    for (std::size_t l = 0; l < n; ++l)
      if ((l + 1) % static_cast<std::size_t>(every) != 0)
        if (auto s = sliding(l); !s) return s;
  } else if (gemma2) {
    for (std::size_t l = 0; l < n; l += 2)
      if (auto s = sliding(l); !s) return s;
  }

  if (nope) {
    if (!nope->is_array() || nope->size() != n)
      return field_error(nope_path, "must be a list of num_hidden_layers = " + std::to_string(n) +
                                        " flags (1: RoPE, 0: NoPE)");
    for (std::size_t l = 0; l < n; ++l) {
      const Json& f = (*nope)[l];
      if (!f.is_number_integer() || (f.get<long long>() != 0 && f.get<long long>() != 1))
        return field_error(nope_path + "[" + std::to_string(l) + "]",
                           "must be 1 (RoPE) or 0 (NoPE), got " + f.dump());
      shape[l].rope = f.get<long long>() == 1;
    }
  } else if (interval) {
    auto v = integer_at(*interval, interval_path, 1, kMaxLayers, "an integer from 1 to 1024");
    if (!v) return v.error();
    for (std::size_t l = 0; l < n; ++l)
      shape[l].rope = (l + 1) % static_cast<std::size_t>(v.value()) != 0;
  }
  // Llama 4: the RoPE layers attend in chunks, the NoPE ones over everything (Llama4TextConfig's
  // layer_types when the file has none)
  if (!types && chunk_size > 0 && (nope || interval))
    for (LayerShape& l : shape)
      l.chunk = l.rope ? chunk_size : 0;

  // rope_parameters per layer kind (newer transformers): the sliding layers' base and scaling
  std::string sliding_path;
  LayerType sliding_rope;  // base 0: none given
  if (const Json* b = sliding_block(r, sliding_path)) {
    if (auto it = b->find("rope_theta"); it != b->end()) {
      auto v = number_at(*it, sliding_path + ".rope_theta", 1.0 + 1e-12, 1e12,
                         "a base above 1 (up to 10¹²)");
      if (!v) return v.error();
      sliding_rope.base = v.value();
    }
    std::string type = "default";
    if (auto it = b->find("rope_type"); it != b->end() && it->is_string())
      type = it->get<std::string>();
    sliding_rope.own_scaling = true;
    if (type == "default") {
      sliding_rope.scaling_method = "none";
    } else if (type == "linear") {
      sliding_rope.scaling_method = "linear";
      auto it = b->find("factor");
      if (it == b->end()) return field_error(sliding_path + ".factor", "is missing (linear)");
      auto v = number_at(*it, sliding_path + ".factor", 1e-6, 1e6, "a number above 0");
      if (!v) return v.error();
      sliding_rope.scaling.emplace_back("factor", csv(v.value()));
    } else {
      return field_error(
          sliding_path + ".rope_type",
          "RoPE Lab reads default or linear for the sliding layers, got \"" + type + "\"");
    }
  }

  double local_base = 0.0;
  if (gemma3) {
    local_base = 10000.0;
    if (local) {
      auto v = number_at(*local, local_path, 1.0 + 1e-12, 1e12, "a base above 1 (up to 10¹²)");
      if (!v) return v.error();
      local_base = v.value();
    } else if (sliding_rope.base > 0.0) {
      local_base = sliding_rope.base;  // rope_parameters.sliding_attention.rope_theta
    } else {
      pit.push_back({"rope_local_base_freq", "missing: Gemma3TextConfig's default 10000 is used"});
    }
    for (LayerShape& l : shape)
      l.local = l.window > 0;
  } else if (local) {
    pit.push_back({local_path, "read only for Gemma 3 (model_type gemma3_text)"});
  }
  if (!gemma3 && sliding_rope.own_scaling) {  // another model with a sliding layers' block
    local_base = sliding_rope.base;           // 0: the model's own base
    for (LayerShape& l : shape)
      l.local = l.window > 0;
  }

  // The distinct shapes, in order of first appearance, named as the strip's legend says them
  std::vector<LayerShape> kinds;
  ModelLayers& layers = m.layers;
  layers.type_of.resize(n);
  const bool has_nope = std::any_of(shape.begin(), shape.end(), [](auto& l) { return !l.rope; });
  for (std::size_t l = 0; l < n; ++l) {
    auto it = std::find(kinds.begin(), kinds.end(), shape[l]);
    if (it == kinds.end()) {
      const LayerShape& k = shape[l];
      LayerType t;
      t.rope = k.rope;
      t.window = k.window;
      t.chunk = k.chunk;
      t.name = !k.rope        ? "NoPE"
               : k.chunk > 0  ? "chunked"
               : k.window > 0 ? (gemma3 ? "local" : "sliding")
               : gemma3       ? "global"
               : has_nope     ? "RoPE"
                              : "full";
      if (k.local) {
        t.base = local_base;
        t.own_scaling = true;
        t.scaling_method = "none";
        if (sliding_rope.own_scaling) {  // the file's own block for these layers
          t.scaling_method = sliding_rope.scaling_method;
          t.scaling = sliding_rope.scaling;
        }
      }
      kinds.push_back(k);
      layers.types.push_back(std::move(t));
      it = kinds.end() - 1;
    }
    layers.type_of[l] = static_cast<int>(it - kinds.begin());
  }
  if (layers.types.size() == 1 && layers.types.front().window == 0 &&
      layers.types.front().chunk == 0 && layers.types.front().rope) {
    layers = ModelLayers{};  // every layer the same and plain: nothing to choose
    return {};
  }
  layers.source = "num_hidden_layers " + std::to_string(n) + (types ? ", layer_types" : "") +
                  (pattern ? ", sliding_window_pattern" : "") + (nope ? ", no_rope_layers" : "") +
                  (!nope && interval ? ", no_rope_layer_interval" : "") +
                  (window ? ", sliding_window" : "") + (chunk ? ", attention_chunk_size" : "") +
                  (gemma3 ? ", rope_local_base_freq" : "");
  if (std::none_of(shape.begin(), shape.end(), [](auto& l) { return l.window > 0; }) && window)
    pit.push_back({window_path, "no layer slides (use_sliding_window or the layer kinds say so)"});
  return {};
}

}  // namespace

Result<ModelConfig> parse_hf_config(std::string_view text, const std::string& label) {
  // Depth first, with the parser's callback: a deeply nested file is refused as soon as it
  // gets too deep, before the whole of it is built.
  bool too_deep = false;
  const Json::parser_callback_t depth_check = [&](int depth, Json::parse_event_t, Json&) {
    if (depth > kMaxConfigDepth) too_deep = true;
    return !too_deep;
  };
  Json doc;
  try {
    doc = Json::parse(text.begin(), text.end(), depth_check);
  } catch (const Json::exception& e) {
    if (too_deep)
      return field_error(label, "nested deeper than " + std::to_string(kMaxConfigDepth) +
                                    " levels: not a model config");
    return field_error(label, std::string("not JSON: ") + e.what());
  }
  if (too_deep)
    return field_error(label, "nested deeper than " + std::to_string(kMaxConfigDepth) +
                                  " levels: not a model config");
  if (!doc.is_object()) return field_error(label, "must be a JSON object (a model's config.json)");

  ModelConfig out;
  std::vector<ConfigPitfall>& pit = out.pitfalls;
  const Json* text_config = &doc;
  if (auto it = doc.find("text_config"); it != doc.end() && !it->is_null()) {
    if (!it->is_object()) return field_error("text_config", "must be an object");
    text_config = &*it;
    pit.push_back({"text_config",
                   "read in place of the top level (the language model of a "
                   "vision-language config)"});
  }
  const Reader r{doc, text_config};
  ModelPreset& m = out.preset;
  m.id = "config";
  m.tag = "config.json";
  m.source = label;
  std::string path;
  {
    std::string name;
    if (const Json* n = r.find("_name_or_path", path); n && n->is_string())
      name = n->get<std::string>();
    if (name.empty())
      if (const Json* n = r.find("model_type", path); n && n->is_string())
        name = n->get<std::string>();
    m.name = (name.empty() ? std::string("model") : name) + " (from config.json)";
  }

  // [head dimension] transformers: getattr(config, "head_dim", None) or
  // hidden_size // num_attention_heads (modeling_rope_utils, _compute_default_rope_parameters)
  int head_dim = 0;
  if (const Json* rope_dim = r.find("qk_rope_head_dim", path); rope_dim) {
    // DeepSeek-V2/V3 (MLA): the rotary part of each head is qk_rope_head_dim; qk_nope_head_dim
    // more dimensions per head carry no position (configuration_deepseek_v3)
    auto v = integer_at(*rope_dim, path, 2, 4096, "an even integer from 2 to 4096");
    if (!v) return v.error();
    if (v.value() % 2 != 0)
      return field_error(path, "must be even, got " + std::to_string(v.value()));
    head_dim = static_cast<int>(v.value());
    m.rotary_meaning = RotaryMeaning::decoupled;
    if (const Json* nope = r.find("qk_nope_head_dim", path); nope) {
      auto n = integer_at(*nope, path, 0, 1 << 16, "an integer from 0 to 65536");
      if (!n) return n.error();
      m.nope_dims = static_cast<int>(n.value());
    }
  } else if (const Json* hd = r.find("head_dim", path); hd) {
    auto v = integer_at(*hd, path, 2, 4096, "an even integer from 2 to 4096");
    if (!v) return v.error();
    head_dim = static_cast<int>(v.value());
  } else {
    std::string hp, np;
    const Json* hidden = r.find("hidden_size", hp);
    const Json* heads = r.find("num_attention_heads", np);
    if (!hidden || !heads)
      return field_error(
          "head_dim", "missing, and so is " +
                          std::string(!hidden ? "hidden_size" : "num_attention_heads") +
                          ": the head dimension is head_dim, or hidden_size / num_attention_heads");
    auto h = integer_at(*hidden, hp, 1, 1LL << 24, "a positive integer");
    if (!h) return h.error();
    auto n = integer_at(*heads, np, 1, 1LL << 16, "a positive integer");
    if (!n) return n.error();
    if (h.value() % n.value() != 0)
      return field_error(hp, std::to_string(h.value()) +
                                 " is not a multiple of num_attention_heads " +
                                 std::to_string(n.value()) + ": give head_dim");
    head_dim = static_cast<int>(h.value() / n.value());
  }
  if (head_dim % 2 != 0 || head_dim < 2 || head_dim > 4096)
    return field_error("head_dim",
                       "the head dimension must be an even integer from 2 to 4096, got " +
                           std::to_string(head_dim));
  m.head_dim = head_dim;
  m.rotary_dims = head_dim;

  // [partial rotation] transformers: dim = int(head_dim * partial_rotary_factor); GPT-NeoX's
  // config calls it rotary_pct
  for (const char* key : {"partial_rotary_factor", "rotary_pct"}) {
    const Json* p = r.find(key, path);
    if (!p) continue;
    auto v = number_at(*p, path, 0.0, 1.0, "a fraction above 0 and at most 1");
    if (!v) return v.error();
    if (v.value() <= 0.0) return field_error(path, "must be above 0, got 0");
    if (v.value() < 1.0) {
      if (m.rotary_meaning == RotaryMeaning::decoupled)
        return field_error(path, "cannot be combined with qk_rope_head_dim");
      m.rotary_meaning = RotaryMeaning::neox;
      m.rotary_fraction = v.value();
      m.rotary_dims = static_cast<int>(static_cast<double>(head_dim) * v.value());
      if (m.rotary_dims < 2)
        return field_error(path, "leaves " + std::to_string(m.rotary_dims) +
                                     " rotating dimensions of head_dim " +
                                     std::to_string(head_dim) + ": at least 2 are needed");
    }
    break;
  }

  // [base]
  std::string scaling_path;
  const Json* scaling = scaling_block(r, scaling_path);
  if (scaling && !scaling->is_object())
    return field_error(scaling_path, "must be an object (the RoPE scaling settings) or null");
  m.base = 10000.0;
  if (const Json* theta = r.find("rope_theta", path); theta) {
    auto v = number_at(*theta, path, 1.0 + 1e-12, 1e12, "a base above 1 (up to 10¹²)");
    if (!v) return v.error();
    m.base = v.value();
  } else if (scaling && scaling->contains("rope_theta")) {
    path = scaling_path + ".rope_theta";
    auto v =
        number_at((*scaling)["rope_theta"], path, 1.0 + 1e-12, 1e12, "a base above 1 (up to 10¹²)");
    if (!v) return v.error();
    m.base = v.value();
  } else {
    pit.push_back({"rope_theta", "missing: transformers' default 10000 is used"});
  }

  // [contexts]
  long long max_positions = 0;
  if (const Json* mp = r.find("max_position_embeddings", path); mp) {
    auto v = integer_at(*mp, path, 1, 1LL << 30, "an integer from 1 to 2³⁰");
    if (!v) return v.error();
    max_positions = v.value();
  }
  long long original = 0;
  std::string original_path;
  if (scaling && scaling->contains("original_max_position_embeddings") &&
      !(*scaling)["original_max_position_embeddings"].is_null()) {
    original_path = scaling_path + ".original_max_position_embeddings";
    auto v = integer_at((*scaling)["original_max_position_embeddings"], original_path, 1, 1LL << 30,
                        "an integer from 1 to 2³⁰");
    if (!v) return v.error();
    original = v.value();
  } else if (const Json* o = r.find("original_max_position_embeddings", path); o) {
    original_path = path;  // Phi-3 keeps it at the top level
    auto v = integer_at(*o, path, 1, 1LL << 30, "an integer from 1 to 2³⁰");
    if (!v) return v.error();
    original = v.value();
  }

  // [scaling] by rope_type, or its old name type (transformers reads rope_type first)
  std::string type = "default";
  std::string type_path;
  if (scaling) {
    const Json& s = *scaling;
    for (const char* key : {"rope_type", "type"}) {
      if (!s.contains(key) || s[key].is_null()) continue;
      type_path = scaling_path + "." + key;
      if (!s[key].is_string()) return field_error(type_path, "must be a string");
      type = s[key].get<std::string>();
      break;
    }
    for (const auto& [key, _] : s.items())
      if (!kRopeScalingKeys.count(key))
        pit.push_back({scaling_path + "." + key, "not used by RoPE Lab"});
  }
  if (type == "su") {
    pit.push_back({type_path, "\"su\" is LongRoPE's old name; transformers reads it as longrope"});
    type = "longrope";
  }
  if (type == "mrope") {
    pit.push_back({type_path,
                   "multimodal RoPE: text tokens (t = h = w) turn as in plain RoPE, the views' "
                   "picture; the multimodal view uses mrope_section"});
    type = "default";
  }
  // M-RoPE (rope/mrope.h): the section, chunked (Qwen2-VL's apply_multimodal_rotary_pos_emb) or
  // interleaved (Qwen3-VL's apply_interleaved_mrope, mrope_interleaved true), and the id rule of
  // the model's get_rope_index, by model_type
  if (scaling && scaling->contains("mrope_section")) {
    const Json& sec = (*scaling)["mrope_section"];
    if (!sec.is_array() || sec.size() != 3)
      return field_error(scaling_path + ".mrope_section", "must be a list of 3 whole numbers");
    std::string section_text;
    for (const Json& x : sec) {
      if (!x.is_number_integer() || x.get<long long>() < 0 || x.get<long long>() > 2048)
        return field_error(scaling_path + ".mrope_section",
                           "must be a list of 3 whole numbers from 0 to 2048");
      section_text += (section_text.empty() ? "" : ",") + std::to_string(x.get<long long>());
    }
    const bool interleaved = scaling->contains("mrope_interleaved") &&
                             (*scaling)["mrope_interleaved"].is_boolean() &&
                             (*scaling)["mrope_interleaved"].get<bool>();
    std::string model_type;
    if (const Json* t = r.find("model_type", path); t && t->is_string())
      model_type = t->get<std::string>();
    const std::string rule = model_type.starts_with("qwen3_vl")     ? "qwen3"
                             : model_type.starts_with("qwen2_5_vl") ? "qwen25"
                                                                    : "qwen2";
    m.mrope = {{"mm_section", section_text},
               {"mm_layout", interleaved ? "interleaved" : "chunked"},
               {"mm_rule", rule}};
    if (!model_type.starts_with("qwen"))
      pit.push_back({"model_type",
                     "not a Qwen-VL model: the multimodal view gives ids by "
                     "Qwen2-VL's rule"});
  }
  const auto get = [&](const char* key) -> const Json* {
    if (!scaling) return nullptr;
    auto it = scaling->find(key);
    return it == scaling->end() || it->is_null() ? nullptr : &*it;
  };
  const auto real = [&](const char* key, double lo, double hi, const std::string& what,
                        const char* param) -> Status {
    const Json* v = get(key);
    if (!v) return {};
    auto x = number_at(*v, scaling_path + "." + key, lo, hi, what);
    if (!x) return x.error();
    m.scaling.emplace_back(param, csv(x.value()));
    return {};
  };
  const auto factor = [&]() -> Result<double> {
    const Json* v = get("factor");
    const std::string fp = scaling_path + ".factor";
    if (!v) return field_error(fp, "missing: " + type + " needs a scaling factor s");
    return number_at(*v, fp, 1e-6, 1e6, "a factor from 10⁻⁶ to 10⁶");
  };
  // L for the methods that use it: original_max_position_embeddings, else what transformers
  // falls back on (max_position_embeddings), said as a pitfall
  const auto original_context = [&](bool required) -> Result<long long> {
    if (original > 0) return original;
    if (max_positions > 0) {
      pit.push_back({scaling_path + ".original_max_position_embeddings",
                     "missing: transformers then takes max_position_embeddings = " +
                         std::to_string(max_positions) + " as the original context L"});
      return max_positions;
    }
    if (required)
      return field_error(
          scaling_path + ".original_max_position_embeddings",
          "missing, and so is max_position_embeddings: " + type + " needs the original context L");
    return 4096LL;
  };

  m.context = max_positions > 0 ? max_positions : 4096;
  if (max_positions == 0)
    pit.push_back({"max_position_embeddings", "missing: the context L is left at 4096"});
  if (type == "default") {
    m.scaling_method = "none";
    if (scaling && scaling->contains("factor"))
      pit.push_back({scaling_path + ".factor", "ignored: rope_type default applies no scaling"});
  } else if (type == "linear" || type == "dynamic") {
    auto f = factor();
    if (!f) return f.error();
    m.scaling_method = type;
    m.scaling.emplace_back("factor", csv(f.value()));
    if (type == "dynamic") {
      // transformers' dynamic NTK reads max_position_embeddings as the trained context
      m.scaling.emplace_back("original_context", std::to_string(m.context));
    }
  } else if (type == "yarn" || type == "longrope" || type == "llama3") {
    auto L = original_context(true);
    if (!L) return L.error();
    m.extended_context = max_positions > L.value() ? max_positions : 0;
    m.context = L.value();
    m.scaling_method = type;
    if (type == "longrope") {
      // LongRoPE's factor, when absent, is max_position_embeddings / original (transformers'
      // _compute_longrope_parameters); it only sets the attention factor
      if (get("factor")) {
        auto f = factor();
        if (!f) return f.error();
        m.scaling.emplace_back("factor", csv(f.value()));
      } else if (max_positions > 0) {
        m.scaling.emplace_back(
            "factor", csv(static_cast<double>(max_positions) / static_cast<double>(L.value())));
      }
      const std::size_t pairs = static_cast<std::size_t>(m.rotary_dims / 2);
      for (const char* key : {"short_factor", "long_factor"}) {
        const Json* v = get(key);
        const std::string fp = scaling_path + "." + key;
        if (!v) return field_error(fp, "missing: longrope needs both factor lists");
        if (!v->is_array()) return field_error(fp, "must be a list of numbers");
        if (v->size() != pairs)
          return field_error(fp, std::to_string(pairs) + " numbers expected (rotary dims " +
                                     std::to_string(m.rotary_dims) + " / 2), got " +
                                     std::to_string(v->size()));
        std::string list;
        for (std::size_t i = 0; i < v->size(); ++i) {
          auto x = number_at((*v)[i], fp + "[" + std::to_string(i) + "]", 1e-6, 1e6,
                             "a divisor from 10⁻⁶ to 10⁶");
          if (!x) return x.error();
          list += (i ? "," : "") + csv(x.value());
        }
        m.scaling.emplace_back(key, list);
      }
      if (auto s = real("attention_factor", 0.0, 100.0, "from 0 to 100", "attention_factor"); !s)
        return s.error();
    } else {
      auto f = factor();
      if (!f) return f.error();
      m.scaling.emplace_back("factor", csv(f.value()));
    }
    m.scaling.emplace_back("original_context", std::to_string(L.value()));
    if (type == "yarn") {
      for (const auto& [key, param] : {std::pair{"beta_fast", "beta_fast"},
                                       {"beta_slow", "beta_slow"},
                                       {"mscale", "mscale"},
                                       {"mscale_all_dim", "mscale_all_dim"},
                                       {"attention_factor", "attention_factor"}})
        if (auto s = real(key, 0.0, 1e5, "a number from 0 to 10⁵", param); !s) return s.error();
      if (const Json* t = get("truncate"); t) {
        if (!t->is_boolean())
          return field_error(scaling_path + ".truncate", "must be true or false");
        m.scaling.emplace_back("truncate", t->get<bool>() ? "true" : "false");
        pit.push_back({scaling_path + ".truncate",
                       t->get<bool>()
                           ? "true: the ramp ends are rounded to whole pairs (the default)"
                           : "false: the ramp ends stay fractional (gpt-oss); older "
                             "transformers always rounded"});
      }
      if (get("attention_factor"))
        pit.push_back({scaling_path + ".attention_factor",
                       "overrides the attention factor YaRN would compute (0.1·ln s + 1, or "
                       "DeepSeek's mscale ratio)"});
    }
    if (type == "llama3")
      for (const char* key : {"low_freq_factor", "high_freq_factor"})
        if (auto s = real(key, 1e-6, 1e6, "a number above 0", key); !s) return s.error();
  } else {
    return field_error(type_path.empty() ? scaling_path : type_path,
                       "unknown rope_type \"" + type +
                           "\": RoPE Lab reads default, linear, dynamic, yarn, longrope (su), "
                           "llama3 and mrope");
  }
  if (original > 0 && (type == "default" || type == "linear" || type == "dynamic"))
    pit.push_back({original_path, "not used by " + type + " scaling"});

  // [per layer] the layer strip (ModelLayers)
  if (auto s = read_layers(r, m, pit); !s) return s.error();

  m.pairing_transformers = "half";  // transformers' rotate_half: pairs (i, i + d/2)
  // The values through the parameter table, as a preset's: a config whose values the app
  // cannot take is refused with the table's reason
  Params trial;
  if (auto s = apply_model(trial, m); !s)
    return field_error(s.error().parameter, s.error().message + " (from " + label + ")");
  return out;
}

bool looks_like_model_config(std::string_view text) {
  bool too_deep = false;  // as in parse_hf_config: a deep file is not read to its end
  const Json::parser_callback_t depth_check = [&](int depth, Json::parse_event_t, Json&) {
    if (depth > kMaxConfigDepth) too_deep = true;
    return !too_deep;
  };
  const Json doc = Json::parse(text.begin(), text.end(), depth_check, false);
  if (too_deep) return false;
  if (!doc.is_object() || doc.contains("format")) return false;
  for (const char* key :
       {"model_type", "hidden_size", "head_dim", "rope_theta", "rope_scaling", "text_config"})
    if (doc.contains(key)) return true;
  return false;
}

Result<ModelConfig> load_hf_config(const std::filesystem::path& path) {
  auto text = read_regular_file(path, kMaxConfigBytes);
  if (!text) return text.error();
  return parse_hf_config(text.value(), path.filename().string());
}

}  // namespace rope::app
