// Sessions: a saved state reopens identically; broken or newer files are refused and leave the
// state untouched.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "state/params.h"
#include "state/session.h"

using namespace rope::app;

namespace {

std::string all_params(const Params& p) {
  std::string s;
  for (const ParamSpec& spec : param_specs())
    s += std::string(spec.name) + "=" + spec.get(p) + "\n";
  return s;
}

Params non_default() {
  Params p;
  for (const auto& [k, v] : std::initializer_list<std::pair<const char*, const char*>>{
           {"view", "pointers"},
           {"dim", "12"},
           {"base", "500000"},
           {"position", "3.25"},
           {"key_position", "-7.125"},
           {"pairing", "half"},
           {"query", "1,2.5,-3,0.1,0,0,0,0,0,0,0,7"},
           {"key", "random"},
           {"seed", "42"},
           {"layout", "circle"},
           {"trails", "false"},
           {"theme", "light"},
           {"ui_scale", "1.5"},
           {"sentence_a", "the cat sat"},
           {"precision", "bf16"},
           {"angle_format", "fp32"},  // bf16 but the angle: no preset, "custom"
           {"trig_format", "fp16"},
           {"precision_pair", "5"},
           {"grid_size", "12"},
           {"query_row", "7"},
           {"query_column", "11"},
           {"key_row", "0"},
           {"key_column", "9"},
           {"shift_row", "-4"},
           {"shift_column", "3"},
       })
    REQUIRE(set_param(p, k, v).ok());
  return p;
}

}  // namespace

TEST_CASE("a session round-trips every parameter exactly", "[session]") {
  const Params saved = non_default();
  Params loaded;
  REQUIRE(session_from_json(session_to_json(saved), loaded).ok());
  CHECK(all_params(loaded) == all_params(saved));
  CHECK(loaded.position == saved.position);  // bit-exact doubles
  CHECK(loaded.query == saved.query);
  CHECK(loaded.precision == saved.precision);
  CHECK(loaded.precision.formats.angle == rope::FloatFormat::fp32);
  CHECK(loaded.precision.formats.trig == rope::FloatFormat::fp16);
  CHECK(loaded.precision.formats.position == rope::FloatFormat::bf16);
  // the axial view's grid and patches (none of them at its default)
  CHECK(loaded.grid_size == 12);
  CHECK(loaded.query_row == 7);
  CHECK(loaded.query_column == 11);
  CHECK(loaded.key_row == 0);
  CHECK(loaded.key_column == 9);
  CHECK(loaded.shift_row == -4);
  CHECK(loaded.shift_column == 3);
  const Params defaults;
  CHECK(defaults.grid_size != 12);
  CHECK(defaults.shift_row != -4);
}

// A preset saved by name reopens as that preset whatever order the keys are read in (JSON
// objects have none; the loader reads them sorted), and "custom" keeps the formats beside it.
TEST_CASE("a session's precision preset and formats reopen as saved", "[session]") {
  for (const char* preset : {"fp32", "bf16", "fp16", "theta-bf16", "fix", "exact"}) {
    Params saved;
    REQUIRE(set_param(saved, "precision", preset).ok());
    Params loaded;
    REQUIRE(set_param(loaded, "precision", "fp16").ok());  // something else before loading
    REQUIRE(session_from_json(session_to_json(saved), loaded).ok());
    INFO(preset);
    CHECK(loaded.precision == saved.precision);
    CHECK(std::string(rope::preset_name(loaded.precision.formats)) == preset);
  }
  const std::string text = R"({"format": "rope-lab-session", "version": 1, "params":
      {"trig_format": "fp16", "precision": "custom", "angle_format": "fp32",
       "position_format": "bf16", "theta_format": "fp64"}})";
  Params loaded;
  REQUIRE(session_from_json(text, loaded).ok());
  CHECK(loaded.precision.formats ==
        rope::PrecisionFormats{rope::FloatFormat::bf16, rope::FloatFormat::fp64,
                               rope::FloatFormat::fp32, rope::FloatFormat::fp16});
}

