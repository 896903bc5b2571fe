// Parameter table: every name parses what it prints, bad values leave the state unchanged and
// name the parameter and what is allowed, the ranges (and the sliders' parts of them) agree with
// the core and with themselves, and the kinds say which parameters are booleans. The widgets
// that read the table are checked in test_param_widgets.cpp (app_tests).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "io/number_format.h"
#include "rope/frequencies.h"
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
      {"dim", "eight", "must be an even integer from 2 to 4096"},
      {"base", "1", "greater than 1"},
      {"base", "0.5", "greater than 1"},
      {"base", "nan", "finite"},
      {"base", "inf", "finite"},
      {"position", "1e300", "-1e9 to 1e9"},
      {"position", "nan", "must be a number from -1e9 to 1e9"},
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

TEST_CASE("changing d sends a typed q or k of another length back to all ones (review D1, D2)",
          "[params]") {
  Params p;
  REQUIRE(set_param(p, "dim", "2").ok());
  REQUIRE(set_param(p, "query", "1,0.4").ok());
  REQUIRE(set_param(p, "key", "0.6,0.9").ok());
  SECTION("through the table") {
    REQUIRE(set_param(p, "dim", "8").ok());
  }
  SECTION("through the typed setter (keys, sliders)") {
    REQUIRE(set_param_value(p, "dim", 8).ok());
  }
  CHECK(p.query == Params{}.query);
  CHECK(p.key == Params{}.key);
  CHECK(validate_params(p).ok());
}

