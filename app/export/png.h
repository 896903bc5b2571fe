// export/png.h — RGBA8 pixels to a PNG file, written atomically (temporary name, then rename),
// either from a whole Image or streamed row by row so that a large picture (a 4x export is
// 7680 x 4320, 133 MB of RGBA) never exists in memory at once.
//
// Usage:
//   if (auto s = write_png("figure.png", image); !s) report(s.error().to_string());
//
//   PngWriter png;                                  // streaming, rows top to bottom
//   Status s = png.open("figure.png", width, height);
//   for (int y = 0; s && y < height; ++y) s = png.write_row(row_pointer(y));
//   if (s) s = png.finish();                        // without finish() nothing is written
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "rope/conventions.h"

namespace rope::app {

struct WriteOptions;  // io/atomic_file.h (not included: the MP4 module sees no io/ headers)

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  // [height][width][4], rows top to bottom
};

// A frame rendered over a transparent background holds colours premultiplied by alpha (ImGui
// blends with SRC_ALPHA / ONE_MINUS_SRC_ALPHA onto zero); PNG stores straight alpha. Divides
// every pixel's colour by its alpha (pixels with alpha 0 become 0, 0, 0, 0). The span form
// works on any run of whole pixels (one row, one strip).
void unpremultiply(std::span<std::uint8_t> rgba);
void unpremultiply(Image& image);

// The largest side a PNG may have here: the screenshot's 8192 x 4 and then some, and small
// enough that a row's byte count (width * 4) fits an int.
inline constexpr int kMaxPngSide = 65536;

// Encodes RGBA8 rows into a PNG file as they come (libpng, from Debian's libpng-dev). The file
// appears only on finish(); a PngWriter destroyed before, or any failure, leaves no file and an
// existing one untouched (io/atomic_file.h). Error.parameter is the path for file errors,
// "output" for a wrong size or row count.
class PngWriter {
 public:
  PngWriter();
  ~PngWriter();
  PngWriter(const PngWriter&) = delete;
  PngWriter& operator=(const PngWriter&) = delete;

  // width, height: 1 ... kMaxPngSide pixels.
  Status open(const std::filesystem::path& path, int width, int height);
  Status open(const std::filesystem::path& path, int width, int height,
              const WriteOptions& options);
  // One row of width RGBA8 pixels (width * 4 bytes), top row first.
  Status write_row(std::span<const std::uint8_t> rgba);
  // After exactly `height` rows: ends the PNG, flushes it to disk and renames it into place.
  Status finish();

  std::size_t bytes_written() const;  // PNG bytes so far (the file size after finish())

  struct State;  // libpng's structures and the file; defined in png.cpp

 private:
  std::unique_ptr<State> state_;
};

// Encodes to PNG bytes (the same encoder, into memory).
Result<std::string> encode_png(const Image& image);

// Encodes and writes, row by row; on failure no file is created or replaced.
Status write_png(const std::filesystem::path& path, const Image& image);

}  // namespace rope::app
