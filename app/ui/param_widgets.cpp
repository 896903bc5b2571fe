#include "ui/param_widgets.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "imgui.h"
#include "state/params.h"

namespace rope::app {
namespace {

void record(const DrawnParamWidget& w) {
  if (auto* log = static_cast<ParamWidgetLog*>(ImGui::GetIO().UserData)) log->drawn.push_back(w);
}

void tooltip(const ParamSpec& spec) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", spec.help);
}

// The row of a number parameter; nullptr (and nothing drawn) for any other name.
const ParamSpec* number_row(const char* name) {
  const ParamSpec* spec = find_param(name);
  if (!spec || (spec->kind != ParamKind::integer && spec->kind != ParamKind::real)) return nullptr;
  return spec;
}

int as_int(double v) {
  constexpr double lo = std::numeric_limits<int>::min(), hi = std::numeric_limits<int>::max();
  return std::isnan(v) ? 0 : static_cast<int>(std::clamp(v, lo, hi));
}

}  // namespace

bool param_slider(Params& p, const char* name, const SliderEnds* ends) {
  const ParamSpec* spec = number_row(name);
  if (!spec) return false;
  const ParamRange& r = spec->range;
  const double lo = ends ? std::max(ends->min, r.min) : r.slider_min;
  const double hi = ends ? std::min(ends->max, r.max) : r.slider_max;
  record({name, lo, hi, r.logarithmic, false, ends != nullptr});
  const ImGuiSliderFlags flags =
      r.logarithmic ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None;
  const std::string id = std::string("##") + name;
  const double now = param_value(p, name);
  bool changed = false;
  double v = now;
  if (spec->kind == ParamKind::integer) {
    int x = as_int(now);
    const int a = as_int(lo), b = as_int(hi);
    if (ImGui::SliderScalar(id.c_str(), ImGuiDataType_S32, &x, &a, &b, r.format ? r.format : "%d",
                            flags)) {
      v = x;
      changed = true;
    }
  } else {
    double x = now;
    if (ImGui::SliderScalar(id.c_str(), ImGuiDataType_Double, &x, &lo, &hi,
                            r.format ? r.format : "%.6g", flags)) {
      v = r.snap > 0.0 ? std::round(x / r.snap) * r.snap : x;
      changed = true;
    }
  }
  tooltip(*spec);
  return changed && v != now && set_param_value(p, name, v).ok();
}

bool param_input(Params& p, const char* name) {
  const ParamSpec* spec = number_row(name);
  if (!spec) return false;
  record({name, spec->range.min, spec->range.max, false, true, false});
  const std::string id = std::string("##") + name + "_exact";
  double exact = param_value(p, name);
  // 15 significant digits: 10 000 004 shows whole, not "1e+07" (review D11), which Enter would
  // have set back as 10 000 000; a typed 0.1 still reads 0.1, not its binary noise
  const bool entered = ImGui::InputDouble(id.c_str(), &exact, 0.0, 0.0, "%.15g",
                                          ImGuiInputTextFlags_EnterReturnsTrue);
  tooltip(*spec);
  return entered && spec->range.contains(exact) && set_param_value(p, name, exact).ok();
}

bool param_inputs(Params& p, std::initializer_list<const char*> names) {
  constexpr int kMaxFields = 4;
  double values[kMaxFields] = {};
  const ParamSpec* specs[kMaxFields] = {};
  int n = 0;
  for (const char* name : names) {
    const ParamSpec* spec = number_row(name);
    if (!spec || n == kMaxFields) return false;
    specs[n] = spec;
    values[n++] = param_value(p, name);
    record({name, spec->range.min, spec->range.max, false, true, false});
  }
  if (n == 0) return false;
  const std::string id = std::string("##") + specs[0]->name;
  const char* format = specs[0]->range.format ? specs[0]->range.format : "%.6g";
  const bool edited =
      ImGui::InputScalarN(id.c_str(), ImGuiDataType_Double, values, n, nullptr, nullptr, format);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", specs[0]->help);
  bool changed = false;
  if (edited)
    for (int i = 0; i < n; ++i)
      if (specs[i]->range.contains(values[i]) && values[i] != param_value(p, specs[i]->name))
        changed |= set_param_value(p, specs[i]->name, values[i]).ok();
  return changed;
}

RecordParamWidgets::RecordParamWidgets(ParamWidgetLog& log) : previous_(ImGui::GetIO().UserData) {
  ImGui::GetIO().UserData = &log;
}

RecordParamWidgets::~RecordParamWidgets() {
  ImGui::GetIO().UserData = previous_;
}

}  // namespace rope::app
