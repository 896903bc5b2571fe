#include "io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
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

}  // namespace

Error AtomicFile::fail(std::string_view what, int err) {
  discard();
  return Error{target_.string(), std::string(what) + ": " + os_reason(err)};
}

Status AtomicFile::open(const std::filesystem::path& target) {
  discard();
  target_ = target;
  const std::string name = target.filename().string();
  if (name.empty() || name == "." || name == "..")
    return Error{target.string(), "is not a file name"};

  // An existing target: refuse a directory early (rename would fail anyway, after all the
  // writing), and remember the permission bits so that replacing a file keeps them.
  struct stat st {};
  bool keep_mode = false;
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Error{target.string(), "is a directory"};
    keep_mode = S_ISREG(st.st_mode);
  }

  // O_EXCL makes the name ours alone, even with other writers of the same target.
  const std::filesystem::path dir = directory_of(target);
  constexpr int kMaxAttempts = 1000;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    const std::filesystem::path temp = dir / temporary_name(name, ::getpid(), attempt);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      const int err = errno;
      if (err == EEXIST || err == EINTR) continue;
      return fail("cannot create a temporary file in " + dir.string(), err);
    }
    fd_ = fd;
    temp_ = temp;
    if (keep_mode && ::fchmod(fd_, st.st_mode & 07777) != 0)
      return fail("cannot set the permissions of the temporary file", errno);
    return {};
  }
  return fail("cannot create a temporary file in " + dir.string(), EEXIST);
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
  // Data on disk before the name points at it, so a crash cannot leave an empty target.
  if (::fsync(fd_) != 0) return fail("cannot flush to disk", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return fail("cannot write", errno);  // NFS reports late errors here
  if (::rename(temp_.c_str(), target_.c_str()) != 0) return fail("cannot replace the file", errno);
  temp_.clear();
  sync_directory(directory_of(target_));
  return {};
}

void AtomicFile::discard() {
  if (fd_ >= 0) {
    (void)::close(fd_);
    fd_ = -1;
  }
  if (!temp_.empty()) {
    (void)::unlink(temp_.c_str());
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
