// export/mp4.h — an MP4 video from RGBA frames (FFmpeg's libavcodec/libavformat/libswscale,
// from Debian's libav*-dev packages).
//
// Encoder: H.264 through libx264 (Debian's libavcodec links it), High profile, crf 18, preset
// "fast", tune "animation" — flat areas and sharp edges, as in our slides (the measurements are
// in mp4.cpp). Without libx264 it falls back to FFmpeg's own MPEG-4 Part 2 encoder "mpeg4" at
// constant quantiser 2 (flat colours within 3 levels); with neither, add() returns an Error naming
// both.
//
// Pixels: RGBA -> yuv420p (libswscale) with BT.709 coefficients into limited range (16..235),
// and the stream is tagged BT.709 (primaries, transfer, matrix), so a player converts back with
// the same matrix. A flat colour comes back within a few levels; 4:2:0 halves the colour
// resolution, so a coloured line one pixel wide comes back paler. Alpha is ignored.
// 4:2:0 also needs even sides: a frame with an odd width (height) is padded to even by
// repeating its last column (row); video_width()/video_height() give the encoded size.
//
// Frames are encoded as they are added (an RGBA 1280x720 frame is 3.7 MB; its H.264 is a few
// KB) into memory, through a custom AVIOContext (the mp4 muxer seeks back to patch the mdat
// size; the moov index goes at the end of the file). finish() returns the whole file, which the
// caller writes with write_file_atomic, so an export that is killed never leaves a half file.
//
// FFmpeg's own log is switched off (av_log_set_level(AV_LOG_QUIET), process-wide), so nothing
// reaches stderr; failures come back as Errors with av_strerror's text and the step that failed.
//
// Usage:
//   Mp4Writer mp4(width, height, /*fps=*/20.0);
//   for (...) if (auto s = mp4.add(image); !s) fail(s);
//   auto bytes = mp4.finish();   // then write_file_atomic(path, bytes.value())
//   std::printf("encoded with %s\n", mp4.encoder());
#pragma once

#include <memory>
#include <string>

#include "export/png.h"
#include "rope/conventions.h"

namespace rope::app {

// Which encoder: the best there is (libx264, else mpeg4), or one of them only (tests use this to
// cover the fallback on a machine that has libx264).
enum class Mp4Encoder { best, libx264, mpeg4 };

class Mp4Writer {
 public:
  // width, height: frame size in pixels, >= 1. fps: frames per second, 1 ... 1000 (stored as a
  // fraction with a denominator up to 1000, e.g. 12.5 -> 25/2).
  Mp4Writer(int width, int height, double fps, Mp4Encoder choice = Mp4Encoder::best);
  ~Mp4Writer();
  Mp4Writer(const Mp4Writer&) = delete;
  Mp4Writer& operator=(const Mp4Writer&) = delete;

  // Encodes one frame; it must be width x height. The first call opens the encoder (an Error if
  // there is none). A frame of the wrong size is refused and the writer stays usable; an FFmpeg
  // failure spends the writer.
  Status add(const Image& frame);
  // Flushes the encoder and returns the file's bytes; the writer is spent afterwards.
  Result<std::string> finish();

  int frames() const { return frames_; }
  int video_width() const { return width_ + (width_ & 1); }  // even: see the padding above
  int video_height() const { return height_ + (height_ & 1); }
  // The encoder this writer uses ("libx264" or "mpeg4"); "" before the first add().
  const char* encoder() const { return encoder_; }
  // The encoder a new writer with Mp4Encoder::best would use, or nullptr when there is neither.
  static const char* encoder_name();

 private:
  struct Codec;  // the FFmpeg objects, opened by the first add()
  Status open();
  Status drain(bool flushing);  // moves every packet the encoder has ready into the muxer
  Error fail(const char* what, int av_error);  // frees the FFmpeg objects and spends the writer
  Error out_of_memory();                       // as fail(), saying so and what to lower

  int width_, height_;
  double fps_;
  Mp4Encoder choice_;
  int frames_ = 0;
  const char* encoder_ = "";
  bool spent_ = false;  // after finish() or an FFmpeg failure
  std::unique_ptr<Codec> codec_;
};

}  // namespace rope::app
