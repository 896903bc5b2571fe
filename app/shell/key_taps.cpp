#include "shell/key_taps.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace rope::app {
namespace {

// A stuck key or a flood never grows the queue beyond this. Keys are handed over one a frame, so
// the queue holds what slow frames leave behind: a run of taps 15 ms apart while llvmpipe draws
// a frame in 50 ms leaves two of every three waiting (a press and a character each).
constexpr std::size_t kMaxQueued = 1024;

bool valid_key(int key) {
  return key >= 0 && key < IM_ARRAYSIZE(ImGuiIO::KeysDown);
}

bool is_modifier(int key) {
  return key == GLFW_KEY_LEFT_CONTROL || key == GLFW_KEY_RIGHT_CONTROL ||
         key == GLFW_KEY_LEFT_SHIFT || key == GLFW_KEY_RIGHT_SHIFT || key == GLFW_KEY_LEFT_ALT ||
         key == GLFW_KEY_RIGHT_ALT || key == GLFW_KEY_LEFT_SUPER || key == GLFW_KEY_RIGHT_SUPER;
}

// A key that may give the keyboard to a text field or take it away: with Ctrl, Alt or Super
// (Ctrl + S opens the session dialog), Tab, Enter, Esc and the function keys. The arrows, the
// page keys and Backspace are not: they change what is there, and taps of them need not wait a
// frame after each other (they did, and a run of arrow taps drained at half the frame rate).
bool is_command(int key, int mods) {
  return (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) != 0 || key == GLFW_KEY_TAB ||
         key == GLFW_KEY_ENTER || key == GLFW_KEY_KP_ENTER || key == GLFW_KEY_ESCAPE ||
         (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F25);
}

// Makes ImGui count `key` as pressed in the coming frame: NewFrame counts a press when a key is
// down and its duration was below zero (up). Without this, a key put down again in the frame
// after a replayed tap of it continued that tap (duration 0 + dt) and was lost, so taps of one
// key needed a frame with the key up between them: two frames a tap.
void press_in_next_frame(ImGuiIO& io, int key) {
  io.KeysDownDuration[key] = -1.0f;
}

// Modifiers as ImGui's GLFW backend derives them: from the keys that are down.
void modifiers_from_keys(ImGuiIO& io) {
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
}

void set_modifiers(ImGuiIO& io, int mods) {
  io.KeyCtrl = (mods & GLFW_MOD_CONTROL) != 0;
  io.KeyShift = (mods & GLFW_MOD_SHIFT) != 0;
  io.KeyAlt = (mods & GLFW_MOD_ALT) != 0;
  io.KeySuper = (mods & GLFW_MOD_SUPER) != 0;
}

}  // namespace

void KeyTaps::on_key(int key, int action, int mods) {
  if (action != GLFW_PRESS || !valid_key(key) || presses_.size() >= kMaxQueued) return;
  presses_.push_back({key, mods, 0});
}

void KeyTaps::on_char(unsigned int codepoint) {
  if (presses_.empty()) {  // nothing waiting: straight to ImGui, as its own callback would
    ImGui::GetIO().AddInputCharacter(codepoint);
  } else if (presses_.size() < kMaxQueued) {
    presses_.push_back({-1, 0, codepoint});
  }
}

void KeyTaps::before_frame(ImGuiIO& io) {
  bool command = false;  // the key handed over this frame is a command key
  int handed = -1;       // the key handed over this frame
  while (!presses_.empty()) {
    const Press press = presses_.front();
    if (press.key < 0) {
      // Characters wait a frame after a command key: it may open the text field they belong
      // in (Ctrl+S), which takes the keyboard a frame later. The keys of typed text do not.
      if (command || command_before_) break;
      io.AddInputCharacter(press.codepoint);
      presses_.pop_front();
      continue;
    }
    if (is_modifier(press.key)) {  // they act through the mods of the keys pressed with them
      presses_.pop_front();
      continue;
    }
    // One key a frame: ImGui 1.86 sees the keys of a frame all at once, and the shortcut table
    // runs them in its own order, not in the order they came (2 then 1 tapped within one frame
    // ended at view 2, G then M at MP4). And none in the frame after a command key: it may open
    // a dialog whose text field takes the keyboard a frame later (Ctrl+S, then Enter to save).
    if (handed >= 0 || command_before_) break;
    // A key still held (the press and the frame came before its release) is down already; it
    // gets, for this frame, the modifiers it was pressed with, as Ctrl may already be up
    // (xdotool's ctrl+s, a quick hand: Ctrl down, S down, Ctrl up, one frame, S up).
    if (!io.KeysDown[press.key]) {
      io.KeysDown[press.key] = true;
      held_.push_back(press.key);
    }
    press_in_next_frame(io, press.key);
    set_modifiers(io, press.mods);
    mods_replayed_ = true;
    command = is_command(press.key, press.mods);
    handed = press.key;
    presses_.pop_front();
  }
  // Keys still down whose press waits its turn in the queue: ImGui would see them now, out of
  // order, and once more when their turn comes. They are up for ImGui until then.
  for (const Press& p : presses_) {
    if (p.key < 0 || p.key == handed || is_modifier(p.key) || !io.KeysDown[p.key]) continue;
    io.KeysDown[p.key] = false;
    masked_.push_back(p.key);
  }
  released_.clear();
  command_before_ = command;
}

void KeyTaps::after_frame(ImGuiIO& io) {
  released_ = held_;
  for (int key : held_)
    io.KeysDown[key] = false;
  held_.clear();
  // down again as GLFW has them: their releases come through its callback
  for (int key : masked_)
    io.KeysDown[key] = true;
  masked_.clear();
  if (mods_replayed_) {
    mods_replayed_ = false;
    modifiers_from_keys(io);
  }
}

}  // namespace rope::app
