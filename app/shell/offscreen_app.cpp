#include "shell/offscreen_app.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <span>
#include <vector>

#include "render/background.h"
#include "render/gl.h"
#include "state/actions.h"

namespace rope::app {
namespace {

// Sum of the areas of a draw list's triangles, px² (each |cross product| / 2).
double triangle_area(const ImDrawList& list) {
  double area = 0.0;
  const ImDrawVert* v = list.VtxBuffer.Data;
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (cmd.UserCallback != nullptr) continue;
    for (unsigned t = 0; t + 2 < cmd.ElemCount; t += 3) {
      const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset + t;
      const ImVec2 a = v[cmd.VtxOffset + idx[0]].pos;
      const ImVec2 b = v[cmd.VtxOffset + idx[1]].pos;
      const ImVec2 c = v[cmd.VtxOffset + idx[2]].pos;
      area += 0.5 *
              std::fabs(static_cast<double>((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)));
    }
  }
  return area;
}

}  // namespace

Result<std::unique_ptr<OffscreenApp>> OffscreenApp::create(int width, int height, float pixel_scale,
                                                           long max_whole_pixels) {
  auto ctx = OffscreenContext::create();
  if (!ctx) return ctx.error();
  std::unique_ptr<OffscreenApp> app(new OffscreenApp());
  app->context_ = std::move(ctx).value();
  app->pixel_scale_ = pixel_scale;
  const int pw = static_cast<int>(static_cast<float>(width) * pixel_scale + 0.5f);
  const int ph = static_cast<int>(static_cast<float>(height) * pixel_scale + 0.5f);
  app->width_ = pw;
  app->height_ = ph;
  app->banded_ = static_cast<long>(pw) * ph > max_whole_pixels && ph > kStripRows;
  if (!app->target_.resize(pw, app->banded_ ? kStripRows : ph))
    return Error{"size", "the offscreen framebuffer of " + std::to_string(pw) + "x" +
                             std::to_string(ph) + " pixels cannot be created (too large for " +
                             app->context_->description() + ")"};
  app->ui_ = std::make_unique<UiContext>(true);
  app->views_ = std::make_unique<Views>();
  return app;
}

OffscreenApp::~OffscreenApp() {
  presenter_.reset();
  views_.reset();
  ui_.reset();
  target_ = gl::RenderTarget();
}

OffscreenApp::FrameStats OffscreenApp::frame(AppState& state, double dt) {
  const auto t0 = std::chrono::steady_clock::now();
  update_presentation(state, static_cast<float>(height_) / pixel_scale_);
  const float scale = static_cast<float>(state.params.ui_scale) * pixel_scale_;
  ui_->prepare(scale, state.params.theme);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = dt > 0.0 ? static_cast<float>(dt) : 1.0f / 60.0f;
  advance_animation(state, dt);
  ui_->backend_new_frame();
  ImGui::NewFrame();
  // A picture drawn in ImGui's built-in font lacks θ, →, ✓: a problem for the picture commands
  report_problem(state, ui_->fonts().warning);
  layout_ = draw_frame(state, *views_, ViewEnv{&ui_->fonts(), true, scale});
  ImGui::Render();
  canvas_colour_ = clear_colour(state);
  const auto t1 = std::chrono::steady_clock::now();
  draw_band(0);
  glFinish();
  const auto t2 = std::chrono::steady_clock::now();
  state.request_screenshot = false;  // offscreen, every frame is a picture already
  state.request_quit = false;
  const ImDrawData* dd = ImGui::GetDrawData();
  FrameStats stats{std::chrono::duration<double>(t1 - t0).count(),
                   std::chrono::duration<double>(t2 - t1).count(),
                   dd->TotalVtxCount,
                   0,
                   {}};
  for (int i = 0; i < dd->CmdListsCount; ++i) {
    const ImDrawList* list = dd->CmdLists[i];
    stats.draw_calls += list->CmdBuffer.Size;
    // ImGui names a window's list after it ("##Foreground" and the like for its own)
    const char* owner = list->_OwnerName != nullptr ? list->_OwnerName : "?";
    stats.area.emplace_back(owner, triangle_area(*list));
  }
  return stats;
}

