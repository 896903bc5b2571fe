#include "shell/offscreen_app.h"

#include <algorithm>
#include <chrono>
#include <span>
#include <vector>

#include "render/gl.h"
#include "state/actions.h"

namespace rope::app {

Result<std::unique_ptr<OffscreenApp>> OffscreenApp::create(int width, int height,
                                                           float pixel_scale) {
  auto ctx = OffscreenContext::create();
  if (!ctx) return ctx.error();
  std::unique_ptr<OffscreenApp> app(new OffscreenApp());
  app->context_ = std::move(ctx).value();
  app->pixel_scale_ = pixel_scale;
  const int pw = static_cast<int>(static_cast<float>(width) * pixel_scale + 0.5f);
  const int ph = static_cast<int>(static_cast<float>(height) * pixel_scale + 0.5f);
  if (!app->target_.resize(pw, ph))
    return Error{"size", "the offscreen framebuffer of " + std::to_string(pw) + "x" +
                             std::to_string(ph) + " pixels cannot be created (too large for " +
                             app->context_->description() + ")"};
  app->ui_ = std::make_unique<UiContext>(true);
  app->views_ = std::make_unique<Views>();
  return app;
}

OffscreenApp::~OffscreenApp() {
  views_.reset();
  ui_.reset();
  target_ = gl::RenderTarget();
}

OffscreenApp::FrameStats OffscreenApp::frame(AppState& state, double dt) {
  const auto t0 = std::chrono::steady_clock::now();
  update_presentation(state, static_cast<float>(target_.height()) / pixel_scale_);
  const float scale = static_cast<float>(state.params.ui_scale) * pixel_scale_;
  ui_->prepare(scale, state.params.theme);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize =
      ImVec2(static_cast<float>(target_.width()), static_cast<float>(target_.height()));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = dt > 0.0 ? static_cast<float>(dt) : 1.0f / 60.0f;
  advance_animation(state, dt);
  ui_->backend_new_frame();
  ImGui::NewFrame();
  // A picture drawn in ImGui's built-in font lacks θ, →, ✓: a problem for the picture commands
  report_problem(state, ui_->fonts().warning);
  const FrameLayout layout = draw_frame(state, *views_, ViewEnv{&ui_->fonts(), true, scale});
  ImGui::Render();
  const auto t1 = std::chrono::steady_clock::now();
  target_.bind();
  clear_frame(state, layout, target_.width(), target_.height());
  ui_->render_draw_data();
  glFinish();
  const auto t2 = std::chrono::steady_clock::now();
  state.request_screenshot = false;  // offscreen, every frame is a picture already
  state.request_quit = false;
  const ImDrawData* dd = ImGui::GetDrawData();
  int calls = 0;
  for (int i = 0; i < dd->CmdListsCount; ++i)
    calls += dd->CmdLists[i]->CmdBuffer.Size;
  return FrameStats{std::chrono::duration<double>(t1 - t0).count(),
                    std::chrono::duration<double>(t2 - t1).count(), dd->TotalVtxCount, calls};
}

Image OffscreenApp::capture() const {
  target_.bind();
  Image img;
  img.width = target_.width();
  img.height = target_.height();
  img.rgba = read_pixels_rgba(img.width, img.height);
  return img;
}

Status OffscreenApp::write_png(const std::filesystem::path& path, bool transparent) const {
  const int w = target_.width();
  const int h = target_.height();
  const auto row = static_cast<std::size_t>(w) * 4;
  PngWriter png;
  Status s = png.open(path, w, h);
  if (!s) return s;
  target_.bind();
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  std::vector<std::uint8_t> strip(row * static_cast<std::size_t>(std::min(h, kStripRows)));
  // Picture rows [top, top + n) are GL rows [h - top - n, h - top): GL counts from the bottom,
  // so within a strip read back the picture's rows come last first.
  for (int top = 0; s && top < h; top += kStripRows) {
    const int n = std::min(kStripRows, h - top);
    glReadPixels(0, h - top - n, w, n, GL_RGBA, GL_UNSIGNED_BYTE, strip.data());
    const std::span<std::uint8_t> pixels(strip.data(), row * static_cast<std::size_t>(n));
    if (transparent) unpremultiply(pixels);
    for (int k = n - 1; s && k >= 0; --k)
      s = png.write_row(pixels.subspan(static_cast<std::size_t>(k) * row, row));
  }
  if (s) s = png.finish();
  return s;
}

void OffscreenApp::run(AppState& state, int frames, double dt) {
  for (int i = 0; i < std::max(1, frames); ++i)
    frame(state, dt);
  // A lesson step taller than its panel is drawn smaller over the next frames (each measures
  // the last, DerivationView::ShrinkToFit); the window gets there in a few frames, a picture
  // must not stop half way and show a scroll bar. The bisection ends in about 8 frames.
  for (int extra = 0; extra < 20 && views_->derivation.settling(); ++extra)
    frame(state, dt);
}

Image OffscreenApp::render(AppState& state, int frames, double dt) {
  run(state, frames, dt);
  return capture();
}

}  // namespace rope::app
