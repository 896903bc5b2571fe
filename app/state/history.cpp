#include "state/history.h"

#include <utility>

namespace rope::app {

namespace {

// What a step is made of: everything but the display settings, play / pause, and the position
// while the animation runs (`playing` in either state).
bool same_step(const Params& a, const Params& b) {
  Params x = a;
  x.theme = b.theme;
  x.ui_scale = b.ui_scale;
  x.presentation = b.presentation;
  x.playing = b.playing;
  if (a.playing || b.playing) x.position = b.position;
  return x == b;
}

// `to` with the display settings and play state of `now`: undo never changes how the screen
// looks to the room, nor starts or stops the animation.
Params keep_display(Params to, const Params& now) {
  to.theme = now.theme;
  to.ui_scale = now.ui_scale;
  to.presentation = now.presentation;
  to.playing = now.playing;
  return to;
}

}  // namespace

void History::observe(const Params& now, bool settled) {
  if (!recorded_) {
    recorded_ = now;
    return;
  }
  if (!settled || same_step(now, *recorded_)) return;
  past_.push_back(*recorded_);
  if (past_.size() > kMaxSteps) past_.erase(past_.begin());
  future_.clear();
  recorded_ = now;
}

std::optional<Params> History::move(std::vector<Params>& from, std::vector<Params>& to,
                                    const Params& now) {
  if (from.empty()) return std::nullopt;
  // A change not yet recorded (made this frame) is kept as the step to come back to.
  to.push_back(recorded_ && same_step(now, *recorded_) ? *recorded_ : now);
  Params target = keep_display(std::move(from.back()), now);
  from.pop_back();
  recorded_ = target;
  return target;
}

std::optional<Params> History::undo(const Params& now) {
  return move(past_, future_, now);
}

std::optional<Params> History::redo(const Params& now) {
  return move(future_, past_, now);
}

void History::clear() {
  past_.clear();
  future_.clear();
  recorded_.reset();
}

}  // namespace rope::app
