// io/exit_codes.h — how rope-lab ends and how it reports an error, shared by every command and
// the window.
//
// Exit codes: 0 success; 2 bad usage or bad input (one line on stderr naming the flag, the
// value and what is allowed); 1 runtime failure (no OpenGL 3.3, a file that cannot be written).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rope::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Prints "rope-lab: error: <message>" as one line on stderr, made readable (below).
void print_error(const std::string& message);

// A message as one readable line: control characters shown as \n, \t, \r or \xHH (a value with
// a newline gave a two-line refusal), and any run of more than kLongRun bytes without a space —
// a pasted or generated value echoed back (100 000 digits gave a 100 KB line) — cut to its first
// kShownBytes bytes, at a UTF-8 character boundary, followed by how long it was.
inline constexpr std::size_t kLongRun = 200;
inline constexpr std::size_t kShownBytes = 60;
std::string readable_message(std::string_view message);

}  // namespace rope::app
