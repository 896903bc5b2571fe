// cli/animate_command.h — `rope-lab animate`: a position sweep of a view as an animated GIF or
// an MP4 video (H.264; export/mp4.h), chosen by the extension of -o (.gif / .mp4, any case).
//
//   rope-lab animate -o FILE.gif|FILE.mp4 --to B [--from A] [--fps F] [--seconds T] [--size WxH]
//                    [--scale S] [--canvas-only] [--session FILE.json] [--progress] [state flags]
// m moves linearly from A (default: --position) to B over T seconds at F frames per second.
// --progress prints "progress K N" on stdout (flushed) after frame K of N is encoded, so a parent
// process reading the pipe can show a progress bar; the "wrote ..." line follows at the end.
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
