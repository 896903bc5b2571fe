// cli/bench_command.h — `rope-lab bench`: frame times of a view rendered offscreen.
//
//   rope-lab bench [render flags, e.g. --view pointers --dim 512 --playing --size WxH]
//                  [--frames N] [--warmup N]  (render flags: cli/render_flags.h)
// prints the median and 99th-percentile frame time (build + draw + glFinish), in ms.
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace rope::app {

struct BenchCommand;
std::shared_ptr<BenchCommand> add_bench_command(CLI::App& root);
int run_bench_command(const BenchCommand& cmd);

}  // namespace rope::app
