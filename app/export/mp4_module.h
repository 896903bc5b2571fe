// export/mp4_module.h — the seam between the app and its MP4 encoder (export/mp4.h), which is
// built as a module of its own, librope_mp4.so, and loaded only when a video is exported.
//
// Why: FFmpeg's libraries bring about 60 shared libraries with them (codecs, network, image
// libraries). Linked into the app, the dynamic loader mapped and relocated all of them at every
// start — measured on 2026-11-25: `rope-lab --version` took 0.13 s with them; loading the four
// FFmpeg libraries alone costs 0.07 to 0.08 s. A window, a screenshot or a CSV export never
// needs them; `rope-lab animate -o x.mp4` (and the window's export, which runs it) loads the
// module on its first frame.
//
// The module exports one C function returning a table of functions over Mp4Writer. Both sides
// are compiled by the same build with the same compiler, so C++ types cross it; `version`
// refuses a module left over from another build.
//
// Usage (in the app): Mp4Export video(w, h, fps); video.add(image); video.finish();
#pragma once

#include <memory>
#include <string>

#include "export/png.h"
#include "rope/conventions.h"

namespace rope::app {

class Mp4Writer;

inline constexpr int kMp4ApiVersion = 1;
inline constexpr const char* kMp4ModuleSymbol = "rope_mp4_api";

struct Mp4Api {
  int version = 0;  // kMp4ApiVersion
  Mp4Writer* (*create)(int width, int height, double fps);
  void (*destroy)(Mp4Writer* writer);
  Status (*add)(Mp4Writer* writer, const Image& frame);
  Result<std::string> (*finish)(Mp4Writer* writer);
  const char* (*encoder)(const Mp4Writer* writer);
  int (*video_width)(const Mp4Writer* writer);
  int (*video_height)(const Mp4Writer* writer);
  const char* (*encoder_name)();
};

// An MP4 video through the module: Mp4Writer's interface (export/mp4.h) for the app. Every call
// is an Error naming the module and where it was looked for when it cannot be loaded.
class Mp4Export {
 public:
  Mp4Export(int width, int height, double fps);
  ~Mp4Export();
  Mp4Export(const Mp4Export&) = delete;
  Mp4Export& operator=(const Mp4Export&) = delete;

  Status add(const Image& frame);
  Result<std::string> finish();
  const char* encoder() const;
  int video_width() const;
  int video_height() const;

  // The loaded module's table, or an Error saying why there is none (loaded once a process).
  static Result<const Mp4Api*> api();

 private:
  int width_, height_;
  double fps_;
  Mp4Writer* writer_ = nullptr;  // made by the module on the first add()
};

}  // namespace rope::app
