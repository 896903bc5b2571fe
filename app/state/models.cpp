// state/models.cpp — the model presets of assets/models.json (models.h; where the values come
// from: docs/model-presets.md): load and check the file, apply a preset through the parameter
// table, say what the lecturer changed since.
//
// [SECTION] the file's format, and the parameters a preset controls
// [SECTION] reading one entry: fields, ranges, then the values through the parameter table
// [SECTION] the library: parse, load (assets/models.json or ROPE_LAB_MODELS), find
// [SECTION] applying a preset, and what changed since
#include "state/models.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "io/data_paths.h"
#include "io/number_format.h"
#include "io/read_file.h"
#include "state/app_state.h"
#include "state/params.h"

namespace rope::app {
namespace {

// [SECTION] the file's format, and the parameters a preset controls

constexpr const char* kFormat = "rope-lab-models";
constexpr int kVersion = 1;
constexpr std::uintmax_t kMaxModelsBytes = 1 << 20;  // the file is a few kB; refuse junk
constexpr std::size_t kMaxPresets = 200;

// The parameters a preset sets, in table order: what changed_since_model compares.
constexpr std::array kControlled{"dim",
                                 "base",
                                 "pairing",
                                 "context_length",
                                 "scaling",
                                 "factor",
                                 "original_context",
                                 "beta_fast",
                                 "beta_slow",
                                 "truncate",
                                 "low_freq_factor",
                                 "high_freq_factor",
                                 "sequence_length",
                                 "attention_factor",
                                 "mscale",
                                 "mscale_all_dim",
                                 "rotary_fraction",
                                 "rotary_style",
                                 "long_factor",
                                 "short_factor",
                                 "attention_window",
                                 "attention_chunk"};

constexpr std::array<std::pair<const char*, RotaryMeaning>, 4> kMeanings{{
    {"full", RotaryMeaning::full},
    {"neox", RotaryMeaning::neox},
    {"proportional", RotaryMeaning::proportional},
    {"decoupled", RotaryMeaning::decoupled},
}};

using Json = nlohmann::json;

// [SECTION] reading one entry: fields, ranges, then the values through the parameter table

// A JSON value as the text set_param reads: numbers in the app's CSV style, true/false, strings
// as they are, lists of numbers comma-separated (LongRoPE factors).
Result<std::string> value_text(const Json& v, const std::string& key) {
  if (v.is_boolean()) return std::string(v.get<bool>() ? "true" : "false");
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return format_number(v.get<double>(), NumberStyle::csv);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string s;
    for (const Json& x : v) {
      if (!x.is_number()) return Error{key, "must be a list of numbers"};
      if (!s.empty()) s += ',';
      append_number(s, x.get<double>(), NumberStyle::csv);
    }
    return s;
  }
  return Error{key, "must be a number, a string, true/false or a list of numbers"};
}

Result<std::string> text_field(const Json& e, const char* key, bool required) {
  const auto it = e.find(key);
  if (it == e.end() || it->is_null()) {
    if (required) return Error{key, "is missing (a string)"};
    return std::string();
  }
  if (!it->is_string()) return Error{key, "must be a string"};
  return it->get<std::string>();
}

Result<long long> integer_field(const Json& e, const char* key, bool required, long long lo,
                                long long hi) {
  const auto it = e.find(key);
  if (it == e.end() || it->is_null()) {
    if (required) return Error{key, "is missing (an integer)"};
    return 0LL;
  }
  if (!it->is_number_integer())
    return Error{key,
                 "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi)};
  const auto v = it->get<long long>();
  if (v < lo || v > hi)
    return Error{key, "must be an integer from " + std::to_string(lo) + " to " +
                          std::to_string(hi) + ", got " + std::to_string(v)};
  return v;
}

bool valid_id(const std::string& id) {
  if (id.empty() || id.size() > 40) return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) return false;
  return true;
}

// A "scaling" object: its method and its parameters under their flag names. `where` prefixes
// the field paths in messages ("scaling", "layers.types.global.scaling").
Status parse_scaling(const Json& scaling, const std::string& where, std::string& method,
                     std::vector<std::pair<std::string, std::string>>& out) {
  for (const auto& [key, value] : scaling.items()) {
    if (key == "method") {
      if (!value.is_string()) return Error{where + ".method", "must be a string"};
      method = value.get<std::string>();
      continue;
    }
    bool allowed = false;
    for (const char* name : kExtensionParamNames) {
      const std::string_view n = name;
      allowed = allowed || (key == n && n != "extension_mode" && n != "compare_methods" &&
                            !n.ends_with("_file") && n != "rotary_fraction" && n != "rotary_style");
    }
    if (!allowed)
      return Error{where + "." + key, "is not a scaling parameter (rope-lab --help lists them)"};
    auto t = value_text(value, where + "." + key);
    if (!t) return t.error();
    out.emplace_back(key, std::move(t).value());
  }
  if (method.empty()) return Error{where + ".method", "is missing"};
  return {};
}

// The "layers" block (assets/MODELS.md): a count, a pattern of type names repeated over the
// layers (as transformers builds layer_types from sliding_window_pattern), and each type's values.
Result<ModelLayers> parse_layers(const Json& block) {
  if (!block.is_object()) return Error{"layers", "must be an object with count, pattern and types"};
  for (const auto& [key, _] : block.items())
    if (key != "count" && key != "pattern" && key != "types" && key != "source")
      return Error{"layers." + key, "is not a field of layers (count, pattern, types, source)"};
  auto count = integer_field(block, "count", true, 1, kMaxLayers);
  if (!count) return Error{"layers.count", count.error().message};
  const auto pattern = block.find("pattern");
  if (pattern == block.end() || !pattern->is_array() || pattern->empty() ||
      pattern->size() > static_cast<std::size_t>(count.value()))
    return Error{"layers.pattern", "must be a list of 1 to count type names"};
  const auto types = block.find("types");
  if (types == block.end() || !types->is_object() || types->empty())
    return Error{"layers.types", "must be an object: type name -> its values"};
  ModelLayers out;
  if (auto src = text_field(block, "source", false); !src) {
    return Error{"layers.source", src.error().message};
  } else {
    out.source = src.value();
  }
  std::vector<int> period;
  for (const Json& name : *pattern) {
    if (!name.is_string() || !types->contains(name.get<std::string>()))
      return Error{"layers.pattern", "must name types of layers.types, got " + name.dump()};
    const std::string n = name.get<std::string>();
    int index = -1;
    for (std::size_t t = 0; t < out.types.size(); ++t)
      if (out.types[t].name == n) index = static_cast<int>(t);
    if (index < 0) {  // a new type, in the order of first appearance: the legend's order
      const Json& v = (*types)[n];
      const std::string where = "layers.types." + n;
      if (!v.is_object()) return Error{where, "must be an object"};
      LayerType type;
      type.name = n;
      for (const auto& [key, value] : v.items()) {
        if (key == "rope") {
          if (!value.is_boolean()) return Error{where + ".rope", "must be true or false"};
          type.rope = value.get<bool>();
        } else if (key == "base") {
          if (!value.is_number() || !(value.get<double>() > 1.0))
            return Error{where + ".base", "must be a number greater than 1"};
          type.base = value.get<double>();
        } else if (key == "scaling") {
          if (!value.is_object()) return Error{where + ".scaling", "must be an object"};
          type.own_scaling = true;
          if (auto s = parse_scaling(value, where + ".scaling", type.scaling_method, type.scaling);
              !s)
            return s.error();
        } else if (key == "window" || key == "chunk") {
          auto w = integer_field(v, key.c_str(), true, 1, kMaxContext);
          if (!w) return Error{where + "." + key, w.error().message};
          (key == "window" ? type.window : type.chunk) = w.value();
        } else {
          return Error{where + "." + key,
                       "is not a field of a layer type (rope, base, scaling, window, chunk)"};
        }
      }
      index = static_cast<int>(out.types.size());
      out.types.push_back(std::move(type));
    }
    period.push_back(index);
  }
  if (out.types.size() != types->size())
    return Error{"layers.types", "has types the pattern never uses"};
  out.type_of.resize(static_cast<std::size_t>(count.value()));
  for (std::size_t l = 0; l < out.type_of.size(); ++l)
    out.type_of[l] = period[l % period.size()];
  return out;
}

// One entry of "models", checked field by field and then by applying it to default Params.
Result<ModelPreset> parse_entry(const Json& e) {
  if (!e.is_object()) return Error{"entry", "must be a JSON object"};
  static constexpr std::array kKeys{"id",
                                    "name",
                                    "tag",
                                    "tag_note",
                                    "source",
                                    "lacks",
                                    "notes",
                                    "head_dim",
                                    "rotary_dims",
                                    "rotary_meaning",
                                    "rotary_fraction",
                                    "nope_dims",
                                    "base",
                                    "context",
                                    "extended_context",
                                    "scaling",
                                    "pairing",
                                    "layers",
                                    "mrope"};
  for (const auto& [key, _] : e.items()) {
    bool known = false;
    for (const char* k : kKeys)
      known = known || key == k;
    if (!known) return Error{key, "is not a field of a preset (assets/MODELS.md lists them)"};
  }
  ModelPreset m;
  const auto text = [&](const char* key, std::string& out, bool required) -> Status {
    auto v = text_field(e, key, required);
    if (!v) return v.error();
    out = std::move(v).value();
    return {};
  };
  for (auto [key, field, required] :
       {std::tuple{"id", &m.id, true}, std::tuple{"name", &m.name, true},
        std::tuple{"tag", &m.tag, true}, std::tuple{"tag_note", &m.tag_note, false},
        std::tuple{"source", &m.source, true}, std::tuple{"lacks", &m.lacks, false},
        std::tuple{"notes", &m.notes, false}})
    if (auto s = text(key, *field, required); !s) return s.error();
  if (!valid_id(m.id))
    return Error{"id", "must be 1 to 40 characters of a-z, 0-9, '-' and '.', got '" + m.id + "'"};
  if (m.tag != "V" && m.tag != "C" && m.tag != "U")
    return Error{"tag", "must be V (verified), C (consistent copies) or U (unverified), got '" +
                            m.tag + "'"};
  if (m.source.empty()) return Error{"source", "must name where the values were read"};

  auto head = integer_field(e, "head_dim", true, 2, kMaxDim);
  if (!head) return head.error();
  m.head_dim = static_cast<int>(head.value());
  auto rotary = integer_field(e, "rotary_dims", true, 2, kMaxDim);
  if (!rotary) return rotary.error();
  m.rotary_dims = static_cast<int>(rotary.value());
  auto nope = integer_field(e, "nope_dims", false, 0, kMaxDim);
  if (!nope) return nope.error();
  m.nope_dims = static_cast<int>(nope.value());

  std::string meaning;
  if (auto s = text("rotary_meaning", meaning, true); !s) return s.error();
  bool found = false;
  for (const auto& [n, v] : kMeanings)
    if (meaning == n) {
      m.rotary_meaning = v;
      found = true;
    }
  if (!found)
    return Error{"rotary_meaning",
                 "must be one of full, neox, proportional or decoupled, got '" + meaning + "'"};
  const bool partial =
      m.rotary_meaning == RotaryMeaning::neox || m.rotary_meaning == RotaryMeaning::proportional;
  if (const auto it = e.find("rotary_fraction"); it != e.end()) {
    if (!it->is_number()) return Error{"rotary_fraction", "must be a number from 0 to 1"};
    m.rotary_fraction = it->get<double>();
  } else if (partial) {
    return Error{"rotary_fraction", "is missing (the published fraction, e.g. 0.25)"};
  }
  // The dims must be what the fraction gives, in the model's own meaning.
  const auto p_dims = [&] {
    const double product = static_cast<double>(m.head_dim) * m.rotary_fraction;
    const auto whole = static_cast<int>(product);  // Python's int() of the same double
    return m.rotary_meaning == RotaryMeaning::neox ? whole : 2 * (whole / 2);
  };
  if (partial && p_dims() != m.rotary_dims)
    return Error{"rotary_dims", "must be " + std::to_string(p_dims()) + " (head_dim " +
                                    std::to_string(m.head_dim) + " times rotary_fraction " +
                                    format_number(m.rotary_fraction, NumberStyle::csv) + "), got " +
                                    std::to_string(m.rotary_dims)};
  if (!partial && m.rotary_dims != m.head_dim)
    return Error{"rotary_dims", "must equal head_dim (" + std::to_string(m.head_dim) +
                                    ") when rotary_meaning is " + meaning};
  if ((m.rotary_meaning == RotaryMeaning::decoupled) != (m.nope_dims > 0))
    return Error{"nope_dims", "must be given (> 0) exactly when rotary_meaning is decoupled"};

  const auto base = e.find("base");
  if (base == e.end() || !base->is_number()) return Error{"base", "is missing (a number > 1)"};
  m.base = base->get<double>();
  auto context = integer_field(e, "context", true, 1, kMaxContext);
  if (!context) return context.error();
  m.context = context.value();
  auto extended = integer_field(e, "extended_context", false, 0, kMaxContext);
  if (!extended) return extended.error();
  m.extended_context = extended.value();

  const auto scaling = e.find("scaling");
  if (scaling == e.end() || !scaling->is_object())
    return Error{"scaling", "is missing (an object with \"method\" and its parameters)"};
  if (auto s = parse_scaling(*scaling, "scaling", m.scaling_method, m.scaling); !s)
    return s.error();

  const auto pairing = e.find("pairing");
  if (pairing == e.end() || !pairing->is_object())
    return Error{"pairing", "is missing (an object: reference, transformers)"};
  if (auto s = text_field(*pairing, "reference", false); !s) {
    return Error{"pairing.reference", s.error().message};
  } else {
    m.pairing_reference = s.value();
  }
  if (auto s = text_field(*pairing, "transformers", true); !s) {
    return Error{"pairing.transformers", s.error().message};
  } else {
    m.pairing_transformers = s.value();
  }
  for (const std::string* pr : {&m.pairing_reference, &m.pairing_transformers})
    if (!pr->empty() && *pr != "interleaved" && *pr != "half")
      return Error{"pairing", "must be interleaved or half, got '" + *pr + "'"};

  if (const auto it = e.find("mrope"); it != e.end()) {
    // {"section": [t, h, w], "layout": ..., "rule": ..., "tokens_per_second": N}: through the
    // parameter table below, like every other value
    if (!it->is_object()) return Error{"mrope", "must be an object: section, layout, rule"};
    for (const auto& [key, value] : it->items()) {
      std::string value_text;
      if (key == "section" && value.is_array() && value.size() == 3) {
        for (const Json& x : value) {
          if (!x.is_number_integer()) return Error{"mrope.section", "must be 3 whole numbers"};
          value_text += (value_text.empty() ? "" : ",") + std::to_string(x.get<long long>());
        }
      } else if ((key == "layout" || key == "rule") && value.is_string()) {
        value_text = value.get<std::string>();
      } else if (key == "tokens_per_second" && value.is_number_integer()) {
        value_text = std::to_string(value.get<long long>());
      } else {
        return Error{"mrope." + key,
                     "must be section [t, h, w], layout, rule or "
                     "tokens_per_second (assets/MODELS.md)"};
      }
      m.mrope.emplace_back("mm_" + key, value_text);
    }
  }
  if (const auto it = e.find("layers"); it != e.end()) {
    auto layers = parse_layers(*it);
    if (!layers) return layers.error();
    m.layers = std::move(layers).value();
  }

  // Every value through the parameter table: the rules typed values meet, for every layer type.
  Params trial;
  if (auto s = apply_model(trial, m); !s) return s.error();
  if (auto s = validate_params(trial); !s) return s.error();
  for (std::size_t t = 0; t < m.layers.types.size(); ++t) {
    int layer = 0;
    while (m.layers.type_of[static_cast<std::size_t>(layer)] != static_cast<int>(t))
      ++layer;
    Params per_layer;
    auto s = apply_model(per_layer, m, layer);
    if (s) s = validate_params(per_layer);
    if (!s) return Error{"layers.types." + m.layers.types[t].name, s.error().to_string()};
  }
  return m;
}

}  // namespace

