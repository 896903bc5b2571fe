// rope/typeset/ast.h — the parse tree of the TeX math subset (one Node per TeX atom or construct).
//
// The parser (parser.h) builds it, the layout (layout.h) consumes it; nothing here knows about
// fonts or pixels. A formula is a NodeList; constructs keep their sub-formulas in `args`
// (one NodeList per argument) and arrays keep their cells in `rows`.
//
// Usage:
//   ParseResult r = parse("\\frac{a}{b}");
//   r.nodes[0].kind == NodeKind::fraction; r.nodes[0].args[0] is the numerator list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rope::typeset {

// TeX atom classes (TeXbook ch. 17): they decide the space between neighbours.
enum class AtomClass : std::uint8_t { ord, op, bin, rel, open, close, punct, inner };

// Which Unicode math alphabet a letter or digit is drawn from (layout maps a-z, A-Z, Greek and
// digits into the U+1D400 plane accordingly; other characters ignore it).
enum class Alphabet : std::uint8_t {
  italic,         // default for Latin and lowercase Greek letters
  upright,        // \mathrm, \text, digits, uppercase Greek
  bold,           // \mathbf
  bold_italic,    // \boldsymbol on letters
  double_struck,  // \mathbb
  calligraphic,   // \mathcal (Unicode script letters)
};

// How a big operator places its scripts: auto = above/below in display style only.
enum class Limits : std::uint8_t { automatic, limits, nolimits };

// Forced styles (\displaystyle, \dfrac, ...). none = inherit.
enum class StyleOverride : std::uint8_t { none, display, text, script, script_script };

enum class NodeKind : std::uint8_t {
  symbol,      // one character: `code`, `alphabet`, `atom`; `large_op` for \sum \prod \int
  text,        // upright shaped text: \text{...} and operator names (\cos, \operatorname{..})
  group,       // {...}: args[0]; an Ord atom
  scripts,     // args = {nucleus (0 or 1 node), subscript, superscript}; has_sub / has_sup
  fraction,    // args = {numerator, denominator}; `style` for \dfrac / \tfrac
  radical,     // args = {radicand, index (may be empty)}
  left_right,  // args[0] = body; `delim_left`, `delim_right` (0 = the null delimiter `.`)
  big_delim,   // \big( ...: `code` = delimiter, `value` = level 1..4 (\big .. \Bigg)
  array,       // `rows` of cells; `text` = environment name; `align` = column alignments
  brace,       // \underbrace / \overbrace: args[0]; `over`; an Op with limits
  accent,      // args[0] = base; `code` = combining accent (U+0302 ...); `stretchy` for \widehat
  overline,    // args[0]
  color,       // switch: `color` applies to args[0] = the rest of the enclosing group
  style,       // switch: `style` applies to args[0] = the rest of the enclosing group
  space,       // `value` = width in mu (1 mu = 1/18 em); negative for \!
  error,       // unknown command / parse error: `text` = the offending source, drawn red
};

struct Node;
using NodeList = std::vector<Node>;

struct Node {
  NodeKind kind = NodeKind::symbol;
  AtomClass atom = AtomClass::ord;  // class for inter-atom spacing
  Alphabet alphabet = Alphabet::italic;
  Limits limits = Limits::automatic;
  StyleOverride style = StyleOverride::none;
  bool large_op = false;  // symbol: \sum-like operator that grows in display style
  bool has_sub = false;   // scripts
  bool has_sup = false;   // scripts
  bool over = false;      // brace: \overbrace
  bool stretchy = false;  // accent: \widehat, \widetilde
  char32_t code = 0;      // symbol / accent / big_delim: Unicode code point
  char32_t delim_left = 0, delim_right = 0;  // left_right: 0 = null delimiter
  std::uint32_t color = 0;                   // color: 0xRRGGBBAA
  float value = 0;                           // space: mu; big_delim: level 1..4
  std::string text;                          // text / error / array env name
  std::string align;                         // array: one of 'l' 'c' 'r' per column
  std::vector<NodeList> args;
  std::vector<std::vector<NodeList>> rows;  // array: rows[r][c] is a cell
  int source_offset = 0;                    // byte offset of the construct in the source
};

// A message about the source: `column` is 1-based and counts Unicode code points.
struct Diagnostic {
  int column = 1;
  std::string message;
};

}  // namespace rope::typeset
