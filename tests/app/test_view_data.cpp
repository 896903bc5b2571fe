// File ▸ Export data writes exactly what `rope-lab export` prints for the same parameters.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "export/view_data.h"
#include "state/params.h"

using namespace rope::app;

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("Export data of a view equals rope-lab export with the same flags", "[export][app]") {
  const auto dir = std::filesystem::temp_directory_path() / "rope-lab-view-data-test";
  std::filesystem::create_directories(dir);
  const char* views[][2] = {{"pointers", "query=random"}, {"spectrum", "dim=64"},
                            {"decay", "max_distance=50"}, {"sinusoidal", "pe_positions=16"},
                            {"heatmap", "positions=12"},  {"precision", "precision=theta-bf16"},
                            {"axial", "grid_size=5"},     {"heatmap", "stride=4"}};
  for (const auto& [view, extra] : views) {
    Params p;
    REQUIRE(set_param(p, "view", view).ok());
    const std::string e(extra);
    REQUIRE(set_param(p, e.substr(0, e.find('=')), e.substr(e.find('=') + 1)).ok());
    REQUIRE(set_param(p, "position", "2.5").ok());
    INFO(view);
    auto exp = view_export(p);
    REQUIRE(exp.ok());
    const auto from_app = dir / (std::string(view) + "-app.csv");
    const auto from_cli = dir / (std::string(view) + "-cli.csv");
    REQUIRE(write_view_export(p, from_app).ok());
    const std::string cmd = std::string(ROPE_LAB_BINARY) +
                            exp.value().command().substr(std::string("rope-lab").size()) + " -o " +
                            from_cli.string();
    REQUIRE(std::system(cmd.c_str()) == 0);
    const std::string a = read(from_app);
    CHECK(a.size() > 20);
    CHECK(a == read(from_cli));
    // with a stride the positions are the row and column times it (review D8)
    if (e == "stride=4") CHECK(a.find("\n0,4,") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("Export data of a view with a scaling on equals rope-lab export with the same flags",
          "[export][app]") {
  const auto dir = std::filesystem::temp_directory_path() / "rope-lab-view-data-scaled-test";
  std::filesystem::create_directories(dir);
  // LongRoPE's lists travel inline; p-RoPE's fraction is its parameter; neox partial rotary
  // reaches the pointers and spectrum exports only (the views that draw it)
  const std::vector<std::vector<std::pair<const char*, const char*>>> settings = {
      {{"scaling", "yarn"}, {"factor", "16"}, {"original_context", "4096"}},
      {{"scaling", "longrope"},
       {"factor", "4"},
       {"original_context", "64"},
       {"sequence_length", "100"},
       {"long_factor", "1,2,3,4"},
       {"short_factor", "1,1.5,1.5,2"}},
      {{"scaling", "proportional"}, {"rotary_fraction", "0.5"}},
      {{"rotary_fraction", "0.5"}},
      {{"scaling", "llama3"}, {"factor", "8"}, {"rotary_fraction", "0.5"}}};
  for (const char* view : {"pointers", "spectrum", "decay", "heatmap"})
    for (const auto& extension : settings) {
      Params p;
      for (const auto& [name, value] : std::vector<std::pair<const char*, const char*>>{
               {"view", view}, {"dim", "8"}, {"positions", "8"}, {"max_distance", "30"}})
        REQUIRE(set_param(p, name, value).ok());
      for (const auto& [name, value] : extension) {
        const auto st = set_param(p, name, value);
        INFO(name << ": " << (st.ok() ? "" : st.error().to_string()));
        REQUIRE(st.ok());
      }
      auto exp = view_export(p);
      REQUIRE(exp.ok());
      INFO(exp.value().command());
      const auto from_app = dir / "app.csv";
      const auto from_cli = dir / "cli.csv";
      REQUIRE(write_view_export(p, from_app).ok());
      const std::string cmd = std::string(ROPE_LAB_BINARY) +
                              exp.value().command().substr(std::string("rope-lab").size()) +
                              " -o " + from_cli.string();
      REQUIRE(std::system(cmd.c_str()) == 0);
      const std::string a = read(from_app);
      CHECK(a == read(from_cli));
      // a scaling adds the scaled columns; a partial rotation alone does not
      const bool scaled = p.extension.scaling.method != rope::ScalingMethod::none;
      CHECK((a.find("_scaled") != std::string::npos) == scaled);
    }
  std::filesystem::remove_all(dir);
}

TEST_CASE("views without a data export say so", "[export][app]") {
  Params p;
  REQUIRE(set_param(p, "view", "sentence").ok());
  CHECK_FALSE(view_export(p).ok());
  REQUIRE(set_param(p, "view", "heatmap").ok());
  REQUIRE(set_param(p, "content", "random").ok());
  const auto e = view_export(p);
  REQUIRE_FALSE(e.ok());
  CHECK_THAT(e.error().message, Catch::Contains("same q and k"));
}

// The new modes export what they draw, or say why not: a band of pairs exports q and k with the
// other blocks zeroed (their scores are the band's); 1 + cos and a learned table do not export.
TEST_CASE("the heatmap's band, its cosine mode and the learned table export or say why",
          "[export][app]") {
  Params p;
  REQUIRE(set_param(p, "view", "heatmap").ok());
  REQUIRE(set_param(p, "dim", "8").ok());
  REQUIRE(set_param(p, "query", "ones").ok());
  REQUIRE(set_param(p, "pair_band", "fast").ok());  // 4 blocks: block 0 kept
  const auto e = view_export(p);
  REQUIRE(e.ok());
  CHECK_THAT(e.value().command(), Catch::Contains("--query 1,1,0,0,0,0,0,0"));
  REQUIRE(set_param(p, "score_mode", "cosine").ok());
  const auto c = view_export(p);
  REQUIRE_FALSE(c.ok());
  CHECK_THAT(c.error().message, Catch::Contains("1 + cos"));
  REQUIRE(set_param(p, "view", "sinusoidal").ok());
  REQUIRE(set_param(p, "learned_positions", "48").ok());
  const auto l = view_export(p);
  REQUIRE_FALSE(l.ok());
  CHECK_THAT(l.error().message, Catch::Contains("learned"));
}
