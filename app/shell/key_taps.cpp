#include "shell/key_taps.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

namespace rope::app {
namespace {

// A stuck key or a flood never grows the queue beyond this. Taps of one key are handed over one
// a frame, so the queue holds what a slow frame leaves: 200 taps 15 ms apart are 3 s, which at
// 10 frames/s (llvmpipe at 1920 x 1080 on a loaded machine) leave 170 waiting. 64 dropped taps.
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
  int frame_mods = -1;   // the modifiers of the taps put down this frame
  bool command = false;  // a command key was put down this frame
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
    const auto has = [&](const std::vector<int>& v) {
      return std::find(v.begin(), v.end(), press.key) != v.end();
    };
    // In order, and one press of a key a frame (a key this loop put down reads as down, which
    // is not a held key); the next frame may take it again (press_in_next_frame).
    if (has(held_)) break;
    if (frame_mods >= 0 && press.mods != frame_mods) break;  // one set of modifiers a frame
    if (io.KeysDown[press.key]) {
      // Still held: ImGui sees this press by itself, but with the modifiers of now, and Ctrl
      // may already be up (xdotool's ctrl+s, a quick hand: Ctrl down, S down, Ctrl up, one
      // frame, S up). For this frame it gets the modifiers it was pressed with.
      set_modifiers(io, press.mods);
      press_in_next_frame(io, press.key);  // it may have been put down for the last frame
      mods_replayed_ = true;
      frame_mods = press.mods;
      command = command || is_command(press.key, press.mods);
      presses_.pop_front();
      continue;
    }
    // and a frame after a command key before the next tap: the command may open a dialog whose
    // text field takes the keyboard a frame later (Ctrl+S, then Enter to save)
    if (command_before_) break;
    io.KeysDown[press.key] = true;
    press_in_next_frame(io, press.key);
    set_modifiers(io, press.mods);
    frame_mods = press.mods;
    command = command || is_command(press.key, press.mods);
    held_.push_back(press.key);
    presses_.pop_front();
  }
  released_.clear();
  command_before_ = command;
}

void KeyTaps::after_frame(ImGuiIO& io) {
  released_ = held_;
  if (held_.empty() && !mods_replayed_) return;
  mods_replayed_ = false;
  for (int key : held_)
    io.KeysDown[key] = false;
  held_.clear();
  modifiers_from_keys(io);
}

}  // namespace rope::app