// [SECTION] the library: parse, load (assets/models.json or ROPE_LAB_MODELS), find

const char* rotary_meaning_name(RotaryMeaning m) {
  for (const auto& [n, v] : kMeanings)
    if (v == m) return n;
  return "?";
}

std::vector<std::pair<std::string, std::string>> ModelPreset::params(int layer) const {
  std::vector<std::pair<std::string, std::string>> out;
  const LayerType* type = layers.type(layer);
  const int d = rotary_meaning == RotaryMeaning::decoupled ? rotary_dims : head_dim;
  out.emplace_back("dim", std::to_string(d));
  out.emplace_back("base",
                   format_number(type && type->base > 0.0 ? type->base : base, NumberStyle::csv));
  out.emplace_back("pairing", pairing_reference.empty() ? pairing_transformers : pairing_reference);
  out.emplace_back("context_length", std::to_string(context));
  const bool nope = type && !type->rope;
  const bool own = type && type->own_scaling;
  // A NoPE layer: p-RoPE with p = 0 (Barbero et al.'s own NoPE baseline), no pair rotates.
  out.emplace_back("scaling", nope  ? std::string("proportional")
                              : own ? type->scaling_method
                                    : scaling_method);
  bool has_context = false;
  if (!nope)
    for (const auto& kv : own ? type->scaling : scaling) {
      out.push_back(kv);
      has_context = has_context || kv.first == "original_context";
    }
  if (!has_context) out.emplace_back("original_context", std::to_string(context));
  const bool partial =
      rotary_meaning == RotaryMeaning::neox || rotary_meaning == RotaryMeaning::proportional;
  out.emplace_back("rotary_fraction", nope      ? std::string("0")
                                      : partial ? format_number(rotary_fraction, NumberStyle::csv)
                                                : std::string("1"));
  out.emplace_back("rotary_style",
                   rotary_meaning == RotaryMeaning::proportional ? "proportional" : "neox");
  for (const auto& kv : mrope)  // after dim: the section is judged against d/2 where it is used
    out.push_back(kv);
  out.emplace_back("attention_window", std::to_string(type ? type->window : 0));
  out.emplace_back("attention_chunk", std::to_string(type ? type->chunk : 0));
  return out;
}

