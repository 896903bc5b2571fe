// File ▸ Export picture / animation: the child-process export, end to end — the files it
// writes (size, pixels, frames), cancel, failures — and the dialog drawn headless.
#include <gif_lib.h>
#include <stb_image.h>
#include <catch2/catch.hpp>

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <thread>

#include "io/atomic_file.h"
#include "shell/frame.h"
#include "state/params.h"
#include "ui/theme.h"
#include "ui/ui_context.h"

using namespace rope::app;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("rope-export-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

struct Png {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  std::array<int, 4> at(int x, int y) const {
    const auto i = static_cast<std::size_t>((y * width + x) * 4);
    return {rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]};
  }
};

Png read_png(const fs::path& path) {
  Png png;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &png.width, &png.height, &channels, 4);
  if (data) {
    png.rgba.assign(data, data + static_cast<std::ptrdiff_t>(png.width) * png.height * 4);
    stbi_image_free(data);
  }
  return png;
}

std::array<int, 4> rgba_of(ImU32 c) {
  return {static_cast<int>(c & 0xff), static_cast<int>((c >> 8) & 0xff),
          static_cast<int>((c >> 16) & 0xff), static_cast<int>((c >> 24) & 0xff)};
}

ExportDialog dialog_for_tests() {
  ExportDialog d;
  d.program = ROPE_LAB_BINARY;
  return d;
}

bool leftovers_in(const fs::path& dir, const std::string& name) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("." + name + ".tmp-", 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("export arguments follow the settings and refuse what the commands refuse",
          "[export][dialog]") {
  ExportSettings s;
  s.path = "/tmp/figure.png";
  s.scale = 2;
  s.canvas_only = true;
  s.transparent = true;
  auto args = ExportDialog::arguments(s, "/tmp/s.json", ImVec2(1600, 900));
  REQUIRE(args.ok());
  CHECK(args.value() == std::vector<std::string>{"screenshot", "-o", "/tmp/figure.png", "--session",
                                                 "/tmp/s.json", "--size", "1600x900", "--scale",
                                                 "2", "--canvas-only", "--transparent"});

  s.path = "/tmp/figure.gif";  // a picture must be a PNG
  auto bad = ExportDialog::arguments(s, "s.json", ImVec2(1600, 900));
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error().to_string(), Catch::Contains("must end in .png"));

  s.animation = true;
  s.scale = 4;  // every frame is kept in memory: animations stop at 2x
  CHECK_THAT(ExportDialog::arguments(s, "s.json", ImVec2(800, 600)).error().to_string(),
             Catch::Contains("1x or 2x"));
  s.scale = 1;
  s.from = std::numeric_limits<double>::quiet_NaN();
  CHECK_THAT(ExportDialog::arguments(s, "s.json", ImVec2(800, 600)).error().to_string(),
             Catch::Contains("from"));
  s.from = 0;
  s.fps = 50;
  s.seconds = 30;  // 1501 frames
  CHECK_THAT(ExportDialog::arguments(s, "s.json", ImVec2(800, 600)).error().to_string(),
             Catch::Contains("at most 1000 frames"));
  s.seconds = 1;
  s.mp4 = true;
  s.path = "/tmp/sweep.gif";
  CHECK_THAT(ExportDialog::arguments(s, "s.json", ImVec2(800, 600)).error().to_string(),
             Catch::Contains("must end in .mp4"));
  s.path = "/tmp/sweep.mp4";
  args = ExportDialog::arguments(s, "s.json", ImVec2(800, 600));
  REQUIRE(args.ok());
  CHECK(args.value().front() == "animate");
  CHECK(args.value().back() == "--progress");
}

TEST_CASE("a 2x canvas-only picture is exported at twice the pixels with the canvas colour",
          "[export][dialog][gl]") {
  TempDir dir;
  ExportDialog d = dialog_for_tests();
  AppState state;
  state.params.dim = 8;
  state.params.theme = Theme::light;
  d.settings.path = (dir.path / "figure.png").string();
  d.settings.scale = 2;
  d.settings.canvas_only = true;
  REQUIRE(d.start(state, ImVec2(640, 360)).ok());
  REQUIRE(d.job->wait(120.0) == ExportJob::Status::done);
  CHECK_THAT(d.job->message(), Catch::Contains("1280x720"));
  const Png png = read_png(d.settings.path);
  REQUIRE(png.width == 1280);
  REQUIRE(png.height == 720);
  // no menu bar and no panel: the top-left corner is the light canvas
  CHECK(png.at(2, 2) == rgba_of(palette(Theme::light).canvas));
  CHECK(png.at(1277, 717) == rgba_of(palette(Theme::light).canvas));
  CHECK_FALSE(leftovers_in(dir.path, "figure.png"));
}

TEST_CASE("a transparent picture has a see-through background", "[export][dialog][gl]") {
  TempDir dir;
  ExportDialog d = dialog_for_tests();
  AppState state;
  d.settings.path = (dir.path / "clear.png").string();
  d.settings.canvas_only = true;
  d.settings.transparent = true;
  REQUIRE(d.start(state, ImVec2(320, 240)).ok());
  REQUIRE(d.job->wait(120.0) == ExportJob::Status::done);
  const Png png = read_png(d.settings.path);
  REQUIRE(png.width == 320);
  CHECK(png.at(2, 2)[3] == 0);
}

