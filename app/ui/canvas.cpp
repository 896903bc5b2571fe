#include "ui/canvas.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rope::app {

void draw_arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 colour, float thickness,
                float head_size) {
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
  dl->AddLine(from, base, colour, thickness);
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

std::string format_number(double v, int digits) {
  if (!std::isfinite(v)) return v > 0 ? "∞" : (v < 0 ? "−∞" : "NaN");
  char buf[64];
  const double a = std::fabs(v);
  if (a != 0.0 && (a >= 1e7 || a < 1e-4)) {
    std::snprintf(buf, sizeof buf, "%.*e", std::max(0, digits - 1), a);
  } else {
    std::snprintf(buf, sizeof buf, "%.*g", digits, a);
  }
  std::string s = buf;
  if (auto e = s.find('e'); e != std::string::npos) {  // 3.162e-05 -> 3.162·10⁻⁵
    static const char* kSup[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    const int exponent = std::atoi(s.c_str() + e + 1);
    std::string sup = exponent < 0 ? "⁻" : "";
    for (char c : std::to_string(std::abs(exponent)))
      sup += kSup[c - '0'];
    s = s.substr(0, e) + "·10" + sup;
  }
  const bool negative = v < 0 && s.find_first_not_of("0.·") != std::string::npos;
  return negative ? "−" + s : s;
}

CanvasArea begin_canvas(const char* id) {
  CanvasArea a;
  a.draw_list = ImGui::GetWindowDrawList();
  a.origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  a.size = ImVec2(std::max(avail.x, 1.0f), std::max(avail.y, 1.0f));
  ImGui::InvisibleButton(id, a.size);
  a.hovered = ImGui::IsItemHovered();
  a.mouse = ImGui::GetIO().MousePos;
  a.draw_list->PushClipRect(a.origin, ImVec2(a.origin.x + a.size.x, a.origin.y + a.size.y), true);
  return a;
}

ImU32 with_alpha(ImU32 colour, float a) {
  const auto alpha = static_cast<float>((colour >> IM_COL32_A_SHIFT) & 0xFF);
  const auto na = static_cast<ImU32>(std::clamp(alpha * a, 0.0f, 255.0f));
  return (colour & ~IM_COL32_A_MASK) | (na << IM_COL32_A_SHIFT);
}

}  // namespace rope::app
