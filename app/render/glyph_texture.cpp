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
  const bool resized = width_ != atlas.width() || height_ != atlas.height();
  if (!atlas.dirty() && !resized) return;
  GLint previous = 0, alignment = 4;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
  glBindTexture(GL_TEXTURE_2D, texture_.id());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  if (resized) {  // storage only: the rows with glyphs are uploaded below, no other row is read
    gl::coverage_image(atlas.width(), atlas.height(), nullptr);
    width_ = atlas.width();
    height_ = atlas.height();
  }
  // the changed rows only: a new glyph used to send the whole 4 MB page
  if (atlas.dirty()) {
    const int top = atlas.dirty_top(), rows = atlas.dirty_bottom() - atlas.dirty_top();
    gl::coverage_sub_image(
        top, width_, rows,
        atlas.pixels() + static_cast<std::size_t>(top) * static_cast<std::size_t>(width_));
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
  atlas.mark_clean();
  ++uploads_;
}

}  // namespace rope::app
