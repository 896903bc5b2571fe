#include "shell/menu_bar.h"

#include <algorithm>
#include <string>

#include "imgui.h"
#include "io/number_format.h"
#include "shell/model_panel.h"
#include "shell/platform.h"
#include "shell/shortcuts.h"
#include "state/actions.h"
#include "state/params.h"
#include "ui/canvas.h"

namespace rope::app {
namespace {

// Items the browser build has not: shown greyed, saying where they are.
constexpr const char* kDesktopOnly = "desktop app only";

void file_menu(AppState& state) {
  if (!ImGui::BeginMenu("File")) return;
  const bool web = in_browser();
  if (ImGui::MenuItem("Open session…", "Ctrl+O")) open_session_action(state);
  if (ImGui::MenuItem("Open model config…")) open_config_action(state);
  if (!web && ImGui::BeginMenu("Open recent", !state.recent_sessions.empty())) {
    std::string chosen;
    for (const std::string& path : state.recent_sessions)
      if (ImGui::MenuItem(path.c_str())) chosen = path;
    ImGui::EndMenu();
    if (!chosen.empty()) open_session(state, chosen);
  }
  if (ImGui::MenuItem(web ? "Save session (download)" : "Save session…", "Ctrl+S"))
    save_session_action(state);
  if (web && ImGui::MenuItem("Copy link")) copy_link_action(state);
  ImGui::Separator();
  if (ImGui::MenuItem(web ? "Download screenshot" : "Save screenshot", "F12"))
    state.request_screenshot = true;
  if (ImGui::MenuItem("Export picture…", "Ctrl+P"))
    state.export_dialog = AppState::ExportDialog::picture;
  if (ImGui::MenuItem("Export animation…", web ? kDesktopOnly : "Ctrl+M", false, !web))
    state.export_dialog = AppState::ExportDialog::animation;
  if (ImGui::MenuItem(web ? "Export data (CSV download)" : "Export data (CSV)", "Ctrl+E"))
    export_data_action(state);
  if (!web) {
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) ask_to_quit(state);
  }
  ImGui::EndMenu();
}

void view_menu(AppState& state) {
  Params& p = state.params;
  if (!ImGui::BeginMenu("View")) return;
  if (ImGui::MenuItem("Command palette…", "Ctrl+K")) state.show_palette = true;
  ImGui::Separator();
  for (ViewId v : all_views()) {  // each view's key from the shortcut table (Shift + 1: the 10th)
    const std::string key = view_key(v);
    if (ImGui::MenuItem(view_title(v), key.c_str(), p.view == v)) p.view = v;
  }
  ImGui::Separator();
  model_menu(state);  // View ▸ Model: the presets (shell/model_panel.h)
  ImGui::MenuItem("Control panel", "F9", &state.show_controls);
  if (ImGui::BeginMenu("Theme")) {
    if (ImGui::MenuItem("Dark", nullptr, p.theme == Theme::dark)) p.theme = Theme::dark;
    if (ImGui::MenuItem("Light (projector)", nullptr, p.theme == Theme::light))
      p.theme = Theme::light;
    ImGui::Separator();
    ImGui::TextDisabled("T switches");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("UI scale")) {
    if (ImGui::MenuItem("Larger", "Ctrl+=")) p.ui_scale = std::min(4.0, p.ui_scale + 0.25);
    if (ImGui::MenuItem("Smaller", "Ctrl+−")) p.ui_scale = std::max(0.5, p.ui_scale - 0.25);
    ImGui::Separator();
    for (double sc : {0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0}) {
      const std::string label = format_number(sc, NumberStyle::label, 3) + "×";
      if (ImGui::MenuItem(label.c_str(), nullptr, p.ui_scale == sc)) p.ui_scale = sc;
    }
    ImGui::EndMenu();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Presentation mode", "F5", p.presentation)) p.presentation = !p.presentation;
  ImGui::MenuItem("Full screen", "F11", &state.fullscreen);
  ImGui::MenuItem("Presenter window (notes, next step)", in_browser() ? kDesktopOnly : "F6",
                  &state.show_presenter, !in_browser());
  ImGui::EndMenu();
}

void help_menu(AppState& state) {
  if (!ImGui::BeginMenu("Help")) return;
  if (ImGui::MenuItem("Keyboard shortcuts", "F1")) state.show_shortcuts = true;
  if (ImGui::MenuItem("About RoPE Lab")) state.show_about = true;
  ImGui::EndMenu();
}

// Undo / redo of the parameters; a reset is one step of its own, so it can be undone too.
void edit_menu(AppState& state, History& history) {
  if (!ImGui::BeginMenu("Edit")) return;
  if (ImGui::MenuItem("Undo", "Ctrl+Z", false, history.can_undo()))
    if (auto p = history.undo(state.params)) restore_params(state, *p);
  if (ImGui::MenuItem("Redo", "Ctrl+Shift+Z", false, history.can_redo()))
    if (auto p = history.redo(state.params)) restore_params(state, *p);
  ImGui::Separator();
  if (ImGui::MenuItem("Reset to defaults")) {
    // the room's display and where the lecture is stay; every other value starts over
    Params fresh;
    fresh.view = state.params.view;
    fresh.theme = state.params.theme;
    fresh.ui_scale = state.params.ui_scale;
    fresh.presentation = state.params.presentation;
    fresh.lesson = state.params.lesson;
    fresh.step = state.params.step;
    fresh.show_view = state.params.show_view;
    fresh.ink = state.params.ink;  // a drawing is not a value: Delete erases it
    restore_params(state, fresh);
  }
  ImGui::EndMenu();
}

// The pen and its kin (shell/ink_layer.h), with the keys that do the same.
void ink_menu(AppState& state) {
  if (!ImGui::BeginMenu("Ink")) return;
  using Tool = AppState::InkTool;
  const auto tool_item = [&](const char* label, const char* key, Tool tool) {
    if (ImGui::MenuItem(label, key, state.ink_tool == tool))
      state.ink_tool = state.ink_tool == tool ? Tool::none : tool;
  };
  tool_item("Pen", "W", Tool::pen);
  if (ImGui::BeginMenu("Pen colour")) {
    for (int i = 0; i < static_cast<int>(InkColour::count); ++i) {
      const auto c = static_cast<InkColour>(i);
      if (ImGui::MenuItem(ink_colour_name(c), nullptr, state.ink_colour == c)) {
        state.ink_colour = c;
        state.ink_tool = Tool::pen;
      }
    }
    ImGui::EndMenu();
  }
  tool_item("Highlighter", "H", Tool::highlighter);
  tool_item("Laser pointer", "L", Tool::laser);
  tool_item("Eraser", "X", Tool::eraser);
  ImGui::Separator();
  const std::string page = ink_page(state.params);
  if (ImGui::MenuItem("Erase this page", "Delete", false, !state.params.ink.strokes(page).empty()))
    state.params.ink.clear_page(page);
  if (ImGui::MenuItem("Erase every page", nullptr, false, !state.params.ink.empty()))
    state.params.ink.clear();
  ImGui::EndMenu();
}

}  // namespace

void draw_menu_bar(AppState& state, History& history) {
  // its background (MenuBarBg) is cleared with the frame (shell/frame.h); ImGui would fill the
  // bar twice, as the window's and as the menu bar's
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_MenuBarBg, IM_COL32(0, 0, 0, 0));
  const bool open = ImGui::BeginMainMenuBar();
  ImGui::PopStyleColor(2);
  if (!open) return;
  file_menu(state);
  edit_menu(state, history);
  view_menu(state);
  ink_menu(state);
  help_menu(state);
  ImGui::EndMainMenuBar();
}

}  // namespace rope::app
