// shell/menu_bar.h — the main menu bar: File (sessions, screenshot, exports, quit), View (the
// views in the order of keys 1 … 8, control panel, theme, UI scale, presentation, full screen)
// and Help (the shortcut list, About).
//
// Its items set the same AppState fields as the keys (shell/shortcuts.h); the dialogs they
// open are drawn by shell/dialogs.h and shell/export_dialog.h.
//
// Usage: in draw_frame, when state.show_menu: draw_menu_bar(state); then
// ImGui::GetFrameHeight() is the bar's height.
#pragma once

#include "state/app_state.h"
#include "state/history.h"

namespace rope::app {

void draw_menu_bar(AppState& state, History& history);

}  // namespace rope::app
