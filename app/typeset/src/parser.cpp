// parser.cpp — recursive-descent parser for the TeX math subset (parser.h).
//
// [SECTION] Index
//   [SECTION] Helpers: UTF-8, colours
//   [SECTION] Parser: lists, scripts, atoms
//   [SECTION] Parser: commands
//   [SECTION] Parser: environments
//   [SECTION] Public API
//
// Grammar, informally: list := element*; element := atom | atom ('^'|'_'|"'") arg ... | switch;
// a list ends at end of input, '}', '&', '\\', \right, \middle or \end, and the caller decides
// whether that terminator is legal there. Every failure is turned into an error node + message.
#include "rope/typeset/parser.h"

#include <cctype>
#include <utility>

#include "io/placeholders.h"
#include "io/utf8.h"
#include "symbols.h"

namespace rope::typeset {
namespace {

constexpr int kMaxDepth = 64;  // nesting guard against stack exhaustion on hostile input
// Longest formula typeset, in bytes. The lessons' longest is 388; a formula past this is a
// mistake (an unclosed $$ swallowing the file), and refusing it keeps layout inside a frame's
// budget however it nests. The parser's diagnostic is what `lessons --check` reports.
constexpr std::size_t kMaxSource = 4000;

// [SECTION] Helpers: UTF-8, colours

// Decodes one UTF-8 code point at s[pos] (io/utf8.h), advancing pos. Malformed bytes give
// U+FFFD and advance by one byte, so the caller always makes progress.
char32_t decode_utf8(std::string_view s, std::size_t& pos) {
  const app::Utf8Char c = app::decode_utf8(s, pos);
  pos += c.length;
  return c.code_point;
}

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The letters of the active font command (\mathrm ...), mapped per character class in
// alphabet_for().
enum class FontMode { normal, rm, it, bf, bm, bb, cal };

Alphabet alphabet_for(FontMode mode, char32_t cp) {
  const bool latin = cp < 0x80 && is_letter(static_cast<char>(cp));
  const bool digit = cp >= '0' && cp <= '9';
  const bool greek_upper = cp >= 0x391 && cp <= 0x3A9;
  const bool greek_lower = (cp >= 0x3B1 && cp <= 0x3C9) || cp == 0x3D1 || cp == 0x3D5 ||
                           cp == 0x3D6 || cp == 0x3F1 || cp == 0x3F5;
  switch (mode) {
    case FontMode::normal:
      if (latin || greek_lower) return Alphabet::italic;
      return Alphabet::upright;
    case FontMode::rm:
      return Alphabet::upright;
    case FontMode::it:
      return (latin || greek_lower || greek_upper) ? Alphabet::italic : Alphabet::upright;
    case FontMode::bf:
      return (latin || digit || greek_upper || greek_lower) ? Alphabet::bold : Alphabet::upright;
    case FontMode::bm:
      if (latin || greek_lower) return Alphabet::bold_italic;
      return (digit || greek_upper) ? Alphabet::bold : Alphabet::upright;
    case FontMode::bb:
      if (latin || digit) return Alphabet::double_struck;
      return greek_lower ? Alphabet::italic : Alphabet::upright;
    case FontMode::cal:
      if (latin && cp >= 'A' && cp <= 'Z') return Alphabet::calligraphic;
      return latin || greek_lower ? Alphabet::italic : Alphabet::upright;
  }
  return Alphabet::upright;
}

// [SECTION] Parser: lists, scripts, atoms

class Parser {
 public:
  Parser(std::string_view src, const Values& values, bool allow_placeholders)
      : s_(src), values_(values), allow_placeholders_(allow_placeholders) {}

  ParseResult run() {
    ParseResult r;
    if (s_.size() > kMaxSource) {  // shown as one red "formula too long", nothing parsed
      Node n;
      n.kind = NodeKind::error;
      n.text = "formula too long";
      r.nodes.push_back(std::move(n));
      r.diagnostics.push_back({1, "formula of " + std::to_string(s_.size()) + " bytes; at most " +
                                      std::to_string(kMaxSource) +
                                      " are typeset (is a closing $$ or $ missing?)"});
      return r;
    }
    r.nodes = parse_list(true);
    for (auto& [offset, message] : errors_) {
      r.diagnostics.push_back({app::utf8_column(s_, offset), std::move(message)});
    }
    return r;
  }

