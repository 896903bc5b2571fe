#include "shell/command_palette.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "state/actions.h"
#include "ui/canvas.h"
#include "ui/theme.h"

namespace rope::app {

namespace {

// Rows the list shows before it scrolls: enough to see the neighbours of what is typed, few
// enough to leave the canvas visible under the palette on a 720-line projector.
constexpr int kVisibleRows = 8;

bool pressed(int key) {
  return ImGui::IsKeyPressed(key, true);
}

}  // namespace

void CommandPalette::Draw(AppState& state, CommandTarget target, const ViewEnv& env) {
  if (!state.show_palette) {
    if (open_) state.palette_query.clear();  // the next Ctrl + K starts from an empty line
    open_ = false;
    return;
  }
  const bool opening = !open_;
  if (opening) {
    commands_ = build_commands(state, target.library);
    matched_for_ = "\x01";  // never a typed line: match at once
    error_.clear();
    selected_ = 0;
  }
  open_ = true;
  if (matched_for_ != state.palette_query) {
    matches_ = match_commands(commands_, state.palette_query, state);
    matched_for_ = state.palette_query;
    selected_ = 0;
    error_.clear();
  }
  const int n = static_cast<int>(matches_.size());

  // The line has the keyboard, so the shortcut table does not look (io.WantTextInput): the
  // palette's own keys are read here.
  bool run = false, close = false;
  int moved = 0;
  if (pressed(GLFW_KEY_DOWN)) moved = +1;
  if (pressed(GLFW_KEY_UP)) moved = -1;
  if (pressed(GLFW_KEY_PAGE_DOWN)) moved = +kVisibleRows;
  if (pressed(GLFW_KEY_PAGE_UP)) moved = -kVisibleRows;
  if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) close = true;
  if (ImGui::GetIO().KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_K, false) && !opening) close = true;
  if (moved != 0 && n > 0) selected_ = std::clamp(selected_ + moved, 0, n - 1);

  const ImGuiIO& io = ImGui::GetIO();
  const Palette& pal = palette(state.params.theme);
  const float s = env.scale;
  const float width = std::min(980.0f * s, io.DisplaySize.x * 0.92f);
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.1f * io.DisplaySize.y),
                          ImGuiCond_Always, ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.98f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(14.0f * s, 12.0f * s));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_AlwaysAutoResize;
  if (ImGui::Begin("Commands###palette", nullptr, flags)) {
    if (opening) ImGui::SetWindowFocus();
    ImGui::PushFont(env.fonts->large);
    ImGui::SetNextItemWidth(-1);
    if (opening || refocus_ || !ImGui::IsAnyItemActive()) ImGui::SetKeyboardFocusHere();
    refocus_ = false;
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s", state.palette_query.c_str());
    if (ImGui::InputTextWithHint("##line", "yarn 16 · llama 3.1 · lesson 12 step 3 · base 500000",
                                 buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue))
      run = true;
    state.palette_query = buf;
    ImGui::PopFont();

    // the list: title and key on the first line, what it is (or why not) on the second
    ImFont* bold = env.fonts->bold;
    ImFont* body = env.fonts->body;
    const float line = body->FontSize;
    // a row's advance: the selectable's height plus the item spacing below it
    const float gap = ImGui::GetStyle().ItemSpacing.y;
    const float row_h = std::round(2.0f * line + 8.0f * s);
    const int shown = std::min(n, kVisibleRows);
    ImGui::Spacing();
    if (n == 0) {
      ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
      ImGui::TextWrapped(
          "Nothing matches. Type a view, a lesson, a model, a parameter and its "
          "value, or a key's action.");
      ImGui::PopStyleColor();
    } else {
      const float list_h = static_cast<float>(shown) * row_h;
      ImGui::BeginChild("##list", ImVec2(0.0f, list_h), false);
      // the chosen row in the middle of the list when the keys moved it
      if (moved != 0)
        ImGui::SetScrollY(
            std::max(0.0f, static_cast<float>(selected_) * row_h - 0.5f * list_h + 0.5f * row_h));
      // only the rows in view are drawn: an empty line lists every command (some 500)
      ImGuiListClipper clipper;
      clipper.Begin(n, row_h);
      while (clipper.Step())
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
          const CommandMatch& m = matches_[static_cast<std::size_t>(i)];
          const Command& c = commands_[m.index];
          ImGui::PushID(i);
          const ImVec2 p0 = ImGui::GetCursorScreenPos();
          if (ImGui::Selectable("##row", i == selected_, 0, ImVec2(0.0f, row_h - gap))) {
            selected_ = i;
            run = true;
          }
          ImDrawList* dl = ImGui::GetWindowDrawList();
          const float w = ImGui::GetContentRegionAvail().x;
          const float key_w =
              c.key.empty() ? 0.0f
                            : bold->CalcTextSizeA(bold->FontSize, 1e9f, 0.0f, c.key.c_str()).x;
          const float pad = 8.0f * s;
          const std::string title = elide(m.title, w - key_w - 3.0f * pad);
          dl->AddText(bold, bold->FontSize, ImVec2(p0.x + pad, p0.y + 3.0f * s),
                      m.problem.empty() ? pal.text : pal.text_dim, title.c_str());
          if (!c.key.empty())
            dl->AddText(bold, bold->FontSize, ImVec2(p0.x + w - key_w - pad, p0.y + 3.0f * s),
                        pal.accent, c.key.c_str());
          const std::string second =
              elide(m.problem.empty() ? c.detail : m.problem, w - 2.0f * pad);
          dl->AddText(body, body->FontSize, ImVec2(p0.x + pad, p0.y + 3.0f * s + line),
                      m.problem.empty() ? pal.text_dim : pal.bad, second.c_str());
          ImGui::PopID();
        }
      ImGui::EndChild();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, error_.empty() ? pal.text_dim : pal.bad);
    ImGui::TextWrapped("%s", error_.empty()
                                 ? "↑ ↓ choose · Enter runs · Esc closes · a typed number is the "
                                   "value (base 500000, yarn 16)"
                                 : error_.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::End();
  ImGui::PopStyleVar();

  if (run && selected_ < n) {
    const CommandMatch& m = matches_[static_cast<std::size_t>(selected_)];
    if (auto st = run_command(commands_[m.index], m, target); !st) {
      error_ = "Not done: " + st.error().to_string();
      refocus_ = true;
    } else {
      close = true;
    }
  } else if (run) {
    refocus_ = true;
  }
  if (close) {
    state.show_palette = false;
    state.palette_query.clear();
    open_ = false;
  }
}

}  // namespace rope::app
