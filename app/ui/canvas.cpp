#include "ui/canvas.h"

#include "io/utf8.h"

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

Canvas::Canvas(const char* id, DrawnText* log) {
  draw_list = ImGui::GetWindowDrawList();
  pen = Pen{draw_list, log};
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
