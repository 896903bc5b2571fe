#include "shell/dialogs.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "shell/platform.h"
#include "shell/shortcuts.h"
#include "state/actions.h"
#include "state/session.h"
#include "state/settings.h"
#include "ui/theme.h"

namespace rope::app {
namespace {}  // namespace

void draw_notice(const AppState& state, const ViewEnv& env, ImVec2 canvas_pos, ImVec2 canvas_size,
                 ImVec2 bar_pos, ImVec2 bar_size) {
  const Notice& n = state.notice;
  if (n.shown_at < 0.0 || state.time - n.shown_at > notice_seconds(n)) return;
  // F12's picture leaves out a confirmation (the last screenshot's path), not an error: a picture
  // taken while something is wrong says so
  if (state.request_screenshot && !n.is_error) return;
  const Palette& pal = palette(state.params.theme);
  const float s = env.scale;
  ImFont* font = env.fonts->body;
  const float wrap = canvas_size.x * 0.8f;
  const ImVec2 ts = font->CalcTextSizeA(font->FontSize, 1e9f, wrap, n.text.c_str());
  const ImVec2 box(ts.x + 32 * s, ts.y + 20 * s);
  // projected, the bottom of the canvas holds a plot's x-axis labels (review D20); the bar's
  // middle holds only the view's name, which the notice may hide for its few seconds
  const bool on_bar = bar_size.y > 0.0f && box.y <= bar_size.y && box.x <= bar_size.x;
  const ImVec2 p0 = on_bar ? ImVec2(bar_pos.x + 0.5f * (bar_size.x - box.x),
                                    bar_pos.y + 0.5f * (bar_size.y - box.y))
                           : ImVec2(canvas_pos.x + 0.5f * (canvas_size.x - box.x),
                                    canvas_pos.y + canvas_size.y - box.y - 24 * s);
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + box.x, p0.y + box.y), pal.panel, 8 * s);
  dl->AddRect(p0, ImVec2(p0.x + box.x, p0.y + box.y), n.is_error ? pal.bad : pal.good, 8 * s, 0,
              2 * s);
  dl->AddText(font, font->FontSize, ImVec2(p0.x + 16 * s, p0.y + 10 * s),
              n.is_error ? pal.bad : pal.text, n.text.c_str(), nullptr, wrap);
}

