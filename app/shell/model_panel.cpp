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

// A layer type's colour on the strip: NoPE layers in the grid's grey (nothing turns), the RoPE
// types in the query, key, accent and check colours, in legend order.
ImU32 layer_colour(const ModelLayers& layers, int type, const Palette& pal) {
  if (!layers.types[static_cast<std::size_t>(type)].rope) return pal.grid;
  const ImU32 colours[] = {pal.query, pal.key, pal.accent, pal.good};
  int rope_index = 0;
  for (int t = 0; t < type; ++t)
    rope_index += layers.types[static_cast<std::size_t>(t)].rope ? 1 : 0;
  return colours[rope_index % 4];
}

// The layer strip: one cell per layer, coloured by its type, the chosen one framed; a click
// chooses a layer (the parameter `layer`, so every view shows that layer's RoPE), a click on
// the chosen one goes back to the model's own values. The legend below: the pattern, and per
// type its count and values.
void layer_strip(AppState& state, const ModelPreset& preset, const ViewEnv& env) {
  Params& p = state.params;
  const ModelLayers& layers = preset.layers;
  const Palette& pal = palette(p.theme);
  const float s = env.scale;
  const int n = layers.count();
  ImGui::Spacing();
  ImGui::TextUnformatted(("Layers: " + layers.pattern()).c_str());
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = 22.0f * s;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##layer_strip", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float cell = width / static_cast<float>(n);
  const float gap = cell > 4.0f * s ? 1.0f * s : 0.0f;
  for (int l = 0; l < n; ++l) {
    const ImVec2 a(at.x + cell * static_cast<float>(l), at.y);
    const ImVec2 b(a.x + cell - gap, at.y + height);
    dl->AddRectFilled(a, b, layer_colour(layers, layers.type_of[static_cast<std::size_t>(l)], pal));
  }
  if (p.layer >= 0 && p.layer < n) {
    const ImVec2 a(at.x + cell * static_cast<float>(p.layer), at.y);
    dl->AddRect(ImVec2(a.x - 2.0f * s, a.y - 2.0f * s),
                ImVec2(a.x + cell - gap + 2.0f * s, a.y + height + 2.0f * s), pal.text, 0.0f, 0,
                2.0f * s);
  }
  if (hovered) {
    const int l = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - at.x) / cell), 0, n - 1);
    const LayerType& type = *layers.type(l);
    ImGui::SetTooltip("layer %d: %s (%s)%s", l, type.name.c_str(),
                      layer_type_words(preset, type).c_str(),
                      l == p.layer ? "; click: back to the model's values" : "; click to show it");
    if (clicked) {
      const std::string value = l == p.layer ? "none" : std::to_string(l);
      if (auto st = change_param(p, "layer", value); !st)
        show_notice(state, st.error().to_string(), true);
    }
  }
  for (std::size_t t = 0; t < layers.types.size(); ++t) {
    const ImVec2 c = ImGui::GetCursorScreenPos();
    const float box = ImGui::GetTextLineHeight() * 0.8f;
    dl->AddRectFilled(ImVec2(c.x, c.y + 0.1f * box), ImVec2(c.x + box, c.y + 1.1f * box),
                      layer_colour(layers, static_cast<int>(t), pal));
    ImGui::Dummy(ImVec2(box, box));
    ImGui::SameLine();
    ImGui::TextWrapped("%d %s: %s", layers.count_of(static_cast<int>(t)),
                       layers.types[t].name.c_str(),
                       layer_type_words(preset, layers.types[t]).c_str());
  }
  if (p.layer < 0) {
    ImGui::TextDisabled("no layer chosen: the model's own values are shown");
  } else if (ImGui::Button("All layers: the model's values")) {
    if (auto st = change_param(p, "layer", "none"); !st)
      show_notice(state, st.error().to_string(), true);
  }
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
    if (!changed_since_model(p).empty() && ImGui::Button("Restore the preset's values")) {
      const int layer = p.layer;
      choose(state, active->id);
      if (layer >= 0)  // the same layer's values
        if (auto st = change_param(p, "layer", std::to_string(layer)); !st)
          show_notice(state, st.error().to_string(), true);
    }
  }

  if (const ModelPreset* shown = active_preset(p); shown && !shown->layers.empty())
    layer_strip(state, *shown, env);

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
