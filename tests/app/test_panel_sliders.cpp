// The control panel's sliders (shell/control_panel.h) read their ends and scale from the
// parameter table (state/params.h): the table's own ranges are tested in test_params.cpp.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "shell/control_panel.h"
#include "state/params.h"

using namespace rope::app;

TEST_CASE("the control panel's sliders take their ends and scale from the table", "[params]") {
  // the panel's sliders, in the order drawn, each one a number parameter of the table
  const std::vector<std::string> names(panel_slider_params().begin(), panel_slider_params().end());
  CHECK(names == std::vector<std::string>{"speed", "position", "key_position", "dim", "base"});
  for (const char* name : panel_slider_params()) {
    INFO(name);
    const ParamSpec* spec = find_param(name);
    REQUIRE(spec != nullptr);
    CHECK((spec->kind == ParamKind::integer || spec->kind == ParamKind::real));
    const ParamRange& r = param_range(name);
    const PanelSlider s = panel_slider(name);
    CHECK(std::string(s.param) == name);
    CHECK(s.min == static_cast<float>(r.slider_min));
    CHECK(s.max == static_cast<float>(r.slider_max));
    CHECK(s.logarithmic == r.logarithmic);
    CHECK(s.min < s.max);
  }
  // the ends worked out from the table by hand: d 2 ... 512 of 2 ... 4096, base 10 ... 1e7 and
  // speed 0.05 ... 100 positions/s in ratios, positions 0 ... 256 of -1e9 ... 1e9
  const PanelSlider dim = panel_slider("dim");
  CHECK((dim.min == 2.0f && dim.max == 512.0f && !dim.logarithmic));
  const PanelSlider base = panel_slider("base");
  CHECK((base.min == 10.0f && base.max == 1e7f && base.logarithmic));
  const PanelSlider speed = panel_slider("speed");
  CHECK((speed.min == 0.05f && speed.max == 100.0f && speed.logarithmic));
  for (const char* name : {"position", "key_position"}) {
    const PanelSlider pos = panel_slider(name);
    CHECK((pos.min == 0.0f && pos.max == 256.0f && !pos.logarithmic));
  }
}
