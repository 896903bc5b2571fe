#include "views/spectrum_view.h"

#include "imgui.h"

namespace rope::app {

void SpectrumView::Draw(AppState&, const ViewEnv&) {
  ImGui::TextUnformatted("This view is not built yet.");
}

void SpectrumView::DrawControls(AppState&, const ViewEnv&) {}

}  // namespace rope::app
