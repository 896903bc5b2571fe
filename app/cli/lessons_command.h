// cli/lessons_command.h — `rope-lab lessons`: list, check and explain lesson files.
//
//   rope-lab lessons                      lists the lessons (id, steps, title): the shipped ones,
//                                         then the lecturer's own (lessons/lesson.h,
//                                         all_lesson_files), each marked
//   rope-lab lessons --check [FILES...]   checks FILES (default: every lesson listed); exit 0
//                                         when all are fine, 2 with one line per problem,
//                                         "file:line:col: message", on stderr
//   rope-lab lessons --quantities         the live values and check quantities a lesson can use
//   rope-lab lessons --folders            the folders this run reads lessons from
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace rope::app {

struct LessonsCommand;
std::shared_ptr<LessonsCommand> add_lessons_command(CLI::App& root);
int run_lessons_command(const LessonsCommand& cmd);

// `--lessons-dir DIR`: the lecturer's own lessons from DIR too (after those of
// $XDG_DATA_HOME/rope-lab/lessons). Refuses a DIR that is not a folder as it is parsed. It sets
// ROPE_LAB_OWN_LESSONS, which own_lesson_directories() reads: so every lesson library of the
// run, and the window's export children, which run this program again, see the same lessons.
void add_lessons_dir_flag(CLI::App& app);

}  // namespace rope::app
