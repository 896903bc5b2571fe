// The table-driven widgets (ui/param_widgets.h): every view's controls and the control panel are
// drawn headless in every state that shows a different set of widgets, and every number widget
// drawn must carry its parameter's own range: the table's slider ends and scale, or (where the
// view sets the ends from the state) ends inside the parameter's range. Every parameter whose
// row has a widget format is drawn by some widget.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "state/params.h"
#include "ui/param_widgets.h"
#include "view_harness.h"

using namespace rope::app;
using namespace rope::app::view_test;

namespace {

// The states to draw each view in: the view itself, and the settings that show more widgets.
std::vector<std::vector<std::pair<const char*, const char*>>> states_of(ViewId v) {
  const std::string name = view_name(v);
  std::vector<std::vector<std::pair<const char*, const char*>>> out;
  out.push_back({{"view", view_name(v)}});
  if (name == "pointers") out.push_back({{"view", view_name(v)}, {"trails", "true"}});
  if (name == "decay")
    out.push_back({{"view", view_name(v)}, {"compare_base", "500000"}, {"compare_dim", "64"}});
  if (name == "extension") {
    for (const char* method :
         {"linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional"})
      out.push_back({{"view", view_name(v)}, {"scaling", method}});
    out.push_back({{"view", view_name(v)}, {"extension_mode", "extrapolation"}});
  }
  return out;
}

}  // namespace

TEST_CASE("every number widget drawn reads its parameter's range from the table",
          "[params][views]") {
  UiContext ui(false);
  ParamWidgetLog log;
  for (ViewId v : all_views()) {
    for (const auto& settings : states_of(v)) {
      AppState state;
      for (const auto& [name, value] : settings)
        set(state.params, name, value);
      Views views;
      const RecordParamWidgets record(log);
      run_frames(ui, state, views, 2);
    }
  }
  REQUIRE(!log.drawn.empty());
  std::set<std::string> drawn;
  for (const DrawnParamWidget& w : log.drawn) {
    INFO(w.name << ": " << w.slider_min << " ... " << w.slider_max);
    const ParamSpec* spec = find_param(w.name);
    REQUIRE(spec != nullptr);
    CHECK((spec->kind == ParamKind::integer || spec->kind == ParamKind::real));
    const ParamRange& r = spec->range;
    drawn.insert(w.name);
    if (w.input) {  // an exact field takes the whole range
      CHECK(w.slider_min == r.min);
      CHECK(w.slider_max == r.max);
    } else if (w.dynamic_ends) {  // ends from the state, inside what the parameter accepts
      CHECK(w.slider_min >= r.min);
      CHECK(w.slider_max <= r.max);
      CHECK(w.logarithmic == r.logarithmic);
    } else {
      CHECK(w.slider_min == r.slider_min);
      CHECK(w.slider_max == r.slider_max);
      CHECK(w.logarithmic == r.logarithmic);
    }
  }
  // every row that says how its widget shows it has one somewhere
  for (const ParamSpec& spec : param_specs()) {
    if (spec.range.format == nullptr) continue;
    INFO(spec.name);
    CHECK(drawn.count(spec.name) == 1);
  }
  // the control panel's, worked out from the table by hand: d 2 ... 512 of 2 ... 4096, base
  // 10 ... 1e7 and speed 0.05 ... 100 positions/s in ratios, positions 0 ... 256 of -1e9 ... 1e9
  std::map<std::string, DrawnParamWidget> sliders;
  for (const DrawnParamWidget& w : log.drawn)
    if (!w.input) sliders[w.name] = w;
  CHECK((sliders["dim"].slider_min == 2 && sliders["dim"].slider_max == 512 &&
         !sliders["dim"].logarithmic));
  CHECK((sliders["base"].slider_min == 10 && sliders["base"].slider_max == 1e7 &&
         sliders["base"].logarithmic));
  CHECK((sliders["speed"].slider_min == 0.05 && sliders["speed"].slider_max == 100 &&
         sliders["speed"].logarithmic));
  CHECK((sliders["position"].slider_min == 0 && sliders["position"].slider_max == 256));
  // the extension view's factor: the table's 1 ... 64 slider, not a clamp of its own
  CHECK((sliders["factor"].slider_min == 1 && sliders["factor"].slider_max == 64));
}
