// render/gl_objects.h — small move-only owners of OpenGL objects.
//
// Each owner deletes its object in its destructor, so it must be destroyed while its context is
// current: the drivers (shell/window.cpp, render/offscreen.cpp) destroy every view and renderer
// before the context. A default-constructed owner holds nothing (id 0) and is safe to destroy
// without a context.
#pragma once

#include <string>
#include <utility>

#include "render/gl.h"

namespace rope::app::gl {

template <class Deleter>
class Handle {
 public:
  Handle() = default;
  explicit Handle(GLuint id) : id_(id) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  ~Handle() { reset(); }
  void reset() {
    if (id_ != 0) Deleter{}(id_);
    id_ = 0;
  }
  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }

 private:
  GLuint id_ = 0;
};

struct DeleteTexture {
  void operator()(GLuint id) const { glDeleteTextures(1, &id); }
};
struct DeleteFramebuffer {
  void operator()(GLuint id) const { glDeleteFramebuffers(1, &id); }
};
struct DeleteRenderbuffer {
  void operator()(GLuint id) const { glDeleteRenderbuffers(1, &id); }
};
struct DeleteBuffer {
  void operator()(GLuint id) const { glDeleteBuffers(1, &id); }
};
struct DeleteVertexArray {
  void operator()(GLuint id) const { glDeleteVertexArrays(1, &id); }
};
struct DeleteProgram {
  void operator()(GLuint id) const { glDeleteProgram(id); }
};

using Texture = Handle<DeleteTexture>;
using Framebuffer = Handle<DeleteFramebuffer>;
using Renderbuffer = Handle<DeleteRenderbuffer>;
using Buffer = Handle<DeleteBuffer>;
using VertexArray = Handle<DeleteVertexArray>;
using Program = Handle<DeleteProgram>;

Texture make_texture();
Framebuffer make_framebuffer();
Renderbuffer make_renderbuffer();
Buffer make_buffer();
VertexArray make_vertex_array();

// Coverage textures: one byte of coverage a pixel, sampled as (1, 1, 1, coverage), so a shader
// that multiplies the texel by a vertex colour (ImGui's) tints it. On the desktop (OpenGL 3.3,
// gl_desktop.cpp) the texture is GL_R8 read through a swizzle, a quarter of an RGBA texture's
// memory; WebGL 2 has no swizzle, so the browser build (gl_web.cpp) stores white RGBA8 texels
// with the coverage as alpha.
//
// For the bound GL_TEXTURE_2D: linear filtering (and the desktop's swizzle).
void set_coverage_texture_parameters();
// glTexImage2D of the bound texture: width x height coverage bytes, rows of `width` bytes
// (GL_UNPACK_ALIGNMENT 1), or storage only when pixels is null.
void coverage_image(int width, int height, const unsigned char* pixels);
// glTexSubImage2D of rows [top, top + rows) of the bound texture, rows of `width` bytes.
void coverage_sub_image(int top, int width, int rows, const unsigned char* pixels);

// The first line of every shader of shaders/ (which have none of their own): "#version 330
// core" on the desktop, "#version 300 es" with float and int precision in the browser.
const char* shader_header();
// The GLSL version line ImGui's OpenGL 3 backend is initialised with, of the same dialect.
const char* imgui_glsl_version();

// Compiles and links a program from vertex and fragment source (shader_header() goes first,
// the sources hold no #version line). On failure returns an empty
// Program and puts the driver's log in *log.
Program make_program(const std::string& vertex_src, const std::string& fragment_src,
                     std::string* log);

// An RGBA8 colour target of a given size: the offscreen frame and the export at 2x / 4x.
class RenderTarget {
 public:
  // Returns false (and leaves the target empty) when the framebuffer is not complete, e.g. a
  // size above GL_MAX_RENDERBUFFER_SIZE.
  bool resize(int width, int height);
  void bind() const;  // binds the framebuffer and sets the viewport
  int width() const { return width_; }
  int height() const { return height_; }
  GLuint framebuffer() const { return fbo_.id(); }

 private:
  Framebuffer fbo_;
  Renderbuffer color_;
  int width_ = 0;
  int height_ = 0;
};

}  // namespace rope::app::gl
