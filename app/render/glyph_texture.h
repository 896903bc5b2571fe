// render/glyph_texture.h — the GL texture behind a typeset::GlyphAtlas page.
//
// The atlas rasterises glyphs on the CPU and marks itself dirty; this owner creates the
// texture on first use and re-uploads the page whenever it is dirty. Like every GL owner it
// must be destroyed while its context is current (the views that hold it are destroyed before
// the context).
//
// Usage (per frame, GL context current, after drawing the equations into ImGui's lists):
//   glyph_texture.sync(atlas);                  // uploads if atlas.dirty(), then mark_clean()
//   ImTextureID id = glyph_texture.id();        // what draw_display_list needs
#pragma once

#include "imgui.h"
#include "render/gl_objects.h"
#include "rope/typeset/glyph_atlas.h"

namespace rope::app {

class GlyphTexture {
 public:
  // Creates the texture if needed and uploads the atlas page when it is dirty.
  void sync(typeset::GlyphAtlas& atlas);
  // The texture for ImDrawList (created empty on first call, so ids are stable within a frame).
  ImTextureID id();
  int uploads() const { return uploads_; }  // number of page uploads so far (tests)

 private:
  gl::Texture texture_;
  int width_ = 0, height_ = 0;
  int uploads_ = 0;
};

}  // namespace rope::app
