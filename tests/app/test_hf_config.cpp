// A model's config.json read as a preset (state/hf_config.h): real configs as fixtures
// (tests/fixtures/configs, each naming its source) against the presets of the same models,
// and bad input named by its field path.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "state/hf_config.h"
#include "state/models.h"
#include "state/params.h"
#include "state/session.h"

using namespace rope::app;

namespace {

const std::string kFixtures = std::string(ROPE_LAB_SOURCE_DIR) + "/tests/fixtures/configs/";

// Every parameter a preset sets, as text, after applying `preset` to default Params.
std::vector<std::pair<std::string, std::string>> applied(const ModelPreset& preset,
                                                         int layer = -1) {
  Params p;
  REQUIRE(apply_model(p, preset, layer).ok());
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* name : {"dim",
                           "base",
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
                           "attention_chunk",
                           "layer"})
    out.emplace_back(name, find_param(name)->get(p));
  return out;
}

std::string error_of(const std::string& json) {
  auto r = parse_hf_config(json, "config.json");
  REQUIRE_FALSE(r.ok());
  return r.error().to_string();
}

}  // namespace

TEST_CASE("a model's config.json sets what the model's preset sets", "[models][config]") {
  const ModelLibrary lib = load_models(std::string(ROPE_LAB_SOURCE_DIR) + "/assets/models.json");
  REQUIRE(lib.problem.empty());
  // the preset's pairing is the reference code's where there is one; a config.json is read as
  // transformers reads it (rotate_half), so the pairing is the one thing that may differ
  for (const auto& [file, id] : {std::pair{"llama-3.1-8b.json", "llama-3.1-8b"},
                                 {"phi-2.json", "phi-2"},
                                 {"deepseek-v3.json", "deepseek-v3"},
                                 {"gemma-3-12b.json", "gemma-3-12b-global"},
                                 {"phi-3.5-mini-instruct.json", "phi-3.5-mini"},
                                 {"gpt-oss-20b.json", "gpt-oss-20b"}}) {
    INFO(file);
    auto read = load_hf_config(kFixtures + file);
    REQUIRE(read.ok());
    const ModelPreset& c = read.value().preset;
    const ModelPreset* preset = lib.find(id);
    REQUIRE(preset != nullptr);
    CHECK(applied(c) == applied(*preset));
    CHECK(c.head_dim == preset->head_dim);
    CHECK(c.rotary_dims == preset->rotary_dims);
    CHECK(c.rotary_meaning == preset->rotary_meaning);
    CHECK(c.nope_dims == preset->nope_dims);
    CHECK(c.context == preset->context);
    CHECK(c.pairing_transformers == "half");
  }
}

TEST_CASE("a config's pitfalls are named with their fields", "[models][config]") {
  auto gemma = load_hf_config(kFixtures + "gemma-3-12b.json");
  REQUIRE(gemma.ok());
  std::vector<std::string> fields;
  for (const ConfigPitfall& p : gemma.value().pitfalls)
    fields.push_back(p.field);
  // the per-layer fields are read (the layers); the file leaves the pattern to the default
  CHECK(fields == std::vector<std::string>{"text_config", "sliding_window_pattern"});

  // LongRoPE under its old name, a factor without the original context, YaRN's truncate and an
  // attention factor that overrides the computed one
  const auto pitfalls = [](const std::string& json) {
    auto r = parse_hf_config(json, "config.json");
    REQUIRE(r.ok());
    std::string all;
    for (const ConfigPitfall& p : r.value().pitfalls)
      all += p.field + ": " + p.text + "\n";
    return all;
  };
  std::string factors = "[";
  for (int i = 0; i < 4; ++i)
    factors += std::string(i ? "," : "") + "1.5";
  factors += "]";
  const std::string su = pitfalls(R"({"head_dim": 8, "max_position_embeddings": 131072,
      "original_max_position_embeddings": 4096, "rope_theta": 10000,
      "rope_scaling": {"type": "su", "short_factor": )" +
                                  factors + R"(, "long_factor": )" + factors + "}}");
  CHECK_THAT(su, Catch::Contains("rope_scaling.type: \"su\" is LongRoPE's old name"));
  const std::string yarn = pitfalls(R"({"head_dim": 64, "max_position_embeddings": 131072,
      "rope_scaling": {"rope_type": "yarn", "factor": 32, "truncate": false,
                       "attention_factor": 1.2, "beta_fast": 32, "beta_slow": 1, "foo": 3}})");
  CHECK_THAT(yarn, Catch::Contains("rope_scaling.original_max_position_embeddings: missing: "
                                   "transformers then takes max_position_embeddings = 131072"));
  CHECK_THAT(yarn, Catch::Contains("rope_scaling.truncate: false"));
  CHECK_THAT(yarn, Catch::Contains("rope_scaling.attention_factor: overrides"));
  CHECK_THAT(yarn, Catch::Contains("rope_scaling.foo: not used by RoPE Lab"));
  CHECK_THAT(yarn, Catch::Contains("rope_theta: missing: transformers' default 10000"));
}

