// ui/math_text.h — typeset TeX on a view's canvas: the OpenType MATH font (loaded on first
// use, fonts-lmodern's Latin Modern Math first), its glyph atlas and GL texture, and a cache of
// typeset formulas by TeX, values, size and colour. The shell owns one for every view
// (ViewEnv::math: one font, one 16 MB atlas and texture); a view drawn alone (tests) uses its own.
//
// Usage, once per frame:
//   math.begin_frame();                                   // loads the font; empties a full atlas
//   if (math.font()) {
//     const MathText::Formula& f = math.typeset("D(r) = \\frac{2}{d}\\sum_j |S_j(r)|", {}, px, c);
//     math.paint(dl, f.list, baseline_left, c, env.has_gl);
//   } else { ...draw the TeX as text; math.error() says why... }
//   math.end_frame(env.has_gl);                           // uploads the glyphs drawn (GL)
//
// A reference returned by typeset() is invalidated by any later typeset() call (the cache is
// emptied when it holds kMaxCached formulas): copy what you need before typesetting more.
//
// A view's Draw with math in its text (the Pen's rich lines, ui/canvas.h) begins with a
// MathScope, which picks the shared typesetter or the view's own and hands the Canvas its pen:
//   const MathScope math(env, own_math_);
//   const Canvas canvas("my_canvas", &drawn_, math.pen());
#pragma once

#include <map>
#include <memory>
#include <string>

#include "imgui.h"
#include "render/glyph_texture.h"
#include "rope/typeset/display_list.h"
#include "rope/typeset/glyph_atlas.h"
#include "rope/typeset/math_font.h"
#include "rope/typeset/parser.h"
#include "ui/canvas.h"
#include "ui/view_env.h"

namespace rope::app {

class MathText {
 public:
  struct Formula {
    typeset::DisplayList list;  // px, baseline at y = 0
    int errors = 0;             // typesetter diagnostics (an unknown command is drawn in red)
  };

  // Loads the font on the first call; empties the atlas when it is full (glyphs come back as
  // they are drawn).
  void begin_frame();
  // With GL: uploads the glyphs rasterised this frame to the texture.
  void end_frame(bool has_gl);

  const typeset::MathFont* font() const { return font_.get(); }
  // Why no math font could be loaded ("" when one was, or before begin_frame).
  const std::string& error() const { return error_; }

  // The formula typeset at `px` (em size) in `colour`; display style, or text style for math
  // inside a line of prose; its scripts no smaller than min_script_px (0: the font's 70 % and
  // 50 %; typeset::LayoutOptions). Requires font().
  const Formula& typeset(const std::string& tex, const typeset::Values& values, float px,
                         ImU32 colour, bool inline_style = false, float min_script_px = 0.0f);
  // Draws a typeset list with its baseline's left end at `origin`: glyphs from the atlas with
  // GL, a box per glyph without (headless tests measure the same layout).
  void paint(ImDrawList* dl, const typeset::DisplayList& list, ImVec2 origin, ImU32 colour,
             bool has_gl);

  // The em size, px, at which inline math looks as large as text in `font` drawn at `size` px:
  // between the size that matches the text's capital height and the one that matches its
  // x-height (DejaVu Sans has a tall x-height; matching it alone makes the math's digits too
  // large, matching the capitals alone its letters too small). Without the glyphs to measure:
  // size / 1.164 (DejaVu Sans: ascent + descent = 1.164 em). Requires font().
  float inline_px(const ImFont* font, float size) const;

  static constexpr std::size_t kMaxCached = 512;  // a slider sweep makes new strings every frame
  // Sub- and superscripts of math in a view's text and a lesson's are drawn at least this large,
  // px at scale 1: 12 px on a 1280 x 720 screen, 18 px on a 1080-line projector (scale 1.5).
  static constexpr float kMinScriptPx = 12.0f;

 private:
  bool tried_ = false;
  std::string error_;
  std::unique_ptr<typeset::MathFont> font_;
  std::unique_ptr<typeset::GlyphAtlas> atlas_;
  GlyphTexture texture_;
  std::map<std::string, Formula> cache_;
};

// The typesetter a view's Draw uses: ViewEnv::math (begun and ended by draw_frame), or, for a
// view drawn alone (tests), the view's own, begun here and ended when the scope ends. Declare
// it before the Canvas, so that the canvas's clip is popped first.
class MathScope {
 public:
  MathScope(const ViewEnv& env, MathText& own);
  ~MathScope();
  MathScope(const MathScope&) = delete;
  MathScope& operator=(const MathScope&) = delete;

  MathText* get() const { return math_; }
  // What the canvas's pen typesets `$…$` with (Canvas's third argument).
  PenMath pen() const;

 private:
  MathText* math_;
  bool own_;
  bool has_gl_;
  float scale_;
};

}  // namespace rope::app
