#include "render/glyph_texture.h"

#include <cstdint>

namespace rope::app {

ImTextureID GlyphTexture::id() {
  if (!texture_) {
    texture_ = gl::make_texture();
    GLint previous = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
    glBindTexture(GL_TEXTURE_2D, texture_.id());
    // the page is one byte of coverage a pixel, read as white with that alpha (as the UI
    // font's atlas, ui/ui_context.cpp)
    gl::set_coverage_texture_parameters();
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
  }
  // ImGui 1.86's OpenGL3 backend stores a GLuint in the pointer-sized ImTextureID.
  return reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(texture_.id()));
}

void GlyphTexture::sync(typeset::GlyphAtlas& atlas) {
  (void)id();
  if (!atlas.dirty()) return;
  GLint previous = 0, alignment = 4;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
  glBindTexture(GL_TEXTURE_2D, texture_.id());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  if (width_ != atlas.width() || height_ != atlas.height()) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, atlas.width(), atlas.height(), 0, GL_RED,
                 GL_UNSIGNED_BYTE, atlas.pixels());
    width_ = atlas.width();
    height_ = atlas.height();
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RED, GL_UNSIGNED_BYTE,
                    atlas.pixels());
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
  atlas.mark_clean();
  ++uploads_;
}

}  // namespace rope::app
