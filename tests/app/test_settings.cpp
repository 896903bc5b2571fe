// Settings: a settings file can never stop the app, a file it cannot understand is kept (set
// aside whole), and a file it could not read, or one from a newer version, is never overwritten.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "state/settings.h"

using namespace rope::app;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char pattern[] = "/tmp/rope-settings-XXXXXX";
    path = ::mkdtemp(pattern);
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
};

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const char* kGood = R"({"format": "rope-lab-settings", "version": 1,
  "window": {"width": 1400, "height": 800}, "theme": "light", "ui_scale": 1.5,
  "recent_sessions": ["/a.json", "/b.json"]})";

}  // namespace

TEST_CASE("settings: a valid file is read whole", "[settings]") {
  TempDir dir;
  const fs::path file = dir.path / "settings.json";
  write(file, kGood);
  const SettingsLoad l = load_settings(file);
  CHECK(l.notice.empty());
  CHECK(l.may_save);
  CHECK(l.settings.window_width == 1400);
  CHECK(l.settings.window_height == 800);
  CHECK(l.settings.theme == Theme::light);
  CHECK(l.settings.ui_scale == 1.5);
  CHECK(l.settings.recent_sessions == std::vector<std::string>{"/a.json", "/b.json"});
}

TEST_CASE("settings: a missing file gives the defaults, silently", "[settings]") {
  TempDir dir;
  const SettingsLoad l = load_settings(dir.path / "nothing.json");
  CHECK(l.notice.empty());
  CHECK(l.may_save);
  CHECK(l.settings.window_width == 0);
  CHECK(l.settings.theme == Theme::dark);
}

TEST_CASE("settings: a file of the wrong shape is set aside whole, never fatal", "[settings]") {
  const auto [text, reason] = GENERATE(table<std::string, std::string>({
      {R"({"format": 1})", "format"},
      {R"({"format": "rope-lab-settings", "version": 1, "window": {"width": "wide", "height": 9}})",
       "window size"},
      {R"({"format": "rope-lab-settings", "version": 1, "window": {"width": 1e30, "height": 800}})",
       "window size"},
      {R"({"format": "rope-lab-settings", "version": "1"})", "version"},
      {R"({"format": "rope-lab-settings", "version": 1, "theme": 3})", "theme"},
      {R"({"format": "rope-lab-settings", "version": 1, "ui_scale": "big"})", "ui_scale"},
      {R"({"format": "rope-lab-settings", "version": 1, "recent_sessions": [1, 2]})",
       "recent_sessions"},
      {R"({"format": "rope-lab-settings", "vers)", "JSON"},
      {R"([1, 2, 3])", "object"},
  }));
  TempDir dir;
  const fs::path file = dir.path / "settings.json";
  write(file, text);
  const SettingsLoad l = load_settings(file);
  INFO(l.notice);
  CHECK(l.may_save);  // the broken file is out of the way: the exit may write a fresh one
  CHECK(l.notice.find(reason) != std::string::npos);
  CHECK(l.notice.find(file.string()) != std::string::npos);
  CHECK(l.settings.window_width == 0);  // nothing of a broken file is trusted
  CHECK_FALSE(fs::exists(file));
  const fs::path aside = dir.path / "settings.json.broken-1";
  CHECK(l.notice.find(aside.string()) != std::string::npos);
  CHECK(read(aside) == text);  // kept byte for byte
  // a second broken file does not overwrite the first one set aside
  write(file, text);
  (void)load_settings(file);
  CHECK(read(dir.path / "settings.json.broken-2") == text);
}

TEST_CASE("settings: a newer version's file is left alone and not overwritten", "[settings]") {
  TempDir dir;
  const fs::path file = dir.path / "settings.json";
  const std::string text = R"({"format": "rope-lab-settings", "version": 7, "x": []})";
  write(file, text);
  const SettingsLoad l = load_settings(file);
  CHECK_FALSE(l.may_save);
  CHECK(l.notice.find("newer") != std::string::npos);
  CHECK(read(file) == text);
}

TEST_CASE("settings: special files and huge files are not read and not replaced", "[settings]") {
  TempDir dir;
  SECTION("a FIFO does not block the start") {
    const fs::path fifo = dir.path / "settings.json";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const SettingsLoad l = load_settings(fifo);
    CHECK_FALSE(l.may_save);
    CHECK(l.notice.find("not a regular file") != std::string::npos);
    CHECK(fs::is_fifo(fifo));
  }
  SECTION("a link to /dev/zero does not exhaust memory") {
    const fs::path link = dir.path / "settings.json";
    fs::create_symlink("/dev/zero", link);
    const SettingsLoad l = load_settings(link);
    CHECK_FALSE(l.may_save);
    CHECK(fs::is_symlink(link));
  }
  SECTION("a directory") {
    fs::create_directory(dir.path / "settings.json");
    CHECK_FALSE(load_settings(dir.path / "settings.json").may_save);
  }
  SECTION("more than the size limit") {
    const fs::path file = dir.path / "settings.json";
    write(file, std::string(kMaxSettingsBytes + 1, ' '));
    const SettingsLoad l = load_settings(file);
    CHECK_FALSE(l.may_save);
    CHECK(fs::file_size(file) == kMaxSettingsBytes + 1);
  }
}

TEST_CASE("settings: an unreadable file is never replaced by the defaults", "[settings]") {
  if (::geteuid() == 0) {
    // root reads a mode-000 file anyway; the window test (settings_test.sh) runs this case as
    // an unprivileged user.
    SUCCEED("running as root: covered by settings_test.sh");
    return;
  }
  TempDir dir;
  const fs::path file = dir.path / "settings.json";
  write(file, kGood);
  fs::permissions(file, fs::perms::none);
  const SettingsLoad l = load_settings(file);
  CHECK_FALSE(l.may_save);
  CHECK(l.notice.find("cannot be read") != std::string::npos);
}

TEST_CASE("settings: a symbolic link is read and written through", "[settings]") {
  TempDir dir;
  const fs::path target = dir.path / "real-settings.json";
  const fs::path link = dir.path / "settings.json";
  write(target, kGood);
  fs::create_symlink(target, link);
  SettingsLoad l = load_settings(link);
  REQUIRE(l.notice.empty());
  CHECK(l.settings.theme == Theme::light);
  l.settings.theme = Theme::dark;
  REQUIRE(save_settings(link, l.settings));
  CHECK(fs::is_symlink(link));
  CHECK(read(target).find("\"theme\": \"dark\"") != std::string::npos);
}
