// state/history.h — undo and redo of parameter changes (Ctrl+Z, Ctrl+Shift+Z, Edit menu).
//
// The frame shows the history every state it ends with; a state that differs from the last one
// recorded becomes one step. What is not a step: the lecturer's display settings (theme, UI
// scale, presentation mode), play / pause, and the position while the animation moves it (the
// whole run becomes one step when it stops). A slider dragged over many frames is one step: the
// frame passes settled = false while a control is held.
//
// Usage (once per frame, after every change of the frame):
//   history.observe(state.params, !ImGui::IsAnyItemActive());
//   if (auto p = history.undo(state.params)) restore_params(state, *p);   // state/actions.h
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "state/app_state.h"

namespace rope::app {

class History {
 public:
  static constexpr std::size_t kMaxSteps = 200;  // oldest dropped first

  void observe(const Params& now, bool settled);
  bool can_undo() const { return !past_.empty(); }
  bool can_redo() const { return !future_.empty(); }
  // The state to go back (forward) to, with `now`'s display settings and play state kept; empty
  // when there is none. The history then counts the returned state as the current one.
  std::optional<Params> undo(const Params& now);
  std::optional<Params> redo(const Params& now);
  void clear();

 private:
  std::optional<Params> move(std::vector<Params>& from, std::vector<Params>& to, const Params& now);
  std::vector<Params> past_, future_;  // the last element is the nearest step
  std::optional<Params> recorded_;     // the state the last step led to (empty: none seen yet)
};

}  // namespace rope::app
