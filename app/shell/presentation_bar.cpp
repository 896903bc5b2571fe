#include "shell/presentation_bar.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "state/actions.h"
#include "state/models.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

constexpr float kPadding = 10.0f;  // px at scale 1, above and below the counter

}  // namespace

bool PresentationBar::shown(const AppState& state) {
  return state.params.presentation && state.before_presentation.active &&
         state.before_presentation.show_menu;
}

float PresentationBar::height(const ViewEnv& env) {
  return std::round(env.fonts->title->FontSize + 2.0f * kPadding * env.scale);
}

void PresentationBar::Draw(AppState& state, lessons::Library& library, const ViewEnv& env,
                           ImVec2 pos, ImVec2 size) {
  Params& p = state.params;
  const Palette& pal = palette(p.theme);
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  const bool lesson = p.view == ViewId::derivation && library.current(p) != nullptr;
  heading = lesson ? library.heading(p) : std::string(view_title(p.view));
  if (const std::string model = model_status(p); !lesson && !model.empty())
    heading += "  ·  " + model;  // the active preset, its tag, what changed (state/models.h)
  counter = lesson ? std::to_string(p.step) + " / " + std::to_string(library.step_count(p))
                   : std::string();

  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(16.0f * s, 0.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  // its background pal.panel is cleared with the frame (shell/frame.h, FrameLayout::backgrounds)
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 0));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar |
                                 ImGuiWindowFlags_NoScrollWithMouse;
  if (ImGui::Begin("Presentation bar", nullptr, flags)) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y));  // past the padding
    dl->AddLine(pos, ImVec2(pos.x + size.x, pos.y), pal.grid, std::max(1.0f, std::round(s)));
    dl->PopClipRect();
    ImGui::PushFont(f.large);
    // everything on one line, vertically centred in the bar
    const float button_h = ImGui::GetFrameHeight();
    ImGui::SetCursorPosY(std::round(0.5f * (size.y - button_h)));
    const ImVec2 small(0, 0);
    if (lesson) {
      if (ImGui::Button("◀", small)) library.previous(p);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Previous step (←)");
      ImGui::SameLine();
      if (ImGui::Button("▶", small)) library.next(p);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Next step (→)");
    } else {
      if (ImGui::Button("◀ −1", small)) step_position(p, -1.0);
      ImGui::SameLine();
      if (ImGui::Button(p.playing ? "‖" : "▶", ImVec2(ImGui::GetFrameHeight() * 1.4f, 0)))
        p.playing = !p.playing;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play / pause (Space)");
      ImGui::SameLine();
      if (ImGui::Button("+1 ▶", small)) step_position(p, 1.0);
    }
    // right end first: the button that leaves presentation mode and the large step counter;
    // the heading gets the room between the buttons and them
    const float leave_w = button_h * 1.4f;
    const float right = ImGui::GetWindowContentRegionMax().x - leave_w;
    const char* label = "step";
    float counter_x = right, label_x = right;
    if (!counter.empty()) {
      counter_x = right - f.title->CalcTextSizeA(f.title->FontSize, 1e9f, 0.0f, counter.c_str()).x -
                  24.0f * s;
      label_x = counter_x - ImGui::CalcTextSize(label).x - 10.0f * s;
    }
    ImGui::SameLine(0.0f, 24.0f * s);
    ImGui::AlignTextToFramePadding();
    const float room = label_x - 24.0f * s - ImGui::GetCursorPosX();
    shown_heading = elide(heading, room);
    ImGui::TextUnformatted(shown_heading.c_str());
    if (shown_heading != heading && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", heading.c_str());
    if (!counter.empty()) {
      dl->AddText(
          f.title, f.title->FontSize,
          ImVec2(pos.x + counter_x, pos.y + std::round(0.5f * (size.y - f.title->FontSize))),
          pal.text, counter.c_str());
      ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
      ImGui::SameLine(label_x);
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(label);
      ImGui::PopStyleColor();
    }
    ImGui::SameLine(right);
    if (ImGui::Button("✕", ImVec2(leave_w, 0))) p.presentation = false;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Leave presentation mode (Esc)");
    ImGui::PopFont();
  }
  ImGui::End();
  ImGui::PopStyleColor();
  ImGui::PopStyleVar(2);
}

}  // namespace rope::app
