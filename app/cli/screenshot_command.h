// cli/screenshot_command.h — `rope-lab screenshot`: render a frame offscreen and write a PNG.
//
//   rope-lab screenshot -o FILE.png [render flags: --size WxH --scale S --session FILE ...]
//                      [--frames N] [--transparent] [--presenter]  (cli/render_flags.h)
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace rope::app {

struct ScreenshotCommand;
std::shared_ptr<ScreenshotCommand> add_screenshot_command(CLI::App& root);
int run_screenshot_command(const ScreenshotCommand& cmd);

}  // namespace rope::app
