#include "ui/presentation_bar.h"

#include <algorithm>
#include <string>

#include "state/params.h"
#include "ui/frame.h"
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

void PresentationBar::Draw(AppState& state, Views& views, const ViewEnv& env, ImVec2 pos,
                           ImVec2 size) {
  Params& p = state.params;
  const Palette& pal = palette(p.theme);
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  const bool lesson = p.view == ViewId::derivation && !views.derivation.lesson_heading.empty();
  heading = lesson ? views.derivation.lesson_heading : std::string(view_title(p.view));
  counter = lesson ? std::to_string(p.step) + " / " + std::to_string(views.derivation.step_count)
                   : std::string();

  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(16.0f * s, 0.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, pal.panel);
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
      if (ImGui::Button("◀", small)) state.step_request = -1;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Previous step (←)");
      ImGui::SameLine();
      if (ImGui::Button("▶", small)) state.step_request = 1;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Next step (→)");
    } else {
      if (ImGui::Button("◀ −1", small)) {
        p.playing = false;
        p.position = std::clamp(std::round(p.position) - 1.0, -1e9, 1e9);
      }
      ImGui::SameLine();
      if (ImGui::Button(p.playing ? "‖" : "▶", ImVec2(ImGui::GetFrameHeight() * 1.4f, 0)))
        p.playing = !p.playing;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play / pause (Space)");
      ImGui::SameLine();
      if (ImGui::Button("+1 ▶", small)) {
        p.playing = false;
        p.position = std::clamp(std::round(p.position) + 1.0, -1e9, 1e9);
      }
    }
    ImGui::SameLine(0.0f, 24.0f * s);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(heading.c_str());

    // right end: the step counter (large) and the button that leaves presentation mode
    const float leave_w = button_h * 1.4f;
    float right = ImGui::GetWindowContentRegionMax().x - leave_w;
    if (!counter.empty()) {
      ImGui::PushFont(f.title);
      const float cw = ImGui::CalcTextSize(counter.c_str()).x;
      const float x = right - cw - 24.0f * s;
      dl->AddText(f.title, f.title->FontSize,
                  ImVec2(pos.x + x, pos.y + std::round(0.5f * (size.y - f.title->FontSize))),
                  pal.text, counter.c_str());
      ImGui::PopFont();
      ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
      const char* label = "step";
      const float lw = ImGui::CalcTextSize(label).x;
      ImGui::SameLine(x - lw - 10.0f * s);
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
