// ui/param_widgets.h — the widgets that edit a number parameter of the table (state/params.h):
// range, slider ends, log scale, snap, format and tooltip all come from the parameter's row, and
// an edit is written with set_param_value, which clamps to the parameter's min ... max (never to
// the slider's ends) and sets it through the row's own setter. No view writes a range.
//
// A widget takes the width the caller set (ImGui::SetNextItemWidth), as any ImGui item, and shows
// the row's help as its tooltip. Each returns true when it changed the value; cross-field
// repairs are the caller's (normalise_extension, state/scaling_params.h).
//
// Usage:
//   ImGui::SetNextItemWidth(-1);
//   param_slider(p, "max_distance");                       // "max distance R = 256"
//   param_input(p, "position");                            // exact entry, any allowed value
//   param_slider(p, "precision_pair", SliderEnds{0, d/2 - 1});  // ends that depend on the state
//
// Tests read which parameters were drawn with which ends through a ParamWidgetLog:
//   ParamWidgetLog log;
//   { const RecordParamWidgets rec(log); draw ...; }      // log.drawn lists every widget drawn
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "state/app_state.h"

namespace rope::app {

// Slider ends that depend on the state rather than the table (the precision view's pair below
// d/2); they must lie inside the parameter's min ... max, and the value is still clamped to that.
struct SliderEnds {
  double min = 0.0, max = 0.0;
};

// A slider over the row's slider ends (or `ends`), in the row's scale and format.
bool param_slider(Params& p, const char* name, const SliderEnds* ends = nullptr);
inline bool param_slider(Params& p, const char* name, SliderEnds ends) {
  return param_slider(p, name, &ends);
}

// A text field for the exact value: any value the row accepts is taken on Enter; others are
// ignored (the field shows the current value again).
bool param_input(Params& p, const char* name);

// Several real parameters in one row of fields (trajectory: x = (x1, x2)), in the first one's
// format; each accepted value is set as param_input sets it.
bool param_inputs(Params& p, std::initializer_list<const char*> names);

// What one widget drew: the parameter, its slider ends (equal to min ... max for an input
// field) and whether the ends came from the state (SliderEnds) instead of the table.
struct DrawnParamWidget {
  std::string name;
  double slider_min = 0.0, slider_max = 0.0;
  bool logarithmic = false;
  bool input = false;         // a text field, not a slider
  bool dynamic_ends = false;  // SliderEnds given by the caller
};
struct ParamWidgetLog {
  std::vector<DrawnParamWidget> drawn;
};

// While alive, every param widget drawn in the current ImGui context is appended to `log`
// (the context's io.UserData points at it; the previous pointer is restored on destruction).
class RecordParamWidgets {
 public:
  explicit RecordParamWidgets(ParamWidgetLog& log);
  ~RecordParamWidgets();
  RecordParamWidgets(const RecordParamWidgets&) = delete;
  RecordParamWidgets& operator=(const RecordParamWidgets&) = delete;

 private:
  void* previous_ = nullptr;
};

}  // namespace rope::app
