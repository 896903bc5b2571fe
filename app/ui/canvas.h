// ui/canvas.h — small drawing helpers over ImDrawList shared by every view: arrows, arcs,
// text that wraps to the canvas and records where it went, a read-out box. Numbers on screen come
// from io/number_format.h.
//
// All sizes are in px at scale 1 and are multiplied by the `scale` argument.
//
// Text: views draw it through a Pen, which breaks lines only at ASCII spaces (a no-break space,
// kNbsp, keeps a group such as "m = 3" on one line, and numbers are never split) and records
// the box of every line in the view's DrawnText, a read-only result that tests check: every
// box inside the canvas, no two overlapping. Its rich lines mix text and `$…$` math, typeset
// by ui/math_text.h on the text's baseline (review D10: no "base^(−2i/d)" on a slide).
#pragma once

#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "imgui.h"
#include "io/number_format.h"

namespace rope::app {

// A line from `from` to `to` with a filled triangular head at `to`. The line between skip_from
// and skip_to px from `from` is left out (it lies under other shapes) when skip_to > skip_from.
void draw_arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 colour, float thickness,
                float head_size, float skip_from = 0.0f, float skip_to = 0.0f);

// Arc around `centre` from angle a0 to a1 (radians, counter-clockwise on screen, i.e. y up).
void draw_arc(ImDrawList* dl, ImVec2 centre, float radius, double a0, double a1, ImU32 colour,
              float thickness, int max_segments = 64);

// Screen point at `radius` and `angle` (radians, mathematical: counter-clockwise, y up).
inline ImVec2 polar(ImVec2 centre, float radius, double angle) {
  return ImVec2(centre.x + radius * static_cast<float>(std::cos(angle)),
                centre.y - radius * static_cast<float>(std::sin(angle)));
}

// Text centred horizontally on x, top at y.
void draw_text_centred(ImDrawList* dl, ImFont* font, ImVec2 top_centre, ImU32 colour,
                       const std::string& text);

// [SECTION] text that fits

// U+00A0: joins words that must stay on one line ("n" kNbsp "=" kNbsp "3").
inline constexpr const char* kNbsp = "\u00A0";
// `text` with every ASCII space replaced by kNbsp.
std::string nobreak(const std::string& text);
// Prose with the spaces a reader would not break at made kNbsp: inside a number written with
// thin groups ("500 000"), around "=" and "·" ("L = 2048", "base · 2π"), and after the comma
// of a short parenthesised pair of numbers ("(2, 3)", "(3, −2)"). Other spaces stay breaks.
std::string glue_prose(const std::string& text);

// Size of one line of text in `font` at its own size, px.
ImVec2 text_size(const ImFont* font, const std::string& text);
// The lines of `text` wrapped to `width` px: breaks at ASCII spaces and at '\n' only, so a word
// (or a number) is never split; a word wider than `width` gets a line of its own.
std::vector<std::string> wrap_text(const ImFont* font, const std::string& text, float width);
// Size of the wrapped text: the widest line, and the font size times the number of lines.
ImVec2 wrapped_size(const ImFont* font, const std::string& text, float width);
// `text` cut at a character boundary and ended with "…" so that it fits `width` px in ImGui's
// current font (whole when it fits; empty when not even "…" does).
std::string elide(const std::string& text, float width);

// Call before ImGui::BeginTooltip: the tooltip about the item in [min, max] (screen px) goes
// beside it, `gap` px away, on the side of the screen with more room and level with its top (its
// bottom in the lower half), so it never covers what it describes (classroom review D16: a
// dial's tooltip opened over the dial).
void place_tooltip_beside(ImVec2 min, ImVec2 max, float gap);
// The first font of `fonts` (give them largest first) in which `text` wraps to at most
// `max_lines` lines of at most `width` px; the last font if none does.
ImFont* fit_font(std::initializer_list<ImFont*> fonts, const std::string& text, float width,
                 int max_lines = 1);

// The box of one line of text a view drew, px.
struct TextBox {
  ImVec2 min, max;
  std::string text;
};
// A glyph of typeset math a rich line drew: its origin (on its own baseline, which a script
// moves up or down), its em size, and the baseline of the line of text it sits in, px.
struct MathGlyph {
  ImVec2 origin;
  float size_px = 0;
  float line_baseline = 0;
  float text_px = 0;  // the size of the line's text font
};
// What a view drew in its last Draw, for tests: its canvas, the box of every text line (a rich
// line's text as written, `$…$` and all) and the glyphs of its typeset math.
struct DrawnText {
  ImVec2 canvas_min{0, 0}, canvas_max{0, 0};
  std::vector<TextBox> boxes;
  std::vector<MathGlyph> math;
  void add(ImVec2 min, ImVec2 max, const std::string& text) { boxes.push_back({min, max, text}); }
};

