#include "io/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace rope::app {

std::string byte_limit_text(std::size_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

namespace {

std::string os_reason(int err) {
  return std::system_category().message(err);
}

// What a path that is not a regular file is, in the words of `ls -l`'s first letter.
std::string not_regular(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory, not a file";
  if (S_ISFIFO(mode)) return "is a pipe (FIFO), not a regular file";
  if (S_ISCHR(mode)) return "is a character device, not a regular file";
  if (S_ISBLK(mode)) return "is a block device, not a regular file";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  return "is not a regular file";
}

std::string too_large(std::uintmax_t size, std::size_t max_bytes) {
  return "is " + std::to_string(size) + " bytes; at most " + byte_limit_text(max_bytes) +
         " are read";
}

// Closes the descriptor on every path out of read_regular_file.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) (void)::close(fd);
  }
};

}  // namespace

Result<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes,
                                      bool* missing) {
  if (missing) *missing = false;
  const std::string name = path.string();
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT && missing) *missing = true;
    return Error{name, "cannot be read: " + os_reason(err)};
  }
  if (!S_ISREG(st.st_mode)) return Error{name, not_regular(st.st_mode)};
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    return Error{name, too_large(static_cast<std::uintmax_t>(st.st_size), max_bytes)};

  Descriptor d;
  d.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (d.fd < 0) return Error{name, "cannot be read: " + os_reason(errno)};
  struct stat fst {};
  if (::fstat(d.fd, &fst) != 0) return Error{name, "cannot be read: " + os_reason(errno)};
  if (!S_ISREG(fst.st_mode)) return Error{name, not_regular(fst.st_mode)};

  std::string text;
  text.reserve(static_cast<std::size_t>(fst.st_size));
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(d.fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error{name, "cannot be read: " + os_reason(errno)};
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    // A file that grows while it is read (a log, /proc) is held to the same limit.
    if (text.size() > max_bytes) return Error{name, too_large(text.size(), max_bytes)};
  }
  return text;
}

FileStamp file_stamp(const std::filesystem::path& path) {
  FileStamp stamp;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return stamp;
  stamp.exists = true;
  stamp.device = static_cast<unsigned long long>(st.st_dev);
  stamp.inode = static_cast<unsigned long long>(st.st_ino);
  stamp.size = static_cast<unsigned long long>(st.st_size);
  stamp.modified_ns = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL +
                      static_cast<long long>(st.st_mtim.tv_nsec);
  return stamp;
}

}  // namespace rope::app
