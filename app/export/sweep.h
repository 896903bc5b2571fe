// export/sweep.h — the limits of an animated sweep of the position m, one place for both ways
// to make one: `rope-lab animate` (cli/animate_command.cpp) and File ▸ Export animation
// (shell/export_dialog.cpp), which checks them before it starts the command.
#pragma once

#include <cmath>

namespace rope::app {

inline constexpr double kSweepMinFps = 1.0, kSweepMaxFps = 50.0;  // frames per second
inline constexpr double kSweepMinSeconds = 0.5, kSweepMaxSeconds = 60.0;
// Every frame of a GIF is kept in memory until the file is written.
inline constexpr int kSweepMaxFrames = 1000;

// Frames of a sweep `seconds` long at `fps`: both ends included.
inline int sweep_frames(double seconds, double fps) {
  return static_cast<int>(std::lround(seconds * fps)) + 1;
}

}  // namespace rope::app
