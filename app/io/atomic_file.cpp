#include "io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

namespace rope::app {

std::string temporary_name_prefix(const std::string& name, long pid) {
  constexpr std::size_t kMaxStem = 200;
  // Appended piece by piece: gcc 12 reports a false -Wrestrict on "." + std::string.
  std::string temp = ".";
  temp.append(name, 0, kMaxStem);
  temp.append(".tmp-").append(std::to_string(pid)).append("-");
  return temp;
}

namespace {

std::string os_reason(int err) {
  return std::system_category().message(err);
}

// The directory the temporary file goes to: the target's own, so rename() stays atomic.
std::filesystem::path directory_of(const std::filesystem::path& target) {
  std::filesystem::path dir = target.parent_path();
  return dir.empty() ? std::filesystem::path(".") : dir;
}

// ".NAME.tmp-PID-K". NAME is cut so that the whole stays within the usual 255-byte limit of a
// file name even when the target's name is near it.
std::string temporary_name(const std::string& name, long pid, int attempt) {
  return temporary_name_prefix(name, pid) + std::to_string(attempt);
}

// Makes the rename itself durable. Best effort: some file systems refuse fsync on a directory,
// and by now the new file is in place either way.
void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  (void)::close(fd);
}

// [SECTION] temporary files removed on SIGINT / SIGTERM / SIGHUP
//
// A signal handler may only use async-signal-safe calls, so the open temporary files are kept
// in a fixed table of plain char arrays (no allocation, no locks): a slot is claimed with an
// atomic flag, filled, then published. The handler unlinks every published path and re-raises
// the signal with its default action, so the exit status still says "killed by SIGTERM". This
// is process-wide state by nature (one set of signal handlers per process).
constexpr int kSlots = 16;
constexpr std::size_t kPathMax = 4096;
struct Slot {
  std::atomic<int> state{0};  // 0 free, 1 being written, 2 published
  char path[kPathMax];
};
Slot g_slots[kSlots];

void register_temporary(const std::filesystem::path& p) {
  const std::string& s = p.native();
  if (s.size() >= kPathMax) return;
  for (Slot& slot : g_slots) {
    int expected = 0;
    if (!slot.state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(slot.path, s.c_str(), s.size() + 1);
    slot.state.store(2);
    return;
  }
}

void unregister_temporary(const std::filesystem::path& p) {
  for (Slot& slot : g_slots)
    if (slot.state.load() == 2 && p.native() == slot.path) {
      slot.state.store(0);
      return;
    }
}

extern "C" void remove_temporaries_and_reraise(int sig) {
  for (Slot& slot : g_slots)
    if (slot.state.load() == 2) (void)::unlink(slot.path);
  (void)::signal(sig, SIG_DFL);
  (void)::raise(sig);
}

// ".NAME.tmp-PID-K" files beside `target` whose process PID no longer runs: left by a process
// killed without a chance to clean up (SIGKILL, a power cut). Another live writer's are kept.
void remove_stale_temporaries(const std::filesystem::path& target) {
  const std::string prefix = temporary_name_prefix(target.filename().string(), 0);
  const std::string stem = prefix.substr(0, prefix.size() - 2);  // ".NAME.tmp-"
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory_of(target), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.compare(0, stem.size(), stem) != 0) continue;
    const std::string rest = name.substr(stem.size());  // "PID-K"
    const auto dash = rest.find('-');
    if (dash == std::string::npos || dash == 0) continue;
    if (rest.find_first_not_of("0123456789-") != std::string::npos) continue;
    const long pid = std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM) continue;  // still running
    std::error_code rm;
    std::filesystem::remove(entry.path(), rm);
  }
}

}  // namespace

void remove_temporaries_on_signals() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_reraise;
    sigemptyset(&sa.sa_mask);
    (void)::sigaction(sig, &sa, nullptr);
  }
}

Error AtomicFile::fail(std::string_view what, int err) {
  discard();
  return Error{target_.string(), std::string(what) + ": " + os_reason(err)};
}

