#include "cli/lessons_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli.h"
#include "cli/state_flags.h"
#include "lessons/lesson.h"
#include "lessons/quantities.h"

namespace rope::app {

struct LessonsCommand {
  bool check = false;
  bool quantities = false;
  std::vector<std::string> files;
};

std::shared_ptr<LessonsCommand> add_lessons_command(CLI::App& root) {
  auto cmd = std::make_shared<LessonsCommand>();
  auto* sub = root.add_subcommand("lessons", "List or check lesson files (assets/lessons)");
  add_bool_flag(*sub, "--check", cmd->check,
                "check lesson files: syntax, parameters, TeX, live values, checks; exit 2 and "
                "one 'file:line:col: message' line per problem on stderr");
  add_bool_flag(*sub, "--quantities", cmd->quantities,
                "list the live values and check quantities lessons can use");
  sub->add_option("files", cmd->files, "lesson files (default: every shipped lesson)");
  sub->footer("Lesson format: assets/lessons/FORMAT.md. Lessons are read from " +
              lessons::lessons_directory() + " (set ROPE_LAB_LESSONS to use another folder).");
  return cmd;
}

int run_lessons_command(const LessonsCommand& cmd) {
  if (cmd.quantities) {
    for (const lessons::QuantityInfo& q : lessons::quantity_table())
      std::printf("%-22s %s\n", q.name, q.help);
    return kExitOk;
  }
  std::vector<std::string> files = cmd.files;
  if (files.empty()) {
    files = lessons::lesson_files(lessons::lessons_directory());
    if (files.empty()) {
      print_error("no lesson files (*.lesson) in " + lessons::lessons_directory());
      return kExitUsage;
    }
  } else if (!cmd.check) {
    print_error("lessons: files are given only with --check");
    return kExitUsage;
  }
  std::size_t problems = 0;
  for (const std::string& f : files) {
    const lessons::LoadedLesson l = lessons::load_lesson_file(f);
    for (const lessons::Problem& p : l.problems)
      std::fprintf(stderr, "%s\n", p.to_string().c_str());
    problems += l.problems.size();
    if (!cmd.check)
      std::printf("%-28s %3zu steps  %s\n", l.lesson.id.c_str(), l.lesson.steps.size(),
                  l.lesson.title.c_str());
  }
  if (cmd.check && problems == 0)
    std::printf("%zu lesson file%s checked, no problems\n", files.size(),
                files.size() == 1 ? "" : "s");
  return problems == 0 ? kExitOk : kExitUsage;
}

}  // namespace rope::app
