// export/export_job.h — a picture or animation export running as a child `rope-lab` process.
//
// The in-app export (File ▸ Export picture / animation) does not render in the window's own
// GL context: it saves the current state to a temporary session file and runs
// `rope-lab screenshot|animate --session TMP ...` — the same, tested command-line path —
// as a child process with its own offscreen (EGL) context. So the window keeps drawing at full
// speed in front of the class while a 4x picture or a 1000-frame video renders, Cancel is a
// SIGTERM, and whatever goes wrong in an encoder cannot take the lecture down with it.
//
// The child reports "progress K N" lines on stdout (animate --progress) and its error as one
// "rope-lab: error: ..." line on stderr (io/exit_codes.h); poll() reads both without blocking. The
// output file is written atomically by the child (io/atomic_file.h); a cancelled child's
// temporary file ".NAME.tmp-PID-K" is removed here. POSIX only (posix_spawn, pipes, waitpid).
// A child that dies by a signal, or ends with an exit status rope-lab never uses (a sanitizer's,
// e.g. LeakSanitizer's 23), has everything it printed on stderr copied to this process's stderr:
// a crash report of an export (an ASan abort in a test's export) is never lost in the pipe.
//
// Usage:
//   auto job = ExportJob::start(program, {"screenshot", "-o", path, ...}, path, session_file);
//   if (!job) notice(job.error());
//   each frame: job->poll();  job->progress();  if (job->finished()) ... job->message();
//   job->cancel();   // or let the destructor cancel it
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "rope/conventions.h"

namespace rope::app {

class ExportJob {
 public:
  enum class Status { running, done, failed, cancelled };

  // Runs `program args...`. `output` is the file the child writes (for the cleanup after a
  // cancel); `remove_after` (may be empty) is deleted when the job ends (the session file).
  static Result<std::unique_ptr<ExportJob>> start(const std::string& program,
                                                  const std::vector<std::string>& args,
                                                  std::filesystem::path output,
                                                  std::filesystem::path remove_after);
  ~ExportJob();
  ExportJob(const ExportJob&) = delete;
  ExportJob& operator=(const ExportJob&) = delete;

  // Reads what the child printed and whether it ended; never blocks. Returns status().
  Status poll();
  // Blocks until the child ends (tests; a cap on the wait in seconds). Returns status().
  Status wait(double max_seconds);
  // Stops the child (SIGTERM, then waits for it) and removes its half-written file.
  void cancel();

  Status status() const { return status_; }
  bool finished() const { return status_ != Status::running; }
  // Frames done and to do, from the last "progress K N" line; total is 0 until the first.
  int frames_done() const { return done_; }
  int frames_total() const { return total_; }
  // done: the child's last stdout line ("wrote FILE (...)"); failed: its error, without the
  // "rope-lab: error: " prefix; cancelled: a sentence saying so.
  const std::string& message() const { return message_; }
  const std::filesystem::path& output() const { return output_; }
  // Everything the child printed on stderr so far (its last kStderrKept bytes).
  const std::string& child_stderr() const { return err_all_; }
  static constexpr std::size_t kStderrKept = 256 * 1024;

 private:
  ExportJob() = default;
  void read_pipes();
  void finish(int wait_status);
  void take_lines(std::string& buffer, bool is_stdout, bool flush);

  pid_t pid_ = -1;
  int out_fd_ = -1, err_fd_ = -1;  // read ends of the child's stdout and stderr
  std::string out_buffer_, err_buffer_;
  std::string last_out_, last_err_;
  std::string err_all_;  // the child's stderr, whole (its tail past kStderrKept bytes)
  std::filesystem::path output_, remove_after_;
  Status status_ = Status::running;
  int done_ = 0, total_ = 0;
  std::string message_;
};

// The running program's own executable, for starting export children: "/proc/self/exe".
std::string current_executable();

}  // namespace rope::app
