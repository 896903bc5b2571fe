// io/data_paths.h — where RoPE Lab finds its data folders (lessons, shaders) and the model
// presets file at run time.
//
// In order: the folder named by an environment variable (ROPE_LAB_LESSONS, ROPE_LAB_SHADER_DIR);
// the installed copy beside the binary, <bin>/../share/rope-lab/<name>; and the source tree the
// binary was built from. So an installed rope-lab uses its own files, a build-tree rope-lab the
// checkout's, and a missing folder is reported with every place that was tried.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rope::app {

enum class DataFolder { lessons, shaders };

struct DataDir {
  std::filesystem::path path;                // the folder found; empty when none
  std::vector<std::filesystem::path> tried;  // in order, for messages
  bool found() const { return !path.empty(); }
  std::string tried_text() const;  // "a, b, c"
};

DataDir find_data_dir(DataFolder folder);

// The model presets file (state/models.h): ROPE_LAB_MODELS (a file, used as given), else
// <bin>/../share/rope-lab/models.json, else the source tree's assets/models.json. `path` is the
// first regular file found; empty when none (tried lists every place).
DataDir find_models_file();

}  // namespace rope::app
