// shell/offscreen_app.h — the application's frame rendered into an offscreen framebuffer: the
// engine of `rope-lab screenshot`, `bench`, animation export and the GL tests.
//
// It runs the very same draw_frame as the window; only the GL context (EGL, no window) and the
// input (none, or events a test feeds into ImGui's IO) differ.
//
// Usage:
//   auto app = OffscreenApp::create(1920, 1080, /*scale=*/1.0f);
//   if (!app) fail(app.error());
//   Image img = app.value()->render(state, /*frames=*/3);
//   // or, for a large picture, straight to a file:
//   app.value()->run(state, 3);
//   if (auto s = app.value()->write_png("shot.png", false); !s) fail(s.error());
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "export/png.h"
#include "io/atomic_file.h"
#include "render/gl_objects.h"
#include "render/offscreen.h"
#include "shell/frame.h"
#include "shell/presenter.h"
#include "state/app_state.h"
#include "ui/ui_context.h"

namespace rope::app {

class OffscreenApp {
 public:
  // A picture of more than kMaxWholePixels (a 2x 1080p one, 33 MB of RGBA) is never held in
  // a framebuffer of its own size: the last frame's draw lists are drawn again for each band of
  // kStripRows rows into a framebuffer one band high, which is read and encoded before the
  // next (a 4x 1080p picture: 16 MB instead of 133 MB, and no time spent zeroing the rest).
  // frame() draws the top band only then. Smaller pictures are drawn whole, as the window does
  // (a banded picture may differ from a whole one by 1 level in a few pixels: see draw_band).
  static constexpr long kMaxWholePixels = 3840L * 2160L;
  static constexpr int kStripRows = 512;  // 15.7 MB of RGBA per band at 7680 px wide
  bool banded() const { return banded_; }

  // width x height are logical pixels; the image has (width * pixel_scale) x (height *
  // pixel_scale) pixels and everything in it is drawn pixel_scale times larger (not upscaled).
  // max_whole_pixels: the largest picture drawn whole, not in bands (below; tests lower it).
  static Result<std::unique_ptr<OffscreenApp>> create(int width, int height, float pixel_scale,
                                                      long max_whole_pixels = kMaxWholePixels);
  ~OffscreenApp();

  struct FrameStats {
    double build_seconds = 0.0;  // CPU: NewFrame ... Render (views, ImGui vertex generation)
    double draw_seconds = 0.0;   // GL: clear, draw, glFinish (llvmpipe rasterises here)
    int vertices = 0;
    int draw_calls = 0;  // ImGui draw commands (one glDrawElements each)
    // Triangle area by ImGui window (the owner of each draw list), px², before clipping: what
    // a software rasteriser fills and blends, so overdraw shows where a frame's time goes
    std::vector<std::pair<std::string, double>> area;
    double total() const { return build_seconds + draw_seconds; }
  };
  // Runs one frame of `dt` seconds (animation advances) and renders it into the framebuffer.
  FrameStats frame(AppState& state, double dt);
  // Draws the presenter window's page (shell/presenter.h) into the framebuffer, with the last
  // frame as its copy of the projector: the picture `rope-lab screenshot --presenter` writes.
  // Not for banded pictures (the last frame must be whole in the framebuffer): an error then.
  // `frames` frames of the page (ImGui settles a new window's layout over two).
  Status presenter_frame(AppState& state, int frames = 3);
  // Reads the last frame's pixels.
  Image capture();
  // Writes the last frame as a PNG without a whole copy of it in memory: kStripRows rows at a
  // time go from the framebuffer to the encoder (export/png.h). `transparent`: the frame was
  // drawn over a transparent background, its colours are premultiplied and are divided by
  // alpha first (unpremultiply). On failure no file is written; Error.parameter is the path or
  // "output".
  Status write_png(const std::filesystem::path& path, bool transparent, WriteOptions options = {});
  // `frames` frames of 1/60 s (a new window shows nothing on its first), and more while a
  // lesson step is still shrinking to fit. The clock does not advance the animation when dt
  // is 0.
  void run(AppState& state, int frames, double dt = 0.0);
  // Convenience: run, then capture.
  Image render(AppState& state, int frames, double dt = 0.0);

  const std::string& renderer() const { return context_->description(); }
  Views& views() { return *views_; }
  const Presenter* presenter() const { return presenter_.get(); }  // after presenter_frame
  int pixel_width() const { return width_; }
  int pixel_height() const { return height_; }

 private:
  OffscreenApp() = default;
  // Clears the framebuffer and draws the last frame's draw lists into it, shifted up by `top`
  // picture rows (0 when the framebuffer holds the whole picture).
  void draw_band(int top);
  // Calls `strip(top, n, pixels)` for the picture's rows [top, top + n) top to bottom, n <=
  // kStripRows; `pixels` holds them as GL reads them, bottom row first (n rows of width * 4).
  template <class Strip>
  Status for_each_strip(Strip&& strip);

  // members are destroyed in reverse order: views and UI (which hold GL objects) before the
  // context
  std::unique_ptr<OffscreenContext> context_;
  gl::RenderTarget target_;
  std::unique_ptr<UiContext> ui_;
  std::unique_ptr<Views> views_;
  // made by the first presenter_frame (shell/offscreen_presenter.cpp, desktop only), which also
  // gives the deleter: the browser build has no Presenter to destroy
  std::unique_ptr<Presenter, void (*)(Presenter*)> presenter_{nullptr, nullptr};
  float pixel_scale_ = 1.0f;
  int width_ = 0;  // the picture's pixels; the framebuffer is as large or one band high
  int height_ = 0;
  bool banded_ = false;
  ImVec4 canvas_colour_;  // of the last frame, for draw_band
  FrameLayout layout_;
};

}  // namespace rope::app
