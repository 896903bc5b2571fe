#include "ui/canvas.h"

#include "io/utf8.h"
#include "ui/math_text.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

namespace rope::app {

void draw_arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 colour, float thickness,
                float head_size, float skip_from, float skip_to) {
  const float dx = to.x - from.x;
  const float dy = to.y - from.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-3f) {
    dl->AddCircleFilled(to, thickness, colour, 12);
    return;
  }
  const float ux = dx / len;
  const float uy = dy / len;
  const float head = std::min(head_size, 0.45f * len);
  const ImVec2 base(to.x - ux * head, to.y - uy * head);
  const float shaft = len - head;
  if (!(skip_to > skip_from)) {
    dl->AddLine(from, base, colour, thickness);
  } else {
    const auto at = [&](float t) { return ImVec2(from.x + ux * t, from.y + uy * t); };
    if (skip_from > 0.0f) dl->AddLine(from, at(std::min(skip_from, shaft)), colour, thickness);
    if (skip_to < shaft) dl->AddLine(at(std::max(skip_to, 0.0f)), base, colour, thickness);
  }
  const float w = 0.55f * head;
  dl->AddTriangleFilled(to, ImVec2(base.x - uy * w, base.y + ux * w),
                        ImVec2(base.x + uy * w, base.y - ux * w), colour);
}

void draw_arc(ImDrawList* dl, ImVec2 centre, float radius, double a0, double a1, ImU32 colour,
              float thickness, int max_segments) {
  const double span = a1 - a0;
  const int segments =
      std::clamp(static_cast<int>(std::ceil(std::fabs(span) / (2.0 * 3.14159265 / 64.0))), 2,
                 std::max(2, max_segments));
  for (int s = 0; s <= segments; ++s) {
    const double a = a0 + span * s / segments;
    dl->PathLineTo(polar(centre, radius, a));
  }
  dl->PathStroke(colour, 0, thickness);
}

void draw_text_centred(ImDrawList* dl, ImFont* font, ImVec2 top_centre, ImU32 colour,
                       const std::string& text) {
  const ImVec2 size = font->CalcTextSizeA(font->FontSize, 1e9f, 0.0f, text.c_str());
  dl->AddText(font, font->FontSize, ImVec2(std::round(top_centre.x - 0.5f * size.x), top_centre.y),
              colour, text.c_str());
}

// [SECTION] text that fits

std::string nobreak(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (char c : text) {
    if (c == ' ') {
      out += kNbsp;
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

bool ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

// A digit at `at`, or a minus sign (ASCII or U+2212, "\xE2\x88\x92") followed by one.
bool number_starts(const std::string& t, std::size_t at) {
  if (at < t.size() && ascii_digit(t[at])) return true;
  if (at + 1 < t.size() && t[at] == '-' && ascii_digit(t[at + 1])) return true;
  return t.compare(at, 3, "\xE2\x88\x92") == 0 && at + 3 < t.size() && ascii_digit(t[at + 3]);
}

}  // namespace

std::string glue_prose(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 16);
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (text[i] != ' ' || i == 0 || i + 1 >= n || text[i - 1] == ' ') {
      out += text[i];
      continue;
    }
    const char before = text[i - 1];
    // a thin group: digit, space, exactly three digits
    const bool group = ascii_digit(before) && i + 3 < n && ascii_digit(text[i + 1]) &&
                       ascii_digit(text[i + 2]) && ascii_digit(text[i + 3]) &&
                       (i + 4 >= n || !ascii_digit(text[i + 4]));
    // either side of "=" or "·" (U+00B7, "\xC2\xB7") standing between two words
    const bool op_after =
        text.compare(i + 1, 2, "= ") == 0 || text.compare(i + 1, 3, "\xC2\xB7 ") == 0;
    const bool op_before =
        (before == '=' && i >= 2 && text[i - 2] == ' ') ||
        (i >= 3 && text.compare(i - 2, 2, "\xC2\xB7") == 0 && text[i - 3] == ' ');
    // ", " inside "(a, b)" of numbers, the pair at most 16 bytes long
    bool pair = false;
    if (before == ',' && i >= 2 && ascii_digit(text[i - 2]) && number_starts(text, i + 1)) {
      const std::size_t open = text.rfind('(', i), close = text.find(')', i);
      pair = open != std::string::npos && close != std::string::npos && close - open <= 16 &&
             text.find_first_of("()", open + 1) == close;
    }
    out += (group || op_after || op_before || pair) ? kNbsp : " ";
  }
  return out;
}

ImVec2 text_size(const ImFont* font, const std::string& text) {
  return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.data(), text.data() + text.size());
}