void OffscreenApp::draw_band(int top) {
  target_.bind();
  // clear_frame's background, moved up by `top` rows (whole pixels, so the clear's rounding
  // is unchanged)
  std::vector<BackgroundRect> rects = layout_.backgrounds;
  for (BackgroundRect& r : rects) {
    r.y0 -= static_cast<float>(top);
    r.y1 -= static_cast<float>(top);
  }
  clear_background(canvas_colour_, rects.data(), static_cast<int>(rects.size()), target_.width(),
                   target_.height());
  // The backend maps DisplayPos .. DisplayPos + DisplaySize onto the framebuffer and moves the
  // clip rectangles by DisplayPos, so a band is the picture moved up by `top` rows. Moved,
  // llvmpipe rounds a few interpolated colours the other way: measured on the 4x canvas
  // (7680 x 4320), 2 416 of 33.2 M pixels differ from the whole-frame picture, each by 1 level
  // of 255 in a channel (tests/app/test_offscreen.cpp compares the two).
  ImDrawData* dd = ImGui::GetDrawData();
  if (!dd) return;
  const ImVec2 pos = dd->DisplayPos;
  const ImVec2 size = dd->DisplaySize;
  dd->DisplayPos.y = pos.y + static_cast<float>(top);
  dd->DisplaySize.y = static_cast<float>(target_.height());
  ui_->render_draw_data();
  dd->DisplayPos = pos;
  dd->DisplaySize = size;
}

template <class Strip>
Status OffscreenApp::for_each_strip(Strip&& strip) {
  const auto row = static_cast<std::size_t>(width_) * 4;
  std::vector<std::uint8_t> pixels(row * static_cast<std::size_t>(std::min(height_, kStripRows)));
  Status s;
  for (int top = 0; s && top < height_; top += kStripRows) {
    const int n = std::min(kStripRows, height_ - top);
    if (banded_) {
      draw_band(top);
    } else {
      target_.bind();
    }
    // Picture rows [top, top + n) are, GL counting rows from the bottom, the framebuffer's rows
    // [fb_h - top - n, fb_h - top) when it holds the whole picture, and the band's top n rows
    // [band - n, band) when it holds one band.
    const int gl_row = banded_ ? target_.height() - n : height_ - top - n;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, gl_row, width_, n, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    s = strip(top, n, std::span<std::uint8_t>(pixels.data(), row * static_cast<std::size_t>(n)));
  }
  return s;
}

Image OffscreenApp::capture() {
  Image img;
  img.width = width_;
  img.height = height_;
  const auto row = static_cast<std::size_t>(width_) * 4;
  img.rgba.resize(row * static_cast<std::size_t>(height_));
  (void)for_each_strip([&](int top, int n, std::span<std::uint8_t> pixels) -> Status {
    for (int k = 0; k < n; ++k)  // bottom-up in the strip
      std::copy_n(pixels.data() + static_cast<std::size_t>(n - 1 - k) * row, row,
                  img.rgba.data() + static_cast<std::size_t>(top + k) * row);
    return {};
  });
  return img;
}

Status OffscreenApp::write_png(const std::filesystem::path& path, bool transparent,
                               WriteOptions options) {
  const auto row = static_cast<std::size_t>(width_) * 4;
  PngWriter png;
  if (auto s = png.open(path, width_, height_, options); !s) return s;
  Status s = for_each_strip([&](int, int n, std::span<std::uint8_t> pixels) -> Status {
    if (transparent) unpremultiply(pixels);
    Status r;
    for (int k = n - 1; r && k >= 0; --k)  // bottom-up in the strip
      r = png.write_row(pixels.subspan(static_cast<std::size_t>(k) * row, row));
    return r;
  });
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
