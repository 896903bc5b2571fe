// Model presets (state/models.h, assets/models.json) and partial rotary in the state: the loader
// and its messages, each preset setting exactly its values, what changed since choosing one,
// sessions and the partial frequencies every view uses (state/scaling_params.h). The flags and
// the views that show a preset are in test_model_views.cpp (app_tests).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "rope/partial_rotary.h"
#include "state/models.h"
#include "state/params.h"
#include "state/session.h"

using namespace rope::app;
using rope::Status;

namespace {

const ModelLibrary& shipped() {
  static const ModelLibrary lib =
      load_models(std::string(ROPE_LAB_SOURCE_DIR) + "/assets/models.json");
  return lib;
}

std::string get(const Params& p, const char* name) {
  return find_param(name)->get(p);
}

// One preset entry as JSON text, with `field` replaced (or added) by `value`.
std::string entry(const std::string& field = "", const std::string& value = "") {
  std::vector<std::pair<std::string, std::string>> fields{
      {"id", "\"t\""},
      {"name", "\"T\""},
      {"tag", "\"V\""},
      {"source", "\"a test\""},
      {"head_dim", "128"},
      {"rotary_dims", "128"},
      {"rotary_meaning", "\"full\""},
      {"base", "10000"},
      {"context", "2048"},
      {"scaling", "{\"method\": \"none\"}"},
      {"pairing", "{\"transformers\": \"half\"}"}};
  bool replaced = false;
  for (auto& [k, v] : fields)
    if (k == field) {
      v = value;
      replaced = true;
    }
  if (!field.empty() && !replaced) fields.emplace_back(field, value);
  std::string s = "{";
  for (const auto& [k, v] : fields)
    s += (s.size() > 1 ? ", \"" : "\"") + k + "\": " + v;
  return s + "}";
}

std::string file_of(const std::string& entries) {
  return "{\"format\": \"rope-lab-models\", \"version\": 1, \"models\": [" + entries + "]}";
}

}  // namespace

TEST_CASE("the shipped models file loads: 27 presets with sources and tags", "[app][models]") {
  const ModelLibrary& lib = shipped();
  INFO(lib.problem);
  REQUIRE(lib.problem.empty());
  REQUIRE(lib.presets.size() == 27);
  for (const ModelPreset& m : lib.presets) {
    CHECK(!m.source.empty());
    CHECK((m.tag == "V" || m.tag == "C" || m.tag == "U"));
  }
  // the running program reads the same file
  CHECK(model_library().ids() == lib.ids());
  CHECK(lib.find("phi-3-mini-128k")->lacks.find("LongRoPE") != std::string::npos);
}

