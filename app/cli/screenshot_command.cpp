#include "cli/screenshot_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli.h"
#include "cli/state_flags.h"
#include "io/number_format.h"
#include "shell/offscreen_app.h"
#include "state/models.h"
#include "state/params.h"
#include "state/session.h"

namespace rope::app {

struct ScreenshotCommand {
  std::string output;
  std::string size = "1920x1080";
  double scale = 1.0;
  int frames = 3;
  std::string session;
  bool canvas_only = false;
  bool no_ink = false;
  bool transparent = false;
  bool presenter = false;
  StateFlags flags;
};

Result<std::pair<int, int>> parse_size(std::string_view text) {
  const auto x = text.find('x');
  const Error bad{"--size", "must be WIDTHxHEIGHT with each side from 64 to 8192, got '" +
                                std::string(text) + "'"};
  if (x == std::string_view::npos) return bad;
  auto w = parse_integer("--size", text.substr(0, x));
  auto h = parse_integer("--size", text.substr(x + 1));
  if (!w || !h || w.value() < 64 || w.value() > 8192 || h.value() < 64 || h.value() > 8192)
    return bad;
  return std::pair<int, int>{static_cast<int>(w.value()), static_cast<int>(h.value())};
}

std::shared_ptr<ScreenshotCommand> add_screenshot_command(CLI::App& root) {
  auto cmd = std::make_shared<ScreenshotCommand>();
  auto* sub = root.add_subcommand(
      "screenshot", "Render the window offscreen (no display needed) and write a PNG");
  sub->add_option("-o,--output", cmd->output, "PNG file to write")->required();
  sub->add_option("--size", cmd->size, "window size WIDTHxHEIGHT in logical pixels")
      ->capture_default_str();
  sub->add_option("--scale", cmd->scale,
                  "pixel scale 1 ... 4: the PNG has scale times the pixels, drawn, not upscaled")
      ->capture_default_str();
  sub->add_option("--frames", cmd->frames, "frames to run before the capture (1 ... 1000)")
      ->capture_default_str();
  sub->add_option("--session", cmd->session, "session file (.json) to render; flags override it");
  add_bool_flag(*sub, "--canvas-only", cmd->canvas_only,
                "the main canvas alone: no menu bar, no control panel");
  add_bool_flag(*sub, "--no-ink", cmd->no_ink, "leave out the pen strokes the session holds");
  add_bool_flag(*sub, "--transparent", cmd->transparent,
                "a see-through canvas background (PNG alpha), for slides");
  add_bool_flag(*sub, "--presenter", cmd->presenter,
                "the presenter window (notes, hidden answer, next step) instead, with the main "
                "window at the same size as its projector copy; a step's answer stays hidden");
  add_state_flags(*sub, cmd->flags);
  return cmd;
}

int run_screenshot_command(const ScreenshotCommand& cmd) {
  auto size = parse_size(cmd.size);
  if (!size) {
    print_error(size.error().to_string());
    return kExitUsage;
  }
  if (!(cmd.scale >= 1.0 && cmd.scale <= 4.0)) {
    print_error("--scale: must be a number from 1 to 4, got " +
                format_number(cmd.scale, NumberStyle::csv));
    return kExitUsage;
  }
  if (cmd.frames < 1 || cmd.frames > 1000) {
    print_error("--frames: must be an integer from 1 to 1000, got " + std::to_string(cmd.frames));
    return kExitUsage;
  }
  if (cmd.output.empty()) {
    print_error("--output: needs a file name");
    return kExitUsage;
  }
  if (cmd.presenter && cmd.transparent) {
    print_error("--transparent: the presenter window has no transparent picture");
    return kExitUsage;
  }
  AppState state;
  if (!cmd.session.empty()) {
    if (auto s = load_session(cmd.session, state.params); !s) {
      print_error(s.error().to_string());
      return kExitUsage;
    }
    state.applied_lesson = state.params.lesson;  // the session's values, not the step's
    state.applied_step = state.params.step;
  }
  if (cmd.no_ink) state.params.ink.clear();
  state.show_menu = state.show_controls = !cmd.canvas_only;
  // A picture of a lesson step shows its answer (FORMAT.md); the presenter's shows the class's
  // view of it, the answer still hidden, as in the lecture.
  state.reveal_all = !cmd.presenter;
  state.transparent_background = cmd.transparent;
  if (auto s = apply_state_flags(cmd.flags, state.params); !s) {
    print_error(s.error().to_string());
    return kExitUsage;
  }
  // A broken models file costs the presets, not the picture: one warning (as the window does).
  if (const ModelLibrary& models = model_library(); !models.problem.empty())
    std::fprintf(stderr, "rope-lab: warning: %s\n", models.problem.c_str());
  auto app =
      OffscreenApp::create(size.value().first, size.value().second, static_cast<float>(cmd.scale));
  if (!app) {
    print_error(app.error().message);
    return kExitFailure;
  }
  if (cmd.presenter && app.value()->banded()) {  // refused before any frame is drawn
    print_error("--presenter: a presenter picture has at most 3840x2160 pixels; --size " +
                cmd.size + " at --scale " + format_number(cmd.scale, NumberStyle::csv) + " has " +
                std::to_string(app.value()->pixel_width()) + "x" +
                std::to_string(app.value()->pixel_height()));
    return kExitUsage;
  }
  // dt 0: the picture is of exactly the requested state, even with --playing
  app.value()->run(state, cmd.frames, 0.0);
  if (cmd.presenter) {
    if (auto s = app.value()->presenter_frame(state); !s) {
      print_error(s.error().to_string());
      return kExitUsage;
    }
  }
  if (report_problems(state)) return kExitFailure;  // never a picture of an error message
  // Straight from the framebuffer to the file, a strip at a time: a 4x picture (7680x4320) is
  // never copied whole into memory.
  if (auto s = app.value()->write_png(cmd.output, cmd.transparent); !s) {
    print_error(s.error().to_string());
    return kExitFailure;
  }
  std::printf("wrote %s (%dx%d)\n", cmd.output.c_str(), app.value()->pixel_width(),
              app.value()->pixel_height());
  return kExitOk;
}

}  // namespace rope::app