class MathText;  // ui/math_text.h

// What a Pen typesets `$…$` with: the typesetter (null, or one without a font: the TeX is drawn
// as written, between its dollars), whether its glyphs come from GL (else a box per glyph, as
// tests draw), and the UI scale (scripts no smaller than MathText::kMinScriptPx × scale).
struct PenMath {
  MathText* text = nullptr;
  bool has_gl = false;
  float scale = 1.0f;
};

// Draws text in a font at its own size and records each line's box in `log` (if not null).
// Without a draw list it only measures: a view can try a layout before drawing it.
//
// Rich lines (rich, rich_wrapped, rich_size) hold `$…$` math as well (a view's text has no other
// '$'): typeset in text style at the em that matches the font's capital and x-heights, on the
// text's baseline, in the text's colour. A line is the font's height, taller only where the math
// reaches above or below it. Measure them with measuring() (the same math, nothing drawn), not
// with a Pen{}, which would measure the TeX source. Formulas are cached by the typesetter, so a
// rich line each frame costs its measuring.
struct Pen {
  ImDrawList* dl = nullptr;
  DrawnText* log = nullptr;
  PenMath math;
  // This pen without its draw list and log: measures what it would draw.
  Pen measuring() const { return Pen{nullptr, nullptr, math}; }
  // One line, top-left at pos; returns its size. size: px, 0 for the font's own (another size
  // scales the font's glyphs: meant for a step or two below it, never for enlarging).
  ImVec2 text(ImFont* font, ImVec2 pos, ImU32 colour, const std::string& s, float size = 0) const;
  // One line centred horizontally on top_centre.x; returns its size.
  ImVec2 centred(ImFont* font, ImVec2 top_centre, ImU32 colour, const std::string& s,
                 float size = 0) const;
  // Wrapped to `width` (wrap_text), top-left at pos; returns the height used.
  float wrapped(ImFont* font, ImVec2 pos, float width, ImU32 colour, const std::string& s) const;

  // One rich line, top-left at pos; returns its size.
  ImVec2 rich(ImFont* font, ImVec2 pos, ImU32 colour, const std::string& s) const;
  // Rich text wrapped to `width` at ASCII spaces and '\n' outside the math, top-left at pos;
  // returns the height used.
  float rich_wrapped(ImFont* font, ImVec2 pos, float width, ImU32 colour,
                     const std::string& s) const;
  // The size rich_wrapped would take: the widest line, the height.
  ImVec2 rich_size(ImFont* font, float width, const std::string& s) const;
};

// The area a view draws in: an InvisibleButton over the window's whole content region (hover
// and clicks come from it), with a clip rectangle pushed on the window's draw list for as long
// as the Canvas lives (popped by its destructor, so every early return is safe). With `log`,
// the log is cleared and given the canvas rectangle, and `pen` records into it.
//
//   void MyView::Draw(AppState& state, const ViewEnv& env) {
//     const Canvas canvas("my_canvas", &drawn_);
//     ...  canvas.draw_list, canvas.origin, canvas.size, canvas.pen
//   }
class Canvas {
 public:
  // `math`: what the pen typesets `$…$` with (MathScope::pen()).
  explicit Canvas(const char* id, DrawnText* log = nullptr, PenMath math = {});
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  ImVec2 max() const { return ImVec2(origin.x + size.x, origin.y + size.y); }

  ImDrawList* draw_list = nullptr;
  ImVec2 origin;  // top-left, px
  ImVec2 size;    // at least 1 x 1 px
  bool hovered = false;
  ImVec2 mouse;  // mouse position, px
  Pen pen;       // text on this canvas
};

// [SECTION] layouts that fit

// Views try their fullest layout first and fall back to plainer ones (smaller fonts, fewer
// lines, stacked instead of side by side) until one fits. Levels are numbered from 0 (the
// fullest) to levels - 1 (the plainest, used when nothing fits). Returns the first level for
// which fits(level) is true. `fits` usually measures the layout with a Pen that has no draw
// list, so measuring draws nothing.
template <class Fits>
int first_fitting(int levels, Fits&& fits) {
  for (int level = 0; level + 1 < levels; ++level)
    if (fits(level)) return level;
  return levels > 0 ? levels - 1 : 0;
}

// Multiplies the alpha of a packed colour by a in [0, 1].
ImU32 with_alpha(ImU32 colour, float a);

}  // namespace rope::app