const LayerType* ModelLayers::type(int layer) const {
  if (layer < 0 || layer >= count()) return nullptr;
  return &types[static_cast<std::size_t>(type_of[static_cast<std::size_t>(layer)])];
}

int ModelLayers::count_of(int type_index) const {
  return static_cast<int>(std::count(type_of.begin(), type_of.end(), type_index));
}

std::string ModelLayers::pattern() const {
  const std::size_t n = type_of.size();
  std::size_t period = n;
  for (std::size_t p = 1; p < n && period == n; ++p) {
    bool repeats = true;
    for (std::size_t l = p; l < n && repeats; ++l)
      repeats = type_of[l] == type_of[l - p];
    if (repeats) period = p;
  }
  std::string out;
  if (period < n) {  // runs within one period: "5 local : 1 global", "1 sliding : 1 full"
    for (std::size_t l = 0; l < period;) {
      std::size_t run = 1;
      while (l + run < period && type_of[l + run] == type_of[l])
        ++run;
      out += (out.empty() ? "" : " : ") + std::to_string(run) + " " +
             types[static_cast<std::size_t>(type_of[l])].name;
      l += run;
    }
    return out + ", repeated";
  }
  for (std::size_t t = 0; t < types.size(); ++t)
    out += (t ? ", " : "") + std::to_string(count_of(static_cast<int>(t))) + " " + types[t].name;
  return out;
}

