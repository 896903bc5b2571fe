// gl_desktop.cpp — what OpenGL 3.3 core does differently from WebGL 2 (gl_objects.h): coverage
// textures as GL_R8 through a swizzle, GLSL 330 core.
#include "render/gl_objects.h"

namespace rope::app::gl {

void set_coverage_texture_parameters() {
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, GL_ONE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_G, GL_ONE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_B, GL_ONE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_A, GL_RED);
}

void coverage_image(int width, int height, const unsigned char* pixels) {
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, width, height, 0, GL_RED, GL_UNSIGNED_BYTE, pixels);
}

void coverage_sub_image(int top, int width, int rows, const unsigned char* pixels) {
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, top, width, rows, GL_RED, GL_UNSIGNED_BYTE, pixels);
}

const char* shader_header() {
  return "#version 330 core\n";
}

const char* imgui_glsl_version() {
  return "#version 330 core";
}

}  // namespace rope::app::gl
