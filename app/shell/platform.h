// shell/platform.h — the File actions that work differently on the desktop and in a browser.
// The menus and the shortcut table call these; each build links one implementation:
//   platform_desktop.cpp  dialogs with paths, files written beside the screenshots
//   platform_web.cpp      downloads, the browser's file picker (or a file dropped on the page),
//                         the clipboard; no presenter window, no MP4 or GIF encoder
#pragma once

#include "state/app_state.h"

namespace rope::app {

// True in the browser build: the menus name the browser's way and mark desktop-only features.
bool in_browser();

// File > Save session (Ctrl + S): the session dialog, or a download of the same JSON.
void save_session_action(AppState& state);
// File > Open session (Ctrl + O): the session dialog, or the browser's file picker.
void open_session_action(AppState& state);
// File > Open model config: the path dialog, or the browser's file picker (a config.json
// opened there is recognised by its keys: state/hf_config.h, looks_like_model_config).
void open_config_action(AppState& state);
// File > Export data (Ctrl + E): the CSV `rope-lab export` writes, as a file or a download.
void export_data_action(AppState& state);
// File > Copy link (browser only): the page's address with the state's fragment (cli/link.h)
// on the clipboard.
void copy_link_action(AppState& state);

}  // namespace rope::app
