// gl_web.cpp — what WebGL 2 (OpenGL ES 3.0) does differently from the desktop's OpenGL 3.3
// (gl_objects.h): no texture swizzle, so coverage becomes white RGBA8 texels with the coverage
// as alpha (4 bytes a pixel instead of 1); GLSL ES 300 with explicit precision.
#include <cstddef>
#include <vector>

#include "render/gl_objects.h"

namespace rope::app::gl {
namespace {

// width x rows coverage bytes -> (255, 255, 255, coverage) texels
std::vector<unsigned char> white_with_alpha(int width, int rows, const unsigned char* pixels) {
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(rows);
  std::vector<unsigned char> rgba(n * 4, 255);
  for (std::size_t i = 0; i < n; ++i)
    rgba[i * 4 + 3] = pixels[i];
  return rgba;
}

}  // namespace

void set_coverage_texture_parameters() {
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
}

void coverage_image(int width, int height, const unsigned char* pixels) {
  if (!pixels) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    return;
  }
  const auto rgba = white_with_alpha(width, height, pixels);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               rgba.data());
}

void coverage_sub_image(int top, int width, int rows, const unsigned char* pixels) {
  const auto rgba = white_with_alpha(width, rows, pixels);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, top, width, rows, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
}

const char* shader_header() {
  return "#version 300 es\nprecision highp float;\nprecision highp int;\n";
}

const char* imgui_glsl_version() {
  return "#version 300 es";
}

}  // namespace rope::app::gl
