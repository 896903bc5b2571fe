// offscreen_presenter.cpp — OffscreenApp::presenter_frame (shell/offscreen_app.h), desktop only:
// the presenter window is not part of the browser build, which draws pictures with the rest of
// OffscreenApp (File > Export picture in a page).
#include <algorithm>

#include "render/background.h"
#include "render/gl.h"
#include "shell/offscreen_app.h"
#include "state/actions.h"

namespace rope::app {

Status OffscreenApp::presenter_frame(AppState& state, int frames) {
  if (banded_)
    return Error{"size", "a presenter picture has at most 3840x2160 pixels; this one has " +
                             std::to_string(width_) + "x" + std::to_string(height_)};
  if (!presenter_) presenter_ = {new Presenter(true), [](Presenter* p) { delete p; }};
  target_.bind();
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  presenter_->capture_mirror(width_, height_);
  // the lecturer's own scale, as the window's presenter: presentation mode enlarges the
  // projected picture only
  const auto& before = state.before_presentation;
  const double own = before.active ? before.ui_scale : state.params.ui_scale;
  const float scale = static_cast<float>(own) * pixel_scale_;
  for (int i = 0; i < std::max(1, frames); ++i) {
    presenter_->ui().prepare(scale, state.params.theme);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.DeltaTime = 1.0f / 60.0f;
    presenter_->ui().backend_new_frame();
    presenter_->draw(state, *views_, scale, false);
    target_.bind();
    clear_background(clear_colour(state), nullptr, 0, target_.width(), target_.height());
    presenter_->ui().render_draw_data();
  }
  glFinish();
  ImGui::SetCurrentContext(ui_->context());  // the main frame's draw data for draw_band again
  return {};
}

}  // namespace rope::app
