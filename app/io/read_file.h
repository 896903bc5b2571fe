// io/read_file.h — the one way RoPE Lab reads a file it is given: sessions, settings, models,
// factor lists, lessons, shaders and fonts.
//
// Only a regular file (or a symbolic link to one) is read, and at most `max_bytes` of it: a FIFO
// named as a font would otherwise block the start for ever, and a shader linked to /dev/zero
// would grow the process without bound (reliability review N1–N3). The file is opened with
// O_NONBLOCK, so a FIFO swapped in between the check and the open cannot block either, and the
// opened descriptor is checked again (fstat) before a byte is read.
//
// Usage:
//   auto text = read_regular_file(path, 4u << 20);
//   if (!text) report(text.error().to_string());  // "PATH: is a pipe (FIFO), not a regular file"
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "rope/conventions.h"

namespace rope::app {

// "1 MiB", "4 MiB", "512 KiB", "100 bytes": a limit as the messages state it.
std::string byte_limit_text(std::size_t bytes);

// The whole file, or an Error whose parameter is the path and whose message says why not: it
// cannot be opened ("cannot be read: " and the system's reason, e.g. "No such file or directory"),
// is not a regular file (which kind it is), or is larger than max_bytes ("is 5 242 880 bytes; at
// most 4 MiB are read"). *missing, when given, is set to whether the path names nothing at all
// (callers that treat a missing file as "use the defaults").
Result<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes,
                                      bool* missing = nullptr);

// What a file was when RoPE Lab last read or wrote it, to tell whether something else has
// written it since (another window saving the same session, a sync client): a save through a
// temporary file and a rename gives a new inode, an edit in place a new time or size.
struct FileStamp {
  bool exists = false;
  unsigned long long device = 0, inode = 0, size = 0;
  long long modified_ns = 0;  // st_mtim, nanoseconds since the epoch
  bool operator==(const FileStamp&) const = default;
};

// The stamp of `path` now (through symbolic links); exists = false when nothing is there.
FileStamp file_stamp(const std::filesystem::path& path);

}  // namespace rope::app