const ModelPreset* ModelLibrary::find(std::string_view id) const {
  for (const ModelPreset& m : presets)
    if (m.id == id) return &m;
  return nullptr;
}

std::string ModelLibrary::ids() const {
  std::string s;
  for (const ModelPreset& m : presets)
    s += (s.empty() ? "" : ", ") + m.id;
  return s;
}

ModelLibrary parse_models(std::string_view text, const std::string& label) {
  ModelLibrary lib;
  lib.path = label;
  const auto fail = [&](std::string message) {
    lib.presets.clear();
    lib.problem = label + ": " + std::move(message);
    return lib;
  };
  const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return fail("is not valid JSON (truncated or damaged?)");
  if (!doc.is_object()) return fail("must be a JSON object");
  const auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || format->get<std::string>() != kFormat)
    return fail(std::string("is not a RoPE Lab models file (\"format\" must be \"") + kFormat +
                "\")");
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() ||
      version->get<long long>() != kVersion)
    return fail("must have \"version\": 1");
  const auto models = doc.find("models");
  if (models == doc.end() || !models->is_array() || models->empty())
    return fail("has no \"models\" list");
  if (models->size() > kMaxPresets) return fail("has more than 200 models");
  for (std::size_t i = 0; i < models->size(); ++i) {
    const Json& e = (*models)[i];
    const std::string where = "entry " + std::to_string(i + 1) +
                              (e.is_object() && e.contains("id") && e["id"].is_string()
                                   ? " (\"" + e["id"].get<std::string>() + "\")"
                                   : std::string());
    auto m = parse_entry(e);
    if (!m) return fail(where + ": " + m.error().to_string());
    if (lib.find(m.value().id)) return fail(where + ": id is used twice");
    lib.presets.push_back(std::move(m).value());
  }
  return lib;
}

