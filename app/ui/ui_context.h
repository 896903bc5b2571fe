// ui/ui_context.h — one Dear ImGui context with its fonts and (optionally) its OpenGL backend.
//
// The window, the offscreen renderer and the headless tests each own one. It rebuilds the font
// atlas between frames when the UI scale changes, so text stays crisp at every scale (ImGui
// 1.86 rasterises fonts once per atlas; scaling a built font would blur it).
//
// Usage:
//   UiContext ui(/*with_gl=*/true);
//   each frame: ui.prepare(state_scale);  <platform NewFrame>;  ImGui::NewFrame(); ... Render();
//               ui.render_draw_data();     // no-op without GL
#pragma once

#include "imgui.h"
#include "render/gl_objects.h"
#include "ui/theme.h"

namespace rope::app {

class UiContext {
 public:
  explicit UiContext(bool with_gl);
  ~UiContext();
  UiContext(const UiContext&) = delete;
  UiContext& operator=(const UiContext&) = delete;

  // Rebuilds fonts and style when the effective scale or theme changed. Call before NewFrame.
  void prepare(float scale, Theme theme);
  void backend_new_frame();  // the GL backend's NewFrame; no-op without GL
  void render_draw_data();

  const Fonts& fonts() const { return fonts_; }
  ImGuiContext* context() const { return context_; }
  bool with_gl() const { return with_gl_; }

 private:
  void upload_font_texture();

  ImGuiContext* context_ = nullptr;
  bool with_gl_ = false;
  bool backend_ready_ = false;
  bool device_objects_ = false;  // the GL backend's shaders, buffers and font texture exist
  Fonts fonts_;
  gl::Texture font_texture_;  // the atlas, GL_R8 read as white + alpha (upload_font_texture)
  float built_scale_ = -1.0f;
  int max_texture_ = 16384;  // GL_MAX_TEXTURE_SIZE with GL; the font atlas must fit it
  Theme built_theme_ = Theme::dark;
};

}  // namespace rope::app
