// cli/lessons_command.h — `rope-lab lessons`: list, check and explain lesson files.
//
//   rope-lab lessons                      lists the shipped lessons (id, steps, title)
//   rope-lab lessons --check [FILES...]   checks FILES (default: every shipped lesson); exit 0
//                                         when all are fine, 2 with one line per problem,
//                                         "file:line:col: message", on stderr
//   rope-lab lessons --quantities         the live values and check quantities a lesson can use
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace rope::app {

struct LessonsCommand;
std::shared_ptr<LessonsCommand> add_lessons_command(CLI::App& root);
int run_lessons_command(const LessonsCommand& cmd);

}  // namespace rope::app
