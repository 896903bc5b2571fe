#include "shell/key_taps.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

namespace rope::app {
namespace {

constexpr std::size_t kMaxQueued = 64;  // a stuck key or a flood never grows the queue

bool valid_key(int key) {
  return key >= 0 && key < IM_ARRAYSIZE(ImGuiIO::KeysDown);
}

bool is_modifier(int key) {
  return key == GLFW_KEY_LEFT_CONTROL || key == GLFW_KEY_RIGHT_CONTROL ||
         key == GLFW_KEY_LEFT_SHIFT || key == GLFW_KEY_RIGHT_SHIFT || key == GLFW_KEY_LEFT_ALT ||
         key == GLFW_KEY_RIGHT_ALT || key == GLFW_KEY_LEFT_SUPER || key == GLFW_KEY_RIGHT_SUPER;
}

// A key that does something other than type: with Ctrl, Alt or Super, or not a printable key
// (GLFW's printable keys are Space ... the grave accent).
bool is_command(int key, int mods) {
  return (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) != 0 || key < GLFW_KEY_SPACE ||
         key > GLFW_KEY_GRAVE_ACCENT;
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
    // In order, and a key again only after a frame with it up (ImGui counts a press on down
    // after up; a key this loop put down reads as down, which is not a held key).
    if (has(held_) || has(released_)) break;
    if (frame_mods >= 0 && press.mods != frame_mods) break;  // one set of modifiers a frame
    if (io.KeysDown[press.key]) {
      // Still held: ImGui sees this press by itself, but with the modifiers of now, and Ctrl
      // may already be up (xdotool's ctrl+s, a quick hand: Ctrl down, S down, Ctrl up, one
      // frame, S up). For this frame it gets the modifiers it was pressed with.
      set_modifiers(io, press.mods);
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