TEST_CASE("a preset sets exactly its values", "[app][models]") {
  struct Expect {
    const char* id;
    std::vector<std::pair<const char*, const char*>> values;
  };
  const std::vector<Expect> cases{
      {"llama-3.1-8b",
       {{"dim", "128"},
        {"base", "500000"},
        {"pairing", "interleaved"},
        {"scaling", "llama3"},
        {"factor", "8"},
        {"low_freq_factor", "1"},
        {"high_freq_factor", "4"},
        {"original_context", "8192"},
        {"context_length", "8192"},
        {"rotary_fraction", "1"},
        {"model", "llama-3.1-8b"}}},
      {"pythia-6.9b",
       {{"dim", "128"},
        {"base", "10000"},
        {"pairing", "half"},
        {"scaling", "none"},
        {"rotary_fraction", "0.25"},
        {"rotary_style", "neox"},
        {"context_length", "2048"}}},
      {"phi-2", {{"dim", "80"}, {"rotary_fraction", "0.4"}, {"rotary_style", "neox"}}},
      {"gemma-3-12b-global",
       {{"dim", "256"}, {"base", "1000000"}, {"scaling", "linear"}, {"factor", "8"}}},
      {"deepseek-v3",
       {{"dim", "64"},
        {"base", "10000"},
        {"pairing", "interleaved"},
        {"scaling", "yarn"},
        {"factor", "40"},
        {"original_context", "4096"},
        {"beta_fast", "32"},
        {"beta_slow", "1"},
        {"mscale", "1"},
        {"mscale_all_dim", "1"}}},
      {"mistral-7b-v0.3", {{"dim", "128"}, {"base", "1000000"}, {"pairing", "half"}}},
  };
  for (const Expect& c : cases) {
    Params p;
    // start from another preset's values: nothing of them may stay
    REQUIRE(set_param(p, "model", "llama-3.1-8b").ok());
    REQUIRE(set_param(p, "factor", "3").ok());
    INFO(c.id);
    REQUIRE(set_param(p, "model", c.id).ok());
    for (const auto& [name, value] : c.values) {
      INFO(name);
      const auto number = parse_real(name, value);  // "40" and "4e+01" are the same number
      if (number.ok())
        CHECK(parse_real(name, get(p, name)).value() == number.value());
      else
        CHECK(get(p, name) == value);
    }
    if (std::string(c.id) != "llama-3.1-8b" && std::string(c.id) != "deepseek-v3" &&
        std::string(c.id) != "gemma-3-12b-global")
      CHECK(get(p, "factor") == "1");
    CHECK(changed_since_model(p).empty());
  }
}

TEST_CASE("the screen says which preset is active and what changed since", "[app][models]") {
  Params p;
  CHECK(model_status(p).empty());
  REQUIRE(set_param(p, "model", "llama-3.1-8b").ok());
  CHECK(model_status(p) == "Llama 3.1 8B (V)");
  REQUIRE(set_param(p, "base", "600000").ok());
  CHECK(model_status(p) == "Llama 3.1 8B (V) · changed: base");
  REQUIRE(set_param(p, "factor", "16").ok());
  CHECK(changed_since_model(p) == std::vector<std::string>{"base", "factor"});
  REQUIRE(set_param(p, "base", "500000").ok());
  CHECK(changed_since_model(p) == std::vector<std::string>{"factor"});
  REQUIRE(set_param(p, "model", "phi-3-mini-128k").ok());
  CHECK(model_status(p) == "Phi-3-mini-128k (V) · lacks the 48 short and 48 long LongRoPE factors");
  REQUIRE(set_param(p, "model", "none").ok());
  CHECK(model_status(p).empty());
  CHECK(get(p, "dim") == "96");  // choosing none keeps the values
}

TEST_CASE("a session keeps the preset and the values changed after it", "[app][models]") {
  Params p;
  REQUIRE(set_param(p, "model", "pythia-6.9b").ok());
  REQUIRE(set_param(p, "base", "20000").ok());
  const std::string json = session_to_json(p);
  Params loaded;
  REQUIRE(session_from_json(json, loaded).ok());
  CHECK(loaded.model == "pythia-6.9b");
  CHECK(loaded.base == 20000.0);  // "base" sorts before "model": the preset still comes first
  CHECK(loaded.extension.scaling.rotary_fraction == 0.25);
  CHECK(model_status(loaded) == "Pythia-6.9B (V) · changed: base");
}

