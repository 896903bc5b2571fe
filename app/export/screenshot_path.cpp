#include "export/screenshot_path.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>

#include "io/number_format.h"
#include "io/read_file.h"
#include "state/params.h"

namespace rope::app {
namespace {

// Expands a leading $HOME in a user-dirs.dirs value.
std::string expand_home(std::string value, const std::string& home) {
  const std::string kHome = "$HOME";
  if (value.rfind(kHome, 0) == 0) value = home + value.substr(kHome.size());
  return value;
}

std::filesystem::path xdg_pictures() {
  const char* home_env = std::getenv("HOME");
  const std::string home = home_env ? home_env : "";
  if (const char* env = std::getenv("XDG_PICTURES_DIR"); env && *env) return env;
  const char* config_env = std::getenv("XDG_CONFIG_HOME");
  std::filesystem::path config = config_env && *config_env
                                     ? std::filesystem::path(config_env)
                                     : std::filesystem::path(home) / ".config";
  // xdg-user-dirs writes a few hundred bytes; read through the checked reader, so that a FIFO
  // in its place cannot hang F12 (an unreadable file is as good as none: ~/Pictures).
  auto text = read_regular_file(config / "user-dirs.dirs", 64u << 10);
  std::istringstream in(text ? text.value() : std::string());
  std::string line;
  const std::string kKey = "XDG_PICTURES_DIR=";
  while (std::getline(in, line)) {
    if (line.rfind(kKey, 0) != 0) continue;
    std::string v = line.substr(kKey.size());
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    return expand_home(v, home);
  }
  if (!home.empty()) return std::filesystem::path(home) / "Pictures";
  return {};
}

}  // namespace

std::filesystem::path screenshot_folder() {
  std::error_code ec;
  const std::filesystem::path pictures = xdg_pictures();
  if (!pictures.empty()) {
    const auto folder = pictures / "RoPE Lab";
    std::filesystem::create_directories(folder, ec);
    if (!ec && std::filesystem::is_directory(folder, ec)) return folder;
  }
  auto cwd = std::filesystem::current_path(ec);
  return ec ? std::filesystem::path(".") : cwd;
}

std::string screenshot_name(const Params& p) {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d_%H-%M-%S", &local);
  const auto short_number = [](double v) {  // a name, not a record: 6 digits are plenty
    return format_number(v, NumberStyle::plain, 6);
  };
  return std::string("rope-lab_") + view_name(p.view) + "_d" + std::to_string(p.dim) + "_base" +
         short_number(p.base) + "_m" + short_number(p.position) + "_n" +
         short_number(p.key_position) + "_" + stamp + ".png";
}

}  // namespace rope::app
