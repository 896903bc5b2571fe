#include "views/sinusoidal_view.h"

#include "imgui.h"

namespace rope::app {

void SinusoidalView::Draw(AppState&, const ViewEnv&) {
  ImGui::TextUnformatted("This view is not built yet.");
}

void SinusoidalView::DrawControls(AppState&, const ViewEnv&) {}

}  // namespace rope::app
