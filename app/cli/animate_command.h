// cli/animate_command.h — `rope-lab animate`: a position sweep of a view as an animated GIF.
//
//   rope-lab animate -o FILE.gif --to B [--from A] [--fps F] [--seconds T] [--size WxH]
//                    [--scale S] [--session FILE.json] [state flags]
// m moves linearly from A (default: --position) to B over T seconds at F frames per second.
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace rope::app {

struct AnimateCommand;
std::shared_ptr<AnimateCommand> add_animate_command(CLI::App& root);
int run_animate_command(const AnimateCommand& cmd);

}  // namespace rope::app
