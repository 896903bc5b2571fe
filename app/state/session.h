// state/session.h — the complete state as a versioned JSON file.
//
//   {"format": "rope-lab-session", "version": 1,
//    "params": {"view": "pointers", "dim": 16, "base": 10000, "playing": false, ...},
//    "ink": {"pointers": [{"kind": "pen", "colour": "red", "points": [1200, 3400, ...]}]}}
//
// Every key of "params" is a parameter name of state/params.h and goes through the same
// set_param as flags and lesson steps, so a session is judged by the same rules. "ink" (version
// 2, written only when there is some) holds the pen strokes per page (state/ink.h). Loading is
// all-or-nothing: any problem (not JSON, wrong format or types, an unknown key, a newer
// version, a value out of range) leaves the given Params untouched and names the problem.
#pragma once

#include <filesystem>
#include <string>

#include "rope/conventions.h"
#include "state/app_state.h"

namespace rope::app {

inline constexpr int kSessionVersion = 2;  // 2: "ink" (state/ink.h) beside "params"

std::string session_to_json(const Params& params);
Status session_from_json(std::string_view text, Params& params);

// File versions; saving is atomic (temporary file, then rename). Error.parameter is the path.
Status save_session(const std::filesystem::path& path, const Params& params);
Status load_session(const std::filesystem::path& path, Params& params);

}  // namespace rope::app