  // Raw (offset, message) pairs, for a nested parse of a placeholder value.
  std::vector<std::pair<std::size_t, std::string>>& raw_errors() { return errors_; }
  NodeList parse_all() { return parse_list(true); }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  const Values& values_;
  bool allow_placeholders_;
  int depth_ = 0;
  bool too_deep_ = false;  // the rest of the input was given up: report nothing more
  FontMode font_ = FontMode::normal;
  std::vector<std::pair<std::size_t, std::string>> errors_;

  bool at_end() const { return pos_ >= s_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0';
  }

  void skip_ws() {
    while (!at_end()) {
      const char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '%') {  // TeX comment to the end of the line
        while (!at_end() && s_[pos_] != '\n')
          ++pos_;
      } else {
        break;
      }
    }
  }

  void error(std::size_t offset, std::string message) {
    if (too_deep_) return;  // the levels it cut short would each report a missing } or argument
    errors_.emplace_back(offset, std::move(message));
  }

  Node error_node(std::size_t begin, std::size_t end, std::string message) {
    error(begin, std::move(message));
    Node n;
    n.kind = NodeKind::error;
    // The red text shows where the error is, not all of it: a \frac missing its second
    // argument spans the rest of the formula, and 60 nested ones repeated a 4 000-byte tail 60
    // times (128 000 glyphs, 0.8 s of layout). 24 bytes and "...", cut on a UTF-8 boundary.
    std::string_view shown = s_.substr(begin, end - begin);
    if (shown.size() > 24) {
      std::size_t cut = 24;
      while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0u) == 0x80u)
        --cut;  // back to the first byte of a code point
      n.text = std::string(shown.substr(0, cut)) + "...";
    } else {
      n.text = std::string(shown);
    }
    if (n.text.empty()) n.text = "?";
    n.source_offset = static_cast<int>(begin);
    return n;
  }

  // The control-sequence name at pos_ (which must be a backslash), without consuming it.
  std::string_view peek_command() const {
    if (peek() != '\\' || pos_ + 1 >= s_.size()) return {};
    std::size_t e = pos_ + 1;
    if (is_letter(s_[e])) {
      while (e < s_.size() && is_letter(s_[e]))
        ++e;
    } else {
      ++e;
    }
    return s_.substr(pos_ + 1, e - pos_ - 1);
  }

  std::string_view read_command() {
    std::string_view name = peek_command();
    pos_ += 1 + name.size();
    return name;
  }

  bool at_terminator() const {
    if (at_end()) return true;
    const char c = s_[pos_];
    if (c == '}' || c == '&') return true;
    if (c == '\\') {
      std::string_view n = peek_command();
      return n == "\\" || n == "right" || n == "middle" || n == "end" || n == "cr";
    }
    return false;
  }

  // list := element*, up to a terminator. At top level a stray terminator becomes an error
  // node and parsing continues.
  NodeList parse_list(bool top) {
    NodeList out;
    while (true) {
      skip_ws();
      if (at_end()) break;
      if (at_terminator()) {
        if (!top) break;
        const std::size_t begin = pos_;
        if (peek() == '\\') {
          std::string_view n = read_command();
          out.push_back(error_node(begin, pos_, "unexpected \\" + std::string(n)));
        } else {
          ++pos_;
          out.push_back(error_node(begin, pos_, std::string("unexpected '") + s_[begin] + "'"));
        }
        continue;
      }
      parse_element(out, top);
    }
    return out;
  }

  void parse_element(NodeList& out, bool top) {
    const char c = peek();
    if (c == '^' || c == '_' || c == '\'') {
      attach_script(out);
      return;
    }
    if (c == '\\') {
      const std::size_t begin = pos_;
      std::string_view name = peek_command();
      if (name == "limits" || name == "nolimits") {
        read_command();
        Node* op = out.empty() ? nullptr : &out.back();
        if (op != nullptr && op->kind == NodeKind::scripts && !op->args[0].empty())
          op = &op->args[0].back();
        if (op == nullptr || op->atom != AtomClass::op) {
          out.push_back(
              error_node(begin, pos_, "\\" + std::string(name) + " must follow an operator"));
        } else {
          op->limits = name == "limits" ? Limits::limits : Limits::nolimits;
        }
        return;
      }
      if (name == "color") {
        read_command();
        Node n;
        n.kind = NodeKind::color;
        n.source_offset = static_cast<int>(begin);
        n.color = read_color_arg(begin);
        if (++depth_ > kMaxDepth) {
          out.push_back(too_deep(begin).front());
          return;
        }
        n.args.push_back(parse_list(top));
        --depth_;
        out.push_back(std::move(n));
        return;
      }
      StyleOverride st = StyleOverride::none;
      if (name == "displaystyle") st = StyleOverride::display;
      if (name == "textstyle") st = StyleOverride::text;
      if (name == "scriptstyle") st = StyleOverride::script;
      if (name == "scriptscriptstyle") st = StyleOverride::script_script;
      if (st != StyleOverride::none) {
        read_command();
        Node n;
        n.kind = NodeKind::style;
        n.style = st;
        n.source_offset = static_cast<int>(begin);
        if (++depth_ > kMaxDepth) {
          out.push_back(too_deep(begin).front());
          return;
        }
        n.args.push_back(parse_list(top));
        --depth_;
        out.push_back(std::move(n));
        return;
      }
    }
    out.push_back(parse_atom());
  }

  // x^a, x_a, x', with TeX's rules: one of each script per nucleus, primes join the
  // superscript (x'^2 = x^{\prime 2}).
  void attach_script(NodeList& out) {
    const std::size_t begin = pos_;
    const char c = s_[pos_];
    const bool prime = c == '\'';
    ++pos_;
    Node* target = out.empty() ? nullptr : &out.back();
    const bool reuse = target != nullptr && target->kind == NodeKind::scripts;
    if (!reuse) {
      Node s;
      s.kind = NodeKind::scripts;
      s.source_offset = static_cast<int>(begin);
      s.args.resize(3);
      const bool can_be_nucleus = target != nullptr && target->kind != NodeKind::space &&
                                  target->kind != NodeKind::color &&
                                  target->kind != NodeKind::style;
      if (can_be_nucleus) {
        s.atom = target->atom;
        s.source_offset = target->source_offset;
        s.args[0].push_back(std::move(*target));
        out.back() = std::move(s);
      } else {
        out.push_back(std::move(s));
      }
      target = &out.back();
    }
    if (prime) {
      NodeList& sup = target->args[2];
      if (target->has_sup && (sup.empty() || sup.back().code != 0x2032)) {
        out.push_back(error_node(begin, pos_, "prime after a superscript"));
        return;
      }
      Node p;
      p.kind = NodeKind::symbol;
      p.code = 0x2032;
      p.alphabet = Alphabet::upright;
      p.source_offset = static_cast<int>(begin);
      sup.push_back(std::move(p));
      target->has_sup = true;
      return;
    }
    const bool is_sup = c == '^';
    NodeList arg = parse_arg(begin, is_sup ? "^" : "_");
    if (is_sup) {
      NodeList& sup = target->args[2];
      const bool primes_only = !sup.empty() && sup.back().code == 0x2032;
      if (target->has_sup && !primes_only) {
        out.push_back(error_node(begin, pos_, "double superscript"));
        return;
      }
      for (Node& n : arg)
        sup.push_back(std::move(n));
      target->has_sup = true;
    } else {
      if (target->has_sub) {
        out.push_back(error_node(begin, pos_, "double subscript"));
        return;
      }
      target->args[1] = std::move(arg);
      target->has_sub = true;
    }
  }

  // An argument: {list} or a single atom. `what` names the command for the message.
  NodeList parse_arg(std::size_t cmd_begin, std::string_view what) {
    skip_ws();
    NodeList out;
    if (at_terminator() || peek() == '^' || peek() == '_') {
      out.push_back(error_node(cmd_begin, pos_, "missing argument for " + std::string(what)));
      return out;
    }
    if (peek() == '{' && !placeholder_at(pos_)) {
      const std::size_t open = pos_;
      ++pos_;
      if (++depth_ > kMaxDepth) return too_deep(open);
      out = parse_list(false);
      --depth_;
      expect_close(open);
      return out;
    }
    out.push_back(parse_atom());
    return out;
  }

  NodeList too_deep(std::size_t begin) {
    NodeList out;
    pos_ = s_.size();
    out.push_back(error_node(begin, pos_, "nesting deeper than 64 levels"));
    too_deep_ = true;
    --depth_;
    return out;
  }

  void expect_close(std::size_t open) {
    if (peek() == '}') {
      ++pos_;
    } else {
      error(open, "missing '}' for this '{'");
    }
  }

  // `{{name}}` with an identifier name (io/placeholders.h).
  bool placeholder_at(std::size_t p) const { return app::placeholder_at(s_, p).has_value(); }

  Node parse_placeholder() {
    const std::size_t begin = pos_;
    const app::Placeholder ph = *app::placeholder_at(s_, pos_);  // the caller checked
    const std::string name(ph.key());  // "theta.3:5": a value per digits spec
    pos_ += ph.size();
    if (!allow_placeholders_)
      return error_node(begin, pos_, "placeholder inside a placeholder value");
    auto it = values_.find(name);
    if (it == values_.end())
      return error_node(begin, pos_, "no value for placeholder {{" + name + "}}");
    return substitute(begin, it->second, "{{" + name + "}}");
  }

  // A placeholder's value ({{name}} or \val{name}, written `label` in messages) parsed as TeX
  // at `begin`: one group whose nodes all point at the placeholder, placeholders inside the value
  // refused, its nesting counted on top of ours, its errors reported at the placeholder.
  Node substitute(std::size_t begin, std::string_view value, const std::string& label) {
    Parser sub(value, values_, false);
    sub.depth_ = depth_;
    Node g;
    g.kind = NodeKind::group;
    g.source_offset = static_cast<int>(begin);
    g.args.push_back(sub.parse_all());
    set_offsets(g.args[0], static_cast<int>(begin));
    for (auto& [offset, message] : sub.raw_errors())
      error(begin, "in the value of " + label + ": " + message);
    return g;
  }

  static void set_offsets(NodeList& list, int offset) {
    for (Node& n : list) {
      n.source_offset = offset;
      for (NodeList& a : n.args)
        set_offsets(a, offset);
      for (auto& row : n.rows)
        for (NodeList& cell : row)
          set_offsets(cell, offset);
    }
  }

  Node symbol(char32_t cp, AtomClass atom, std::size_t begin) const {
    Node n;
    n.kind = NodeKind::symbol;
    n.code = cp;
    n.atom = atom;
    n.alphabet = alphabet_for(font_, cp);
    n.source_offset = static_cast<int>(begin);
    return n;
  }

  Node parse_atom() {
    skip_ws();
    const std::size_t begin = pos_;
    if (at_end()) return error_node(begin, pos_, "unexpected end of input");
    const char c = s_[pos_];
    if (c == '{') {
      if (placeholder_at(pos_)) return parse_placeholder();
      ++pos_;
      if (++depth_ > kMaxDepth) return too_deep(begin).front();
      Node g;
      g.kind = NodeKind::group;
      g.source_offset = static_cast<int>(begin);
      g.args.push_back(parse_list(false));
      --depth_;
      expect_close(begin);
      return g;
    }
    if (c == '\\') {
      if (++depth_ > kMaxDepth) return too_deep(begin).front();
      Node n = parse_command();
      --depth_;
      return n;
    }
    if (at_terminator() || c == '^' || c == '_') {
      ++pos_;
      return error_node(begin, pos_, std::string("unexpected '") + c + "'");
    }
    if (c == '~') {
      ++pos_;
      return space(6, begin);
    }
    if (c == '\'') {
      ++pos_;
      return symbol(0x2032, AtomClass::ord, begin);
    }
    if (c == '#' || c == '$') {
      ++pos_;
      return error_node(begin, pos_, std::string("'") + c + "' is not allowed in math");
    }
    char32_t cp = decode_utf8(s_, pos_);
    if (cp == 0xFFFD) return error_node(begin, pos_, "invalid UTF-8");
    if (cp == '-') cp = 0x2212;  // the minus sign, not a hyphen
    if (cp == '*') cp = 0x2217;
    return symbol(cp, detail::class_of_char(cp), begin);
  }

  Node space(float mu, std::size_t begin) const {
    Node n;
    n.kind = NodeKind::space;
    n.value = mu;
    n.source_offset = static_cast<int>(begin);
    return n;
  }

  // [SECTION] Parser: commands

  Node parse_command() {
    const std::size_t begin = pos_;
    std::string_view name = read_command();
    if (name.empty()) {
      return error_node(begin, pos_, "lone backslash at end of input");
    }
    if (const detail::SymbolInfo* si = detail::find_symbol(name)) {
      Node n = symbol(si->code, si->atom, begin);
      n.large_op = si->large_op;
      n.limits = si->limits;
      return n;
    }
    float mu = 0;
    if (detail::find_space(name, mu)) return space(mu, begin);
    bool limits = false;
    if (detail::find_function(name, limits)) {
      return op_text(std::string(name), limits ? Limits::automatic : Limits::nolimits, begin);
    }
    char32_t accent = 0;
    bool stretchy = false;
    if (detail::find_accent(name, accent, stretchy)) {
      Node n;
      n.kind = NodeKind::accent;
      n.code = accent;
      n.stretchy = stretchy;
      n.source_offset = static_cast<int>(begin);
      n.args.push_back(parse_arg(begin, "\\" + std::string(name)));
      return n;
    }
    if (name == "frac" || name == "dfrac" || name == "tfrac") {
      Node n;
      n.kind = NodeKind::fraction;
      n.atom = AtomClass::inner;
      n.style = name == "dfrac"   ? StyleOverride::display
                : name == "tfrac" ? StyleOverride::text
                                  : StyleOverride::none;
      n.source_offset = static_cast<int>(begin);
      n.args.push_back(parse_arg(begin, "\\" + std::string(name)));
      n.args.push_back(parse_arg(begin, "\\" + std::string(name)));
      return n;
    }
    if (name == "sqrt") {
      Node n;
      n.kind = NodeKind::radical;
      n.source_offset = static_cast<int>(begin);
      NodeList index;
      skip_ws();
      if (peek() == '[') index = parse_bracket_arg();
      n.args.push_back(parse_arg(begin, "\\sqrt"));
      n.args.push_back(std::move(index));
      return n;
    }
    if (name == "left") return parse_left_right(begin);
    if (name == "big" || name == "Big" || name == "bigg" || name == "Bigg" || name == "bigl" ||
        name == "Bigl" || name == "biggl" || name == "Biggl" || name == "bigr" || name == "Bigr" ||
        name == "biggr" || name == "Biggr" || name == "bigm" || name == "Bigm" || name == "biggm" ||
        name == "Biggm") {
      return parse_big(name, begin);
    }
    if (name == "begin") return parse_environment(begin);
    if (name == "text" || name == "textrm" || name == "mbox" || name == "textnormal" ||
        name == "textup" || name == "textit" || name == "textbf") {
      Node n;
      n.kind = NodeKind::text;
      n.alphabet = Alphabet::upright;
      n.source_offset = static_cast<int>(begin);
      n.text = read_raw_group(begin);
      return n;
    }
    if (name == "operatorname") {
      Limits lim = Limits::nolimits;
      if (peek() == '*') {
        ++pos_;
        lim = Limits::automatic;
      }
      return op_text(read_raw_group(begin), lim, begin);
    }
    FontMode mode = FontMode::normal;
    bool is_font = true;
    if (name == "mathrm" || name == "mathup" || name == "mathsf" || name == "mathtt" ||
        name == "rm") {
      mode = FontMode::rm;
    } else if (name == "mathit") {
      mode = FontMode::it;
    } else if (name == "mathbf" || name == "bf") {
      mode = FontMode::bf;
    } else if (name == "boldsymbol" || name == "bm") {
      mode = FontMode::bm;
    } else if (name == "mathbb") {
      mode = FontMode::bb;
    } else if (name == "mathcal" || name == "mathscr") {
      mode = FontMode::cal;
    } else {
      is_font = false;
    }
    if (is_font) {
      const FontMode saved = font_;
      font_ = mode;
      NodeList arg = parse_arg(begin, "\\" + std::string(name));
      font_ = saved;
      if (arg.size() == 1) return std::move(arg.front());  // a single character stays a char
      Node g;
      g.kind = NodeKind::group;
      g.source_offset = static_cast<int>(begin);
      g.args.push_back(std::move(arg));
      return g;
    }
    if (name == "textcolor") {
      Node c;
      c.kind = NodeKind::color;
      c.source_offset = static_cast<int>(begin);
      c.color = read_color_arg(begin);
      c.args.push_back(parse_arg(begin, "\\textcolor"));
      Node g;
      g.kind = NodeKind::group;
      g.source_offset = static_cast<int>(begin);
      g.args.emplace_back();
      g.args[0].push_back(std::move(c));
      return g;
    }
    if (name == "overline") {
      Node n;
      n.kind = NodeKind::overline;
      n.source_offset = static_cast<int>(begin);
      n.args.push_back(parse_arg(begin, "\\overline"));
      return n;
    }
    if (name == "underbrace" || name == "overbrace") {
      Node n;
      n.kind = NodeKind::brace;
      n.atom = AtomClass::op;
      n.limits = Limits::limits;
      n.over = name == "overbrace";
      n.source_offset = static_cast<int>(begin);
      n.args.push_back(parse_arg(begin, "\\" + std::string(name)));
      return n;
    }
    if (name == "mathop" || name == "mathbin" || name == "mathrel" || name == "mathord" ||
        name == "mathopen" || name == "mathclose" || name == "mathpunct" || name == "mathinner") {
      Node g;
      g.kind = NodeKind::group;
      g.atom = name == "mathop"      ? AtomClass::op
               : name == "mathbin"   ? AtomClass::bin
               : name == "mathrel"   ? AtomClass::rel
               : name == "mathopen"  ? AtomClass::open
               : name == "mathclose" ? AtomClass::close
               : name == "mathpunct" ? AtomClass::punct
               : name == "mathinner" ? AtomClass::inner
                                     : AtomClass::ord;
      g.limits = Limits::nolimits;
      g.source_offset = static_cast<int>(begin);
      g.args.push_back(parse_arg(begin, "\\" + std::string(name)));
      return g;
    }
    if (name == "val") {  // \val{name}: the same as {{name}}
      skip_ws();
      const std::string key = read_raw_group(begin);
      auto it = values_.find(key);
      if (!allow_placeholders_ || it == values_.end()) {
        return error_node(begin, pos_, "no value for placeholder \\val{" + key + "}");
      }
      return substitute(begin, it->second, "\\val{" + key + "}");
    }
    return error_node(begin, pos_, "unknown command \\" + std::string(name));
  }

  Node op_text(std::string text, Limits limits, std::size_t begin) const {
    Node n;
    n.kind = NodeKind::text;
    n.atom = AtomClass::op;
    n.alphabet = Alphabet::upright;
    n.limits = limits;
    n.text = std::move(text);
    n.source_offset = static_cast<int>(begin);
    return n;
  }

  // {raw text} with balanced braces; \{ \} \\ \, and "\ " are unescaped.
  std::string read_raw_group(std::size_t cmd_begin) {
    skip_ws();
    if (peek() != '{') {
      error(cmd_begin, "expected '{'");
      return {};
    }
    const std::size_t open = pos_++;
    std::string out;
    int level = 1;
    while (!at_end()) {
      const char c = s_[pos_];
      if (c == '\\' && pos_ + 1 < s_.size() && !is_letter(s_[pos_ + 1])) {
        const char e = s_[pos_ + 1];
        out += (e == ',' || e == ';' || e == ':' || e == '!') ? ' ' : e;
        pos_ += 2;
        continue;
      }
      if (c == '{') ++level;
      if (c == '}' && --level == 0) {
        ++pos_;
        return out;
      }
      out += c;
      ++pos_;
    }
    error(open, "missing '}' for this '{'");
    return out;
  }

  // [optional] argument, parsed as math.
  NodeList parse_bracket_arg() {
    const std::size_t open = pos_++;
    NodeList out;
    while (true) {
      skip_ws();
      if (at_end() || at_terminator()) {
        error(open, "missing ']' for this '['");
        return out;
      }
      if (peek() == ']') {
        ++pos_;
        return out;
      }
      parse_element(out, false);
    }
  }

  std::uint32_t read_color_arg(std::size_t cmd_begin) {
    const std::size_t arg_begin = pos_;
    const std::string spec = read_raw_group(cmd_begin);
    std::uint32_t rgba = 0;
    if (!parse_color(spec, rgba)) {
      error(arg_begin, "unknown colour '" + spec + "'");
      return 0xDC1E1EFFu;
    }
    return rgba;
  }

  // A delimiter after \left, \right, \big: a character, a command or '.'.
  bool read_delimiter(char32_t& code) {
    skip_ws();
    if (at_end()) return false;
    if (peek() == '\\') {
      std::string_view n = read_command();
      return detail::delimiter_from_command(n, code);
    }
    const char32_t ch = decode_utf8(s_, pos_);
    return detail::delimiter_from_char(ch, code);
  }

  Node parse_left_right(std::size_t begin) {
    Node n;
    n.kind = NodeKind::left_right;
    n.atom = AtomClass::inner;
    n.source_offset = static_cast<int>(begin);
    const std::size_t d0 = pos_;
    if (!read_delimiter(n.delim_left)) {
      return error_node(begin, pos_,
                        "\\left needs a delimiter such as ( [ | . (got '" +
                            std::string(s_.substr(d0, pos_ - d0)) + "')");
    }
    n.args.push_back(parse_list(false));
    skip_ws();
    if (peek_command() == "middle") {
      const std::size_t m = pos_;
      read_command();
      char32_t ignored = 0;
      read_delimiter(ignored);
      n.args[0].push_back(error_node(m, pos_, "\\middle is not supported"));
      for (Node& x : parse_list(false))
        n.args[0].push_back(std::move(x));
      skip_ws();
    }
    if (peek_command() != "right") {
      error(begin, "\\left without matching \\right");
      n.delim_right = 0;
      return n;
    }
    read_command();
    const std::size_t d1 = pos_;
    if (!read_delimiter(n.delim_right)) {
      n.delim_right = 0;
      error(d1, "\\right needs a delimiter such as ) ] | .");
    }
    return n;
  }

  Node parse_big(std::string_view name, std::size_t begin) {
    Node n;
    n.kind = NodeKind::big_delim;
    n.source_offset = static_cast<int>(begin);
    const std::string_view base = name.substr(
        0,
        name.size() - ((name.back() == 'l' || name.back() == 'r' || name.back() == 'm') ? 1 : 0));
    n.value = base == "big" ? 1.0f : base == "Big" ? 2.0f : base == "bigg" ? 3.0f : 4.0f;
    const char suffix = name.back();
    n.atom = suffix == 'l'   ? AtomClass::open
             : suffix == 'r' ? AtomClass::close
             : suffix == 'm' ? AtomClass::rel
                             : AtomClass::ord;
    if (!read_delimiter(n.code)) {
      return error_node(begin, pos_, "\\" + std::string(name) + " needs a delimiter");
    }
    return n;
  }

  // [SECTION] Parser: environments

  Node parse_environment(std::size_t begin) {
    const std::string env = read_raw_group(begin);
    std::string align_spec;
    if (env == "array") align_spec = read_raw_group(begin);
    static constexpr std::string_view kKnown[] = {
        "matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix",  "Vmatrix", "smallmatrix",
        "cases",  "aligned", "align",   "align*",  "gathered", "array",   "split"};
    bool known = false;
    for (std::string_view k : kKnown)
      known = known || k == env;
    Node arr;
    arr.kind = NodeKind::array;
    arr.text = env;
    arr.source_offset = static_cast<int>(begin);
    std::vector<NodeList> row;
    bool closed = false;
    while (true) {
      row.push_back(parse_list(false));
      skip_ws();
      if (peek() == '&') {
        ++pos_;
        continue;
      }
      std::string_view cmd = peek_command();
      if (cmd == "\\" || cmd == "cr") {
        read_command();
        skip_ws();
        if (peek() == '[') {  // \\[2pt]: the extra space is ignored
          while (!at_end() && peek() != ']')
            ++pos_;
          if (!at_end()) ++pos_;
        }
        arr.rows.push_back(std::move(row));
        row.clear();
        continue;
      }
      if (cmd == "end") {
        read_command();
        const std::string end_env = read_raw_group(begin);
        if (end_env != env) error(begin, "\\begin{" + env + "} ended by \\end{" + end_env + "}");
        closed = true;
      } else if (peek() == '}') {
        error(begin, "missing \\end{" + env + "}");
      } else if (at_end()) {
        error(begin, "missing \\end{" + env + "}");
      } else {  // \right or \middle inside the environment
        error(pos_, "unexpected \\" + std::string(cmd) + " inside " + env);
        read_command();
        continue;
      }
      break;
    }
    // A trailing \\ leaves one empty cell in a final row: drop it.
    if (!(row.size() == 1 && row[0].empty() && !arr.rows.empty()))
      arr.rows.push_back(std::move(row));
    (void)closed;
    std::size_t cols = 0;
    for (const auto& r : arr.rows)
      cols = std::max(cols, r.size());
    if (env == "cases") {
      arr.align = "ll";
    } else if (env == "aligned" || env == "align" || env == "align*" || env == "split") {
      for (std::size_t i = 0; i < cols; ++i)
        arr.align += (i % 2 == 0) ? 'r' : 'l';
    } else if (env == "array") {
      for (char ch : align_spec)
        if (ch == 'l' || ch == 'c' || ch == 'r') arr.align += ch;
    }
    while (arr.align.size() < cols)
      arr.align += 'c';
    if (!known) {
      error(begin, "unknown environment '" + env + "' (typeset as a matrix)");
    }
    char32_t l = 0, r = 0;
    if (env == "pmatrix") l = '(', r = ')';
    if (env == "bmatrix") l = '[', r = ']';
    if (env == "Bmatrix") l = '{', r = '}';
    if (env == "vmatrix") l = '|', r = '|';
    if (env == "Vmatrix") l = 0x2016, r = 0x2016;
    if (env == "cases") l = '{';
    if (l == 0 && r == 0) return arr;
    Node lr;
    lr.kind = NodeKind::left_right;
    lr.atom = AtomClass::inner;
    lr.delim_left = l;
    lr.delim_right = r;
    lr.source_offset = static_cast<int>(begin);
    lr.args.emplace_back();
    lr.args[0].push_back(std::move(arr));
    return lr;
  }
};

}  // namespace

