// io/data_paths.h — where RoPE Lab finds its data folders (lessons, shaders) at run time.
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

}  // namespace rope::app
