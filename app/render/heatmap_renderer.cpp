#include "render/heatmap_renderer.h"

#include "io/data_paths.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "io/colour_map.h"
#include "io/read_file.h"

namespace rope::app {
namespace {

// A side above this is subsampled for the texture: the picture is at most a few thousand
// pixels and the shader reads at most 2 x 2 cells per pixel, so every second cell shows the
// same picture, while llvmpipe allocates a 4096 x 4096 float texture (64 MB) in one long frame.
// Hover read-outs use the full matrix on the CPU.
constexpr int kMaxTexture = 2048;
constexpr int kUploadBudget = 1 << 21;  // matrix values uploaded per frame while a picture shows

// A shader is a few kB of text; the limit keeps a link to /dev/zero from growing the process.
constexpr std::size_t kMaxShaderBytes = 1u << 20;

// Everything the colouring pass changes, saved before and restored after it.
struct SavedState {
  GLint fbo = 0, viewport[4] = {0, 0, 0, 0}, program = 0, vao = 0, texture = 0, active = 0;
  GLint unpack = 4;
  GLboolean blend = GL_FALSE, scissor = GL_FALSE, depth = GL_FALSE, cull = GL_FALSE;
  SavedState() {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    glGetIntegerv(GL_VIEWPORT, viewport);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &unpack);
    blend = glIsEnabled(GL_BLEND);
    scissor = glIsEnabled(GL_SCISSOR_TEST);
    depth = glIsEnabled(GL_DEPTH_TEST);
    cull = glIsEnabled(GL_CULL_FACE);
  }
  ~SavedState() {
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(fbo));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    glUseProgram(static_cast<GLuint>(program));
    glBindVertexArray(static_cast<GLuint>(vao));
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(texture));
    glActiveTexture(static_cast<GLenum>(active));
    glPixelStorei(GL_UNPACK_ALIGNMENT, unpack);
    const auto set = [](GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); };
    set(GL_BLEND, blend);
    set(GL_SCISSOR_TEST, scissor);
    set(GL_DEPTH_TEST, depth);
    set(GL_CULL_FACE, cull);
  }
  SavedState(const SavedState&) = delete;
  SavedState& operator=(const SavedState&) = delete;
};

}  // namespace

std::string shader_dir() {
  const DataDir d = find_data_dir(DataFolder::shaders);
  return d.found() ? d.path.string() : d.tried.front().string();
}

bool HeatmapRenderer::ensure_program() {
  if (program_) return true;
  if (tried_) return false;
  tried_ = true;
  const std::string dir = shader_dir();
  std::string vs, fs;
  for (const auto& [name, text] :
       {std::pair{"heatmap.vert", &vs}, std::pair{"heatmap.frag", &fs}}) {
    bool missing = false;
    auto read = read_regular_file(dir + "/" + name, kMaxShaderBytes, &missing);
    if (read) {
      *text = std::move(read).value();
    } else if (!missing) {
      error_ = "shader file " + read.error().to_string() +
               ": the heatmap cannot be coloured (set ROPE_LAB_SHADER_DIR to the folder holding "
               "heatmap.vert and heatmap.frag)";
      return false;
    } else {
      error_ = "shader file " + dir + "/" + name +
               " not found: the heatmap cannot be coloured (looked in " +
               find_data_dir(DataFolder::shaders).tried_text() +
               "; set ROPE_LAB_SHADER_DIR to the folder holding heatmap.vert and heatmap.frag)";
      return false;
    }
  }
  std::string log;
  program_ = gl::make_program(vs, fs, &log);
  if (!program_) {
    error_ = "shaders in " + dir + " do not compile: " + log;
    return false;
  }
  vao_ = gl::make_vertex_array();
  u_range_ = glGetUniformLocation(program_.id(), "u_range");
  u_colours_ = glGetUniformLocation(program_.id(), "u_colours");
  u_masked_ = glGetUniformLocation(program_.id(), "u_masked");
  u_scores_ = glGetUniformLocation(program_.id(), "u_scores");
  u_target_ = glGetUniformLocation(program_.id(), "u_target");
  return true;
}