TEST_CASE("a session file is saved atomically and reopens", "[session]") {
  const auto dir = std::filesystem::temp_directory_path() / "rope-lab-session-test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "lecture.json";
  const Params saved = non_default();
  REQUIRE(save_session(path, saved).ok());
  Params loaded;
  REQUIRE(load_session(path, loaded).ok());
  CHECK(all_params(loaded) == all_params(saved));
  for (const auto& e : std::filesystem::directory_iterator(dir))
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
  std::filesystem::remove_all(dir);
}

// The shared MIME database recognises a session by this string in its first 64 bytes
// (assets/desktop/rope-lab-mime.xml; tests/app/desktop_entry_test.sh checks that side).
TEST_CASE("a saved session begins with its format field, which the MIME magic looks for",
          "[session]") {
  for (const std::string& text : {session_to_json(Params{}), session_to_json(non_default())}) {
    const auto at = text.find("\"format\": \"rope-lab-session\"");
    REQUIRE(at != std::string::npos);
    CHECK(at + std::string("\"format\": \"rope-lab-session\"").size() <= 64);
  }
}

TEST_CASE("bad session files are rejected and the state is unchanged", "[session]") {
  const std::string good = session_to_json(non_default());
  const std::pair<std::string, const char*> cases[] = {
      {good.substr(0, good.size() / 2), "not valid JSON"},
      {"[1, 2, 3]", "JSON object"},
      {R"({"format": "something-else", "version": 1, "params": {}})", "not a RoPE Lab session"},
      {R"({"format": "rope-lab-session", "version": 99, "params": {}})", "newer RoPE Lab"},
      // above 2^63 - 1: before, "has an invalid version -9223372036854775808" and "-1"
      {R"({"format": "rope-lab-session", "version": 9223372036854775808, "params": {}})",
       "newer RoPE Lab (version 9223372036854775808)"},
      {R"({"format": "rope-lab-session", "version": 18446744073709551615, "params": {}})",
       "newer RoPE Lab (version 18446744073709551615)"},
      {R"({"format": "rope-lab-session", "version": 0, "params": {}})", "invalid version 0"},
      {R"({"format": "rope-lab-session", "version": -3, "params": {}})", "invalid version -3"},
      {R"({"format": "rope-lab-session", "version": "1", "params": {}})", "integer"},
      {R"({"format": "rope-lab-session", "version": 1, "params": {"dim": "eight"}})",
       "must be an even integer from 2 to 4096, got 'eight'"},
      {R"({"format": "rope-lab-session", "version": 1, "params": {"dim": 7}})", "even"},
      {R"({"format": "rope-lab-session", "version": 1, "params": {"base": [1]}})",
       "must be a number, a string"},
      {R"({"format": "rope-lab-session", "version": 1, "params": {"colour": 1}})",
       "unknown parameter \"colour\""},
      {R"({"format": "rope-lab-session", "version": 1, "params": {}, "extra": 1})",
       "unknown key \"extra\""},
      {R"({"format": "rope-lab-session", "version": 1, "params": {"dim": 4, "query": "1,2"}})",
       "has 2 values but dim is 4"},
      {"", "not valid JSON"},
  };
  for (const auto& [text, expect] : cases) {
    Params p = non_default();
    const std::string before = all_params(p);
    const auto s = session_from_json(text, p);
    INFO(text);
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.error().message, Catch::Contains(expect));
    CHECK(all_params(p) == before);
  }
}

TEST_CASE("a missing or oversized session file is refused", "[session]") {
  Params p;
  CHECK_FALSE(load_session("/no/such/file.json", p).ok());
  const auto path = std::filesystem::temp_directory_path() / "rope-lab-big-session.json";
  {
    std::ofstream out(path);
    out << std::string(17 << 20, ' ');
  }
  const auto s = load_session(path, p);
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.error().message, Catch::Contains("at most 16 MiB"));
  std::filesystem::remove(path);
}
