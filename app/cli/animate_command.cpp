#include "cli/animate_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

#include "cli/cli.h"
#include "cli/output_flag.h"
#include "cli/render_flags.h"
#include "cli/state_flags.h"
#include "export/gif.h"
#include "export/mp4_module.h"
#include "export/sweep.h"
#include "io/atomic_file.h"
#include "io/number_format.h"
#include "shell/offscreen_app.h"
#include "state/params.h"

namespace rope::app {

struct AnimateCommand {
  std::string output;
  bool force = false;  // --force: replace a write-protected -o file
  std::string from;    // empty: the --position value
  std::string to;
  double fps = 20.0;
  double seconds = 4.0;
  bool progress = false;  // "progress K N" on stdout after each frame, for a parent process
  RenderFlags render;     // --size 1280x720 unless given
};

std::shared_ptr<AnimateCommand> add_animate_command(CLI::App& root) {
  auto cmd = std::make_shared<AnimateCommand>();
  cmd->render.size = "1280x720";
  auto* sub = root.add_subcommand(
      "animate",
      "Render a sweep of the position m as an animated GIF or an MP4 video (no display needed)");
  sub->add_option("-o,--output", cmd->output,
                  "file to write: .gif (looping GIF) or .mp4 (H.264 video)")
      ->required();
  add_force_flag(*sub, cmd->force);
  sub->add_option("--from", cmd->from, "first position (default: --position)");
  sub->add_option("--to", cmd->to, "last position")->required();
  sub->add_option("--fps", cmd->fps, "frames per second, 1 ... 50")->capture_default_str();
  sub->add_option("--seconds", cmd->seconds, "length of the sweep, 0.5 ... 60")
      ->capture_default_str();
  add_bool_flag(*sub, "--progress", cmd->progress,
                "print 'progress K N' on stdout after each of the N frames (for a progress bar)");
  add_render_flags(*sub, cmd->render);
  return cmd;
}

int run_animate_command(const AnimateCommand& cmd) {
  const auto usage = [](const std::string& message) {
    print_error(message);
    return kExitUsage;
  };
  if (const int code = check_output(cmd.output, cmd.force, /*stdout_allowed=*/false); code != 0)
    return code;
  std::string ext = std::filesystem::path(cmd.output).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext != ".gif" && ext != ".mp4")
    return usage("--output: must name a .gif or .mp4 file (animated GIF or H.264 video), got '" +
                 cmd.output + "'");
  const bool mp4 = ext == ".mp4";
  if (!(cmd.fps >= kSweepMinFps && cmd.fps <= kSweepMaxFps))
    return usage("--fps: must be a number from " + format_number(kSweepMinFps, NumberStyle::csv) +
                 " to " + format_number(kSweepMaxFps, NumberStyle::csv) + ", got " +
                 format_number(cmd.fps, NumberStyle::csv));
  if (!(cmd.seconds >= kSweepMinSeconds && cmd.seconds <= kSweepMaxSeconds))
    return usage("--seconds: must be a number from " +
                 format_number(kSweepMinSeconds, NumberStyle::csv) + " to " +
                 format_number(kSweepMaxSeconds, NumberStyle::csv) + ", got " +
                 format_number(cmd.seconds, NumberStyle::csv));
  if (auto s = check_render_flags(cmd.render); !s) return usage(s.error().to_string());
  const int frames = sweep_frames(cmd.seconds, cmd.fps);
  if (frames > kSweepMaxFrames)
    return usage("--seconds x --fps: at most " + std::to_string(kSweepMaxFrames) +
                 " frames, asked for " + std::to_string(frames));

  AppState state;
  if (auto s = render_state(cmd.render, state); !s) return usage(s.error().to_string());
  auto to = parse_real("--to", cmd.to);
  if (!to) return usage(to.error().to_string());
  double from = state.params.position;
  if (!cmd.from.empty()) {
    auto f = parse_real("--from", cmd.from);
    if (!f) return usage(f.error().to_string());
    from = f.value();
  }
  // --from and --to are positions m: the table's row judges them, with its message
  for (const auto& [name, v] : {std::pair{"--from", from}, std::pair{"--to", to.value()}})
    if (!param_range("position").contains(v))
      return usage(std::string(name) + ": must be " + param_allowed(*find_param("position")) +
                   ", got " + format_number(v, NumberStyle::csv));

  const std::unique_ptr<OffscreenApp> created = make_offscreen(cmd.render);
  if (!created) return kExitFailure;
  OffscreenApp& app = *created;
  state.params.playing = false;  // the sweep sets m itself
  // One of the two writers; both take frames with add() and give the file's bytes with finish().
  std::optional<GifWriter> gif;
  std::optional<Mp4Export> video;
  if (mp4)
    video.emplace(app.pixel_width(), app.pixel_height(), cmd.fps);
  else
    gif.emplace(app.pixel_width(), app.pixel_height(),
                static_cast<int>(std::lround(100.0 / cmd.fps)));
  for (int k = 0; k < frames; ++k) {
    state.params.position = from + (to.value() - from) * k / std::max(1, frames - 1);
    const Image image = app.render(state, k == 0 ? 2 : 1);  // a new window draws on frame 2
    if (report_problems(state)) return kExitFailure;
    if (auto s = mp4 ? video->add(image) : gif->add(image); !s) {
      // "out of memory: …" stands alone, as the command line's other out-of-memory line does
      const Error& e = s.error();
      print_error(e.message.rfind("out of memory", 0) == 0 ? e.message : e.to_string());
      return kExitFailure;
    }
    if (cmd.progress) {
      std::printf("progress %d %d\n", k + 1, frames);
      std::fflush(stdout);  // a pipe is block-buffered: the parent must see each line now
    }
  }
  auto bytes = mp4 ? video->finish() : gif->finish();
  if (!bytes) {
    const Error& e = bytes.error();
    print_error(e.message.rfind("out of memory", 0) == 0 ? e.message : e.to_string());
    return kExitFailure;
  }
  if (auto s = write_file_atomic(cmd.output, bytes.value(), WriteOptions{cmd.force}); !s) {
    print_error(s.error().to_string());
    return kExitFailure;
  }
  std::string encoded;  // MP4 only: the encoder, and the padded size when a side was odd
  if (mp4) {
    encoded = std::string(", encoder ") + video->encoder();
    if (video->video_width() != app.pixel_width() || video->video_height() != app.pixel_height())
      encoded += ", padded to " + std::to_string(video->video_width()) + "x" +
                 std::to_string(video->video_height());
  }
  std::printf("wrote %s (%d frames, %dx%d, m from %s to %s%s)\n", cmd.output.c_str(), frames,
              app.pixel_width(), app.pixel_height(), format_number(from, NumberStyle::csv).c_str(),
              format_number(to.value(), NumberStyle::csv).c_str(), encoded.c_str());
  return kExitOk;
}

}  // namespace rope::app