TEST_CASE("a typed vector that fits the new d stays, in whatever order the two are set",
          "[params]") {
  Params p;
  REQUIRE(set_param(p, "dim", "2").ok());
  REQUIRE(set_param(p, "query", "1,0.4").ok());
  REQUIRE(set_param(p, "dim", "2").ok());
  CHECK(p.query.values == std::vector<double>{1, 0.4});
  // a session or a lesson line may give the vector first, then its d
  Params q;
  REQUIRE(set_param(q, "query", "1,2,3,4").ok());
  REQUIRE(set_param(q, "dim", "4").ok());
  CHECK(q.query.preset == VectorPreset::custom);
  CHECK(validate_params(q).ok());
  CHECK_FALSE(fit_vectors_to_dim(q));
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

TEST_CASE("the table's messages name the range it holds", "[params]") {
  const auto message = [](const char* name, const char* value) {
    Params p;
    const auto s = set_param(p, name, value);
    REQUIRE_FALSE(s.ok());
    return s.error().message;
  };
  CHECK(message("dim", "7") == "must be an even integer from 2 to 4096, got 7");  // the core's
  CHECK(message("base", "1") == "must be a finite number greater than 1, got 1");
  CHECK(message("pe_dim", "7") == "must be an even integer from 2 to 4096, got '7'");
  CHECK(message("position", "1e10") == "must be a number from -1e9 to 1e9, got '1e10'");
  CHECK(message("speed", "0") == "must be a number from 0.05 to 100, got '0'");
  CHECK(message("seed", "-1") == "must be an integer from 0 to 9007199254740991, got '-1'");
  CHECK(message("context_length", "0") == "must be an integer from 1 to 10000000, got '0'");
  CHECK(message("compare_dim", "3") ==
        "must be 0 (off) or an even integer from 2 to 4096, got '3'");
  CHECK(message("compare_base", "0.5") ==
        "must be 0 (off) or a finite number greater than 1, got '0.5'");
  CHECK(message("trails", "maybe") ==
        "must be true or false (also on/off, yes/no, 1/0), got 'maybe'");
  CHECK(param_allowed(*find_param("point_x")) == "a number from -1e6 to 1e6");
  CHECK(param_allowed(*find_param("trails")) == "true or false");
  CHECK(param_allowed(*find_param("pairing")) == "interleaved or half");
  // the view row lists every view of the registry, in menu order, the last after "or"
  const std::string views = param_allowed(*find_param("view"));
  CHECK(views.rfind("pointers, sinusoidal, ", 0) == 0);
  for (const ViewId v : all_views()) {
    INFO(view_name(v));
    CHECK(views.find(view_name(v)) != std::string::npos);
  }
  CHECK(views.find(std::string(" or ") + view_name(all_views().back())) != std::string::npos);
}

TEST_CASE("d and base: the table accepts exactly what the core accepts", "[params]") {
  for (long long d = -4; d <= rope::kMaxDim + 4; ++d) {
    Params p;
    INFO("d " << d);
    CHECK(set_param(p, "dim", std::to_string(d)).ok() == rope::validate_dim(d).ok());
    CHECK(set_param(p, "pe_dim", std::to_string(d)).ok() == rope::validate_dim(d).ok());
    CHECK(param_range("dim").contains(static_cast<double>(d)) == rope::validate_dim(d).ok());
  }
  for (double b : {-1.0, 0.0, 0.5, 1.0, 1.0000000000000002, 2.0, 1e4, 1e300}) {
    Params p;
    INFO("base " << b);
    CHECK(set_param(p, "base", format_number(b, NumberStyle::csv)).ok() ==
          rope::validate_base(b).ok());
    CHECK(param_range("base").contains(b) == rope::validate_base(b).ok());
  }
}

TEST_CASE("every number parameter: its slider lies inside what it accepts", "[params]") {
  int numbers = 0;
  for (const ParamSpec& spec : param_specs()) {
    const ParamRange& r = spec.range;
    INFO(spec.name);
    CHECK(&param_range(spec.name) == &r);
    if (spec.kind != ParamKind::integer && spec.kind != ParamKind::real) {
      CHECK((r.min == 0.0 && r.max == 0.0 && r.slider_min == 0.0 && r.slider_max == 0.0));
      continue;
    }
    ++numbers;
    CHECK(r.min < r.max);
    CHECK(r.slider_min < r.slider_max);
    CHECK(r.contains(r.slider_min));
    CHECK(r.contains(r.slider_max));
    if (r.logarithmic) CHECK(r.slider_min > 0.0);
    // the printed default is accepted, and so are the ends (a finite max only)
    Params p;
    CHECK(r.contains(std::stod(spec.get(p))));
    const std::string lo =
        format_number(r.above_min ? std::nextafter(r.min, r.max) : r.min, NumberStyle::csv);
    CHECK(set_param(p, spec.name, lo).ok());
    if (std::isfinite(r.max))
      CHECK(set_param(p, spec.name, format_number(r.max, NumberStyle::csv)).ok());
  }
  CHECK(numbers == 45);  // with the heatmap's stride and the learned table's L
  // deliberate sub-ranges: d's slider shows 2 ... 512 of 2 ... 4096
  CHECK(param_range("dim").slider_max == 512);
  CHECK(param_range("dim").max == rope::kMaxDim);
  CHECK(param_range("no_such_thing").max == 0.0);
}

TEST_CASE("a range clamps into what it accepts", "[params]") {
  const ParamRange& dim = param_range("dim");
  CHECK(dim.clamp(7) == 8);
  CHECK(dim.clamp(1024) == 1024);  // beyond the slider, inside the range: kept
  CHECK(dim.clamp(5000) == 4096);
  CHECK(dim.clamp(4095) == 4096);
  CHECK(dim.clamp(-3) == 2);
  CHECK(dim.clamp(std::nan("")) == 2);
  CHECK(param_range("compare_dim").clamp(0) == 0);  // off
  CHECK(param_range("compare_dim").clamp(1) == 2);
  CHECK(param_range("base").clamp(1.0) > 1.0);
  CHECK(param_range("base").clamp(1e300) == 1e300);
  CHECK(param_range("speed").clamp(1000) == 100);
}

TEST_CASE("a typed value is clamped to the range, never to the slider's ends", "[params]") {
  Params p;
  REQUIRE(set_param_value(p, "factor", 128.0).ok());  // beyond the slider's 64
  CHECK(p.extension.scaling.factor == 128.0);
  REQUIRE(set_param_value(p, "factor", 0.5).ok());  // compression, below the slider's 1
  CHECK(p.extension.scaling.factor == 0.5);
  REQUIRE(set_param_value(p, "factor", 1e12).ok());
  CHECK(p.extension.scaling.factor == param_range("factor").max);
  REQUIRE(set_param_value(p, "dim", 33.4).ok());  // rounded, then up to the next even d
  CHECK(p.dim == 34);
  REQUIRE(set_param_value(p, "base", 1.0).ok());  // base > 1
  CHECK(p.base > 1.0);
  REQUIRE(set_param_value(p, "position", -2e9).ok());
  CHECK(p.position == -1e9);
  REQUIRE(set_param_value(p, "compare_dim", 0).ok());  // 0 is "off"
  CHECK(p.compare_dim == 0);
  CHECK(param_value(p, "dim") == 34.0);
  CHECK(param_value(p, "factor") == 1e6);
  CHECK(std::isnan(param_value(p, "theme")));
  CHECK_FALSE(set_param_value(p, "theme", 1.0).ok());
  CHECK_FALSE(set_param_value(p, "no_such_name", 1.0).ok());
}

TEST_CASE("booleans are the parameters of boolean kind, and only those print true/false",
          "[params]") {
  int booleans = 0;
  for (const ParamSpec& spec : param_specs()) {
    Params p;
    const std::string printed = spec.get(p);
    INFO(spec.name << " = " << printed);
    const bool looks_boolean = printed == "true" || printed == "false";
    CHECK(looks_boolean == (spec.kind == ParamKind::boolean));
    if (spec.kind == ParamKind::boolean) {
      ++booleans;
      REQUIRE(set_param(p, spec.name, "on").ok());
      CHECK(spec.get(p) == "true");
      REQUIRE(set_param(p, spec.name, "0").ok());
      CHECK(spec.get(p) == "false");
    }
  }
  CHECK(booleans == 19);  // emulate_precision; polar, linear_reuse, sentence_pair; pe_add_ones,
                          // diagonal_fit; partial_compare, axial_moved, axial_rectangle
}

TEST_CASE("a value that is not a number names the allowed range; tiny numbers are numbers",
          "[params]") {
  const auto message = [](const char* name, const char* value) {
    Params p;
    const auto s = set_param(p, name, value);
    REQUIRE_FALSE(s.ok());
    return s.error().message;
  };
  CHECK(message("speed", "fast") == "must be a number from 0.05 to 100, got 'fast'");
  CHECK(message("context_length", "1.5") == "must be an integer from 1 to 10000000, got '1.5'");
  CHECK(message("factor", "big") == "must be a number from 1e-6 to 1e6, got 'big'");
  CHECK(message("base", "ten") == "must be a finite number greater than 1, got 'ten'");
  // 1e-320 is a subnormal and 1e-400 reads as 0: finite numbers, judged by the range
  Params p;
  CHECK(set_param(p, "position", "1e-320").ok());
  CHECK(p.position == 1e-320);
  CHECK(set_param(p, "position", "-1e-400").ok());
  CHECK(p.position == 0.0);
  CHECK(message("base", "1e-320") == "must be a finite number greater than 1, got 1e-320");
  CHECK(message("position", "1e400") == "must be a number from -1e9 to 1e9, got '1e400'");
}
