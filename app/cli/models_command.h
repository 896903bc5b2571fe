// cli/models_command.h — `rope-lab models`: the model presets (assets/models.json) with their
// values, sources and tags.
//
//   rope-lab models          one block per preset: id, name, tag (V verified, C consistent
//                            copies, U unverified), d, rotary dims and their meaning, base,
//                            context, scaling, pairing, source, and what the preset lacks
//   rope-lab models --ids    the ids only, one per line (for scripts)
// Exit 0; 1 when the models file is missing or broken (its one message on stderr).
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace rope::app {

struct ModelsCommand;
std::shared_ptr<ModelsCommand> add_models_command(CLI::App& root);
int run_models_command(const ModelsCommand& cmd);

}  // namespace rope::app