TEST_CASE("a broken models file gives one message naming the file and the entry", "[app][models]") {
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases{
      {"{\"format\": ", "f.json: is not valid JSON (truncated or damaged?)"},
      {"{\"format\": \"x\", \"version\": 1, \"models\": []}",
       "f.json: is not a RoPE Lab models file (\"format\" must be \"rope-lab-models\")"},
      {file_of(entry()), ""},
      {file_of(entry("base", "1")),
       "f.json: entry 1 (\"t\"): base: must be a finite number greater than 1, got 1"},
      {file_of(entry("colour", "1")),
       "f.json: entry 1 (\"t\"): colour: is not a field of a preset (assets/MODELS.md lists "
       "them)"},
      {file_of(entry("rotary_meaning", "\"neox\"") + "," + entry()),
       "f.json: entry 1 (\"t\"): rotary_fraction: is missing (the published fraction, e.g. "
       "0.25)"},
      {file_of(entry("rotary_fraction", "0.25")), ""},
      {file_of(entry("tag", "\"X\"")),
       "f.json: entry 1 (\"t\"): tag: must be V (verified), C (consistent copies) or U "
       "(unverified), got 'X'"},
      {file_of(entry() + "," + entry()), "f.json: entry 2 (\"t\"): id is used twice"},
      {file_of(entry("scaling", "{\"method\": \"llama3\", \"factor\": 8, \"low_freq_factor\": 5}")),
       "f.json: entry 1 (\"t\"): low_freq_factor: must be at most high_freq_factor (4), got 5"},
      {file_of(entry("scaling", "{\"method\": \"none\", \"colour\": 1}")),
       "f.json: entry 1 (\"t\"): scaling.colour: is not a scaling parameter (rope-lab --help "
       "lists them)"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const ModelLibrary lib = parse_models(c.text, "f.json");
    CHECK(lib.problem == c.message);
    CHECK(lib.presets.size() == (c.message.empty() ? 1u : 0u));
  }
  // a neox entry whose dims disagree with its fraction
  const ModelLibrary odd = parse_models(
      file_of(entry("rotary_meaning", "\"neox\"").replace(0, 1, "{\"rotary_fraction\": 0.5, ")),
      "f.json");
  CHECK(odd.problem ==
        "f.json: entry 1 (\"t\"): rotary_dims: must be 64 (head_dim 128 times rotary_fraction "
        "0.5), got 128");
  const ModelLibrary missing = load_models("/nonexistent/models.json");
  CHECK(missing.problem.find("/nonexistent/models.json: cannot be read") == 0);
  CHECK(missing.presets.empty());
}

TEST_CASE("partial rotary: one fraction, two meanings, composed with the scaling",
          "[app][models][partial]") {
  Params p;
  p.dim = 128;
  REQUIRE(set_param(p, "rotary_fraction", "0.25").ok());
  auto neox = drawn_frequencies(p);
  REQUIRE(neox.ok());
  // θ_15 = 10000^(−30/32) under neox, the slowest kept wavelength 2π·10000^(30/32) ≈ 35 333
  CHECK(neox.value().theta_drawn[15] == Approx(std::pow(10000.0, -30.0 / 32.0)).epsilon(1e-14));
  CHECK(2 * rope::kPi / neox.value().theta_drawn[15] == Approx(35332.947520558992));
  CHECK(neox.value().theta_drawn[16] == 0.0);
  CHECK(neox.value().theta == neox.value().theta_drawn);  // no method: θ′ = θ
  REQUIRE(set_param(p, "rotary_style", "proportional").ok());
  auto prop = drawn_frequencies(p);
  REQUIRE(prop.ok());
  CHECK(2 * rope::kPi / prop.value().theta_drawn[15] == Approx(54.410143130776746));
  CHECK(prop.value().theta_drawn[16] == 0.0);
  CHECK(prop.value().theta[16] == 0.0);  // the partial rotation alone: the slow pairs still
  // the proportional scaling method reads the same field (style ignored), with its factor
  REQUIRE(set_param(p, "rotary_style", "neox").ok());
  REQUIRE(set_param(p, "scaling", "proportional").ok());
  REQUIRE(set_param(p, "factor", "2").ok());
  auto method = drawn_frequencies(p);
  REQUIRE(method.ok());
  CHECK(method.value().theta_drawn[15] == Approx(std::pow(10000.0, -30.0 / 128.0) / 2));
  CHECK(method.value().theta_drawn[16] == 0.0);
  CHECK(method.value().theta[16] > 0.0);  // p-RoPE's θ is the whole head's
  // neox with linear scaling: the rotating part scaled as a head of int(d·p) dims
  REQUIRE(set_param(p, "scaling", "linear").ok());
  auto linear = drawn_frequencies(p);
  REQUIRE(linear.ok());
  CHECK(linear.value().theta_drawn[1] == Approx(std::pow(10000.0, -2.0 / 32.0) / 2));
  CHECK(linear.value().theta_drawn[16] == 0.0);
  CHECK(linear.value().theta[1] == Approx(std::pow(10000.0, -2.0 / 32.0)));
  // an odd int(d·p) under neox is refused by name
  REQUIRE(set_param(p, "scaling", "none").ok());
  REQUIRE(set_param(p, "rotary_fraction", "0.2").ok());  // int(128·0.2) = 25
  const Status odd = validate_params(p);
  REQUIRE(!odd.ok());
  CHECK(odd.error().parameter == "rotary_fraction");
}

TEST_CASE("a model's layers: the pattern, each layer's values, NoPE as p = 0", "[app][models]") {
  const ModelLibrary& lib = shipped();
  const ModelPreset* gemma = lib.find("gemma-3-12b");
  REQUIRE(gemma != nullptr);
  REQUIRE(gemma->layers.count() == 48);
  CHECK(gemma->layers.pattern() == "5 local : 1 global, repeated");
  CHECK(gemma->layers.count_of(0) == 40);
  CHECK(gemma->layers.count_of(1) == 8);
  // transformers' Gemma3: layer l slides unless (l + 1) % 6 == 0
  for (int l = 0; l < 48; ++l)
    CHECK((gemma->layers.type(l)->name == "global") == ((l + 1) % 6 == 0));

  Params p;
  REQUIRE(set_param(p, "model", "gemma-3-12b").ok());
  CHECK(p.layer == -1);
  CHECK(p.base == 1e6);  // no layer chosen: the global values
  REQUIRE(set_param(p, "layer", "0").ok());
  CHECK(p.layer == 0);
  CHECK(p.base == 10000.0);
  CHECK(get(p, "scaling") == "none");
  CHECK(p.attention_window == 1024);
  CHECK(model_status(p) == "Gemma 3 12B (C) · layer 0 of 48: local");
  REQUIRE(set_param(p, "layer", "5").ok());
  CHECK(p.base == 1e6);
  CHECK(get(p, "scaling") == "linear");
  CHECK(get(p, "factor") == "8");
  CHECK(p.attention_window == 0);
  CHECK(changed_since_model(p).empty());
  REQUIRE(set_param(p, "base", "20000").ok());
  CHECK(model_status(p) == "Gemma 3 12B (C) · layer 5 of 48: global · changed: base");
  // back to the model's own values
  REQUIRE(set_param(p, "layer", "none").ok());
  CHECK(p.layer == -1);
  CHECK(p.base == 1e6);

  // NoPE: no pair rotates (p-RoPE with p = 0), whatever the RoPE layers scale with
  REQUIRE(set_param(p, "model", "llama-4-scout").ok());
  REQUIRE(set_param(p, "layer", "3").ok());
  CHECK(get(p, "scaling") == "proportional");
  CHECK(p.extension.scaling.rotary_fraction == 0.0);
  CHECK(p.attention_chunk == 0);
  REQUIRE(set_param(p, "layer", "2").ok());
  CHECK(get(p, "scaling") == "llama3");
  CHECK(p.attention_chunk == 8192);
  CHECK(validate_params(p).ok());

  // another model forgets the layer
  REQUIRE(set_param(p, "model", "smollm3-3b").ok());
  CHECK(p.layer == -1);
  CHECK(lib.find("smollm3-3b")->layers.pattern() == "3 RoPE : 1 NoPE, repeated");
  CHECK(lib.find("gpt-oss-20b")->layers.pattern() == "1 sliding : 1 full, repeated");
  CHECK(lib.find("gemma-2-9b")->layers.type(0)->window == 4096);
}

TEST_CASE("a layer is refused with a reason, and the state is unchanged", "[app][models]") {
  Params p;
  const auto refused = [&](const char* value) {
    const Params before = p;
    auto s = set_param(p, "layer", value);
    REQUIRE_FALSE(s.ok());
    CHECK(p == before);
    return s.error().to_string();
  };
  CHECK(refused("3").find("needs a model whose layers differ first") != std::string::npos);
  REQUIRE(set_param(p, "model", "llama-3.1-8b").ok());
  CHECK(refused("3").find("Llama 3.1 8B has the same RoPE in every layer") != std::string::npos);
  REQUIRE(set_param(p, "model", "gemma-3-12b").ok());
  CHECK(refused("48") ==
        "layer: must be none or an integer from 0 to 47 (Gemma 3 12B has 48 layers), got '48'");
  CHECK(refused("-1").find("from 0 to 47") != std::string::npos);
  CHECK(refused("two").find("from 0 to 47") != std::string::npos);
}

TEST_CASE("a session keeps the layer and the values changed after it", "[app][models]") {
  Params p;
  REQUIRE(set_param(p, "model", "gemma-3-12b").ok());
  REQUIRE(set_param(p, "layer", "11").ok());
  REQUIRE(set_param(p, "positions", "200").ok());
  REQUIRE(set_param(p, "attention_window", "100").ok());
  Params loaded;
  REQUIRE(session_from_json(session_to_json(p), loaded).ok());
  CHECK(loaded.layer == 11);
  CHECK(loaded.base == 1e6);
  CHECK(loaded.attention_window == 100);  // saved beside the layer: it wins
  CHECK(model_status(loaded) ==
        "Gemma 3 12B (C) · layer 11 of 48: global · changed: attention_window");
}

TEST_CASE("a broken layers block names the field", "[app][models]") {
  const auto problem = [](const std::string& layers) {
    return parse_models(file_of(entry("layers", layers)), "m.json").problem;
  };
  CHECK(problem("{\"count\": 4, \"pattern\": [\"a\", \"b\"], \"types\": {\"a\": {}, \"b\": "
                "{\"rope\": false}}}")
            .empty());
  CHECK(problem("[]") ==
        "m.json: entry 1 (\"t\"): layers: must be an object with count, pattern and types");
  CHECK(problem("{\"count\": 0, \"pattern\": [\"a\"], \"types\": {\"a\": {}}}")
            .find("layers.count: must be an integer from 1 to 1024") != std::string::npos);
  CHECK(problem("{\"count\": 4, \"pattern\": [\"a\", \"c\"], \"types\": {\"a\": {}}}")
            .find("layers.pattern: must name types of layers.types, got \"c\"") !=
        std::string::npos);
  CHECK(problem("{\"count\": 4, \"pattern\": [\"a\"], \"types\": {\"a\": {}, \"b\": {}}}")
            .find("layers.types: has types the pattern never uses") != std::string::npos);
  CHECK(problem("{\"count\": 4, \"pattern\": [\"a\"], \"types\": {\"a\": {\"base\": 1}}}")
            .find("layers.types.a.base: must be a number greater than 1") != std::string::npos);
  CHECK(problem("{\"count\": 4, \"pattern\": [\"a\"], \"types\": {\"a\": {\"window\": -3}}}")
            .find("layers.types.a.window: must be an integer from 1 to") != std::string::npos);
  CHECK(problem("{\"count\": 4, \"pattern\": [\"a\"], \"types\": {\"a\": {\"scaling\": "
                "{\"method\": \"linear\", \"factor\": -0.5}}}}")
            .find("layers.types.a: factor") != std::string::npos);
  CHECK(problem("{\"count\": 4, \"pattern\": [\"a\"], \"types\": {\"a\": {\"speed\": 2}}}")
            .find("layers.types.a.speed: is not a field of a layer type") != std::string::npos);
}