TEST_CASE("a bad config names the field and what is allowed", "[models][config]") {
  CHECK_THAT(error_of("{nope"), Catch::StartsWith("config.json: not JSON"));
  CHECK_THAT(error_of("[1, 2]"), Catch::Contains("must be a JSON object"));
  CHECK_THAT(error_of(R"({"rope_theta": 10000})"),
             Catch::StartsWith("head_dim: missing, and so is hidden_size"));
  CHECK_THAT(error_of(R"({"head_dim": "128"})"), Catch::StartsWith("head_dim: must be an integer"));
  CHECK_THAT(error_of(R"({"head_dim": 64, "rope_theta": 1})"),
             Catch::StartsWith("rope_theta: must be a base above 1"));
  CHECK_THAT(error_of(R"({"head_dim": 64, "rope_scaling": {"rope_type": "magic", "factor": 2}})"),
             Catch::StartsWith("rope_scaling.rope_type: unknown rope_type \"magic\""));
  CHECK_THAT(error_of(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear"}})"),
             Catch::StartsWith("rope_scaling.factor: missing"));
  // the issue's own example: 48 factors expected for head_dim 96, 32 given
  std::string f32 = "[", f48 = "[";
  for (int i = 0; i < 48; ++i) {
    if (i < 32) f32 += std::string(i ? "," : "") + "1";
    f48 += std::string(i ? "," : "") + "1";
  }
  f32 += "]";
  f48 += "]";
  CHECK(error_of(R"({"hidden_size": 3072, "num_attention_heads": 32,
      "max_position_embeddings": 131072, "original_max_position_embeddings": 4096,
      "rope_scaling": {"type": "longrope", "short_factor": )" +
                 f48 + R"(, "long_factor": )" + f32 + "}}") ==
        "rope_scaling.long_factor: 48 numbers expected (rotary dims 96 / 2), got 32");
  CHECK_THAT(error_of(R"({"text_config": 3})"),
             Catch::StartsWith("text_config: must be an object"));
  // deeply nested: refused by the depth check, not by running out of stack
  CHECK_THAT(error_of(std::string(100000, '[') + std::string(100000, ']')),
             Catch::Contains("nested deeper than 32 levels"));
}

TEST_CASE("a config file that is too large or not a file is refused before it is read",
          "[models][config]") {
  auto dir = load_hf_config(kFixtures);
  REQUIRE_FALSE(dir.ok());
  auto missing = load_hf_config(kFixtures + "nope.json");
  REQUIRE_FALSE(missing.ok());
}

TEST_CASE("a config.json is a parameter: named on screen, saved in sessions, replaced by a preset",
          "[models][config][session]") {
  Params p;
  CHECK_THAT(session_to_json(p), !Catch::Contains("\"config\""));  // older builds open it
  const std::string file = kFixtures + "llama-3.1-8b.json";
  REQUIRE(set_param(p, "config", file).ok());
  CHECK(p.model.empty());
  CHECK(p.dim == 128);
  CHECK(p.base == 500000.0);
  CHECK(model_status(p) == "llama (from config.json)");
  REQUIRE(set_param(p, "base", "10000").ok());
  CHECK(model_status(p) == "llama (from config.json) · changed: base");

  // a session keeps the path; opening it reads the file again
  const std::string text = session_to_json(p);
  CHECK_THAT(text, Catch::Contains("\"config\": \"" + file + "\""));
  Params back;
  REQUIRE(session_from_json(text, back).ok());
  CHECK(back == p);
  CHECK(model_status(back) == "llama (from config.json) · changed: base");

  // the file gone: the session still opens with every value, and says the file is unreadable
  std::string moved = text;
  moved.replace(moved.find(file), file.size(), kFixtures + "moved-away.json");
  Params gone;
  REQUIRE(session_from_json(moved, gone).ok());
  CHECK(gone.dim == 128);
  CHECK(gone.base == 10000.0);
  CHECK(gone.extension.scaling.method == rope::ScalingMethod::llama3);
  CHECK_THAT(model_status(gone), Catch::Contains("moved-away.json (from config.json; the file is "
                                                 "no longer readable)"));

  // a preset replaces it, and a config replaces a preset
  REQUIRE(set_param(p, "model", "phi-2").ok());
  CHECK(p.config.empty());
  CHECK(p.dim == 80);
  REQUIRE(set_param(p, "config", kFixtures + "deepseek-v3.json").ok());
  CHECK(p.model.empty());
  CHECK(p.dim == 64);
  // a bad file leaves the state as it was, with the field named
  const Params before = p;
  auto bad = set_param(p, "config", std::string(ROPE_LAB_SOURCE_DIR) + "/assets/models.json");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().to_string(), Catch::Contains("head_dim: missing"));
  CHECK(p == before);
  CHECK(p.config == before.config);
}

