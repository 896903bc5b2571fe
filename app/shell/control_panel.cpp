#include "shell/control_panel.h"

#include <algorithm>
#include <cmath>

#include "imgui.h"
#include "io/number_format.h"
#include "shell/frame.h"
#include "shell/model_panel.h"
#include "state/actions.h"
#include "state/params.h"
#include "ui/canvas.h"

namespace rope::app {
namespace {

constexpr float kPanelWidth = 400.0f;  // px at scale 1

// The parameters with a slider, in the order drawn (panel_slider_params).
constexpr const char* kSliderParams[] = {"speed", "position", "key_position", "dim", "base"};

ImGuiSliderFlags slider_flags(const PanelSlider& s) {
  return s.logarithmic ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None;
}

void section(const char* title, const ViewEnv& env) {
  ImGui::Spacing();
  ImGui::PushFont(env.fonts->bold);
  ImGui::TextUnformatted(title);
  ImGui::PopFont();
  ImGui::Separator();
}

// A position slider with an exact-entry field: the slider covers the usual range (the table's
// slider ends), the field takes any allowed value.
bool position_control(const char* label, const char* id, const char* param, double& value) {
  const ParamRange& range = param_range(param);
  const PanelSlider slider = panel_slider(param);
  ImGui::PushID(id);
  ImGui::TextUnformatted(label);
  bool changed = false;
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::SetNextItemWidth(w * 0.62f);
  float v = static_cast<float>(value);
  if (ImGui::SliderFloat("##slider", &v, slider.min, slider.max, "%.2f", slider_flags(slider))) {
    value = range.clamp(static_cast<double>(v));
    changed = true;
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  double exact = value;
  if (ImGui::InputDouble("##exact", &exact, 0.0, 0.0, "%.6g",
                         ImGuiInputTextFlags_EnterReturnsTrue) &&
      range.contains(exact)) {
    value = exact;
    changed = true;
  }
  ImGui::PopID();
  return changed;
}

void position_controls(Params& p, const ViewEnv& env) {
  section("Position", env);
  const float bw = (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3;
  if (ImGui::Button("◀ −1", ImVec2(bw, 0))) step_position(p, -1.0);
  ImGui::SameLine();
  if (ImGui::Button(p.playing ? "‖ Pause" : "▶ Play", ImVec2(bw, 0))) p.playing = !p.playing;
  ImGui::SameLine();
  if (ImGui::Button("+1 ▶", ImVec2(bw, 0))) step_position(p, 1.0);
  const PanelSlider speed_slider = panel_slider("speed");
  float speed = static_cast<float>(p.speed);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##speed", &speed, speed_slider.min, speed_slider.max,
                         "speed %.2f positions/s", slider_flags(speed_slider)))
    p.speed = param_range("speed").clamp(static_cast<double>(speed));
  position_control("query position m", "m", "position", p.position);
  position_control("key position n", "n", "key_position", p.key_position);
  ImGui::TextUnformatted("shift both");
  ImGui::SameLine();
  if (ImGui::Button("◀ −1##both")) shift_both(p, -1.0);
  ImGui::SameLine();
  if (ImGui::Button("+1 ▶##both")) shift_both(p, 1.0);
  ImGui::SameLine();
  ImGui::TextDisabled("n − m = %s",
                      format_number(p.key_position - p.position, NumberStyle::label, 6).c_str());
}

void rope_controls(Params& p, const ViewEnv& env) {
  section("RoPE", env);
  // d is an integer: its slider's ends are whole numbers in the table
  const PanelSlider dim_slider = panel_slider("dim");
  int dim = p.dim;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##dim", &dim, static_cast<int>(dim_slider.min),
                       static_cast<int>(dim_slider.max), "d = %d", slider_flags(dim_slider)))
    p.dim = static_cast<int>(param_range("dim").clamp(dim));
  const PanelSlider base_slider = panel_slider("base");
  float base = static_cast<float>(p.base);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##base", &base, base_slider.min, base_slider.max, "base = %.0f",
                         slider_flags(base_slider)))
    p.base = param_range("base").clamp(std::round(static_cast<double>(base)));
  if (ImGui::Button("10 000")) p.base = 10000.0;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("RoFormer and Llama 2");
  ImGui::SameLine();
  if (ImGui::Button("500 000")) p.base = 500000.0;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Llama 3: slower low frequencies for long context");
  int pairing = p.pairing == Pairing::half_split ? 1 : 0;
  ImGui::TextUnformatted("pairing");
  ImGui::SameLine();
  if (ImGui::RadioButton("interleaved", &pairing, 0)) p.pairing = Pairing::interleaved;
  ImGui::SameLine();
  if (ImGui::RadioButton("half-split", &pairing, 1)) p.pairing = Pairing::half_split;
}

}  // namespace

PanelSlider panel_slider(const char* param) {
  const ParamRange& r = param_range(param);
  return {param, static_cast<float>(r.slider_min), static_cast<float>(r.slider_max), r.logarithmic};
}

std::span<const char* const> panel_slider_params() {
  return kSliderParams;
}

float control_panel_width(const ViewEnv& env, float display_width) {
  return std::min(kPanelWidth * env.scale, display_width * 0.5f);
}

void draw_control_panel(AppState& state, Views& views, const ViewEnv& env, float top,
                        float height) {
  ImGui::SetNextWindowPos(ImVec2(0, top));
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth * env.scale, height));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus |
                                 ImGuiWindowFlags_NoBackground;  // cleared by clear_frame
  if (ImGui::Begin("Controls", nullptr, flags)) {
    ImGui::PushFont(env.fonts->title);
    ImGui::TextUnformatted(view_title(state.params.view));
    ImGui::PopFont();
    position_controls(state.params, env);
    rope_controls(state.params, env);
    model_controls(state, env);  // model presets and partial rotary (shell/model_panel.h)
    section("View", env);
    views.visit(state.params.view, [&](auto& view) {
      if constexpr (requires { view.DrawControls(state, env, views.library); }) {
        view.DrawControls(state, env, views.library);  // the derivation view: the lesson list
      } else {
        view.DrawControls(state, env);
      }
    });
  }
  ImGui::End();
}

}  // namespace rope::app
