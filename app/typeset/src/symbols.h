// symbols.h (internal) — the command and character tables of the TeX subset: which code point
// and atom class a control sequence or a typed character stands for.
#pragma once

#include <string_view>

#include "rope/typeset/ast.h"

namespace rope::typeset::detail {

struct SymbolInfo {
  char32_t code;
  AtomClass atom;
  bool large_op = false;
  Limits limits = Limits::automatic;
};

// \alpha, \le, \sum ... (name without the backslash); nullptr if not a symbol command.
const SymbolInfo* find_symbol(std::string_view name);

// Operator names typeset as upright text: \cos, \max, ... `limits` is true for the ones that
// take limits in display style (\max, \lim, ...).
bool find_function(std::string_view name, bool& limits);

// Spacing in mu for \, \; \quad ...; false if not a spacing command.
bool find_space(std::string_view name, float& mu);

// Accent commands: the combining code point, and whether it stretches over its base.
bool find_accent(std::string_view name, char32_t& code, bool& stretchy);

// Atom class of a character typed directly (ASCII or UTF-8, e.g. '=' or '≤').
AtomClass class_of_char(char32_t cp);

// Delimiter after \left, \right, \big: a command name (langle, |, {, ...) or a character.
bool delimiter_from_command(std::string_view name, char32_t& code);
bool delimiter_from_char(char32_t ch, char32_t& code);

}  // namespace rope::typeset::detail
