// render/heatmap_renderer.h — matrices of numbers turned into coloured textures on the GPU.
//
// A matrix is uploaded as a single-channel float texture (GL_R32F), then one pass through
// shaders/heatmap.{vert,frag} colours it with the colour map (ui/plot.h) into an RGBA8 texture
// with one texel per screen pixel of the picture; ImGui then shows that texture as one opaque
// quad, 1:1. The pass runs only when the data, the range, the masked colour or the picture size
// changed, and leaves every piece of GL state it touched as it found it.
//
// Shaders are read at run time from the folder io/data_paths.h finds ($ROPE_LAB_SHADER_DIR,
// the installed copy, or the source tree); a missing or broken file makes error() say which
// and why.
//
// Usage (with a current GL context, e.g. inside a view's Draw when env.has_gl):
//   HeatmapRenderer r;
//   if (r.update(0, version, scores, rows, cols, lo, hi, masked, size)) r.add_image(dl, 0, a, b);
//   else show(r.error());
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "imgui.h"
#include "render/gl_objects.h"

namespace rope::app {

// Where the shader files are looked for.
std::string shader_dir();

class HeatmapRenderer {
 public:
  // Makes slot `slot` show `values` (row-major [rows][cols]) coloured for lo ... hi in a
  // picture of `picture` pixels. `version` identifies the data: the upload is skipped when
  // (version, rows, cols) is unchanged, the colouring pass when also lo, hi, masked and the
  // picture size are. Returns false with error() set when the shaders are unavailable or the
  // sizes are invalid.
  bool update(int slot, std::uint64_t version, std::span<const float> values, int rows, int cols,
              float lo, float hi, ImU32 masked, ImVec2 picture);
  ImTextureID texture(int slot) const;
  // Adds slot's texture to `dl` as one opaque quad: blending is switched off for that one draw
  // (the cells are opaque, and a blended quad costs a software rasteriser a read of every
  // pixel under it), then ImGui's render state is restored by ImGui's backend.
  void add_image(ImDrawList* dl, int slot, ImVec2 p_min, ImVec2 p_max) const;
  const std::string& error() const { return error_; }

 private:
  bool ensure_program();
  struct Slot {
    gl::Texture scores;   // GL_R32F [tex_rows][tex_cols]: every `step`-th cell of the matrix
    gl::Texture colours;  // GL_RGBA8, one texel per pixel of the picture
    gl::Framebuffer fbo;
    std::uint64_t version = 0;
    int rows = 0, cols = 0;          // the matrix
    int step = 1;                    // 1, or 2 and more for matrices above kMaxTexture a side
    int tex_rows = 0, tex_cols = 0;  // the texture
    int width = 0, height = 0;       // the picture, px
    int uploaded = 0;                // rows of `scores` holding the current version
    float lo = 0, hi = 0;
    ImU32 masked = 0;
    bool coloured = false;
  };
  std::vector<Slot> slots_;
  std::vector<float> staging_;  // subsampled rows on their way to the texture
  gl::Program program_;
  gl::VertexArray vao_;
  bool tried_ = false;
  std::string error_;
  GLint u_target_ = -1, u_range_ = -1, u_colours_ = -1, u_masked_ = -1, u_scores_ = -1;
};

}  // namespace rope::app
