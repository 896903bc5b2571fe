// io/atomic_file.h — write a file so that the path holds either the old file or the whole
// new one, never a half-written mix.
//
// The bytes go to a temporary file beside the target, named ".NAME.tmp-PID-K" (same directory,
// so the final rename cannot cross file systems and is atomic). commit() fsyncs it and renames
// it over the target. Any failure — missing or read-only directory, full disk, a directory in
// the way — removes the temporary file, leaves an existing target untouched, and returns an
// Error whose parameter is the target path and whose message says what failed and why (the
// operating system's reason, e.g. "No space left on device").
//
// An existing target keeps its permission bits; a new file gets 0666 minus the umask, as any
// created file does. A write-protected target (no write permission bit at all, or none this
// user holds) is refused unless WriteOptions::force, as `cp` and shell redirection refuse it.
// A symbolic link is written through: the file it ends at is replaced — or created, when the
// link dangles — and the link stays a link. The path "-" is standard output. A pipe or a
// character device (/dev/null, a terminal) is written in place, never replaced by a regular
// file; a pipe no process reads is refused at once (it would block for ever); a block device or
// a socket is refused. Temporary files of processes that no longer run (same name pattern) are
// removed when a target is opened, and remove_temporaries_on_signals() makes SIGINT / SIGTERM /
// SIGHUP remove the process's own before it ends; it also ignores SIGPIPE, so a reader that
// closes a pipe early gives a message ("the reader closed the pipe before the end") instead of
// a silent death.
// POSIX only (open/fsync/rename), which is what RoPE Lab targets.
//
// Usage:
//   if (auto s = write_file_atomic("figure.png", bytes); !s) report(s.error().to_string());
//
//   // Streaming, when the content is too large to hold in memory:
//   AtomicFile f;
//   Status s = f.open(path);
//   while (s && more) s = f.write(next_chunk());
//   if (s) s = f.commit();  // without commit() the destructor discards the temporary file
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "rope/conventions.h"

namespace rope::app {

// ".NAME.tmp-PID-": how the temporary files of process PID for target file name NAME begin
// (NAME cut to 200 bytes so the whole stays within the usual 255-byte name limit). Whoever
// kills a writing process removes its leftovers by this prefix (export/export_job.h).
std::string temporary_name_prefix(const std::string& name, long pid);

// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove every temporary file this process
// has open, then end the process by the same signal, and ignores SIGPIPE (writes to a closed
// pipe then fail with a message). The command-line entry calls it once.
void remove_temporaries_on_signals();

// How a write may treat the target.
struct WriteOptions {
  bool force = false;  // replace a write-protected file (the command line's --force)
};

class AtomicFile {
 public:
  AtomicFile() = default;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile() { discard(); }

  // Creates the temporary file for `target`. A file opened before is discarded first.
  Status open(const std::filesystem::path& target, WriteOptions options = {});
  // Appends bytes. After an error the temporary file is already gone; later calls fail too.
  Status write(std::string_view bytes);
  Status write(std::span<const std::byte> bytes);
  // Flushes to disk and renames over the target. The AtomicFile is closed afterwards.
  Status commit();
  // Closes and removes the temporary file; the target is untouched. Safe to call at any time.
  void discard();

  bool is_open() const { return fd_ >= 0; }
  const std::filesystem::path& target() const { return target_; }
  const std::filesystem::path& temporary_path() const { return temp_; }  // empty when closed

 private:
  Error fail(std::string_view what, int err);  // discards, then describes the failure
  Status open_direct(const std::filesystem::path& target);
  Status open_stdout();

  std::filesystem::path target_;
  std::filesystem::path temp_;
  int fd_ = -1;          // POSIX descriptor of temp_ (or of the device), -1 when closed
  bool direct_ = false;  // writing in place to stdout, a pipe or a device: no temp_, no rename
};

// Everything AtomicFile::open would refuse, without creating anything: a path that is not a file
// name, a directory, a block device or socket, a write-protected file (without force), a
// dangling link loop, a folder that does not exist. The command line asks before it renders, so
// that a 4K animation is not computed for a target that cannot take it. (A pipe with no reader
// is found only by opening it, which a reader would see as the end of its input.)
Status check_target(const std::filesystem::path& path, WriteOptions options = {});

// The whole of `bytes` to `path`, atomically (see above).
Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes,
                         WriteOptions options = {});
Status write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes,
                         WriteOptions options = {});

}  // namespace rope::app
