#include "cli/screenshot_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli.h"
#include "cli/output_flag.h"
#include "cli/render_flags.h"
#include "cli/state_flags.h"
#include "io/number_format.h"
#include "shell/offscreen_app.h"
#include "state/models.h"

namespace rope::app {

struct ScreenshotCommand {
  std::string output;
  int frames = 3;
  bool transparent = false;
  bool presenter = false;
  bool hide_answer = false;  // --hide-answer: a lesson step as the class sees it before V
  bool force = false;        // --force: replace a write-protected -o file
  RenderFlags render;        // --size 1920x1080 unless given
};

std::shared_ptr<ScreenshotCommand> add_screenshot_command(CLI::App& root) {
  auto cmd = std::make_shared<ScreenshotCommand>();
  cmd->render.size = "1920x1080";
  auto* sub = root.add_subcommand(
      "screenshot", "Render the window offscreen (no display needed) and write a PNG");
  sub->add_option("-o,--output", cmd->output, "PNG file to write (- for standard output)")
      ->required();
  add_force_flag(*sub, cmd->force);
  sub->add_option("--frames", cmd->frames, "frames to run before the capture (1 ... 1000)")
      ->capture_default_str();
  add_bool_flag(*sub, "--transparent", cmd->transparent,
                "a see-through canvas background (PNG alpha), for slides");
  add_bool_flag(*sub, "--presenter", cmd->presenter,
                "the presenter window (notes, hidden answer, next step) instead, with the main "
                "window at the same size as its projector copy; a step's answer stays hidden");
  add_bool_flag(*sub, "--hide-answer", cmd->hide_answer,
                "a lesson step whose answer waits for V (ask:) as the class first sees it, the "
                "answer hidden; without it the picture shows the answer");
  add_render_flags(*sub, cmd->render);
  return cmd;
}

int run_screenshot_command(const ScreenshotCommand& cmd) {
  if (auto s = check_render_flags(cmd.render); !s) {
    print_error(s.error().to_string());
    return kExitUsage;
  }
  if (cmd.frames < 1 || cmd.frames > 1000) {
    print_error("--frames: must be an integer from 1 to 1000, got " + std::to_string(cmd.frames));
    return kExitUsage;
  }
  if (const int code = check_output(cmd.output, cmd.force, /*stdout_allowed=*/true); code != 0)
    return code;
  if (cmd.presenter && cmd.transparent) {
    print_error("--transparent: the presenter window has no transparent picture");
    return kExitUsage;
  }
  AppState state;
  if (auto s = render_state(cmd.render, state); !s) {
    print_error(s.error().to_string());
    return kExitUsage;
  }
  // A picture of a lesson step shows its answer (FORMAT.md) unless --hide-answer asks for the
  // slide before V; the presenter's shows the class's view of it, the answer still hidden, as in
  // the lecture.
  state.reveal_all = !cmd.presenter && !cmd.hide_answer;
  state.transparent_background = cmd.transparent;
  // A broken models file costs the presets, not the picture: one warning (as the window does).
  if (const ModelLibrary& models = model_library(); !models.problem.empty())
    std::fprintf(stderr, "rope-lab: warning: %s\n", models.problem.c_str());
  const std::unique_ptr<OffscreenApp> app = make_offscreen(cmd.render);
  if (!app) return kExitFailure;
  if (cmd.presenter && app->banded()) {  // refused before any frame is drawn
    print_error("--presenter: a presenter picture has at most 3840x2160 pixels; --size " +
                cmd.render.size + " at --scale " +
                format_number(cmd.render.scale, NumberStyle::csv) + " has " +
                std::to_string(app->pixel_width()) + "x" + std::to_string(app->pixel_height()));
    return kExitUsage;
  }
  // dt 0: the picture is of exactly the requested state, even with --playing
  app->run(state, cmd.frames, 0.0);
  if (cmd.presenter) {
    if (auto s = app->presenter_frame(state); !s) {
      print_error(s.error().to_string());
      return kExitUsage;
    }
  }
  if (report_problems(state)) return kExitFailure;  // never a picture of an error message
  // Straight from the framebuffer to the file, a strip at a time: a 4x picture (7680x4320) is
  // never copied whole into memory.
  if (auto s = app->write_png(cmd.output, cmd.transparent, WriteOptions{cmd.force}); !s) {
    print_error(s.error().to_string());
    return kExitFailure;
  }
  if (cmd.output == "-") return kExitOk;  // stdout holds the picture: nothing else goes there
  std::printf("wrote %s (%dx%d)\n", cmd.output.c_str(), app->pixel_width(), app->pixel_height());
  return kExitOk;
}

}  // namespace rope::app
