// symbols.cpp — tables behind symbols.h. Code points follow unicode-math's defaults (e.g. \phi
// is U+03D5 ϕ and \varphi U+03C6 φ, as in TeX's own fonts).
#include "symbols.h"

#include <unordered_map>

namespace rope::typeset::detail {
namespace {

using A = AtomClass;

struct Entry {
  std::string_view name;
  SymbolInfo info;
};

// clang-format off
constexpr Entry kSymbols[] = {
  // Greek lowercase (italic by default) and variants
  {"alpha", {0x3B1, A::ord}}, {"beta", {0x3B2, A::ord}}, {"gamma", {0x3B3, A::ord}},
  {"delta", {0x3B4, A::ord}}, {"epsilon", {0x3F5, A::ord}}, {"varepsilon", {0x3B5, A::ord}},
  {"zeta", {0x3B6, A::ord}}, {"eta", {0x3B7, A::ord}}, {"theta", {0x3B8, A::ord}},
  {"vartheta", {0x3D1, A::ord}}, {"iota", {0x3B9, A::ord}}, {"kappa", {0x3BA, A::ord}},
  {"lambda", {0x3BB, A::ord}}, {"mu", {0x3BC, A::ord}}, {"nu", {0x3BD, A::ord}},
  {"xi", {0x3BE, A::ord}}, {"omicron", {0x3BF, A::ord}}, {"pi", {0x3C0, A::ord}},
  {"varpi", {0x3D6, A::ord}}, {"rho", {0x3C1, A::ord}}, {"varrho", {0x3F1, A::ord}},
  {"sigma", {0x3C3, A::ord}}, {"varsigma", {0x3C2, A::ord}}, {"tau", {0x3C4, A::ord}},
  {"upsilon", {0x3C5, A::ord}}, {"phi", {0x3D5, A::ord}}, {"varphi", {0x3C6, A::ord}},
  {"chi", {0x3C7, A::ord}}, {"psi", {0x3C8, A::ord}}, {"omega", {0x3C9, A::ord}},
  // Greek uppercase (upright by default)
  {"Gamma", {0x393, A::ord}}, {"Delta", {0x394, A::ord}}, {"Theta", {0x398, A::ord}},
  {"Lambda", {0x39B, A::ord}}, {"Xi", {0x39E, A::ord}}, {"Pi", {0x3A0, A::ord}},
  {"Sigma", {0x3A3, A::ord}}, {"Upsilon", {0x3A5, A::ord}}, {"Phi", {0x3A6, A::ord}},
  {"Psi", {0x3A8, A::ord}}, {"Omega", {0x3A9, A::ord}},
  // Ordinary symbols
  {"infty", {0x221E, A::ord}}, {"partial", {0x2202, A::ord}}, {"nabla", {0x2207, A::ord}},
  {"top", {0x22A4, A::ord}}, {"bot", {0x22A5, A::ord}}, {"forall", {0x2200, A::ord}},
  {"exists", {0x2203, A::ord}}, {"emptyset", {0x2205, A::ord}}, {"varnothing", {0x2205, A::ord}},
  {"ell", {0x2113, A::ord}}, {"hbar", {0x210F, A::ord}}, {"Re", {0x211C, A::ord}},
  {"Im", {0x2111, A::ord}}, {"prime", {0x2032, A::ord}}, {"angle", {0x2220, A::ord}},
  {"neg", {0xAC, A::ord}}, {"lnot", {0xAC, A::ord}}, {"aleph", {0x2135, A::ord}},
  {"imath", {0x1D6A4, A::ord}}, {"jmath", {0x1D6A5, A::ord}}, {"triangle", {0x25B3, A::ord}},
  {"vdots", {0x22EE, A::ord}}, {"ldots", {0x2026, A::inner}}, {"dots", {0x2026, A::inner}},
  {"cdots", {0x22EF, A::inner}}, {"ddots", {0x22F1, A::inner}}, {"dagger", {0x2020, A::ord}},
  {"vert", {0x7C, A::ord}}, {"|", {0x2016, A::ord}}, {"Vert", {0x2016, A::ord}},
  {"#", {0x23, A::ord}}, {"%", {0x25, A::ord}}, {"&", {0x26, A::ord}}, {"_", {0x5F, A::ord}},
  {"$", {0x24, A::ord}}, {"backslash", {0x5C, A::ord}}, {"surd", {0x221A, A::ord}},
  // Binary operators
  {"cdot", {0x22C5, A::bin}}, {"times", {0xD7, A::bin}}, {"otimes", {0x2297, A::bin}},
  {"oplus", {0x2295, A::bin}}, {"odot", {0x2299, A::bin}}, {"ominus", {0x2296, A::bin}},
  {"pm", {0xB1, A::bin}}, {"mp", {0x2213, A::bin}}, {"ast", {0x2217, A::bin}},
  {"star", {0x22C6, A::bin}}, {"circ", {0x2218, A::bin}}, {"bullet", {0x2219, A::bin}},
  {"div", {0xF7, A::bin}}, {"cup", {0x222A, A::bin}}, {"cap", {0x2229, A::bin}},
  {"wedge", {0x2227, A::bin}}, {"land", {0x2227, A::bin}}, {"vee", {0x2228, A::bin}},
  {"lor", {0x2228, A::bin}}, {"setminus", {0x2216, A::bin}}, {"circledast", {0x229B, A::bin}},
  // Relations and arrows
  {"le", {0x2264, A::rel}}, {"leq", {0x2264, A::rel}}, {"ge", {0x2265, A::rel}},
  {"geq", {0x2265, A::rel}}, {"ne", {0x2260, A::rel}}, {"neq", {0x2260, A::rel}},
  {"approx", {0x2248, A::rel}}, {"equiv", {0x2261, A::rel}}, {"sim", {0x223C, A::rel}},
  {"simeq", {0x2243, A::rel}}, {"cong", {0x2245, A::rel}}, {"propto", {0x221D, A::rel}},
  {"in", {0x2208, A::rel}}, {"notin", {0x2209, A::rel}}, {"ni", {0x220B, A::rel}},
  {"subset", {0x2282, A::rel}}, {"subseteq", {0x2286, A::rel}}, {"supset", {0x2283, A::rel}},
  {"supseteq", {0x2287, A::rel}}, {"to", {0x2192, A::rel}}, {"rightarrow", {0x2192, A::rel}},
  {"leftarrow", {0x2190, A::rel}}, {"gets", {0x2190, A::rel}}, {"mapsto", {0x21A6, A::rel}},
  {"Rightarrow", {0x21D2, A::rel}}, {"Leftarrow", {0x21D0, A::rel}},
  {"Leftrightarrow", {0x21D4, A::rel}}, {"iff", {0x27FA, A::rel}}, {"implies", {0x27F9, A::rel}},
  {"leftrightarrow", {0x2194, A::rel}}, {"longrightarrow", {0x27F6, A::rel}},
  {"longmapsto", {0x27FC, A::rel}}, {"ll", {0x226A, A::rel}}, {"gg", {0x226B, A::rel}},
  {"perp", {0x27C2, A::rel}}, {"mid", {0x2223, A::rel}}, {"parallel", {0x2225, A::rel}},
  {"coloneqq", {0x2254, A::rel}}, {"triangleq", {0x225C, A::rel}}, {"asymp", {0x224D, A::rel}},
  {"lt", {0x3C, A::rel}}, {"gt", {0x3E, A::rel}}, {"leftrightharpoons", {0x21CB, A::rel}},
  // Punctuation
  {"colon", {0x3A, A::punct}}, {"ldotp", {0x2E, A::punct}},
  // Large operators
  {"sum", {0x2211, A::op, true}}, {"prod", {0x220F, A::op, true}},
  {"coprod", {0x2210, A::op, true}}, {"int", {0x222B, A::op, true, Limits::nolimits}},
  {"iint", {0x222C, A::op, true, Limits::nolimits}}, {"oint", {0x222E, A::op, true, Limits::nolimits}},
  {"bigcup", {0x22C3, A::op, true}}, {"bigcap", {0x22C2, A::op, true}},
  {"bigoplus", {0x2A01, A::op, true}}, {"bigotimes", {0x2A02, A::op, true}},
  {"bigodot", {0x2A00, A::op, true}}, {"bigwedge", {0x22C0, A::op, true}},
  {"bigvee", {0x22C1, A::op, true}},
  // Delimiters usable outside \left ... \right
  {"langle", {0x27E8, A::open}}, {"rangle", {0x27E9, A::close}}, {"{", {0x7B, A::open}},
  {"}", {0x7D, A::close}}, {"lbrace", {0x7B, A::open}}, {"rbrace", {0x7D, A::close}},
  {"lvert", {0x7C, A::open}}, {"rvert", {0x7C, A::close}}, {"lVert", {0x2016, A::open}},
  {"rVert", {0x2016, A::close}}, {"lfloor", {0x230A, A::open}}, {"rfloor", {0x230B, A::close}},
  {"lceil", {0x2308, A::open}}, {"rceil", {0x2309, A::close}}, {"lbrack", {0x5B, A::open}},
  {"rbrack", {0x5D, A::close}},
};

struct Function { std::string_view name; bool limits; };
constexpr Function kFunctions[] = {
  {"arccos", false}, {"arcsin", false}, {"arctan", false}, {"arg", false}, {"cos", false},
  {"cosh", false}, {"cot", false}, {"coth", false}, {"csc", false}, {"deg", false},
  {"det", true}, {"dim", false}, {"exp", false}, {"gcd", true}, {"hom", false}, {"inf", true},
  {"ker", false}, {"lg", false}, {"lim", true}, {"liminf", true}, {"limsup", true},
  {"ln", false}, {"log", false}, {"max", true}, {"min", true}, {"Pr", true}, {"sec", false},
  {"sin", false}, {"sinh", false}, {"sup", true}, {"tan", false}, {"tanh", false},
  {"argmax", true}, {"argmin", true}, {"softmax", false}, {"diag", false}, {"tr", false},
};

struct Space { std::string_view name; float mu; };
constexpr Space kSpaces[] = {
  {",", 3}, {"thinspace", 3}, {":", 4}, {">", 4}, {"medspace", 4}, {";", 5},
  {"thickspace", 5}, {"!", -3}, {"negthinspace", -3}, {"negmedspace", -4},
  {"negthickspace", -5}, {" ", 6}, {"enspace", 9}, {"quad", 18}, {"qquad", 36},
};

struct Accent { std::string_view name; char32_t code; bool stretchy; };
constexpr Accent kAccents[] = {
  {"hat", 0x302, false}, {"widehat", 0x302, true}, {"tilde", 0x303, false},
  {"widetilde", 0x303, true}, {"bar", 0x304, false}, {"vec", 0x20D7, false},
  {"dot", 0x307, false}, {"ddot", 0x308, false}, {"check", 0x30C, false},
  {"breve", 0x306, false}, {"acute", 0x301, false}, {"grave", 0x300, false},
  {"mathring", 0x30A, false}, {"overrightarrow", 0x20D7, true},
};

struct CharClass { char32_t cp; AtomClass atom; };
constexpr CharClass kChars[] = {
  {'+', A::bin}, {'*', A::bin}, {0x2212, A::bin}, {'=', A::rel}, {'<', A::rel}, {'>', A::rel},
  {':', A::rel}, {'(', A::open}, {'[', A::open}, {')', A::close}, {']', A::close},
  {'!', A::close}, {'?', A::close}, {',', A::punct}, {';', A::punct}, {0x27E8, A::open},
  {0x27E9, A::close}, {0x230A, A::open}, {0x230B, A::close}, {0x2308, A::open},
  {0x2309, A::close},
};
// clang-format on

}  // namespace

const SymbolInfo* find_symbol(std::string_view name) {
  static const std::unordered_map<std::string_view, SymbolInfo> kTable = [] {
    std::unordered_map<std::string_view, SymbolInfo> t;
    for (const Entry& e : kSymbols)
      t.emplace(e.name, e.info);
    return t;
  }();
  auto it = kTable.find(name);
  return it == kTable.end() ? nullptr : &it->second;
}

bool find_function(std::string_view name, bool& limits) {
  for (const Function& f : kFunctions) {
    if (f.name == name) {
      limits = f.limits;
      return true;
    }
  }
  return false;
}

bool find_space(std::string_view name, float& mu) {
  for (const Space& s : kSpaces) {
    if (s.name == name) {
      mu = s.mu;
      return true;
    }
  }
  return false;
}

bool find_accent(std::string_view name, char32_t& code, bool& stretchy) {
  for (const Accent& a : kAccents) {
    if (a.name == name) {
      code = a.code;
      stretchy = a.stretchy;
      return true;
    }
  }
  return false;
}

AtomClass class_of_char(char32_t cp) {
  for (const CharClass& c : kChars) {
    if (c.cp == cp) return c.atom;
  }
  // Typed Unicode math symbols take the class of the command that names them (≤ is a Rel).
  static const std::unordered_map<char32_t, AtomClass> kByCode = [] {
    std::unordered_map<char32_t, AtomClass> t;
    for (const Entry& e : kSymbols) {
      if (e.info.code > 0x7F && !e.info.large_op) t.emplace(e.info.code, e.info.atom);
    }
    return t;
  }();
  auto it = kByCode.find(cp);
  return it == kByCode.end() ? A::ord : it->second;
}

bool delimiter_from_command(std::string_view name, char32_t& code) {
  struct D {
    std::string_view name;
    char32_t code;
  };
  static constexpr D kDelims[] = {
      {"langle", 0x27E8}, {"rangle", 0x27E9}, {"{", 0x7B},        {"}", 0x7D},
      {"lbrace", 0x7B},   {"rbrace", 0x7D},   {"|", 0x2016},      {"Vert", 0x2016},
      {"vert", 0x7C},     {"lvert", 0x7C},    {"rvert", 0x7C},    {"lVert", 0x2016},
      {"rVert", 0x2016},  {"lfloor", 0x230A}, {"rfloor", 0x230B}, {"lceil", 0x2308},
      {"rceil", 0x2309},  {"lbrack", 0x5B},   {"rbrack", 0x5D},   {"backslash", 0x5C},
  };
  for (const D& d : kDelims) {
    if (d.name == name) {
      code = d.code;
      return true;
    }
  }
  return false;
}

bool delimiter_from_char(char32_t ch, char32_t& code) {
  switch (ch) {
    case '(':
    case ')':
    case '[':
    case ']':
    case '|':
    case '/':
    case 0x27E8:
    case 0x27E9:
    case 0x2016:
    case 0x230A:
    case 0x230B:
    case 0x2308:
    case 0x2309:
      code = ch;
      return true;
    case '.':
      code = 0;
      return true;
    case '<':
      code = 0x27E8;
      return true;
    case '>':
      code = 0x27E9;
      return true;
    default:
      return false;
  }
}

}  // namespace rope::typeset::detail