bool HeatmapRenderer::update(int slot, std::uint64_t version, std::span<const float> values,
                             int rows, int cols, float lo, float hi, ImU32 masked, ImVec2 picture) {
  if (slot < 0 || slot > 15 || rows < 1 || cols < 1 || rows > 8192 || cols > 8192 ||
      values.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols)) {
    error_ = "heatmap: invalid matrix size";
    return false;
  }
  if (!ensure_program()) return false;
  if (slots_.size() <= static_cast<std::size_t>(slot))
    slots_.resize(static_cast<std::size_t>(slot) + 1);
  Slot& sl = slots_[static_cast<std::size_t>(slot)];
  const bool new_data = !sl.scores || sl.version != version || sl.rows != rows || sl.cols != cols;
  const int width = std::clamp(static_cast<int>(std::lround(picture.x)), 1, 8192);
  const int height = std::clamp(static_cast<int>(std::lround(picture.y)), 1, 8192);
  const bool new_size = width != sl.width || height != sl.height;
  if (!new_data && sl.uploaded == sl.tex_rows && !new_size && sl.coloured && sl.lo == lo &&
      sl.hi == hi && sl.masked == masked)
    return true;

  const SavedState saved;
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (new_data) {
    if (!sl.scores) {
      sl.scores = gl::make_texture();
      sl.colours = gl::make_texture();
      sl.fbo = gl::make_framebuffer();
    }
    glBindTexture(GL_TEXTURE_2D, sl.scores.id());
    const int step = (std::max(rows, cols) + kMaxTexture - 1) / kMaxTexture;
    const int tex_rows = (rows + step - 1) / step;
    const int tex_cols = (cols + step - 1) / step;
    if (sl.tex_rows != tex_rows || sl.tex_cols != tex_cols) {
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, tex_cols, tex_rows, 0, GL_RED, GL_FLOAT, nullptr);
    }
    sl.version = version;
    sl.rows = rows;
    sl.cols = cols;
    sl.step = step;
    sl.tex_rows = tex_rows;
    sl.tex_cols = tex_cols;
    sl.uploaded = 0;
  }
  if (sl.uploaded < sl.tex_rows) {
    // With a picture on screen, a new matrix goes up in slices of about kUploadBudget values
    // per frame while the previous picture stays; with none there is nothing to keep
    // showing, so it goes up at once.
    const int tc = sl.tex_cols;
    const int per_frame = sl.coloured ? std::max(1, kUploadBudget / tc) : sl.tex_rows;
    const int end = std::min(sl.tex_rows, sl.uploaded + per_frame);
    const float* src = values.data();
    if (sl.step > 1) {  // every step-th cell of every step-th row
      staging_.resize(static_cast<std::size_t>(end - sl.uploaded) * static_cast<std::size_t>(tc));
      for (int y = sl.uploaded; y < end; ++y) {
        const float* row = values.data() + static_cast<std::size_t>(y) *
                                               static_cast<std::size_t>(sl.step) *
                                               static_cast<std::size_t>(cols);
        float* out = staging_.data() +
                     static_cast<std::size_t>(y - sl.uploaded) * static_cast<std::size_t>(tc);
        for (int x = 0; x < tc; ++x)
          out[x] = row[static_cast<std::size_t>(x) * static_cast<std::size_t>(sl.step)];
      }
      src = staging_.data();
    } else {
      src += static_cast<std::size_t>(sl.uploaded) * static_cast<std::size_t>(cols);
    }
    glBindTexture(GL_TEXTURE_2D, sl.scores.id());
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, sl.uploaded, tc, end - sl.uploaded, GL_RED, GL_FLOAT, src);
    sl.uploaded = end;
    if (end < sl.tex_rows) return true;
  }
  if (new_size) {
    // The picture has one texel per screen pixel, drawn 1:1 with nearest sampling: the
    // cheapest texture read there is, and the shader decides what each pixel shows.
    glBindTexture(GL_TEXTURE_2D, sl.colours.id());
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindFramebuffer(GL_FRAMEBUFFER, sl.fbo.id());
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, sl.colours.id(), 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      error_ = "heatmap: the colour framebuffer is incomplete";
      sl = Slot{};
      return false;
    }
    sl.width = width;
    sl.height = height;
  }

  // the colouring pass: one fragment per cell
  glBindFramebuffer(GL_FRAMEBUFFER, sl.fbo.id());
  glViewport(0, 0, width, height);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glUseProgram(program_.id());
  glBindVertexArray(vao_.id());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, sl.scores.id());
  glUniform1i(u_scores_, 0);
  glUniform2f(u_range_, lo, hi);
  glUniform2f(u_target_, static_cast<float>(width), static_cast<float>(height));
  glUniform3fv(u_colours_, kColourMapPoints, kColourMap[0].data());
  const ImVec4 mc = ImGui::ColorConvertU32ToFloat4(masked);
  glUniform4f(u_masked_, mc.x, mc.y, mc.z, mc.w);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  sl.lo = lo;
  sl.hi = hi;
  sl.masked = masked;
  sl.coloured = true;
  error_.clear();
  return true;
}

ImTextureID HeatmapRenderer::texture(int slot) const {
  if (slot < 0 || static_cast<std::size_t>(slot) >= slots_.size()) return ImTextureID{};
  const GLuint id = slots_[static_cast<std::size_t>(slot)].colours.id();
  return reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(id));
}

void HeatmapRenderer::add_image(ImDrawList* dl, int slot, ImVec2 p_min, ImVec2 p_max) const {
  dl->AddCallback([](const ImDrawList*, const ImDrawCmd*) { glDisable(GL_BLEND); }, nullptr);
  dl->AddImage(texture(slot), p_min, p_max);
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

}  // namespace rope::app