void place_tooltip_beside(ImVec2 min, ImVec2 max, float gap) {
  const ImVec2 screen = ImGui::GetIO().DisplaySize;
  const bool right = screen.x - max.x >= min.x;
  const bool lower = min.y + max.y > screen.y;
  ImGui::SetNextWindowPos(ImVec2(right ? max.x + gap : min.x - gap, lower ? max.y : min.y),
                          ImGuiCond_Always, ImVec2(right ? 0.0f : 1.0f, lower ? 1.0f : 0.0f));
}

std::string elide(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  std::string cut = text;
  while (!cut.empty()) {
    cut = std::string(utf8_prefix(cut, cut.size() - 1));  // the last character off, whole
    while (!cut.empty() && cut.back() == ' ')
      cut.pop_back();
    const std::string candidate = cut + "…";
    if (ImGui::CalcTextSize(candidate.c_str()).x <= width) return candidate;
  }
  return ImGui::CalcTextSize("…").x <= width ? std::string("…") : std::string();
}

std::vector<std::string> wrap_text(const ImFont* font, const std::string& text, float width) {
  // Greedy: a line takes words while the span from its first word's start to the next word's
  // end fits (the spaces between words stay as written).
  std::vector<std::string> lines;
  std::size_t para = 0;
  while (para <= text.size()) {
    std::size_t para_end = text.find('\n', para);
    if (para_end == std::string::npos) para_end = text.size();
    std::size_t line_start = std::string::npos, line_end = 0;
    std::size_t i = para;
    while (i < para_end) {
      if (text[i] == ' ') {
        ++i;
        continue;
      }
      std::size_t word_end = text.find(' ', i);
      if (word_end == std::string::npos || word_end > para_end) word_end = para_end;
      if (line_start == std::string::npos) {
        line_start = i;
        line_end = word_end;
      } else if (text_size(font, text.substr(line_start, word_end - line_start)).x <= width) {
        line_end = word_end;
      } else {
        lines.push_back(text.substr(line_start, line_end - line_start));
        line_start = i;
        line_end = word_end;
      }
      i = word_end;
    }
    lines.push_back(line_start == std::string::npos
                        ? std::string()
                        : text.substr(line_start, line_end - line_start));
    para = para_end + 1;
  }
  return lines;
}

ImVec2 wrapped_size(const ImFont* font, const std::string& text, float width) {
  const std::vector<std::string> lines = wrap_text(font, text, width);
  float w = 0.0f;
  for (const std::string& l : lines)
    w = std::max(w, text_size(font, l).x);
  return ImVec2(w, font->FontSize * static_cast<float>(lines.size()));
}

ImFont* fit_font(std::initializer_list<ImFont*> fonts, const std::string& text, float width,
                 int max_lines) {
  ImFont* last = nullptr;
  for (ImFont* font : fonts) {
    last = font;
    const std::vector<std::string> lines = wrap_text(font, text, width);
    if (static_cast<int>(lines.size()) > max_lines) continue;
    bool fits = true;
    for (const std::string& l : lines)
      fits = fits && text_size(font, l).x <= width;
    if (fits) return font;
  }
  return last;
}

ImVec2 Pen::text(ImFont* font, ImVec2 pos, ImU32 colour, const std::string& s, float px) const {
  const float font_px = px > 0.0f ? px : font->FontSize;
  const float k = font_px / font->FontSize;
  const ImVec2 measured = text_size(font, s);
  const ImVec2 size(measured.x * k, measured.y * k);
  if (!dl) return size;
  dl->AddText(font, font_px, pos, colour, s.data(), s.data() + s.size());
  if (log && !s.empty()) log->add(pos, ImVec2(pos.x + size.x, pos.y + size.y), s);
  return size;
}

ImVec2 Pen::centred(ImFont* font, ImVec2 top_centre, ImU32 colour, const std::string& s,
                    float px) const {
  const float k = px > 0.0f ? px / font->FontSize : 1.0f;
  const float w = text_size(font, s).x * k;
  return text(font, ImVec2(std::round(top_centre.x - 0.5f * w), top_centre.y), colour, s, px);
}

float Pen::wrapped(ImFont* font, ImVec2 pos, float width, ImU32 colour,
                   const std::string& s) const {
  float y = pos.y;
  for (const std::string& line : wrap_text(font, s, width)) {
    text(font, ImVec2(pos.x, y), colour, line);
    y += font->FontSize;
  }
  return y - pos.y;
}

// [SECTION] rich lines: text and $…$ math on one baseline