void draw_shortcut_list(AppState& state, const ViewEnv& env) {
  if (!state.show_shortcuts) return;
  const ImGuiIO& io = ImGui::GetIO();
  // One column of lines while they fit the screen's height, else two side by side, as wide as
  // the screen with the descriptions wrapped (31 lines are taller than a 720-line projector at
  // scale 1 and a 1080-line one in presentation mode).
  const bool browser = in_browser();
  const std::vector<ShortcutLine> lines = shortcut_lines(browser);
  const float line_h =
      ImGui::GetTextLineHeightWithSpacing() + 2.0f * ImGui::GetStyle().CellPadding.y;
  const float room = 0.85f * io.DisplaySize.y - 2.0f * ImGui::GetFrameHeightWithSpacing();
  const std::size_t n = lines.size();
  const bool one_column = static_cast<float>(n) * line_h <= room;
  const std::size_t rows = one_column ? n : (n + 1) / 2;
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.5f * io.DisplaySize.y),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  if (!one_column) ImGui::SetNextWindowSize(ImVec2(0.96f * io.DisplaySize.x, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.97f);
  const ImGuiWindowFlags flags =
      (one_column ? ImGuiWindowFlags_AlwaysAutoResize : ImGuiWindowFlags_NoResize) |
      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("Keyboard shortcuts", &state.show_shortcuts, flags)) {
    if (browser) {  // first: below the table it would be scrolled out of a 720-line screen
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(ImGui::GetContentRegionAvail().x,
                                                               36.0f * ImGui::GetFontSize()));
      ImGui::TextDisabled("%s", kBrowserKeysNote);
      ImGui::PopTextWrapPos();
      ImGui::Spacing();
    }
    const int columns = one_column ? 2 : 4;
    if (ImGui::BeginTable("keys", columns, ImGuiTableFlags_RowBg)) {
      for (int c = 0; c < columns; ++c) {
        if (c % 2 == 0)
          ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed);
        else
          ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthStretch);
      }
      for (std::size_t r = 0; r < rows; ++r) {
        ImGui::TableNextRow();
        for (std::size_t i = r; i < n; i += rows) {
          ImGui::TableNextColumn();
          ImGui::PushFont(env.fonts->bold);
          ImGui::TextUnformatted(lines[i].label.c_str());
          ImGui::PopFont();
          ImGui::TableNextColumn();
          ImGui::TextWrapped("%s", lines[i].description.c_str());
        }
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

void draw_about(AppState& state) {
  if (!state.show_about) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.5f * io.DisplaySize.y),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  if (ImGui::Begin("About RoPE Lab", &state.show_about,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::Text("RoPE Lab %s", ROPE_LAB_VERSION);
    ImGui::TextUnformatted("An interactive lab for Rotary Position Embedding.");
    ImGui::TextUnformatted("Every number on screen is computed with the exact formulas.");
    ImGui::Text("Dear ImGui %s", ImGui::GetVersion());
  }
  ImGui::End();
}

void draw_session_dialog(AppState& state, const ViewEnv& env) {
  using D = AppState::SessionDialog;
  if (state.session_dialog == D::none) return;
  const bool saving = state.session_dialog == D::save;
  const bool config = state.session_dialog == D::open_config;
  const char* title = saving ? "Save session" : config ? "Open model config" : "Open session";
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.4f * io.DisplaySize.y),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(760.0f * env.scale, io.DisplaySize.x * 0.9f), 0));
  bool open = true;
  if (ImGui::Begin(title, &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    std::string& path = config ? state.config_path : state.session_path;
    if (path.empty()) {
      const char* home = std::getenv("HOME");
      path = std::string(home ? home : ".") + (config ? "/config.json" : "/rope-lab-session.json");
    }
    char buf[1024];
    std::snprintf(buf, sizeof buf, "%s", path.c_str());
    ImGui::TextUnformatted(saving   ? "Save the complete state (view, parameters, lesson, theme) to"
                           : config ? "A model's Hugging Face config.json (d, base, scaling and "
                                      "partial rotation are set as transformers sets them)"
                                    : "Open a session file (.json), or a model's config.json");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    // the whole path selected when the field takes the keyboard: a second Ctrl + S and a new
    // name replace the old one instead of being appended to it (classroom review D3)
    const bool enter =
        ImGui::InputText("##path", buf, sizeof buf,
                         ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    // Enter gives the keyboard up; while the dialog stays open (a save or open that failed,
    // the changed-on-disk question) the field takes it back, so what is typed next goes there
    if (enter) ImGui::SetKeyboardFocusHere(-1);
    if (!config && state.session_path != buf)
      state.session_conflict = false;  // another name: a save-as
    path = buf;
    const auto save_now = [&] {
      if (auto s = save_session(state.session_path, session_params(state)); !s) {
        show_notice(state, "Session not saved: " + s.error().to_string(), true);
        return;
      }
      stamp_session_file(state, state.session_path);
      show_notice(state, "Session saved: " + state.session_path, false);
      remember_session(state.recent_sessions, state.session_path);
      mark_saved(state);
      if (state.quit_after_save) state.request_quit = true;
      open = false;
    };
    if (ImGui::Button(saving ? "Save" : "Open", ImVec2(140 * env.scale, 0)) || enter) {
      if (config) {
        if (open_model_config(state, state.config_path)) open = false;
      } else if (!saving) {
        if (open_session(state, state.session_path)) open = false;
      } else if (session_changed_on_disk(state, state.session_path)) {
        // Another window or a sync client wrote the file since this window opened or saved
        // it: replacing it silently loses their work (reliability review N6), so ask.
        state.session_conflict = true;
      } else {
        save_now();
      }
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(140 * env.scale, 0))) open = false;
    if (saving && state.session_conflict && open) {
      ImGui::Spacing();
      ImGui::PushStyleColor(ImGuiCol_Text, palette(state.params.theme).bad);  // as error notices
      ImGui::TextWrapped(
          "This file changed on disk after this window opened or saved it: another window or "
          "a synced copy wrote it. Saving now replaces that version.");
      ImGui::PopStyleColor();
      ImGui::TextWrapped(
          "Overwrite it, reload it (this window's changes are dropped), or type "
          "another name above and press Save.");
      if (ImGui::Button("Overwrite", ImVec2(140 * env.scale, 0))) save_now();
      ImGui::SameLine();
      if (ImGui::Button("Reload from disk", ImVec2(220 * env.scale, 0)) &&
          open_session(state, state.session_path))
        open = false;
    }
  }
  ImGui::End();
  if (!open) {
    state.session_dialog = D::none;
    if (!state.request_quit) state.quit_after_save = false;  // cancelled: the quit is off too
  }
}

void draw_quit_dialog(AppState& state, const ViewEnv& env) {
  if (!state.confirm_quit) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float s = env.scale;
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.4f * io.DisplaySize.y),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(640.0f * s, io.DisplaySize.x * 0.9f), 0));
  bool open = true;
  if (ImGui::Begin("Quit RoPE Lab?", &open,
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    if (ImGui::IsWindowAppearing()) ImGui::SetWindowFocus();
    const UnsavedParts parts = unsaved_parts(state);
    std::string what;
    if (parts.values) what = "changes to the values, the view or the lesson step";
    if (parts.ink) what += std::string(what.empty() ? "" : ", and ") + "the pen strokes";
    if (what.empty()) what = "nothing any more (the changes were undone)";
    // a session opened or saved before: its name, not "not saved yet" (review D20)
    if (state.stamped_path.empty())
      ImGui::TextWrapped("Not saved in a session yet: %s. Quitting now loses them.", what.c_str());
    else
      ImGui::TextWrapped("Changed since %s was last opened or saved: %s. Quitting now loses them.",
                         state.stamped_path.c_str(), what.c_str());
    ImGui::Spacing();
    const ImVec2 button(190 * s, 0);
    // Enter saves (the safe answer), Ctrl+Q again quits without saving (the shortcut table),
    // Esc cancels (the shortcut table's Esc closes every dialog).
    if (ImGui::Button("Save, then quit", button) ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false)) {
      state.confirm_quit = false;
      state.quit_after_save = true;
      state.session_dialog = AppState::SessionDialog::save;
    }
    ImGui::SameLine();
    if (ImGui::Button("Quit without saving", button)) state.request_quit = true;
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(120 * s, 0))) open = false;
    ImGui::TextDisabled("Enter: save · Ctrl + Q: quit without saving · Esc: cancel");
  }
  ImGui::End();
  if (!open) state.confirm_quit = false;
}

}  // namespace rope::app
