#include "views/trajectory_view.h"

#include "imgui.h"

namespace rope::app {

void TrajectoryView::Draw(AppState&, const ViewEnv&) {
  ImGui::TextUnformatted("This view is not built yet.");
}

void TrajectoryView::DrawControls(AppState&, const ViewEnv&) {}

}  // namespace rope::app