ModelLibrary load_models(const std::filesystem::path& path) {
  const std::string label = path.string();
  ModelLibrary lib;
  lib.path = label;
  auto text = read_regular_file(path, kMaxModelsBytes);
  if (!text) {
    lib.problem = text.error().to_string();
    return lib;
  }
  return parse_models(text.value(), label);
}

const ModelLibrary& model_library() {
  static const ModelLibrary library = [] {
    const DataDir file = find_models_file();
    if (!file.found()) {
      ModelLibrary lib;
      lib.problem = "no model presets: models.json not found (tried " + file.tried_text() + ")";
      return lib;
    }
    return load_models(file.path);
  }();
  return library;
}

// [SECTION] applying a preset, and what changed since

Status apply_model(Params& params, const ModelPreset& preset, int layer) {
  Params trial = params;
  trial.extension.scaling = ScalingParams{};
  trial.extension.rotary_style = RotaryStyle::neox;
  for (const auto& [name, value] : preset.params(layer))
    if (auto s = set_param(trial, name, value); !s) return s;
  trial.model = preset.id;
  trial.layer = preset.layers.type(layer) ? layer : -1;
  params = std::move(trial);
  return {};
}

const ModelPreset* active_preset(const Params& params) {
  if (!params.config.empty()) return params.config_preset.preset.get();
  if (!params.model.empty()) return model_library().find(params.model);
  return nullptr;
}

