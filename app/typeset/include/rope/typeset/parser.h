// rope/typeset/parser.h — TeX math subset → NodeList (ast.h), with live-value placeholders.
//
// Placeholders: `{{name}}`, where name matches [A-Za-z_][A-Za-z0-9_.]*, is replaced by the TeX
// text values.at(name) (with a digits spec, `{{name:5}}`, values.at("name:5"); io/placeholders.h)
// before the surrounding formula is built. The value is parsed as its own
// group (so `{{base}}^{-2}` puts the exponent on the whole value) and a leading '-' becomes the
// minus sign U+2212 as usual. A missing name becomes an error node. `{{` followed by anything
// that is not `identifier}}` is ordinary TeX (two nested groups).
//
// Errors never throw: an unknown command or a malformed construct becomes a NodeKind::error
// node holding the offending source (drawn in red), and a Diagnostic with its column.
//
// Usage:
//   Values v{{"base", "10000"}, {"dim", "8"}};
//   ParseResult r = parse("\\theta_1 = {{base}}^{-2/{{dim}}}", v);
//   for (const Diagnostic& d : r.diagnostics) log(d.column, d.message);
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "rope/typeset/ast.h"

namespace rope::typeset {

using Values = std::map<std::string, std::string, std::less<>>;

struct ParseResult {
  NodeList nodes;
  std::vector<Diagnostic> diagnostics;  // empty when the whole source was understood
  bool ok() const { return diagnostics.empty(); }
};

// Parses UTF-8 TeX math (the contents of $...$, without the dollars). Never throws on bad input;
// nesting deeper than 64 levels is reported as an error.
ParseResult parse(std::string_view tex, const Values& values = {});

// Maps a colour name (red, blue, ... the xcolor base names) or #rgb / #rrggbb to 0xRRGGBBAA.
// Returns false for anything else.
bool parse_color(std::string_view spec, std::uint32_t& rgba);

}  // namespace rope::typeset
