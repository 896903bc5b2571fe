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
// cannot be opened ("cannot be read: " and the system's reason, e.g. "No such file or directory"), is not a regular file (which kind it
// is), or is larger than max_bytes ("is 5 242 880 bytes; at most 4 MiB are read"). *missing, when
// given, is set to whether the path names nothing at all (callers that treat a missing file as
// "use the defaults").
Result<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes,
                                      bool* missing = nullptr);

}  // namespace rope::app
