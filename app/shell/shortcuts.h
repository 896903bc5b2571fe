// shell/shortcuts.h — the keyboard shortcuts: one table that drives both the key handler and the
// F1 list (shell/dialogs.cpp), and that README.md's table is checked against
// (tests/app/test_shortcuts.cpp).
//
// A row binds one key with its modifiers to an action; consecutive rows with the same label and
// description are one line of the list (← and → are two rows, one line "← / →"). Every frame
// handle_shortcuts runs, in table order, the action of each row whose key was pressed — each
// action at most once a frame, so "F1 or ?" pressed together toggle the list once. The order is
// part of the behaviour: Esc comes after the keys that open dialogs and closes what they opened
// in the same frame. Nothing fires while a text field has the keyboard.
//
// Usage: each frame, before drawing:
//          handle_shortcuts(state, views.library, views.history, &views.export_dialog);
//        the list: for (const ShortcutLine& l : shortcut_lines()) row(l.label, l.description);
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lessons/library.h"
#include "state/app_state.h"
#include "state/history.h"

namespace rope::app {

// What a modifier must be for a row to fire.
enum class Need : std::uint8_t { any, up, down };
struct Modifiers {
  Need ctrl = Need::any;
  Need shift = Need::any;
};
inline constexpr Modifiers kAnyModifiers{};                    // F5, Esc, the page keys ...
inline constexpr Modifiers kNoModifiers{Need::up, Need::up};   // the plain arrows
inline constexpr Modifiers kWithoutCtrl{Need::up, Need::any};  // T, 1 … 8, + (typed with Shift)
inline constexpr Modifiers kShiftWithoutCtrl{Need::up, Need::down};
inline constexpr Modifiers kWithCtrl{Need::down, Need::any};
inline constexpr Modifiers kWithShift{Need::any, Need::down};        // ? (Shift + /)
inline constexpr Modifiers kCtrlWithoutShift{Need::down, Need::up};  // Ctrl + Z (undo)
inline constexpr Modifiers kCtrlShift{Need::down, Need::down};       // Ctrl + Shift + Z (redo)

// Which views a row fires in: the derivation view gives the plain arrows to the lesson.
enum class InView : std::uint8_t { any, derivation, not_derivation };

// Whether a row fires while an export dialog is open. The dialog is modal for the keyboard: its
// own single keys (1 / 2 / 4, A, B, G / M, Enter) take the keys that elsewhere switch views or
// the base, so nothing acts behind it but the window-level keys (Esc closes it, F1, F11, F12,
// Ctrl + Q, and Ctrl + P / Ctrl + M, which switch between the two dialogs).
enum class Scope : std::uint8_t { main, export_dialog, always };

struct ShortcutContext;  // shortcuts.cpp: the state, the lesson library, this frame's moves
struct ExportDialog;     // shell/export_dialog.h: what the dialog's keys set
using ShortcutAction = void (*)(ShortcutContext&, int arg);

struct Shortcut {
  int key = 0;  // GLFW key code (the index into io.KeysDown)
  Modifiers modifiers;
  std::string label;        // as the F1 list and the README show it: "Ctrl + S / Ctrl + O"
  std::string description;  // what it does, one line
  ShortcutAction action = nullptr;
  int arg = 0;                // passed to the action: the view's number for 1 … 8
  bool repeat = false;        // acts again while held (ImGui's key repeat): the arrows
  InView in = InView::any;    // the views it fires in
  Scope scope = Scope::main;  // with or without an export dialog open
  // What the line says in the browser build when it differs there ("": the same): the
  // desktop-only features (shell/platform.h) and what the browser keeps for itself.
  std::string in_browser;
  // The row as one command of the command palette (shell/commands.h), "Play / pause the
  // position"; "": not offered there (the arrows, the export dialog's own keys).
  std::string command;
};

// Every row, in the order handle_shortcuts tries them.
std::span<const Shortcut> shortcut_table();

// The row's key as menus and the command palette print it: "Ctrl + S", "Shift + 1", "F5", "→".
std::string key_name(const Shortcut& row);
// The key that shows view `v` / lesson k (counted from 1) of the library, "" when none does:
// what the View menu and the palette print beside them (no key that the table lacks).
std::string view_key(ViewId v);
std::string lesson_key(int k);

// Runs one row's action as if its key were pressed (the command palette).
void run_shortcut(const Shortcut& row, AppState& state, lessons::Library& library, History& history,
                  ExportDialog* export_dialog);

// One line of the F1 list and of the README's table.
struct ShortcutLine {
  std::string label, description;
  bool operator==(const ShortcutLine&) const = default;
};
// `browser`: the lines as the browser build shows them (Shortcut::in_browser).
std::vector<ShortcutLine> shortcut_lines(bool browser = false);

// In a browser, the keys RoPE Lab takes from the browser while the page has the keyboard (the
// page calls preventDefault on them): every row's function key, and every row that needs Ctrl.
// Plain letters are not taken: the browser does nothing with them, and taking them would keep
// the typed characters from a text field. Ctrl + W, T, N, Tab, Page Up / Down and Q stay the
// browser's whatever a page does (Chromium's IsReservedCommandOrKey, Firefox's reserved keys);
// the table binds none of them but Ctrl + Q, which quits the desktop app only.
struct ClaimedKey {
  int key = 0;        // GLFW key code
  bool ctrl = false;  // taken only with Ctrl held (else: with any modifiers)
  bool operator==(const ClaimedKey&) const = default;
};
std::vector<ClaimedKey> browser_claimed_keys();

// What the browser build's shortcut list says above the table.
extern const char* const kBrowserKeysNote;

// Runs the actions of the keys pressed this frame (GLFW key codes in io.KeysDown, read through
// ImGui::IsKeyPressed). Call between ImGui::NewFrame and drawing. Does nothing while a text field
// has focus (io.WantTextInput). `export_dialog`: the dialog the export rows set (none: they do
// nothing).
void handle_shortcuts(AppState& state, lessons::Library& library, History& history,
                      ExportDialog* export_dialog = nullptr);

// Writes the current view's numbers next to the screenshots and says where, and which
// `rope-lab export` command gives the same file (Ctrl + E and File ▸ Export data).
void export_view_data(AppState& state);

}  // namespace rope::app
