// export/gif.h — an animated GIF from RGBA frames (giflib, from Debian's libgif).
//
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
  Status add(const Image& frame);  // frame must be width x height
  Result<std::string> finish();    // the encoded file; the writer is spent afterwards
  int frames() const { return static_cast<int>(frames_.size()); }

 private:
  struct Frame {
    std::vector<unsigned char> indices;  // [height][width] palette indices
    std::vector<unsigned char> palette;  // 256 x RGB
    int colours = 0;
  };
  int width_, height_, delay_cs_;
  std::vector<Frame> frames_;
};

}  // namespace rope::app