// [SECTION] Public API

ParseResult parse(std::string_view tex, const Values& values) {
  Parser p(tex, values, true);
  return p.run();
}

bool parse_color(std::string_view spec, std::uint32_t& rgba) {
  while (!spec.empty() && spec.front() == ' ')
    spec.remove_prefix(1);
  while (!spec.empty() && spec.back() == ' ')
    spec.remove_suffix(1);
  if (!spec.empty() && spec.front() == '#') {
    spec.remove_prefix(1);
    if (spec.size() != 3 && spec.size() != 6) return false;
    std::uint32_t v = 0;
    for (char c : spec) {
      const int h = hex_value(c);
      if (h < 0) return false;
      v = v * 16 + static_cast<std::uint32_t>(h);
      if (spec.size() == 3) v = v * 16 + static_cast<std::uint32_t>(h);
    }
    rgba = (v << 8) | 0xFFu;
    return true;
  }
  struct Named {
    std::string_view name;
    std::uint32_t rgb;
  };
  // xcolor's base colours (dvipsnames-free), plus a few common web names.
  static constexpr Named kNames[] = {
      {"black", 0x000000},   {"white", 0xFFFFFF},    {"red", 0xFF0000},
      {"green", 0x00FF00},   {"blue", 0x0000FF},     {"cyan", 0x00FFFF},
      {"magenta", 0xFF00FF}, {"yellow", 0xFFFF00},   {"gray", 0x808080},
      {"grey", 0x808080},    {"darkgray", 0x404040}, {"lightgray", 0xBFBFBF},
      {"brown", 0xBF8040},   {"lime", 0xBFFF00},     {"olive", 0x808000},
      {"orange", 0xFF8000},  {"pink", 0xFFBFBF},     {"purple", 0xBF0040},
      {"teal", 0x008080},    {"violet", 0x800080},   {"darkgreen", 0x006400},
      {"navy", 0x000080},
  };
  for (const Named& n : kNames) {
    if (n.name == spec) {
      rgba = (n.rgb << 8) | 0xFFu;
      return true;
    }
  }
  return false;
}

}  // namespace rope::typeset
