#include "shell/control_panel.h"

#include <algorithm>

#include "imgui.h"
#include "io/number_format.h"
#include "shell/frame.h"
#include "shell/model_panel.h"
#include "state/actions.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/param_widgets.h"

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

// A position slider with an exact-entry field: the slider covers the usual range (the table's
// slider ends), the field takes any allowed value.
void position_control(const char* label, const char* param, Params& p) {
  ImGui::PushID(param);
  ImGui::TextUnformatted(label);
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::SetNextItemWidth(w * 0.62f);
  param_slider(p, param);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  param_input(p, param);
  ImGui::PopID();
}

void position_controls(Params& p, const ViewEnv& env) {
  section("Position", env);
  const float bw = (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3;
  if (ImGui::Button("◀ −1", ImVec2(bw, 0))) step_position(p, -1.0);
  ImGui::SameLine();
  if (ImGui::Button(p.playing ? "‖ Pause" : "▶ Play", ImVec2(bw, 0))) p.playing = !p.playing;
  ImGui::SameLine();
  if (ImGui::Button("+1 ▶", ImVec2(bw, 0))) step_position(p, 1.0);
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "speed");
  position_control("query position m", "position", p);
  position_control("key position n", "key_position", p);
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
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "dim");
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "base");
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
