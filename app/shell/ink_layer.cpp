#include "shell/ink_layer.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ui/theme.h"

namespace rope::app {
namespace {

// Sizes in px at scale 1. The pen is as thick as the views' pointers, so it reads from the back
// of a hall; the highlighter covers a line of body text.
constexpr float kPenWidth = 4.0f;
constexpr float kHighlighterWidth = 22.0f;
constexpr float kEraserRadius = 16.0f;
constexpr float kLaserRadius = 7.0f;
constexpr float kMinStep = 1.5f;  // a point is kept once the mouse moved this far from the last

constexpr ImU32 kLaser = IM_COL32(255, 32, 32, 255);

ImU32 stroke_colour(const InkStroke& s, Theme theme) {
  return s.kind == InkKind::highlighter ? highlighter_colour(theme) : pen_colour(s.colour, theme);
}

float stroke_width(InkKind kind, float scale) {
  return (kind == InkKind::highlighter ? kHighlighterWidth : kPenWidth) * scale;
}

// The screen rectangle of one anchor (state/ink.h): ink units to px and back.
struct Area {
  ImVec2 pos, size;
  InkAnchor anchor = InkAnchor::area;
  ImVec2 to_screen(InkPoint p) const {
    return ImVec2(pos.x + size.x * static_cast<float>(p.x) / kInkUnits,
                  pos.y + size.y * static_cast<float>(p.y) / kInkUnits);
  }
  InkPoint to_ink(ImVec2 q) const {
    const double lo = ink_min(anchor), hi = ink_max(anchor);
    const auto unit = [&](float v, float origin, float extent) {
      const double f = extent > 0.0f ? static_cast<double>((v - origin) / extent) : 0.0;
      return static_cast<std::int32_t>(std::lround(std::clamp(f * kInkUnits, lo, hi)));
    };
    return InkPoint{unit(q.x, pos.x, size.x), unit(q.y, pos.y, size.y)};
  }
};

}  // namespace

// Each anchor's rectangle this frame: the lesson step's two parts, or the whole area for both
// when there is no lesson.
struct Areas {
  Area area, lesson, view;
  const Area& of(InkAnchor a) const {
    return a == InkAnchor::lesson ? lesson : a == InkAnchor::view ? view : area;
  }
  InkFrames frames() const {
    InkFrames f;
    for (const Area* a : {&area, &lesson, &view})
      f[static_cast<std::size_t>(a->anchor)] =
          InkFrame{static_cast<double>(a->pos.x), static_cast<double>(a->pos.y),
                   static_cast<double>(a->size.x), static_cast<double>(a->size.y)};
    return f;
  }
};

namespace {

void paint_stroke(ImDrawList* dl, const InkStroke& s, const Areas& areas, Theme theme,
                  float scale) {
  const Area& area = areas.of(s.anchor);
  const ImU32 colour = stroke_colour(s, theme);
  const float width = stroke_width(s.kind, scale);
  if (s.points.size() == 1) {
    dl->AddCircleFilled(area.to_screen(s.points[0]), 0.5f * width, colour);
    return;
  }
  std::vector<ImVec2> screen;
  screen.reserve(s.points.size());
  for (const InkPoint& p : s.points)
    screen.push_back(area.to_screen(p));
  // ImGui's anti-aliased thick polyline is one strip with mitred joins: a translucent
  // highlighter does not darken where its segments meet.
  dl->AddPolyline(screen.data(), static_cast<int>(screen.size()), colour, ImDrawFlags_None, width);
  if (s.kind == InkKind::pen) {  // round ends, as a felt pen leaves them
    dl->AddCircleFilled(screen.front(), 0.5f * width, colour);
    dl->AddCircleFilled(screen.back(), 0.5f * width, colour);
  }
}

bool any_dialog(const AppState& s) {
  return s.show_shortcuts || s.show_about || s.show_palette ||
         s.session_dialog != AppState::SessionDialog::none ||
         s.export_dialog != AppState::ExportDialog::none || s.confirm_quit;
}

}  // namespace

ImU32 pen_colour(InkColour c, Theme theme) {
  switch (c) {
    case InkColour::red:
      return IM_COL32(235, 45, 45, 255);
    case InkColour::blue:
      return IM_COL32(40, 120, 255, 255);
    case InkColour::green:
      return IM_COL32(20, 175, 80, 255);
    case InkColour::text:
    case InkColour::count:
      break;
  }
  return palette(theme).text;
}

ImU32 highlighter_colour(Theme theme) {
  // Yellow that lets the text show through; over the dark canvas a thinner yellow reads as olive,
  // so it is denser there.
  return theme == Theme::dark ? IM_COL32(255, 214, 0, 150) : IM_COL32(255, 214, 0, 110);
}

void InkLayer::Draw(AppState& state, const ViewEnv& env, ImVec2 pos, ImVec2 size,
                    const InkPanels* panels) {
  using Tool = AppState::InkTool;
  const std::string page = ink_page(state.params);
  // A dialog over the canvas keeps the mouse: the tool waits until it closes.
  const bool in_hand = state.ink_tool != Tool::none && !any_dialog(state);
  if (!in_hand && current_) {  // the tool was put down mid-stroke: keep what was drawn
    state.params.ink.add(current_page_, std::move(*current_));
    current_.reset();
  }
  if (!in_hand) laser_.clear();

  ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                           ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                           ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar |
                           ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBackground |
                           ImGuiWindowFlags_NoBringToFrontOnFocus |
                           ImGuiWindowFlags_NoFocusOnAppearing;
  if (!in_hand) flags |= ImGuiWindowFlags_NoInputs;  // the mouse goes through to the views
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  if (ImGui::Begin("Ink", nullptr, flags)) {
    Areas areas{
        {pos, size, InkAnchor::area}, {pos, size, InkAnchor::lesson}, {pos, size, InkAnchor::view}};
    if (panels) {
      areas.lesson.pos = panels->lesson_pos;
      areas.lesson.size = panels->lesson_size;
      areas.view.pos = panels->view_pos;
      areas.view.size = panels->view_size;
    }
    const Theme theme = state.params.theme;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (const auto& stroke : state.params.ink.strokes(page))
      paint_stroke(dl, *stroke, areas, theme, env.scale);
    if (in_hand) take_mouse(state, env, areas, panels != nullptr, page);
    if (current_) paint_stroke(dl, *current_, areas, theme, env.scale);
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

void InkLayer::take_mouse(AppState& state, const ViewEnv& env, const Areas& areas, bool lesson,
                          const std::string& page) {
  using Tool = AppState::InkTool;
  const ImGuiIO& io = ImGui::GetIO();
  const float s = env.scale;
  const ImVec2 pos = areas.area.pos, size = areas.area.size;
  const Palette& pal = palette(state.params.theme);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::SetCursorScreenPos(pos);
  ImGui::InvisibleButton("ink_area", ImVec2(std::max(1.0f, size.x), std::max(1.0f, size.y)));
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  const ImVec2 mouse = io.MousePos;
  const Tool tool = state.ink_tool;

  if (tool == Tool::pen || tool == Tool::highlighter) {
    const InkKind kind = tool == Tool::pen ? InkKind::pen : InkKind::highlighter;
    if (ImGui::IsItemActivated()) {
      // on a lesson step, anchored to the part it begins in (state/ink.h)
      const InkAnchor anchor = !lesson                      ? InkAnchor::area
                               : mouse.x < areas.view.pos.x ? InkAnchor::lesson
                                                            : InkAnchor::view;
      current_ = InkStroke{kind, state.ink_colour, {areas.of(anchor).to_ink(mouse)}, anchor};
      current_page_ = page;
    } else if (active && current_ && current_->points.size() < kMaxInkPoints) {
      const Area& area = areas.of(current_->anchor);
      const ImVec2 last = area.to_screen(current_->points.back());
      const float dx = mouse.x - last.x, dy = mouse.y - last.y;
      if (dx * dx + dy * dy >= kMinStep * kMinStep * s * s)
        current_->points.push_back(area.to_ink(mouse));
    }
    if (!active && current_) {  // released: the stroke joins the page (one undo step)
      state.params.ink.add(current_page_, std::move(*current_));
      current_.reset();
    }
  } else if (tool == Tool::eraser && active) {
    state.params.ink.erase_near(page, static_cast<double>(mouse.x), static_cast<double>(mouse.y),
                                static_cast<double>(kEraserRadius * s), areas.frames());
  }

  if (tool == Tool::laser) {
    if (hovered &&
        (laser_.empty() || laser_.back().at.x != mouse.x || laser_.back().at.y != mouse.y))
      laser_.push_back({mouse, state.time});
    while (!laser_.empty() && state.time - laser_.front().time > kLaserTrailSeconds)
      laser_.pop_front();
    // the trail: older segments fainter and thinner
    for (std::size_t i = 1; i < laser_.size(); ++i) {
      const double age = (state.time - laser_[i].time) / kLaserTrailSeconds;
      const auto fade = static_cast<float>(std::clamp(1.0 - age, 0.0, 1.0));
      dl->AddLine(laser_[i - 1].at, laser_[i].at,
                  IM_COL32(255, 32, 32, static_cast<int>(200.0f * fade)), (1.0f + 4.0f * fade) * s);
    }
    if (laser_.size() > 1) state.keep_drawing = true;  // the trail is still fading
  }

  // Which tool is in hand, in a small box at the bottom right of the area, so a lecturer who
  // looks up from the keyboard knows why a click draws instead of moving a pointer (not in F12's
  // picture).
  if (!state.request_screenshot && env.fonts && env.fonts->body) {
    const char* name = tool == Tool::pen           ? "Pen"
                       : tool == Tool::highlighter ? "Highlighter"
                       : tool == Tool::laser       ? "Laser pointer"
                                                   : "Eraser";
    const std::string label = std::string(name) + "   Esc puts it down";
    ImFont* font = env.fonts->body;
    const ImVec2 ts = font->CalcTextSizeA(font->FontSize, 1e9f, 0.0f, label.c_str());
    const float dot = 0.35f * font->FontSize, padding = 8.0f * s;
    const ImVec2 box(ts.x + 3.0f * dot + 2.0f * padding, ts.y + 2.0f * padding);
    const ImVec2 p0(pos.x + size.x - box.x - 12.0f * s, pos.y + size.y - box.y - 12.0f * s);
    const ImU32 mark = tool == Tool::pen ? pen_colour(state.ink_colour, state.params.theme)
                       : tool == Tool::highlighter ? highlighter_colour(state.params.theme)
                       : tool == Tool::laser       ? kLaser
                                                   : pal.text;
    dl->AddRectFilled(p0, ImVec2(p0.x + box.x, p0.y + box.y), pal.panel, 6.0f * s);
    dl->AddCircleFilled(ImVec2(p0.x + padding + dot, p0.y + padding + 0.5f * ts.y), dot, mark);
    dl->AddText(font, font->FontSize, ImVec2(p0.x + padding + 3.0f * dot, p0.y + padding), pal.text,
                label.c_str());
  }

  if (!hovered) return;
  ImGui::SetMouseCursor(ImGuiMouseCursor_None);  // the tool's own mark is the cursor
  switch (tool) {
    case Tool::pen:
      dl->AddCircleFilled(mouse, 0.5f * kPenWidth * s + 1.0f * s,
                          pen_colour(state.ink_colour, state.params.theme));
      break;
    case Tool::highlighter:
      dl->AddCircleFilled(mouse, 0.5f * kHighlighterWidth * s,
                          highlighter_colour(state.params.theme));
      break;
    case Tool::eraser:
      dl->AddCircle(mouse, kEraserRadius * s, pal.text, 0, 2.0f * s);
      break;
    case Tool::laser:
      dl->AddCircleFilled(mouse, 2.0f * kLaserRadius * s, IM_COL32(255, 32, 32, 70));
      dl->AddCircleFilled(mouse, kLaserRadius * s, kLaser);
      dl->AddCircleFilled(mouse, 0.4f * kLaserRadius * s, IM_COL32(255, 220, 220, 255));
      break;
    case Tool::none:
      break;
  }
}

}  // namespace rope::app