namespace {

// A piece of rich text: a word (no ASCII space inside), a formula, a space or a line break.
struct Atom {
  enum class Kind { word, math, space, newline } kind = Kind::word;
  std::string text;                      // the word, or the formula's TeX
  float w = 0, ascent = 0, descent = 0;  // px; ascent above, descent below the baseline
};

// How a pen sets rich text in `font`: the text's ascent (ImGui puts the baseline at
// round(Ascent) under the line's top) and the math's em and smallest script, px.
struct RichFont {
  ImFont* font = nullptr;
  float size = 0, ascent = 0, space_w = 0;
  MathText* math = nullptr;  // null: the TeX drawn as written
  float math_px = 0, min_script_px = 0;
};

RichFont rich_font(const PenMath& pm, ImFont* font) {
  RichFont rf;
  rf.font = font;
  rf.size = font->FontSize;
  rf.ascent = std::round(font->Ascent);
  rf.space_w = text_size(font, " ").x;
  if (pm.text != nullptr && pm.text->font() != nullptr) {
    rf.math = pm.text;
    rf.math_px = pm.text->inline_px(font, rf.size);
    rf.min_script_px = MathText::kMinScriptPx * pm.scale;
  }
  return rf;
}

const MathText::Formula& typeset_inline(const RichFont& rf, const std::string& tex, ImU32 colour) {
  return rf.math->typeset(tex, {}, rf.math_px, colour, true, rf.min_script_px);
}

// `s` cut into atoms, formulas typeset (in `colour`: the typesetter caches by colour too). The
// text between an odd '$' and the next is math, a no-break space in it a space; an unclosed '$'
// is text.
std::vector<Atom> rich_atoms(const RichFont& rf, const std::string& s, ImU32 colour) {
  std::vector<Atom> out;
  const auto word = [&](std::string text) {
    Atom a;
    a.w = text_size(rf.font, text).x;
    a.ascent = rf.ascent;
    a.descent = rf.size - rf.ascent;
    a.text = std::move(text);
    out.push_back(std::move(a));
  };
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\n') {
      out.push_back({c == ' ' ? Atom::Kind::space : Atom::Kind::newline, {}, rf.space_w, 0, 0});
      ++i;
      continue;
    }
    if (c == '$') {
      const std::size_t close = s.find('$', i + 1);
      if (close != std::string::npos) {
        std::string tex = s.substr(i + 1, close - i - 1);
        for (std::size_t at; (at = tex.find(kNbsp)) != std::string::npos;)
          tex.replace(at, 2, " ");
        i = close + 1;
        if (rf.math == nullptr) {  // no typesetter: the TeX as written
          word("$" + tex + "$");
          continue;
        }
        const typeset::DisplayList& list = typeset_inline(rf, tex, colour).list;
        out.push_back({Atom::Kind::math, std::move(tex), list.width, list.height, list.depth});
        continue;
      }
    }
    std::size_t end = s.find_first_of(" \n$", i + 1);
    if (end == std::string::npos) end = s.size();
    word(s.substr(i, end - i));
    i = end;
  }
  return out;
}

// One line of placed atoms: each atom's x from the line's left, the line's width, ascent and
// descent, and its text as written (for the log).
struct RichLine {
  std::vector<std::pair<const Atom*, float>> atoms;
  float w = 0, ascent = 0, descent = 0;
  std::string text;
};

// Atoms into lines no wider than `width` (FLT_MAX: one line unless a '\n'), breaking only at
// spaces: the atoms between two spaces ("$x$,") stay together; a group wider than the width
// gets a line of its own.
std::vector<RichLine> rich_lines(const RichFont& rf, const std::vector<Atom>& atoms, float width) {
  std::vector<RichLine> lines(1);
  float gap = 0;           // spaces since the last group on this line, px
  std::size_t spaces = 0;  // and how many
  std::size_t i = 0;
  while (i < atoms.size()) {
    const Atom& a = atoms[i];
    if (a.kind == Atom::Kind::newline) {
      lines.emplace_back();
      gap = 0;
      spaces = 0;
      ++i;
      continue;
    }
    if (a.kind == Atom::Kind::space) {
      if (!lines.back().atoms.empty()) {
        gap += a.w;
        ++spaces;
      }
      ++i;
      continue;
    }
    std::size_t end = i;
    float group_w = 0;
    for (; end < atoms.size() &&
           (atoms[end].kind == Atom::Kind::word || atoms[end].kind == Atom::Kind::math);
         ++end)
      group_w += atoms[end].w;
    RichLine* line = &lines.back();
    if (!line->atoms.empty() && line->w + gap + group_w > width) {
      lines.emplace_back();
      line = &lines.back();
      gap = 0;
      spaces = 0;
    }
    float x = line->w + (line->atoms.empty() ? 0.0f : gap);
    if (!line->atoms.empty()) line->text.append(spaces, ' ');
    for (; i < end; ++i) {
      line->atoms.emplace_back(&atoms[i], x);
      x += atoms[i].w;
      line->text += atoms[i].kind == Atom::Kind::math ? "$" + atoms[i].text + "$" : atoms[i].text;
    }
    line->w = x;
    gap = 0;
    spaces = 0;
  }
  for (RichLine& l : lines) {
    l.ascent = rf.ascent;
    l.descent = rf.size - rf.ascent;
    for (const auto& [a, x] : l.atoms) {
      l.ascent = std::max(l.ascent, a->ascent);
      l.descent = std::max(l.descent, a->descent);
    }
  }
  return lines;
}

