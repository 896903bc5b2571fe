#include "ui/ui_context.h"

#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>

#include "backends/imgui_impl_opengl3.h"
#include "render/gl.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace rope::app {

namespace {

// ImGui allocates through IM_ALLOC and never checks for null: a font atlas that does not fit in
// memory (a 4x picture at UI scale 4 under a memory limit) crashed in GetTexDataAsRGBA32. This
// allocator throws std::bad_alloc instead, which run_cli reports as one line and exit 1.
void* alloc_or_throw(std::size_t size, void*) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (!p) throw std::bad_alloc();
  return p;
}
void free_memory(void* p, void*) {
  std::free(p);
}

}  // namespace

UiContext::UiContext(bool with_gl) : with_gl_(with_gl) {
  IMGUI_CHECKVERSION();
  ImGui::SetAllocatorFunctions(alloc_or_throw, free_memory);
  context_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout is computed, not remembered; settings live in sessions
  io.LogFilename = nullptr;
  // No ImGuiConfigFlags_NavEnableKeyboard: ImGui's keyboard navigation takes the same keys as
  // the app's shortcuts (arrows, Space, Esc) — an arrow would move a focus highlight onto a
  // button that the next Space then presses, and ↑ / ↓ would move out of a text field so that
  // the next letters act as shortcuts. Tab still moves between text fields without it.
  // Keys are GLFW key codes everywhere (io.KeysDown[GLFW_KEY_*]), in the window as well as
  // offscreen and in tests that feed key events; the GLFW backend sets the same map.
  const std::pair<ImGuiKey, int> kKeys[] = {
      {ImGuiKey_Tab, GLFW_KEY_TAB},
      {ImGuiKey_LeftArrow, GLFW_KEY_LEFT},
      {ImGuiKey_RightArrow, GLFW_KEY_RIGHT},
      {ImGuiKey_UpArrow, GLFW_KEY_UP},
      {ImGuiKey_DownArrow, GLFW_KEY_DOWN},
      {ImGuiKey_PageUp, GLFW_KEY_PAGE_UP},
      {ImGuiKey_PageDown, GLFW_KEY_PAGE_DOWN},
      {ImGuiKey_Home, GLFW_KEY_HOME},
      {ImGuiKey_End, GLFW_KEY_END},
      {ImGuiKey_Insert, GLFW_KEY_INSERT},
      {ImGuiKey_Delete, GLFW_KEY_DELETE},
      {ImGuiKey_Backspace, GLFW_KEY_BACKSPACE},
      {ImGuiKey_Space, GLFW_KEY_SPACE},
      {ImGuiKey_Enter, GLFW_KEY_ENTER},
      {ImGuiKey_Escape, GLFW_KEY_ESCAPE},
      {ImGuiKey_KeyPadEnter, GLFW_KEY_KP_ENTER},
      {ImGuiKey_A, GLFW_KEY_A},
      {ImGuiKey_C, GLFW_KEY_C},
      {ImGuiKey_V, GLFW_KEY_V},
      {ImGuiKey_X, GLFW_KEY_X},
      {ImGuiKey_Y, GLFW_KEY_Y},
      {ImGuiKey_Z, GLFW_KEY_Z},
  };
  for (const auto& [imgui_key, glfw_key] : kKeys)
    io.KeyMap[imgui_key] = glfw_key;
  if (with_gl_) {
    backend_ready_ = ImGui_ImplOpenGL3_Init(gl::imgui_glsl_version());
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    if (max_size >= 1024) max_texture_ = max_size;
  } else {
    // Headless: nothing is rendered, but draw lists must be built exactly as with the GL
    // backend, which lets one list exceed 65536 vertices (16-bit indices plus offsets).
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  }
}

UiContext::~UiContext() {
  ImGui::SetCurrentContext(context_);
  font_texture_.reset();  // while the GL context is still current
  if (backend_ready_) ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext(context_);
}

void UiContext::prepare(float scale, Theme theme) {
  ImGui::SetCurrentContext(context_);
  if (scale != built_scale_) {
    ImGuiIO& io = ImGui::GetIO();
    if (backend_ready_ && !device_objects_) {
      // The backend's shaders and buffers, made once, as its NewFrame would make them lazily;
      // made while the atlas is still empty, so the RGBA font texture it makes with them holds
      // ImGui's small built-in font only, and is replaced below. Destroying and re-creating the
      // device objects while running left every later frame blank on Mesa (measured: vertices
      // submitted, nothing drawn; tests/app/test_offscreen.cpp "the UI scale and the theme
      // change while running"), so only the font texture is ever replaced.
      ImGui_ImplOpenGL3_CreateDeviceObjects();
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      device_objects_ = true;
    }
    font_texture_.reset();
    fonts_ = load_fonts(*io.Fonts, scale, ui_font_dir(), max_texture_);
    io.FontDefault = fonts_.body;
    bake_ring(*io.Fonts, fonts_);  // builds the atlas
    if (backend_ready_) {
      upload_font_texture();
      // The texture holds the atlas now; its CPU copy (67 MB at scale 6) is not needed until
      // the next rebuild, which makes it again.
      io.Fonts->ClearTexData();
    }
    built_scale_ = -1.0f;  // style below
  }
  if (scale != built_scale_ || theme != built_theme_) {
    apply_style(theme, scale);
    built_scale_ = scale;
    built_theme_ = theme;
  }
}

// The atlas as one channel of coverage (GL_R8; render/gl_objects.h), read as white with that
// alpha through the texture swizzle: the texel ImGui's shader samples is (1, 1, 1, coverage), as
// from the RGBA32 texture the backend would make, at a quarter of the memory — 67 instead of 268 MB
// at scale 6 (UI scale 1.5 in a 4x export), plus the 268 MB RGBA copy the backend converts it
// through.
void UiContext::upload_font_texture() {
  ImGuiIO& io = ImGui::GetIO();
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsAlpha8(&pixels, &width, &height);
  GLint last_texture = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &last_texture);
  font_texture_ = gl::make_texture();
  glBindTexture(GL_TEXTURE_2D, font_texture_.id());
  gl::set_coverage_texture_parameters();
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);  // rows of `width` bytes, any width
  gl::coverage_image(width, height, pixels);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(last_texture));
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(font_texture_.id())));
}

void UiContext::backend_new_frame() {
  if (backend_ready_) ImGui_ImplOpenGL3_NewFrame();
}

void UiContext::render_draw_data() {
  if (backend_ready_) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace rope::app