TEST_CASE("a config's per-layer fields become the model's layers, as transformers lays them out",
          "[models][config]") {
  const ModelLibrary lib = load_models(std::string(ROPE_LAB_SOURCE_DIR) + "/assets/models.json");
  // the config and the preset of the same model give every layer the same values
  for (const auto& [file, id] :
       {std::pair{"gemma-3-12b.json", "gemma-3-12b"}, {"gpt-oss-20b.json", "gpt-oss-20b"}}) {
    INFO(file);
    auto read = load_hf_config(kFixtures + file);
    REQUIRE(read.ok());
    const ModelPreset& c = read.value().preset;
    const ModelPreset* preset = lib.find(id);
    REQUIRE(preset != nullptr);
    REQUIRE(c.layers.count() == preset->layers.count());
    CHECK(c.layers.pattern() == preset->layers.pattern());
    for (int l = 0; l < c.layers.count(); ++l) {
      INFO("layer " << l);
      CHECK(c.layers.type(l)->name == preset->layers.type(l)->name);
      CHECK(applied(c, l) == applied(*preset, l));
    }
  }

  // Llama 4: no_rope_layers (1 = RoPE) and chunked attention in the RoPE layers
  std::string flags;
  for (int l = 0; l < 8; ++l)
    flags += std::string(flags.empty() ? "" : ", ") + ((l + 1) % 4 ? "1" : "0");
  auto llama4 = parse_hf_config(
      R"({"model_type": "llama4_text", "head_dim": 128, "rope_theta": 500000,
          "num_hidden_layers": 8, "attention_chunk_size": 8192, "no_rope_layers": [)" +
          flags + "]}",
      "config.json");
  REQUIRE(llama4.ok());
  const ModelLayers& l4 = llama4.value().preset.layers;
  CHECK(l4.pattern() == "3 chunked : 1 NoPE, repeated");
  CHECK(l4.type(0)->chunk == 8192);
  CHECK_FALSE(l4.type(3)->rope);
  CHECK(l4.type(3)->chunk == 0);

  // SmolLM3: no_rope_layer_interval 4 when the list is empty
  auto smol = parse_hf_config(
      R"({"model_type": "smollm3", "hidden_size": 2048, "num_attention_heads": 16,
          "rope_theta": 5000000, "max_position_embeddings": 65536, "num_hidden_layers": 36, "no_rope_layers": [], "no_rope_layer_interval": 4})",
      "config.json");
  REQUIRE(smol.ok());
  const ModelPreset& sm = smol.value().preset;
  CHECK(sm.layers.pattern() == "3 RoPE : 1 NoPE, repeated");
  CHECK(sm.layers.count_of(1) == 9);
  CHECK(applied(sm, 3) == applied(*lib.find("smollm3-3b"), 3));
  CHECK(applied(sm, 2) == applied(*lib.find("smollm3-3b"), 2));

  // Gemma 2: even layers slide
  auto gemma2 = parse_hf_config(
      R"({"model_type": "gemma2", "head_dim": 256, "rope_theta": 10000, "num_hidden_layers": 42,
          "sliding_window": 4096})",
      "config.json");
  REQUIRE(gemma2.ok());
  CHECK(gemma2.value().preset.layers.pattern() == "1 sliding : 1 full, repeated");
  CHECK(gemma2.value().preset.layers.type(0)->window == 4096);

  // one kind everywhere: no layers to choose; a model-wide window is said, not drawn
  auto mistral = parse_hf_config(
      R"({"model_type": "mistral", "head_dim": 128, "num_hidden_layers": 32,
          "sliding_window": 4096})",
      "config.json");
  REQUIRE(mistral.ok());
  CHECK(mistral.value().preset.layers.empty());
  bool said = false;
  for (const ConfigPitfall& p : mistral.value().pitfalls)
    said = said || p.field == "sliding_window";
  CHECK(said);
}

