// export/gif.h — an animated GIF from RGBA frames (giflib, from Debian's libgif).
//
// Frames are encoded as they come (one frame's pixels in memory at a time, plus the compressed
// file so far), so a long sweep at 4K costs its output size, not frames x pixels.
// Each frame gets its own 256-colour palette (giflib's median-cut GifQuantizeBuffer), so
// colour maps and gradients survive (median cut works on 5 bits per channel, so a colour may
// come back up to 7 levels off); the animation loops forever.
//
// Usage:
//   GifWriter gif(width, height, /*delay_cs=*/5);
//   for (...) if (auto s = gif.add(image); !s) fail(s);
//   auto bytes = gif.finish();   // then write_file_atomic(path, bytes.value())
#pragma once

#include <string>
#include <vector>

#include "export/png.h"
#include "rope/conventions.h"

namespace rope::app {

class GifWriter {
 public:
  // delay_cs: time each frame is shown, in hundredths of a second (GIF's unit), >= 2.
  GifWriter(int width, int height, int delay_cs);
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;
  Status add(const Image& frame);  // frame must be width x height
  Result<std::string> finish();    // the encoded file; the writer is spent afterwards
  int frames() const { return frames_; }

 private:
  Status open();
  Error fail(const char* what);
  void close();

  int width_, height_, delay_cs_;
  void* gif_ = nullptr;  // giflib's GifFileType, open from the first frame to finish()
  std::string out_;      // the file's bytes so far
  int frames_ = 0;
  bool spent_ = false;  // finished, or failed
};

}  // namespace rope::app
