#include "views/derivation_view.h"

#include "imgui.h"

namespace rope::app {

void DerivationView::Draw(AppState&, const ViewEnv&) {
  ImGui::TextUnformatted("This view is not built yet.");
}

void DerivationView::DrawControls(AppState&, const ViewEnv&) {}

}  // namespace rope::app
