// cli/screenshot_command.h — `rope-lab screenshot`: render a frame offscreen and write a PNG.
//
//   rope-lab screenshot -o FILE.png [state flags] [--size WxH] [--scale S] [--frames N]
#pragma once

#include <memory>
#include <string_view>
#include <utility>

#include "rope/conventions.h"

namespace CLI {
class App;
}

namespace rope::app {

struct ScreenshotCommand;
std::shared_ptr<ScreenshotCommand> add_screenshot_command(CLI::App& root);
int run_screenshot_command(const ScreenshotCommand& cmd);

// "1920x1080" -> {1920, 1080}; each side 64 ... 8192. Error.parameter is "--size".
Result<std::pair<int, int>> parse_size(std::string_view text);

}  // namespace rope::app