std::vector<std::string> changed_since_model(const Params& params) {
  std::vector<std::string> changed;
  const ModelPreset* preset = active_preset(params);
  if (!preset) return changed;
  Params reference = params;
  if (!apply_model(reference, *preset, params.layer)) return changed;
  for (const char* name : kControlled) {
    const ParamSpec* spec = find_param(name);
    if (spec && spec->get(reference) != spec->get(params)) changed.emplace_back(name);
  }
  return changed;
}

std::string layer_type_words(const ModelPreset& preset, const LayerType& type) {
  if (!type.rope) return "no rotation";
  std::string out =
      "base " + format_number(type.base > 0.0 ? type.base : preset.base, NumberStyle::tick);
  const std::string& method = type.own_scaling ? type.scaling_method : preset.scaling_method;
  if (method != "none") {
    out += ", " + method;
    for (const auto& [k, v] : type.own_scaling ? type.scaling : preset.scaling)
      if (k == "factor") out += " s = " + v;
  }
  if (type.window > 0)
    out += ", window " + format_number(static_cast<double>(type.window), NumberStyle::tick);
  if (type.chunk > 0)
    out += ", chunks of " + format_number(static_cast<double>(type.chunk), NumberStyle::tick);
  return out;
}

std::string layer_words(const Params& params) {
  const ModelPreset* preset = active_preset(params);
  if (!preset) return {};
  const LayerType* type = preset->layers.type(params.layer);
  if (!type) return {};
  return "layer " + std::to_string(params.layer) + " of " + std::to_string(preset->layers.count()) +
         ": " + type->name;
}

std::string model_status(const Params& params) {
  std::string s;
  if (!params.config.empty()) {
    if (!params.config_preset.preset)
      return std::filesystem::path(params.config).filename().string() +
             " (from config.json; the file is no longer readable)";
    s = params.config_preset.preset->name;  // "… (from config.json)"
  } else {
    if (params.model.empty()) return {};
    const ModelPreset* preset = model_library().find(params.model);
    if (!preset) return params.model + " (not in the models file)";
    s = preset->name + " (" + preset->tag + ")";
    if (!preset->lacks.empty())  // its short form: up to the first '(' or ':'
      s += " · lacks " + preset->lacks.substr(0, preset->lacks.find_first_of("(:"));
    while (!s.empty() && s.back() == ' ')
      s.pop_back();
  }
  if (params.layer >= 0) s += " · " + layer_words(params);
  const auto changed = changed_since_model(params);
  if (!changed.empty()) {
    s += " · changed: ";
    for (std::size_t i = 0; i < changed.size(); ++i)
      s += (i ? ", " : "") + changed[i];
  }
  return s;
}

}  // namespace rope::app
