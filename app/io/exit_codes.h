// io/exit_codes.h — how rope-lab ends and how it reports an error, shared by every command and
// the window.
//
// Exit codes: 0 success; 2 bad usage or bad input (one line on stderr naming the flag, the
// value and what is allowed); 1 runtime failure (no OpenGL 3.3, a file that cannot be written).
#pragma once

#include <string>

namespace rope::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Prints "rope-lab: error: <message>" as one line on stderr.
void print_error(const std::string& message);

}  // namespace rope::app
