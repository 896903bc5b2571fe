#include "cli/bench_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "cli/cli.h"
#include "cli/render_flags.h"
#include "cli/state_flags.h"
#include "io/number_format.h"
#include "shell/offscreen_app.h"
#include "state/params.h"

namespace rope::app {

struct BenchCommand {
  int frames = 300;
  int warmup = 20;
  RenderFlags render;  // --size 1920x1080 unless given
};

std::shared_ptr<BenchCommand> add_bench_command(CLI::App& root) {
  auto cmd = std::make_shared<BenchCommand>();
  cmd->render.size = "1920x1080";
  auto* sub = root.add_subcommand(
      "bench", "Measure frame times of a view rendered offscreen (median and 99th percentile)");
  sub->add_option("--frames", cmd->frames, "frames measured (10 ... 100000)")
      ->capture_default_str();
  sub->add_option("--warmup", cmd->warmup, "frames run first and not measured (0 ... 1000)")
      ->capture_default_str();
  add_render_flags(*sub, cmd->render);
  return cmd;
}

int run_bench_command(const BenchCommand& cmd) {
  if (auto s = check_render_flags(cmd.render); !s) {
    print_error(s.error().to_string());
    return kExitUsage;
  }
  if (cmd.frames < 10 || cmd.frames > 100000) {
    print_error("--frames: must be an integer from 10 to 100000, got " +
                std::to_string(cmd.frames));
    return kExitUsage;
  }
  if (cmd.warmup < 0 || cmd.warmup > 1000) {
    print_error("--warmup: must be an integer from 0 to 1000, got " + std::to_string(cmd.warmup));
    return kExitUsage;
  }
  AppState state;
  if (auto s = render_state(cmd.render, state); !s) {
    print_error(s.error().to_string());
    return kExitUsage;
  }
  // Always drawn whole: the frame time is the window's, not that of a picture's top band.
  const std::unique_ptr<OffscreenApp> created =
      make_offscreen(cmd.render, std::numeric_limits<long>::max());
  if (!created) return kExitFailure;
  OffscreenApp& app = *created;
  constexpr double kDt = 1.0 / 60.0;  // the animation advances as at 60 Hz
  for (int i = 0; i < cmd.warmup; ++i)
    app.frame(state, kDt);
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(cmd.frames));
  double build = 0.0, draw = 0.0, vertices = 0.0, calls = 0.0;
  for (int i = 0; i < cmd.frames; ++i) {
    const auto f = app.frame(state, kDt);
    ms.push_back(1e3 * f.total());
    build += f.build_seconds;
    draw += f.draw_seconds;
    vertices += f.vertices;
    calls += f.draw_calls;
  }
  const double n = cmd.frames;
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) {
    const auto idx = static_cast<std::size_t>(std::ceil(q * static_cast<double>(ms.size()))) - 1;
    return ms[std::min(idx, ms.size() - 1)];
  };
  std::printf("view %s, %dx%d, d = %d, base = %s, %s, %d frames after %d warm-up\n",
              view_name(state.params.view), app.pixel_width(), app.pixel_height(), state.params.dim,
              format_number(state.params.base, NumberStyle::csv).c_str(),
              state.params.playing ? "animating" : "still", cmd.frames, cmd.warmup);
  std::printf("renderer: %s\n", app.renderer().c_str());
  std::printf("frame time: median %.2f ms, p99 %.2f ms, max %.2f ms\n", at(0.5), at(0.99),
              ms.back());
  std::printf(
      "mean split: build %.2f ms (CPU), draw %.2f ms (GL), %.0f vertices, %.0f draw calls\n",
      1e3 * build / n, 1e3 * draw / n, vertices / n, calls / n);
  return kExitOk;
}

}  // namespace rope::app
