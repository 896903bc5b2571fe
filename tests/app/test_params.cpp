// Parameter table: every name parses what it prints, bad values leave the state unchanged and
// name the parameter and what is allowed.
#include <catch2/catch.hpp>

#include "state/params.h"

using namespace rope::app;

TEST_CASE("every parameter reads back what it printed", "[params]") {
  Params p;
  for (const ParamSpec& spec : param_specs()) {
    const std::string printed = spec.get(p);
    Params q = p;
    INFO(spec.name << " = " << printed);
    REQUIRE(set_param(q, spec.name, printed).ok());
    CHECK(spec.get(q) == printed);
  }
}

TEST_CASE("bad values are rejected with the parameter, the value and the allowed range",
          "[params]") {
  struct Case {
    const char* name;
    const char* value;
    const char* expect;  // substring of the message
  };
  const Case cases[] = {
      {"dim", "7", "even"},
      {"dim", "0", "2 to 4096"},
      {"dim", "-4", "2 to 4096"},
      {"dim", "99999999999", "2 to 4096"},
      {"dim", "eight", "whole number"},
      {"base", "1", "greater than 1"},
      {"base", "0.5", "greater than 1"},
      {"base", "nan", "finite"},
      {"base", "inf", "finite"},
      {"position", "1e300", "-1e9 to 1e9"},
      {"position", "nan", "finite"},
      {"pairing", "zigzag", "interleaved or half"},
      {"query", "1,x,3", "entry 2"},
      {"view", "nope", "pointers"},
      {"speed", "0", "0.05 to 100"},
      {"ui_scale", "9", "0.5 to 4"},
      {"sentence_a", "   ", "at least one word"},
  };
  for (const Case& c : cases) {
    Params p;
    const Params before = p;
    INFO(c.name << " = " << c.value);
    const auto s = set_param(p, c.name, c.value);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().parameter == c.name);
    CHECK_THAT(s.error().message, Catch::Contains(c.expect));
    CHECK(p.dim == before.dim);  // unchanged
    CHECK(p.base == before.base);
    CHECK(p.position == before.position);
  }
  Params p;
  CHECK_FALSE(set_param(p, "no_such_thing", "1").ok());
}

TEST_CASE("a custom query must have exactly d values", "[params]") {
  Params p;
  REQUIRE(set_param(p, "dim", "4").ok());
  REQUIRE(set_param(p, "query", "1,2,3").ok());
  const auto s = validate_params(p);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().parameter == "query");
  REQUIRE(set_param(p, "query", "1,2,3,4").ok());
  CHECK(validate_params(p).ok());
  CHECK(effective_vector(p.query, p, false) == std::vector<double>{1, 2, 3, 4});
}

TEST_CASE("effective vectors follow the preset and the dimension", "[params]") {
  Params p;
  p.dim = 6;
  CHECK(effective_vector(VectorChoice{VectorPreset::unit, {}}, p, false) ==
        std::vector<double>{1, 0, 0, 0, 0, 0});
  CHECK(effective_vector(VectorChoice{VectorPreset::ones, {}}, p, false) ==
        std::vector<double>(6, 1.0));
  const auto r1 = effective_vector(VectorChoice{VectorPreset::random, {}}, p, false);
  const auto r2 = effective_vector(VectorChoice{VectorPreset::random, {}}, p, false);
  const auto rk = effective_vector(VectorChoice{VectorPreset::random, {}}, p, true);
  CHECK(r1 == r2);  // seeded
  CHECK(r1 != rk);  // the key draws from seed + 1
  CHECK(effective_vector(VectorChoice{VectorPreset::custom, {1, 2}}, p, false) ==
        std::vector<double>{1, 2, 0, 0, 0, 0});
}
