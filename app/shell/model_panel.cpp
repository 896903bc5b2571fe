#include "shell/model_panel.h"

#include <algorithm>
#include <string>

#include "imgui.h"
#include "state/actions.h"
#include "state/models.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/param_widgets.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

// Chooses preset `id` ("" for none) through the parameter table (change_param: a preset
// after which the state would not validate is refused); a refusal becomes a notice.
void choose(AppState& state, const std::string& id) {
  if (auto s = change_param(state.params, "model", id.empty() ? "none" : id); !s)
    show_notice(state, s.error().to_string(), true);
}

const char* tag_words(const std::string& tag) {
  if (tag == "V") return "verified in the primary source";
  if (tag == "C") return "consistent copies; official file not read";
  return "unverified";
}

}  // namespace

void model_controls(AppState& state, const ViewEnv& env) {
  Params& p = state.params;
  const ModelLibrary& lib = model_library();
  const Palette& pal = palette(p.theme);
  ImGui::Spacing();
  ImGui::PushFont(env.fonts->bold);
  ImGui::TextUnformatted("Model");
  ImGui::PopFont();
  ImGui::Separator();
  const ModelPreset* active = lib.find(p.model);
  // a config.json read (File ▸ Open model config, --config) is named as a preset is, with
  // "from config.json" in place of the tag
  const std::string preview = active              ? active->name + " (" + active->tag + ")"
                              : !p.config.empty() ? model_status(p)
                                                  : "none";
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##model", preview.c_str())) {
    if (ImGui::Selectable("none", active == nullptr)) choose(state, "");
    for (const ModelPreset& m : lib.presets) {
      const std::string label = m.name + " (" + m.tag + ")##" + m.id;
      if (ImGui::Selectable(label.c_str(), active == &m)) choose(state, m.id);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.source.c_str());
    }
    ImGui::EndCombo();
  }
  if (!lib.problem.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
    ImGui::TextWrapped("%s", lib.problem.c_str());
    ImGui::PopStyleColor();
  }
  if (!p.config.empty()) {
    ImGui::TextWrapped("%s", model_status(p).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    ImGui::TextWrapped(
        "read from %s as transformers reads it (rope-lab models --from-config "
        "lists what a careful reader would flag)",
        p.config.c_str());
    ImGui::PopStyleColor();
    if (!changed_since_model(p).empty() && ImGui::Button("Restore the config's values")) {
      const std::string path = p.config;
      if (auto s = change_param(p, "config", path); !s)
        show_notice(state, "Not restored: " + s.error().to_string(), true);
    }
  }
  if (active) {
    // The active preset, its tag and what the lecturer changed since choosing it.
    ImGui::TextWrapped("%s", model_status(p).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    ImGui::TextWrapped(
        "%s: %s", active->tag.c_str(),
        active->tag_note.empty() ? tag_words(active->tag) : active->tag_note.c_str());
    ImGui::TextWrapped("source: %s", active->source.c_str());
    if (!active->notes.empty()) ImGui::TextWrapped("%s", active->notes.c_str());
    ImGui::PopStyleColor();
    if (!active->lacks.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
      ImGui::TextWrapped("lacks: %s", active->lacks.c_str());
      ImGui::PopStyleColor();
    }
    if (!changed_since_model(p).empty() && ImGui::Button("Restore the preset's values"))
      choose(state, active->id);
  }

  // Partial rotary: the one fraction and its meaning (state/scaling_params.h).
  const double& fraction = p.extension.scaling.rotary_fraction;
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "rotary_fraction");
  int style = p.extension.rotary_style == RotaryStyle::proportional ? 1 : 0;
  ImGui::TextUnformatted("p means");
  ImGui::SameLine();
  if (ImGui::RadioButton("neox", &style, 0)) p.extension.rotary_style = RotaryStyle::neox;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("GPT-NeoX rotary_pct: θ over int(p·d) dims, the rest pass through");
  ImGui::SameLine();
  if (ImGui::RadioButton("proportional", &style, 1))
    p.extension.rotary_style = RotaryStyle::proportional;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("p-RoPE: full-head θ for the first ⌊p·d/2⌋ pairs, the slow pairs still");
  if (fraction < 1.0 && p.extension.scaling.method != ScalingMethod::proportional) {
    if (auto s = validate_partial_rotary(p.dim, fraction, p.extension.rotary_style); !s) {
      ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
      ImGui::TextWrapped("%s", s.error().to_string().c_str());
      ImGui::PopStyleColor();
    } else {
      ImGui::TextDisabled("%d of %d pairs rotate",
                          rotated_pairs(p.dim, fraction, p.extension.rotary_style), p.dim / 2);
    }
  }
}

void model_menu(AppState& state) {
  const ModelLibrary& lib = model_library();
  if (!ImGui::BeginMenu("Model", true)) return;
  if (ImGui::MenuItem("none", nullptr, state.params.model.empty())) choose(state, "");
  if (!lib.problem.empty()) ImGui::TextDisabled("%s", lib.problem.c_str());
  for (const ModelPreset& m : lib.presets) {
    const std::string label = m.name + " (" + m.tag + ")";
    if (ImGui::MenuItem(label.c_str(), nullptr, state.params.model == m.id)) choose(state, m.id);
  }
  ImGui::EndMenu();
}

}  // namespace rope::app
