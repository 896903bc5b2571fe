#include "cli/lessons_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "cli/cli.h"
#include "cli/state_flags.h"
#include "lessons/lesson.h"
#include "lessons/quantities.h"
#include "state/params.h"

namespace rope::app {

struct LessonsCommand {
  bool check = false;
  bool quantities = false;
  bool folders = false;
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
  add_bool_flag(*sub, "--folders", cmd->folders,
                "print the folders lessons are read from in this run, shipped then yours, one "
                "per line");
  sub->add_option("files", cmd->files, "lesson files (default: every lesson listed)");
  add_lessons_dir_flag(*sub);
  // The same words wherever the program runs: the manual page is written from this text.
  sub->footer(
      "Lesson format: FORMAT.md beside the shipped lessons. The shipped lessons are in "
      "share/rope-lab/lessons beside the program ($ROPE_LAB_LESSONS names another folder); "
      "yours in $XDG_DATA_HOME/rope-lab/lessons (~/.local/share/rope-lab/lessons) and in "
      "--lessons-dir DIR, listed after them; one of yours with a shipped lesson's file name "
      "replaces it. --folders prints the folders of this run.");
  return cmd;
}

void add_lessons_dir_flag(CLI::App& app) {
  app.add_option_function<std::string>(
         "--lessons-dir",
         [](const std::string& dir) {
           std::error_code ec;
           if (dir.empty() || !std::filesystem::is_directory(dir, ec))
             throw CLI::ValidationError("--lessons-dir",
                                        quote_for_message(dir) +
                                            " is not a folder; give the folder that holds your "
                                            ".lesson files");
           ::setenv("ROPE_LAB_OWN_LESSONS", std::filesystem::absolute(dir, ec).c_str(), 1);
         },
         "a folder of your own .lesson files, offered after the shipped lessons (besides "
         "$XDG_DATA_HOME/rope-lab/lessons); one with a shipped lesson's file name replaces it")
      ->type_name("DIR");
}

int run_lessons_command(const LessonsCommand& cmd) {
  if (cmd.folders) {
    std::printf("shipped  %s\n", lessons::lessons_directory().c_str());
    for (const std::string& dir : lessons::own_lesson_directories()) {
      std::error_code ec;
      std::printf("yours    %s%s\n", dir.c_str(),
                  std::filesystem::is_directory(dir, ec) ? "" : "  (no such folder yet)");
    }
    return kExitOk;
  }
  if (cmd.quantities) {
    for (const lessons::QuantityInfo& q : lessons::quantity_table())
      std::printf("%-22s %s\n", q.name, q.help);
    return kExitOk;
  }
  std::vector<lessons::LessonFile> files;
  if (cmd.files.empty()) {
    files = lessons::all_lesson_files(lessons::lessons_directory());
    if (files.empty()) {
      print_error("no lesson files (*.lesson) in " + lessons::lessons_directory());
      return kExitUsage;
    }
  } else if (!cmd.check) {
    print_error("lessons: files are given only with --check");
    return kExitUsage;
  } else {
    for (const std::string& f : cmd.files)
      files.push_back({f, false, false});
  }
  std::size_t problems = 0;
  for (const lessons::LessonFile& f : files) {
    const lessons::LoadedLesson l = lessons::load_lesson_file(f.path);
    for (const lessons::Problem& p : l.problems)
      std::fprintf(stderr, "%s\n", p.to_string().c_str());
    problems += l.problems.size();
    if (!cmd.check) {
      // yours: where it is, and whether it stands in for a shipped lesson
      const std::string origin = !f.own ? std::string()
                                 : f.replaces
                                     ? "  (yours, in place of the shipped one: " + f.path + ")"
                                     : "  (yours: " + f.path + ")";
      const std::size_t steps = l.lesson.steps.size();
      std::printf("%-28s %3zu %-5s  %s%s\n", l.lesson.id.c_str(), steps,
                  steps == 1 ? "step" : "steps", l.lesson.title.c_str(), origin.c_str());
    }
  }
  if (cmd.check && problems == 0)
    std::printf("%zu lesson file%s checked, no problems\n", files.size(),
                files.size() == 1 ? "" : "s");
  return problems == 0 ? kExitOk : kExitUsage;
}

}  // namespace rope::app