TEST_CASE("an animation export reports progress and decodes with the requested frames",
          "[export][dialog][gl]") {
  TempDir dir;
  ExportDialog d = dialog_for_tests();
  AppState state;
  state.params.dim = 4;
  d.settings.animation = true;
  d.settings.path = (dir.path / "sweep.gif").string();
  d.settings.from = 0;
  d.settings.to = 6;
  d.settings.fps = 5;
  d.settings.seconds = 2;  // 11 frames
  REQUIRE(d.start(state, ImVec2(320, 200)).ok());
  REQUIRE(d.job->wait(120.0) == ExportJob::Status::done);
  CHECK(d.job->frames_done() == 11);
  CHECK(d.job->frames_total() == 11);
  int error = 0;
  GifFileType* gif = DGifOpenFileName(d.settings.path.c_str(), &error);
  REQUIRE(gif != nullptr);
  REQUIRE(DGifSlurp(gif) == GIF_OK);
  CHECK(gif->ImageCount == 11);
  CHECK(gif->SWidth == 320);
  DGifCloseFile(gif, &error);
}

TEST_CASE("cancelling an animation stops the child and leaves no file behind",
          "[export][dialog][gl]") {
  TempDir dir;
  ExportDialog d = dialog_for_tests();
  AppState state;
  state.params.dim = 64;
  d.settings.animation = true;
  d.settings.path = (dir.path / "long.gif").string();
  d.settings.fps = 50;
  d.settings.seconds = 19;  // 951 frames: far longer than this test waits
  d.settings.scale = 2;
  REQUIRE(d.start(state, ImVec2(1280, 720)).ok());
  for (int i = 0;
       i < 3000 && d.job->poll() == ExportJob::Status::running && d.job->frames_done() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE(d.job->status() == ExportJob::Status::running);
  CHECK(d.job->frames_done() >= 2);
  d.job->cancel();
  CHECK(d.job->status() == ExportJob::Status::cancelled);
  CHECK_THAT(d.job->message(), Catch::Contains("not written"));
  CHECK_FALSE(fs::exists(d.settings.path));
  CHECK_FALSE(leftovers_in(dir.path, "long.gif"));
}

// Issue 33: an export child's crash report (a sanitizer's, many lines) must not be lost in the
// pipe: a child that dies by a signal has its whole stderr kept and passed on to ours.
TEST_CASE("an export child that dies by a signal keeps everything it printed on stderr",
          "[export]") {
  TempDir dir;
  const std::string script =
      "i=0; while [ $i -lt 40 ]; do echo \"report line $i\" >&2; i=$((i + 1)); done; "
      "echo 'stand-in report, last line' >&2; kill -ABRT $$";
  auto job = ExportJob::start("/bin/sh", {"-c", script}, dir.path / "never.png", {});
  REQUIRE(job.ok());
  REQUIRE(job.value()->wait(30.0) == ExportJob::Status::failed);
  const std::string& err = job.value()->child_stderr();
  CHECK_THAT(err, Catch::StartsWith("report line 0\n"));
  CHECK_THAT(err, Catch::Contains("report line 39\nstand-in report, last line\n"));
  CHECK(job.value()->message() == "stand-in report, last line");
}

TEST_CASE("an export into a missing folder fails with the path and keeps the state",
          "[export][dialog][gl]") {
  TempDir dir;
  ExportDialog d = dialog_for_tests();
  AppState state;
  state.params.dim = 8;
  const Params before = state.params;
  d.settings.path = (dir.path / "no" / "such" / "figure.png").string();
  REQUIRE(d.start(state, ImVec2(320, 240)).ok());
  REQUIRE(d.job->wait(120.0) == ExportJob::Status::failed);
  CHECK_THAT(d.job->message(), Catch::Contains("no/such/figure.png"));
  CHECK(state.params.dim == before.dim);
  CHECK(state.params.view == before.view);
}

TEST_CASE("a program that cannot be run is reported, not crashed on", "[export][dialog]") {
  ExportDialog d;
  d.program = "/nonexistent/rope-lab";
  d.settings.path = "/tmp/x.png";
  AppState state;
  auto s = d.start(state, ImVec2(320, 240));
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.error().to_string(), Catch::Contains("/nonexistent/rope-lab"));
}

TEST_CASE("the export dialog draws headless, exports, and reports with a notice",
          "[export][dialog][headless][gl]") {
  TempDir dir;
  UiContext ui(false);
  AppState state;
  Views views;
  views.export_dialog.program = ROPE_LAB_BINARY;
  const auto frame = [&] {
    ui.prepare(1.0f, state.params.theme);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(800, 600);
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw_frame(state, views, ViewEnv{&ui.fonts(), false, 1.0f});
    ImGui::Render();
  };
  state.export_dialog = AppState::ExportDialog::animation;
  frame();
  ExportSettings& s = views.export_dialog.settings;
  CHECK(s.animation);
  CHECK_THAT(s.path, Catch::EndsWith(".gif"));  // a default name in the pictures folder
  s.path = (dir.path / "from-dialog.gif").string();
  s.fps = 2;
  s.seconds = 1;  // 3 frames
  REQUIRE(views.export_dialog.start(state, ImVec2(320, 200)).ok());
  for (int i = 0; i < 6000 && views.export_dialog.job; ++i) {
    frame();  // the dialog polls the child while it draws
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK_FALSE(views.export_dialog.job);
  CHECK(fs::exists(s.path));
  CHECK_THAT(state.notice.text, Catch::Contains("from-dialog.gif"));
  CHECK_FALSE(state.notice.is_error);
  CHECK(state.export_dialog == AppState::ExportDialog::none);  // closed when done
}
