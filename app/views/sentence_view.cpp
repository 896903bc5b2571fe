#include "views/sentence_view.h"

#include "imgui.h"

namespace rope::app {

void SentenceView::Draw(AppState&, const ViewEnv&) {
  ImGui::TextUnformatted("This view is not built yet.");
}

void SentenceView::DrawControls(AppState&, const ViewEnv&) {}

}  // namespace rope::app
