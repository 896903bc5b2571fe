// shell/key_taps.h — keys pressed and released between two frames still reach the shortcuts.
//
// Dear ImGui 1.86 samples io.KeysDown once per frame (the input queue came in 1.87). A key
// that goes down and up between two frames — a presenter's clicker sending Page Down, a quick
// tap while llvmpipe draws a slow frame, xdotool — is never seen down, and the lecture does not
// move. The window records every press from GLFW's key callback; before a frame, a key whose
// release already came is put down again (with the modifiers it was pressed with) for exactly
// that frame. Taps come in order, one key a frame (with the characters it typed): within a frame
// the shortcut table, not the order of the taps, would decide. After a command key (Ctrl+S, Tab,
// Enter, Esc, F5 ...) the next taps and characters wait a frame, for a dialog it opened or a
// field it focused to take the keyboard. A key still held gets, for the frame of its press, the
// modifiers it was pressed with (Ctrl may be up already); one held while earlier taps wait is
// kept up for ImGui until its turn.
//
// Usage (shell/window.cpp): GLFW key callback → taps.on_key(key, action, mods), before ImGui's
// own; each frame: taps.before_frame(io) after glfwPollEvents, taps.after_frame(io) after
// ImGui::Render.
#pragma once

#include <deque>
#include <vector>

#include "imgui.h"

namespace rope::app {

class KeyTaps {
 public:
  void on_key(int key, int action, int mods);  // GLFW key, GLFW_PRESS/RELEASE/REPEAT, mods
  // A typed character (GLFW's char callback, in place of ImGui's): it waits in the same queue,
  // so text typed right after a key that opens a text field lands in that field.
  void on_char(unsigned int codepoint);
  void before_frame(ImGuiIO& io);
  void after_frame(ImGuiIO& io);
  // Presses still to hand to ImGui, or keys it still sees down: the window keeps drawing.
  bool pending() const { return !presses_.empty() || !held_.empty() || !released_.empty(); }

 private:
  struct Press {
    int key;  // GLFW key; -1: a typed character
    int mods;
    unsigned int codepoint;  // the character when key == -1
  };
  std::deque<Press> presses_;    // since the frame that last looked, in order
  std::vector<int> held_;        // keys put down for the current frame
  std::vector<int> masked_;      // keys held but not yet their turn: up for the current frame
  std::vector<int> released_;    // keys put down for the previous frame: one more frame drawn
  bool command_before_ = false;  // the previous frame put down a command key
  bool mods_replayed_ = false;   // this frame's modifiers are a press's, not the keys' now
};

}  // namespace rope::app
