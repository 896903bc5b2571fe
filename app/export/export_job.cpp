#include "export/export_job.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <thread>
#include <tuple>

#include "io/atomic_file.h"
#include "io/exit_codes.h"

extern char** environ;  // POSIX: the environment handed on to the child

namespace rope::app {
namespace {

constexpr std::string_view kErrorPrefix = "rope-lab: error: ";

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Removes the child's temporary output (io/atomic_file.h's naming) after the child was killed
// before it could rename or discard it.
void remove_temporaries(const std::filesystem::path& output, pid_t pid) {
  std::error_code ec;
  const std::filesystem::path dir =
      output.parent_path().empty() ? std::filesystem::path(".") : output.parent_path();
  const std::string prefix = temporary_name_prefix(output.filename().string(), pid);
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0) std::filesystem::remove(entry.path(), ec);
  }
}

}  // namespace

std::string current_executable() {
  // The link itself, not its target: exec through it starts this very binary even when a
  // rebuild or an upgrade replaced the file on disk meanwhile (the target then reads
  // "... (deleted)" and cannot be run by name).
  return "/proc/self/exe";
}

Result<std::unique_ptr<ExportJob>> ExportJob::start(const std::string& program,
                                                    const std::vector<std::string>& args,
                                                    std::filesystem::path output,
                                                    std::filesystem::path remove_after) {
  int out[2] = {-1, -1}, err[2] = {-1, -1};
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    const std::string reason = std::strerror(errno);
    for (int fd : {out[0], out[1], err[0], err[1]})
      if (fd >= 0) ::close(fd);
    return Error{"export", "cannot start the export process: " + reason};
  }
  std::vector<std::string> storage;
  storage.reserve(args.size() + 1);
  storage.emplace_back("rope-lab");  // argv[0]: the name the child's messages use
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : storage)
    argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);  // dup2 clears CLOEXEC
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(out[0]);
    ::close(err[0]);
    return Error{"export", "cannot run " + program + ": " + std::strerror(rc)};
  }
  std::unique_ptr<ExportJob> job(new ExportJob());
  job->pid_ = pid;
  job->out_fd_ = out[0];
  job->err_fd_ = err[0];
  ::fcntl(job->out_fd_, F_SETFL, ::fcntl(job->out_fd_, F_GETFL) | O_NONBLOCK);
  ::fcntl(job->err_fd_, F_SETFL, ::fcntl(job->err_fd_, F_GETFL) | O_NONBLOCK);
  job->output_ = std::move(output);
  job->remove_after_ = std::move(remove_after);
  return job;
}

ExportJob::~ExportJob() {
  if (status_ == Status::running) cancel();
  close_fd(out_fd_);
  close_fd(err_fd_);
}

void ExportJob::take_lines(std::string& buffer, bool is_stdout, bool flush) {
  std::size_t start = 0;
  for (std::size_t nl; (nl = buffer.find('\n', start)) != std::string::npos; start = nl + 1) {
    std::string line = buffer.substr(start, nl - start);
    if (is_stdout) {
      int k = 0, n = 0;
      if (std::sscanf(line.c_str(), "progress %d %d", &k, &n) == 2 && n > 0) {
        done_ = k;
        total_ = n;
      } else if (!line.empty()) {
        last_out_ = std::move(line);
      }
    } else if (!line.empty()) {
      last_err_ = std::move(line);
    }
  }
  buffer.erase(0, start);
  if (flush && !buffer.empty()) {
    (is_stdout ? last_out_ : last_err_) = buffer;
    buffer.clear();
  }
}

void ExportJob::read_pipes() {
  char chunk[4096];
  for (auto [fd, buffer, is_out] :
       {std::tuple{&out_fd_, &out_buffer_, true}, std::tuple{&err_fd_, &err_buffer_, false}}) {
    while (*fd >= 0) {
      const ssize_t n = ::read(*fd, chunk, sizeof chunk);
      if (n > 0) {
        buffer->append(chunk, static_cast<std::size_t>(n));
        if (!is_out) {
          err_all_.append(chunk, static_cast<std::size_t>(n));
          if (err_all_.size() > kStderrKept) err_all_.erase(0, err_all_.size() - kStderrKept);
        }
        continue;
      }
      if (n == 0) close_fd(*fd);  // the child closed it (it ended)
      if (n < 0 && errno == EINTR) continue;
      break;  // EAGAIN: nothing more for now
    }
    take_lines(*buffer, is_out, *fd < 0);
  }
}

void ExportJob::finish(int wait_status) {
  read_pipes();
  pid_ = -1;
  std::error_code ec;
  if (!remove_after_.empty()) std::filesystem::remove(remove_after_, ec);
  if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0) {
    status_ = Status::done;
    message_ = last_out_;
    return;
  }
  status_ = Status::failed;
  const bool crashed = WIFSIGNALED(wait_status) ||
                       (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) != kExitFailure &&
                        WEXITSTATUS(wait_status) != kExitUsage);
  if (crashed) {  // what it printed may be a sanitizer's report: passed on whole
    std::fprintf(stderr, "rope-lab: warning: the export process %s %d; its stderr:\n%s%s",
                 WIFSIGNALED(wait_status) ? "stopped on signal" : "exited with status",
                 WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : WEXITSTATUS(wait_status),
                 err_all_.c_str(), err_all_.empty() || err_all_.back() == '\n' ? "" : "\n");
    std::fflush(stderr);
  }
  message_ = last_err_;
  if (message_.rfind(kErrorPrefix, 0) == 0) message_.erase(0, kErrorPrefix.size());
  if (message_.empty())
    message_ = WIFSIGNALED(wait_status)
                   ? "the export process stopped on signal " + std::to_string(WTERMSIG(wait_status))
                   : "the export process failed with exit code " +
                         std::to_string(WEXITSTATUS(wait_status));
}

ExportJob::Status ExportJob::poll() {
  if (status_ != Status::running) return status_;
  read_pipes();
  int ws = 0;
  const pid_t r = ::waitpid(pid_, &ws, WNOHANG);
  if (r == pid_) {
    finish(ws);
  } else if (r < 0 && errno != EINTR) {
    status_ = Status::failed;
    message_ = std::string("lost the export process: ") + std::strerror(errno);
    pid_ = -1;
  }
  return status_;
}

ExportJob::Status ExportJob::wait(double max_seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(max_seconds);
  while (poll() == Status::running && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return status_;
}

void ExportJob::cancel() {
  if (status_ != Status::running || pid_ < 0) return;
  ::kill(pid_, SIGTERM);
  int ws = 0;
  while (::waitpid(pid_, &ws, 0) < 0 && errno == EINTR) {
  }
  remove_temporaries(output_, pid_);
  pid_ = -1;
  read_pipes();
  std::error_code ec;
  if (!remove_after_.empty()) std::filesystem::remove(remove_after_, ec);
  status_ = Status::cancelled;
  message_ = "Export cancelled; " + output_.string() + " was not written.";
}

}  // namespace rope::app
