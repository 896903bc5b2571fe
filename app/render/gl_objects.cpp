#include "render/gl_objects.h"

#include <vector>

namespace rope::app::gl {

Texture make_texture() {
  GLuint id = 0;
  glGenTextures(1, &id);
  return Texture(id);
}
Framebuffer make_framebuffer() {
  GLuint id = 0;
  glGenFramebuffers(1, &id);
  return Framebuffer(id);
}
Renderbuffer make_renderbuffer() {
  GLuint id = 0;
  glGenRenderbuffers(1, &id);
  return Renderbuffer(id);
}
Buffer make_buffer() {
  GLuint id = 0;
  glGenBuffers(1, &id);
  return Buffer(id);
}
VertexArray make_vertex_array() {
  GLuint id = 0;
  glGenVertexArrays(1, &id);
  return VertexArray(id);
}

namespace {

GLuint compile(GLenum type, const std::string& src, std::string* log) {
  const GLuint s = glCreateShader(type);
  const char* text = src.c_str();
  glShaderSource(s, 1, &text, nullptr);
  glCompileShader(s);
  GLint ok = GL_FALSE;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return s;
  GLint len = 0;
  glGetShaderiv(s, GL_INFO_LOG_LENGTH, &len);
  std::vector<char> buf(static_cast<std::size_t>(len > 0 ? len : 1), '\0');
  glGetShaderInfoLog(s, len, nullptr, buf.data());
  if (log) *log = buf.data();
  glDeleteShader(s);
  return 0;
}

}  // namespace

Program make_program(const std::string& vertex_src, const std::string& fragment_src,
                     std::string* log) {
  const std::string header = shader_header();
  const GLuint vs = compile(GL_VERTEX_SHADER, header + vertex_src, log);
  if (!vs) return {};
  const GLuint fs = compile(GL_FRAGMENT_SHADER, header + fragment_src, log);
  if (!fs) {
    glDeleteShader(vs);
    return {};
  }
  Program p(glCreateProgram());
  glAttachShader(p.id(), vs);
  glAttachShader(p.id(), fs);
  glLinkProgram(p.id());
  glDeleteShader(vs);  // flagged; freed with the program
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(p.id(), GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint len = 0;
    glGetProgramiv(p.id(), GL_INFO_LOG_LENGTH, &len);
    std::vector<char> buf(static_cast<std::size_t>(len > 0 ? len : 1), '\0');
    glGetProgramInfoLog(p.id(), len, nullptr, buf.data());
    if (log) *log = buf.data();
    return {};
  }
  return p;
}

bool RenderTarget::resize(int width, int height) {
  if (width == width_ && height == height_ && fbo_) return true;
  fbo_ = make_framebuffer();
  color_ = make_renderbuffer();
  glBindRenderbuffer(GL_RENDERBUFFER, color_.id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_.id());
  const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (!complete) {
    fbo_.reset();
    color_.reset();
    width_ = height_ = 0;
    return false;
  }
  width_ = width;
  height_ = height;
  return true;
}

void RenderTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glViewport(0, 0, width_, height_);
}

}  // namespace rope::app::gl