// Draws (with a draw list) and logs the lines from top-left `pos`; returns the widest line and
// the height.
ImVec2 paint_rich(const Pen& pen, const RichFont& rf, const std::vector<RichLine>& lines,
                  ImVec2 pos, ImU32 colour) {
  float y = pos.y, w = 0;
  for (const RichLine& l : lines) {
    const float baseline = std::round(y + l.ascent);
    if (pen.dl != nullptr) {
      for (const auto& [a, x] : l.atoms) {
        const float ax = pos.x + x;
        if (a->kind == Atom::Kind::word) {
          pen.dl->AddText(rf.font, rf.size, ImVec2(ax, baseline - rf.ascent), colour,
                          a->text.data(), a->text.data() + a->text.size());
          continue;
        }
        // cached: the same formula rich_atoms typeset
        const typeset::DisplayList& list = typeset_inline(rf, a->text, colour).list;
        const ImVec2 origin(std::round(ax), baseline);
        rf.math->paint(pen.dl, list, origin, colour, pen.math.has_gl);
        if (pen.log != nullptr)
          for (const typeset::PlacedGlyph& g : list.glyphs)
            pen.log->math.push_back(
                {ImVec2(origin.x + g.x, origin.y + g.y), g.size_px, baseline, rf.size});
      }
      if (pen.log != nullptr && !l.text.empty())
        pen.log->add(ImVec2(pos.x, baseline - l.ascent), ImVec2(pos.x + l.w, baseline + l.descent),
                     l.text);
    }
    w = std::max(w, l.w);
    y = baseline + l.descent;
  }
  return ImVec2(w, y - pos.y);
}

}  // namespace

ImVec2 Pen::rich(ImFont* font, ImVec2 pos, ImU32 colour, const std::string& s) const {
  const RichFont rf = rich_font(math, font);
  const std::vector<Atom> atoms = rich_atoms(rf, s, colour);
  return paint_rich(*this, rf, rich_lines(rf, atoms, FLT_MAX), pos, colour);
}

float Pen::rich_wrapped(ImFont* font, ImVec2 pos, float width, ImU32 colour,
                        const std::string& s) const {
  const RichFont rf = rich_font(math, font);
  const std::vector<Atom> atoms = rich_atoms(rf, s, colour);
  return paint_rich(*this, rf, rich_lines(rf, atoms, width), pos, colour).y;
}

ImVec2 Pen::rich_size(ImFont* font, float width, const std::string& s) const {
  const RichFont rf = rich_font(math, font);
  const std::vector<Atom> atoms = rich_atoms(rf, s, 0);
  return paint_rich(measuring(), rf, rich_lines(rf, atoms, width), ImVec2(0, 0), 0);
}

Canvas::Canvas(const char* id, DrawnText* log, PenMath math) {
  draw_list = ImGui::GetWindowDrawList();
  pen = Pen{draw_list, log, math};
  origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  size = ImVec2(std::max(avail.x, 1.0f), std::max(avail.y, 1.0f));
  ImGui::InvisibleButton(id, size);
  hovered = ImGui::IsItemHovered();
  mouse = ImGui::GetIO().MousePos;
  draw_list->PushClipRect(origin, max(), true);
  if (log) {
    log->canvas_min = origin;
    log->canvas_max = max();
    log->boxes.clear();
    log->math.clear();
  }
}

Canvas::~Canvas() {
  draw_list->PopClipRect();
}

ImU32 with_alpha(ImU32 colour, float a) {
  const auto alpha = static_cast<float>((colour >> IM_COL32_A_SHIFT) & 0xFF);
  const auto na = static_cast<ImU32>(std::clamp(alpha * a, 0.0f, 255.0f));
  return (colour & ~IM_COL32_A_MASK) | (na << IM_COL32_A_SHIFT);
}

}  // namespace rope::app
