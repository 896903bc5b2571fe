#include "shell/control_panel.h"

#include <algorithm>
#include <cmath>

#include "imgui.h"
#include "shell/frame.h"
#include "shell/model_panel.h"
#include "state/actions.h"
#include "state/params.h"
#include "ui/canvas.h"

namespace rope::app {
namespace {

constexpr float kPanelWidth = 400.0f;  // px at scale 1

void section(const char* title, const ViewEnv& env) {
  ImGui::Spacing();
  ImGui::PushFont(env.fonts->bold);
  ImGui::TextUnformatted(title);
  ImGui::PopFont();
  ImGui::Separator();
}

// A position slider with an exact-entry field: the slider covers the usual range, the field
// takes any allowed value.
bool position_control(const char* label, const char* id, double& value) {
  ImGui::PushID(id);
  ImGui::TextUnformatted(label);
  bool changed = false;
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::SetNextItemWidth(w * 0.62f);
  float v = static_cast<float>(value);
  if (ImGui::SliderFloat("##slider", &v, 0.0f, 256.0f, "%.2f")) {
    value = static_cast<double>(v);
    changed = true;
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  double exact = value;
  if (ImGui::InputDouble("##exact", &exact, 0.0, 0.0, "%.6g",
                         ImGuiInputTextFlags_EnterReturnsTrue) &&
      std::isfinite(exact) && std::fabs(exact) <= 1e9) {
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
  float speed = static_cast<float>(p.speed);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##speed", &speed, 0.05f, 100.0f, "speed %.2f positions/s",
                         ImGuiSliderFlags_Logarithmic))
    p.speed = std::clamp(static_cast<double>(speed), 0.05, 100.0);
  position_control("query position m", "m", p.position);
  position_control("key position n", "n", p.key_position);
  ImGui::TextUnformatted("shift both");
  ImGui::SameLine();
  if (ImGui::Button("◀ −1##both")) shift_both(p, -1.0);
  ImGui::SameLine();
  if (ImGui::Button("+1 ▶##both")) shift_both(p, 1.0);
  ImGui::SameLine();
  ImGui::TextDisabled("n − m = %s", format_number(p.key_position - p.position, 6).c_str());
}

void rope_controls(Params& p, const ViewEnv& env) {
  section("RoPE", env);
  int dim = p.dim;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##dim", &dim, 2, 512, "d = %d"))
    p.dim = std::clamp(dim + (dim & 1), 2, 512);
  float base = static_cast<float>(p.base);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##base", &base, 10.0f, 1e7f, "base = %.0f", ImGuiSliderFlags_Logarithmic))
    p.base = std::clamp(std::round(static_cast<double>(base)), 10.0, 1e7);
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
