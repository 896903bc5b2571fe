#include "io/data_paths.h"

#include <cstdlib>
#include <system_error>

#ifndef ROPE_LAB_SOURCE_DIR
#define ROPE_LAB_SOURCE_DIR "."
#endif

namespace rope::app {
namespace {

std::filesystem::path executable_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

}  // namespace

std::string DataDir::tried_text() const {
  std::string s;
  for (const auto& p : tried)
    s += (s.empty() ? "" : ", ") + p.string();
  return s;
}

DataDir find_data_dir(DataFolder folder) {
  const bool lessons = folder == DataFolder::lessons;
  const char* env_name = lessons ? "ROPE_LAB_LESSONS" : "ROPE_LAB_SHADER_DIR";
  const char* installed = lessons ? "lessons" : "shaders";
  const char* in_tree = lessons ? "assets/lessons" : "shaders";

  DataDir d;
  if (const char* env = std::getenv(env_name); env && *env) {
    d.tried.emplace_back(env);  // an explicit choice is used as given, found or not
    d.path = env;
    return d;
  }
  std::vector<std::filesystem::path> candidates;
  if (const auto bin = executable_dir(); !bin.empty())
    candidates.push_back(bin.parent_path() / "share" / "rope-lab" / installed);
  candidates.push_back(std::filesystem::path(ROPE_LAB_SOURCE_DIR) / in_tree);
  for (const auto& c : candidates) {
    d.tried.push_back(c);
    std::error_code ec;
    if (std::filesystem::is_directory(c, ec)) {
      d.path = c;
      return d;
    }
  }
  return d;
}

DataDir find_models_file() {
  DataDir d;
  if (const char* env = std::getenv("ROPE_LAB_MODELS"); env && *env) {
    d.tried.emplace_back(env);
    d.path = env;
    return d;
  }
  std::vector<std::filesystem::path> candidates;
  if (const auto bin = executable_dir(); !bin.empty())
    candidates.push_back(bin.parent_path() / "share" / "rope-lab" / "models.json");
  candidates.push_back(std::filesystem::path(ROPE_LAB_SOURCE_DIR) / "assets" / "models.json");
  for (const auto& c : candidates) {
    d.tried.push_back(c);
    std::error_code ec;
    if (std::filesystem::is_regular_file(c, ec)) {
      d.path = c;
      return d;
    }
  }
  return d;
}

}  // namespace rope::app
