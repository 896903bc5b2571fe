// cli/render_flags.h — the flags the picture commands share (`screenshot`, `animate`, `bench`):
// the window size and pixel scale, a session to start from, --canvas-only, --no-ink and the
// state flags. They are registered, checked, turned into an AppState and into an offscreen
// renderer here, so the three commands say the same thing about the same mistake.
//
// Usage:
//   RenderFlags render;  render.size = "1920x1080";  // the command's default size
//   add_render_flags(*sub, render);
//   ...
//   if (auto s = check_render_flags(render); !s) return usage(s);      // exit 2
//   AppState state;
//   if (auto s = render_state(render, state); !s) return usage(s);     // exit 2
//   std::unique_ptr<OffscreenApp> app = make_offscreen(render);
//   if (!app) return kExitFailure;                                      // message printed
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "cli/state_flags.h"
#include "rope/conventions.h"
#include "shell/offscreen_app.h"
#include "state/app_state.h"

namespace CLI {
class App;
}

namespace rope::app {

struct RenderFlags {
  std::string size;          // --size WIDTHxHEIGHT, logical pixels (parse_size)
  double scale = 1.0;        // --scale, pixels per logical pixel, 1 ... 4
  std::string session;       // --session FILE.json to start from ("": none)
  bool canvas_only = false;  // --canvas-only: no menu bar, no control panel
  bool no_ink = false;       // --no-ink: leave out the session's pen strokes
  std::string palette;       // --palette LINE: the command palette open with LINE typed
  StateFlags flags;          // every parameter's flag (state_flags.h)
};

// Registers --size, --scale, --session, --canvas-only, --no-ink and the state flags on `app`.
void add_render_flags(CLI::App& app, RenderFlags& flags);

// "1920x1080" -> {1920, 1080}; each side 64 ... 8192. Error.parameter is "--size".
Result<std::pair<int, int>> parse_size(std::string_view text);

// --size and --scale; Error.parameter names the flag.
Status check_render_flags(const RenderFlags& flags);

// `state` from the flags: the session (its lesson step as saved, not re-applied), --no-ink,
// --canvas-only, then the state flags over it. An error is bad input (exit 2).
Status render_state(const RenderFlags& flags, AppState& state);

// Loads a session file into state.params; the lesson step it names counts as applied already,
// so its saved values stand (the GUI and the picture commands alike).
Status load_session_state(const std::string& path, AppState& state);

// The offscreen renderer at the checked --size and --scale; prints why there is none (no GL 3.3:
// exit 1) and returns nullptr. max_whole_pixels as OffscreenApp::create.
std::unique_ptr<OffscreenApp> make_offscreen(const RenderFlags& flags,
                                             long max_whole_pixels = OffscreenApp::kMaxWholePixels);

// The lesson and step of `params` against the lesson folder: a lesson that is not there, or a
// step past the lesson's last, is an Error naming the flag. Without it the window and the
// picture commands showed "There is no lesson named …" inside the picture and exited 0, and a
// step past the end was clamped without a word. Nothing to check without a lesson.
Status check_lesson(const Params& params);

}  // namespace rope::app
