#include "views/heatmap_view.h"

#include "imgui.h"

namespace rope::app {

void HeatmapView::Draw(AppState&, const ViewEnv&) {
  ImGui::TextUnformatted("This view is not built yet.");
}

void HeatmapView::DrawControls(AppState&, const ViewEnv&) {}

}  // namespace rope::app