Status AtomicFile::open(const std::filesystem::path& requested) {
  discard();
  target_ = requested;
  const std::string name = requested.filename().string();
  if (name.empty() || name == "." || name == "..")
    return Error{requested.string(), "is not a file name"};

  // What the path names, through symbolic links (stat follows them).
  struct stat st {};
  bool keep_mode = false;
  if (::stat(requested.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Error{requested.string(), "is a directory"};
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return open_direct(requested);
    if (!S_ISREG(st.st_mode))
      return Error{requested.string(),
                   "is a special file (a block device or a socket); give the path of a regular "
                   "file, a pipe or a character device such as /dev/stdout"};
    keep_mode = true;
  }
  // A symbolic link is written through: its target is replaced atomically and the link stays.
  std::error_code ec;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(requested, ec))) {
    const auto resolved = std::filesystem::weakly_canonical(requested, ec);
    if (ec)
      return Error{requested.string(),
                   "is a symbolic link that cannot be followed: " + ec.message()};
    target_ = resolved;
  }
  remove_stale_temporaries(target_);

  // O_EXCL makes the name ours alone, even with other writers of the same target.
  const std::filesystem::path dir = directory_of(target_);
  const std::string target_name = target_.filename().string();
  constexpr int kMaxAttempts = 1000;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    const std::filesystem::path temp = dir / temporary_name(target_name, ::getpid(), attempt);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      const int err = errno;
      if (err == EEXIST || err == EINTR) continue;
      return fail("cannot create a temporary file in " + dir.string(), err);
    }
    fd_ = fd;
    temp_ = temp;
    register_temporary(temp_);
    if (keep_mode && ::fchmod(fd_, st.st_mode & 07777) != 0)
      return fail("cannot set the permissions of the temporary file", errno);
    return {};
  }
  return fail("cannot create a temporary file in " + dir.string(), EEXIST);
}

// A pipe or a character device (/dev/stdout, /dev/null, a terminal): written in place, since
// renaming a file over it would replace the device node itself. There is no old content to
// protect, so writing directly loses nothing.
Status AtomicFile::open_direct(const std::filesystem::path& target) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return fail("cannot open for writing", errno);
  fd_ = fd;
  direct_ = true;
  return {};
}

Status AtomicFile::write(std::string_view bytes) {
  if (!is_open()) return Error{target_.string(), "cannot write: the file is not open"};
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write", errno);
    }
    if (n == 0) return fail("cannot write", ENOSPC);  // no progress: treat as a full disk
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return {};
}

Status AtomicFile::write(std::span<const std::byte> bytes) {
  return write(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Status AtomicFile::commit() {
  if (!is_open()) return Error{target_.string(), "cannot write: the file is not open"};
  if (direct_) {  // a pipe or device: nothing to rename, and fsync means nothing there
    const int fd = fd_;
    fd_ = -1;
    direct_ = false;
    if (::close(fd) != 0) return fail("cannot write", errno);
    return {};
  }
  // Data on disk before the name points at it, so a crash cannot leave an empty target.
  if (::fsync(fd_) != 0) return fail("cannot flush to disk", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return fail("cannot write", errno);  // NFS reports late errors here
  if (::rename(temp_.c_str(), target_.c_str()) != 0) return fail("cannot replace the file", errno);
  unregister_temporary(temp_);
  temp_.clear();
  sync_directory(directory_of(target_));
  return {};
}

void AtomicFile::discard() {
  if (fd_ >= 0) {
    (void)::close(fd_);
    fd_ = -1;
  }
  direct_ = false;
  if (!temp_.empty()) {
    (void)::unlink(temp_.c_str());
    unregister_temporary(temp_);
    temp_.clear();
  }
}

Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes) {
  AtomicFile file;
  if (auto s = file.open(path); !s) return s;
  if (auto s = file.write(bytes); !s) return s;
  return file.commit();
}

Status write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  return write_file_atomic(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace rope::app
