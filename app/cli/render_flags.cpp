#include "cli/render_flags.h"

#include <CLI/CLI.hpp>

#include "cli/lessons_command.h"
#include "io/exit_codes.h"
#include "io/number_format.h"
#include "lessons/library.h"
#include "state/params.h"
#include "state/session.h"

namespace rope::app {

void add_render_flags(CLI::App& app, RenderFlags& flags) {
  app.add_option("--size", flags.size, "window size WIDTHxHEIGHT in logical pixels")
      ->capture_default_str();
  app.add_option("--scale", flags.scale,
                 "pixel scale 1 ... 4: the picture has scale times the pixels, drawn, not upscaled")
      ->capture_default_str();
  app.add_option("--session", flags.session,
                 "session file (.json) to start from; flags override it");
  add_bool_flag(app, "--canvas-only", flags.canvas_only,
                "the main canvas alone: no menu bar, no control panel");
  add_bool_flag(app, "--no-ink", flags.no_ink, "leave out the pen strokes the session holds");
  app.add_option("--palette", flags.palette,
                 "show the command palette (Ctrl + K) with LINE typed in it, e.g. 'yarn 16'")
      ->type_name("LINE");
  add_state_flags(app, flags.flags);
  add_lessons_dir_flag(app);
}

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

Status check_render_flags(const RenderFlags& flags) {
  if (auto size = parse_size(flags.size); !size) return size.error();
  if (!(flags.scale >= 1.0 && flags.scale <= 4.0))
    return Error{"--scale", "must be a number from 1 to 4, got " +
                                format_number(flags.scale, NumberStyle::csv)};
  return {};
}

Status load_session_state(const std::string& path, AppState& state) {
  if (auto s = load_session(path, state.params); !s) return s;
  state.applied_lesson = state.params.lesson;  // the session's values, not the step's
  state.applied_step = state.params.step;
  return {};
}

Status check_lesson(const Params& params) {
  if (params.lesson.empty()) return {};
  lessons::Library library;
  // no lessons at all: a missing folder, which the picture reports as such (exit 1)
  if (library.lessons().empty()) return {};
  const int index = library.index_of(params.lesson);
  if (index < 0)
    return Error{"--lesson", "there is no lesson " + quote_for_message(params.lesson) + " in " +
                                 library.directory() + " (`rope-lab lessons` lists them)"};
  const int steps = library.step_count(params);
  if (steps > 0 && params.step > steps)
    return Error{"--step", "must be from 1 to " + std::to_string(steps) + " for lesson '" +
                               library.lessons()[static_cast<std::size_t>(index)].lesson.id +
                               "', got " + std::to_string(params.step)};
  return {};
}

Status render_state(const RenderFlags& flags, AppState& state) {
  if (!flags.session.empty())
    if (auto s = load_session_state(flags.session, state); !s) return s;
  if (flags.no_ink) state.params.ink.clear();
  if (!flags.palette.empty()) {
    state.show_palette = true;
    state.palette_query = flags.palette.substr(0, 500);  // the palette's line holds 511 bytes
  }
  state.show_menu = state.show_controls = !flags.canvas_only;
  if (auto s = apply_state_flags(flags.flags, state.params); !s) return s;
  return check_lesson(state.params);  // never a picture of "there is no lesson …"
}

std::unique_ptr<OffscreenApp> make_offscreen(const RenderFlags& flags, long max_whole_pixels) {
  const auto [width, height] = parse_size(flags.size).value();  // checked by check_render_flags
  auto app = OffscreenApp::create(width, height, static_cast<float>(flags.scale), max_whole_pixels);
  if (!app) {
    print_error(app.error().message);
    return nullptr;
  }
  return std::move(app).value();
}

}  // namespace rope::app
