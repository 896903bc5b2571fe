#include "cli/bench_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli.h"
#include "cli/render_flags.h"
#include "cli/state_flags.h"
#include "io/number_format.h"
#include "lessons/library.h"
#include "shell/offscreen_app.h"
#include "state/params.h"

namespace rope::app {
namespace {

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

struct BenchCommand {
  int frames = 300;
  int warmup = 20;
  bool all = false;    // every view, in the window and in presentation mode
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
  sub->add_flag("--all", cmd->all,
                "every view, in the window and in presentation mode, as one table (the derivation "
                "view with lesson 1, step 1 unless --lesson is given; --view is ignored)");
  add_render_flags(*sub, cmd->render);
  return cmd;
}

namespace {

// One view's frames: times sorted, and the means of the split.
struct Measurement {
  std::vector<double> ms;                            // frame times, sorted, ms
  double build = 0.0, draw = 0.0, cpu = 0.0;         // means, ms (cpu: all threads)
  double vertices = 0.0, calls = 0.0;                // means
  std::vector<std::pair<std::string, double>> area;  // px² a frame, by window, largest first
  double at(double q) const {
    const auto idx = static_cast<std::size_t>(std::ceil(q * static_cast<double>(ms.size()))) - 1;
    return ms[std::min(idx, ms.size() - 1)];
  }
};

Measurement measure(OffscreenApp& app, AppState& state, int frames, int warmup) {
  constexpr double kDt = 1.0 / 60.0;  // the animation advances as at 60 Hz
  for (int i = 0; i < warmup; ++i)
    app.frame(state, kDt);
  Measurement m;
  m.ms.reserve(static_cast<std::size_t>(frames));
  // CPU time of all the process's threads (the UI's and llvmpipe's): on a machine shared with
  // other work it moves far less than wall time, so two builds can be compared there
  const double cpu0 = process_cpu_seconds();
  for (int i = 0; i < frames; ++i) {
    const auto f = app.frame(state, kDt);
    m.ms.push_back(1e3 * f.total());
    m.build += f.build_seconds;
    m.draw += f.draw_seconds;
    m.vertices += f.vertices;
    m.calls += f.draw_calls;
    for (const auto& [owner, px2] : f.area) {
      // a window's own list is named "Window", its child windows' "Window/Child_ID"
      const std::string window = owner.substr(0, owner.find('/'));
      const auto it = std::find_if(m.area.begin(), m.area.end(),
                                   [&](const auto& a) { return a.first == window; });
      if (it == m.area.end()) {
        m.area.emplace_back(window, px2);
      } else {
        it->second += px2;
      }
    }
  }
  const double n = frames;
  m.cpu = 1e3 * (process_cpu_seconds() - cpu0) / n;
  m.build *= 1e3 / n;
  m.draw *= 1e3 / n;
  m.vertices /= n;
  m.calls /= n;
  for (auto& a : m.area)
    a.second /= n;
  std::sort(m.ms.begin(), m.ms.end());
  std::sort(m.area.begin(), m.area.end(),
            [](const auto& a, const auto& b) { return a.second > b.second; });
  return m;
}

// Every view in the window theme and in presentation mode: one Markdown table.
int bench_all(const BenchCommand& cmd, OffscreenApp& app, const AppState& start) {
  std::printf("%dx%d, %d frames after %d warm-up each, renderer: %s\n\n", app.pixel_width(),
              app.pixel_height(), cmd.frames, cmd.warmup, app.renderer().c_str());
  std::printf("| view | window: median | p99 | CPU | presentation: median | p99 | CPU |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  std::string first_lesson;
  if (start.params.lesson.empty()) {
    lessons::Library library;
    if (!library.lessons().empty()) first_lesson = library.lessons().front().lesson.id;
  }
  for (const ViewId v : all_views()) {
    std::printf("| %s |", view_name(v));
    for (const bool presentation : {false, true}) {
      AppState state = start;
      state.params.view = v;
      state.params.presentation = presentation;
      if (v == ViewId::derivation && state.params.lesson.empty() && !first_lesson.empty()) {
        state.params.lesson = first_lesson;
        state.params.step = 1;
      }
      const Measurement m = measure(app, state, cmd.frames, cmd.warmup);
      std::printf(" %.1f ms | %.1f ms | %.1f ms |", m.at(0.5), m.at(0.99), m.cpu);
      std::fflush(stdout);
    }
    std::printf("\n");
  }
  std::printf(
      "\n(median and p99: wall time from NewFrame to glFinish; CPU: all threads' CPU "
      "time a frame, mean)\n");
  return kExitOk;
}

}  // namespace

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
  if (cmd.all) return bench_all(cmd, app, state);
  const Measurement m = measure(app, state, cmd.frames, cmd.warmup);
  std::printf("view %s, %dx%d, d = %d, base = %s, %s, %d frames after %d warm-up\n",
              view_name(state.params.view), app.pixel_width(), app.pixel_height(), state.params.dim,
              format_number(state.params.base, NumberStyle::csv).c_str(),
              state.params.playing ? "animating" : "still", cmd.frames, cmd.warmup);
  std::printf("renderer: %s\n", app.renderer().c_str());
  std::printf("frame time: median %.2f ms, p99 %.2f ms, max %.2f ms\n", m.at(0.5), m.at(0.99),
              m.ms.back());
  std::printf(
      "mean split: build %.2f ms (CPU), draw %.2f ms (GL), %.0f vertices, %.0f draw calls\n",
      m.build, m.draw, m.vertices, m.calls);
  std::printf("CPU time: %.2f ms a frame, all threads\n", m.cpu);
  // Where the rasteriser's work goes: triangle area per window, as a multiple of the frame's
  // pixels (1.00 = one full-frame layer; glClear's background is not counted).
  const double frame_px = static_cast<double>(app.pixel_width()) * app.pixel_height();
  double total = 0.0;
  for (const auto& a : m.area)
    total += a.second;
  std::printf("triangle area: %.2f frames", total / frame_px);
  for (std::size_t i = 0; i < m.area.size() && i < 4; ++i)
    std::printf("%s%s %.2f", i == 0 ? " (" : ", ", m.area[i].first.c_str(),
                m.area[i].second / frame_px);
  std::printf("%s\n", m.area.empty() ? "" : ")");
  return kExitOk;
}

}  // namespace rope::app
