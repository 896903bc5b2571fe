#include "views/decay_view.h"

#include "imgui.h"

namespace rope::app {

void DecayView::Draw(AppState&, const ViewEnv&) {
  ImGui::TextUnformatted("This view is not built yet.");
}

void DecayView::DrawControls(AppState&, const ViewEnv&) {}

}  // namespace rope::app
