#include "views/vector_editor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "imgui.h"
#include "state/params.h"

namespace rope::app {

void vector_editor(const char* label, VectorChoice& choice, bool is_key, const Params& p) {
  ImGui::PushID(label);
  static const char* kNames[] = {"unit first component", "all ones", "seeded random", "custom"};
  int preset = static_cast<int>(choice.preset);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::Combo("##preset", &preset, kNames, 4)) {
    if (preset == static_cast<int>(VectorPreset::custom)) {
      choice.values = effective_vector(choice, p, is_key);
    }
    choice.preset = static_cast<VectorPreset>(preset);
  }
  if (ImGui::TreeNode("values", "edit the %d values", p.dim)) {
    std::vector<double> v = effective_vector(choice, p, is_key);
    ImGui::BeginChild("vals", ImVec2(0, static_cast<float>(std::min(8, p.dim)) *
                                            ImGui::GetFrameHeightWithSpacing()));
    bool changed = false;
    for (int j = 0; j < p.dim; ++j) {
      ImGui::PushID(j);
      ImGui::SetNextItemWidth(-1);
      char item[16];
      std::snprintf(item, sizeof item, "[%d]", j);
      changed |= ImGui::InputDouble(item, &v[static_cast<std::size_t>(j)], 0.1, 1.0, "%.6g");
      ImGui::PopID();
    }
    ImGui::EndChild();
    if (changed) {
      bool finite = true;
      for (double x : v)
        finite = finite && std::isfinite(x) && std::fabs(x) <= 1e6;
      if (finite) choice = VectorChoice{VectorPreset::custom, v};
    }
    ImGui::TreePop();
  }
  ImGui::PopID();
}

}  // namespace rope::app
