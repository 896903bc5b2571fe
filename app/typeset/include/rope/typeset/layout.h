// rope/typeset/layout.h — TeX math layout (TeXbook appendix G, with the constants, size variants
// and glyph assemblies of an OpenType MATH font) from a NodeList to a DisplayList.
//
// Pure computation: no I/O, no GL. A typical equation lays out in well under 1 ms, so re-typeset
// whenever a live value changes.
//
// Usage:
//   FontLoad fl = MathFont::load(MathFont::kDefaultPath);
//   Typeset t = typeset("\\theta_i = {{base}}^{-2i/d}", {{"base", "10000"}}, *fl.font,
//                       {.font_px = 24});
//   // t.list: glyphs + rules in px; t.diagnostics: parse errors with columns.
#pragma once

#include <string_view>

#include "rope/typeset/ast.h"
#include "rope/typeset/display_list.h"
#include "rope/typeset/math_font.h"
#include "rope/typeset/parser.h"

namespace rope::typeset {

enum class MathStyle : std::uint8_t { display, text, script, script_script };

struct LayoutOptions {
  float font_px = 24;                    // em size of the base (display/text) style, px
  MathStyle style = MathStyle::display;  // display = a block equation, text = inline
  Rgba ink{0, 0, 0, 255};                // default colour
  Rgba error_ink{220, 30, 30, 255};      // colour of error nodes
  // The smallest em of a sub- or superscript, px (MathML's scriptminsize; 0: none). The font
  // draws scripts at 70 % and scripts of scripts at 50 % of font_px; a script that would come
  // out smaller is drawn at this size instead (at most font_px), with its spacing scaled alike.
  // A lesson on a projector shrinks its formulas to fit, and then the index i of θ_i is the
  // first thing the back row loses.
  float min_script_px = 0;
};

// Lays out a parsed formula. Unknown code points draw as .notdef boxes.
DisplayList layout(const NodeList& nodes, const MathFont& font, const LayoutOptions& options);

struct Typeset {
  DisplayList list;
  std::vector<Diagnostic> diagnostics;
};

// parse() with placeholder values, then layout().
Typeset typeset(std::string_view tex, const Values& values, const MathFont& font,
                const LayoutOptions& options);

}  // namespace rope::typeset
