#include "ui/key_taps.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

namespace rope::app {
namespace {

constexpr std::size_t kMaxQueued = 64;  // a stuck key or a flood never grows the queue

bool valid_key(int key) {
  return key >= 0 && key < IM_ARRAYSIZE(ImGuiIO::KeysDown);
}

// Modifiers as ImGui's GLFW backend derives them: from the keys that are down.
void modifiers_from_keys(ImGuiIO& io) {
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
}

}  // namespace

void KeyTaps::on_key(int key, int action, int mods) {
  if (action != GLFW_PRESS || !valid_key(key) || presses_.size() >= kMaxQueued) return;
  presses_.push_back({key, mods});
}

void KeyTaps::before_frame(ImGuiIO& io) {
  bool modifiers_set = false;
  while (!presses_.empty()) {
    const Press press = presses_.front();
    const auto has = [&](const std::vector<int>& v) {
      return std::find(v.begin(), v.end(), press.key) != v.end();
    };
    // One tap per key per frame (a key this loop put down reads as down: not a held key), and
    // a frame with the key up between two taps of it (ImGui counts a press on down after up).
    if (has(held_) || has(released_)) break;
    if (io.KeysDown[press.key]) {  // still held: ImGui sees this press by itself
      presses_.pop_front();
      continue;
    }
    if (modifiers_set) break;  // the modifiers of one tap per frame
    io.KeysDown[press.key] = true;
    io.KeyCtrl = (press.mods & GLFW_MOD_CONTROL) != 0;
    io.KeyShift = (press.mods & GLFW_MOD_SHIFT) != 0;
    io.KeyAlt = (press.mods & GLFW_MOD_ALT) != 0;
    io.KeySuper = (press.mods & GLFW_MOD_SUPER) != 0;
    modifiers_set = true;
    held_.push_back(press.key);
    presses_.pop_front();
  }
  released_.clear();
}

void KeyTaps::after_frame(ImGuiIO& io) {
  released_ = held_;
  if (held_.empty()) return;
  for (int key : held_)
    io.KeysDown[key] = false;
  held_.clear();
  modifiers_from_keys(io);
}

}  // namespace rope::app
