// The app's side of export/mp4_module.h: finds librope_mp4.so and loads it on first use.
#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <vector>

#include "export/mp4_module.h"

namespace rope::app {
namespace {

namespace fs = std::filesystem;

// Where the module is looked for, in order: beside the binary (the build tree's app/), the
// installed layout (ROPE_MP4_INSTALL_DIR, relative to the binary's folder), and the build tree's
// own copy (tests run from other folders of the build tree).
std::vector<fs::path> module_candidates() {
  std::vector<fs::path> out;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    out.push_back(exe.parent_path() / "librope_mp4.so");
    out.push_back(exe.parent_path() / ROPE_MP4_INSTALL_DIR / "librope_mp4.so");
  }
  out.emplace_back(ROPE_MP4_BUILD_PATH);
  return out;
}

Result<const Mp4Api*> load() {
  std::string tried, why;
  for (const fs::path& p : module_candidates()) {
    std::error_code ec;
    if (!fs::exists(p, ec)) {
      tried += (tried.empty() ? "" : ", ") + p.lexically_normal().string();
      continue;
    }
    // The handle is never closed: the module's code runs until the process ends.
    void* handle = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* e = dlerror();
      why = p.string() + " cannot be loaded: " + (e ? e : "unknown error");
      continue;
    }
    using Entry = const Mp4Api* (*)();
    const auto entry = reinterpret_cast<Entry>(dlsym(handle, kMp4ModuleSymbol));
    const Mp4Api* table = entry ? entry() : nullptr;
    if (!table || table->version != kMp4ApiVersion) {
      why = p.string() + " is not this build's MP4 module (rebuild RoPE Lab)";
      continue;
    }
    return table;
  }
  if (why.empty()) why = "librope_mp4.so was not found (looked for " + tried + ")";
  return Error{"mp4", "MP4 export is not available: " + why};
}

}  // namespace

Result<const Mp4Api*> Mp4Export::api() {
  // Loaded once a process: the module is a fixed part of the installation, not state.
  static const Result<const Mp4Api*> loaded = load();
  return loaded;
}

Mp4Export::Mp4Export(int width, int height, double fps)
    : width_(width), height_(height), fps_(fps) {}

Mp4Export::~Mp4Export() {
  if (writer_) api().value()->destroy(writer_);
}

Status Mp4Export::add(const Image& frame) {
  const auto a = api();
  if (!a) return a.error();
  if (!writer_) writer_ = a.value()->create(width_, height_, fps_);
  return a.value()->add(writer_, frame);
}

Result<std::string> Mp4Export::finish() {
  const auto a = api();
  if (!a) return a.error();
  if (!writer_) return Error{"animation", "has no frames"};
  return a.value()->finish(writer_);
}

const char* Mp4Export::encoder() const {
  return writer_ ? api().value()->encoder(writer_) : "";
}
int Mp4Export::video_width() const {
  return writer_ ? api().value()->video_width(writer_) : width_ + (width_ & 1);
}
int Mp4Export::video_height() const {
  return writer_ ? api().value()->video_height(writer_) : height_ + (height_ & 1);
}

}  // namespace rope::app