TEST_CASE("bad per-layer fields name the field", "[models][config]") {
  CHECK(error_of(R"({"head_dim": 64, "num_hidden_layers": 4, "sliding_window": 8,
                     "layer_types": ["sliding_attention", "full_attention"]})") ==
        "layer_types: must be a list of num_hidden_layers = 4 layer kinds");
  CHECK(error_of(R"({"head_dim": 64, "num_hidden_layers": 2,
                     "layer_types": ["sliding_attention", "full_attention"]})") ==
        "sliding_window: is missing: layer 0 is a sliding-window layer");
  CHECK(error_of(R"({"head_dim": 64, "num_hidden_layers": 2,
                     "layer_types": ["full_attention", "mamba"]})") ==
        "layer_types[1]: must be sliding_attention, full_attention or chunked_attention, got "
        "\"mamba\"");
  CHECK(error_of(R"({"head_dim": 64, "num_hidden_layers": 2, "no_rope_layers": [1, 2]})") ==
        "no_rope_layers[1]: must be 1 (RoPE) or 0 (NoPE), got 2");
  CHECK(error_of(R"({"text_config": {"head_dim": 64, "num_hidden_layers": 0,
                     "no_rope_layer_interval": 4}})") ==
        "text_config.num_hidden_layers: must be an integer from 1 to 1024, got 0");
}

TEST_CASE("a vision-language config's M-RoPE fields set the multimodal view", "[models][config]") {
  auto qwen3 = parse_hf_config(
      R"({"model_type": "qwen3_vl", "text_config": {"model_type": "qwen3_vl_text",
          "head_dim": 128, "rope_theta": 5000000, "max_position_embeddings": 262144,
          "rope_scaling": {"mrope_interleaved": true, "mrope_section": [24, 20, 20],
                           "rope_type": "default"}}})",
      "config.json");
  REQUIRE(qwen3.ok());
  Params p;
  REQUIRE(apply_model(p, qwen3.value().preset).ok());
  CHECK(p.mm_section == "24,20,20");
  CHECK(p.mm_layout == rope::MropeLayout::interleaved);
  CHECK(p.mm_rule == rope::MropeRule::qwen3_vl);
  // the preset of the same model sets the same
  const ModelLibrary lib = load_models(std::string(ROPE_LAB_SOURCE_DIR) + "/assets/models.json");
  Params q;
  REQUIRE(apply_model(q, *lib.find("qwen3-vl-8b")).ok());
  CHECK(q.mm_section == p.mm_section);
  CHECK(q.mm_layout == p.mm_layout);
  CHECK(q.mm_rule == p.mm_rule);
  CHECK(q.base == p.base);
  CHECK(error_of(
            R"({"head_dim": 128, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24]}})") ==
        "rope_scaling.mrope_section: must be a list of 3 whole numbers");
}

TEST_CASE("rope_parameters written per layer kind give each kind its own RoPE",
          "[models][config]") {
  // newer transformers: Gemma 3's blocks keyed by full_attention and sliding_attention
  auto read = parse_hf_config(
      R"({"model_type": "gemma3_text", "head_dim": 256, "num_hidden_layers": 12,
          "sliding_window": 1024, "max_position_embeddings": 131072,
          "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention",
                          "sliding_attention", "sliding_attention", "full_attention",
                          "sliding_attention", "sliding_attention", "sliding_attention",
                          "sliding_attention", "sliding_attention", "full_attention"],
          "rope_parameters": {
            "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0},
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})",
      "config.json");
  REQUIRE(read.ok());
  const ModelPreset& m = read.value().preset;
  CHECK(m.base == 1e6);
  CHECK(m.scaling_method == "linear");
  REQUIRE(m.layers.count() == 12);
  CHECK(m.layers.pattern() == "5 local : 1 global, repeated");
  // the same values, layer by layer, as the shipped preset's first 12 layers
  const ModelLibrary lib = load_models(std::string(ROPE_LAB_SOURCE_DIR) + "/assets/models.json");
  for (int l = 0; l < 12; ++l) {
    INFO("layer " << l);
    CHECK(applied(m, l) == applied(*lib.find("gemma-3-12b"), l));
  }
  CHECK(error_of(R"({"head_dim": 64, "num_hidden_layers": 2, "sliding_window": 8,
                     "layer_types": ["sliding_attention", "full_attention"],
                     "rope_parameters": {"full_attention": {"rope_type": "default"},
                       "sliding_attention": {"rope_type": "yarn", "factor": 2}}})") ==
        "rope_parameters.sliding_attention.rope_type: RoPE Lab reads default or linear for the "
        "sliding layers, got \"yarn\"");
}
