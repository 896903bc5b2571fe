// export/screenshot_path.h — where the app's screenshots go and what they are called.
#pragma once

#include <filesystem>
#include <string>

#include "state/app_state.h"

namespace rope::app {

// The XDG pictures folder (XDG_PICTURES_DIR from the environment or user-dirs.dirs) with a
// "RoPE Lab" subfolder, created if needed; the working directory when that fails.
std::filesystem::path screenshot_folder();

// "rope-lab_pointers_d16_base10000_m3_n7_2026-11-22_14-05-09.png": view, parameters, local time.
std::string screenshot_name(const Params& params);

}  // namespace rope::app
