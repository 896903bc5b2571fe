#include "export/gif.h"

#include <gif_lib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace rope::app {
namespace {

int append_output(GifFileType* gif, const GifByteType* data, int size) {
  static_cast<std::string*>(gif->UserData)
      ->append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
  return size;
}

}  // namespace

GifWriter::GifWriter(int width, int height, int delay_cs)
    : width_(width), height_(height), delay_cs_(std::max(2, delay_cs)) {}

GifWriter::~GifWriter() {
  close();
}

void GifWriter::close() {
  if (!gif_) return;
  int error = 0;
  EGifCloseFile(static_cast<GifFileType*>(gif_), &error);
  gif_ = nullptr;
}

Error GifWriter::fail(const char* what) {
  const int code = gif_ ? static_cast<GifFileType*>(gif_)->Error : 0;
  close();
  spent_ = true;
  return Error{"animation", std::string("GIF encoder: ") + what + ": " + GifErrorString(code)};
}

// The screen and the loop extension, once, before the first frame.
Status GifWriter::open() {
  int error = 0;
  GifFileType* gif = EGifOpen(&out_, append_output, &error);
  if (!gif) {
    spent_ = true;
    return Error{"animation", std::string("GIF encoder: ") + GifErrorString(error)};
  }
  gif_ = gif;
  EGifSetGifVersion(gif, true);  // GIF89a: needed for the delay and loop extensions
  if (EGifPutScreenDesc(gif, width_, height_, 8, 0, nullptr) == GIF_ERROR) return fail("screen");
  // NETSCAPE2.0 application extension: loop forever (count 0).
  const GifByteType netscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  const GifByteType loop[] = {1, 0, 0};
  if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif, sizeof netscape, netscape) == GIF_ERROR ||
      EGifPutExtensionBlock(gif, sizeof loop, loop) == GIF_ERROR ||
      EGifPutExtensionTrailer(gif) == GIF_ERROR)
    return fail("loop extension");
  return {};
}

Status GifWriter::add(const Image& frame) {
  if (spent_) return Error{"animation", "the GIF writer is finished or failed"};
  if (frame.width != width_ || frame.height != height_)
    return Error{"animation", "a frame of " + std::to_string(frame.width) + "x" +
                                  std::to_string(frame.height) + " does not match " +
                                  std::to_string(width_) + "x" + std::to_string(height_)};
  if (!gif_)
    if (auto s = open(); !s) return s;
  auto* gif = static_cast<GifFileType*>(gif_);
  const auto n = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_);
  std::vector<GifByteType> indices(n);
  std::vector<GifColorType> map(256);
  int colours = 256;
  {
    std::vector<GifByteType> r(n), g(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
      r[i] = frame.rgba[4 * i];
      g[i] = frame.rgba[4 * i + 1];
      b[i] = frame.rgba[4 * i + 2];
    }
    if (GifQuantizeBuffer(static_cast<unsigned>(width_), static_cast<unsigned>(height_), &colours,
                          r.data(), g.data(), b.data(), indices.data(), map.data()) == GIF_ERROR)
      return Error{"animation", "colour quantisation of a frame failed"};
  }
  std::fill(map.begin() + std::clamp(colours, 0, 256), map.end(), GifColorType{0, 0, 0});
  // Median cut gives each box the colour of its 5-bit cell, so a white canvas came out
  // (248, 248, 248) beside the PNG's (255, 255, 255) (classroom review D12). Each entry becomes
  // the mean of the pixels it stands for: exact for a flat background, and never further from
  // them than the cell's colour (the mean is the closest point to a set in squared error).
  {
    std::vector<std::uint64_t> sum(256 * 3, 0), count(256, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = indices[i];
      for (std::size_t c = 0; c < 3; ++c)
        sum[3 * k + c] += frame.rgba[4 * i + c];
      ++count[k];
    }
    for (std::size_t k = 0; k < 256; ++k) {
      if (count[k] == 0) continue;
      const auto mean = [&](std::size_t c) {
        return static_cast<GifByteType>((sum[3 * k + c] + count[k] / 2) / count[k]);
      };
      map[k] = GifColorType{mean(0), mean(1), mean(2)};
    }
  }

  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;
  gcb.DelayTime = delay_cs_;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const auto len = EGifGCBToExtension(&gcb, ext);
  if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(len), ext) == GIF_ERROR)
    return fail("frame delay");
  ColorMapObject* cmap = GifMakeMapObject(256, map.data());
  if (!cmap) return fail("colour map");
  const int put = EGifPutImageDesc(gif, 0, 0, width_, height_, false, cmap);
  GifFreeMapObject(cmap);
  if (put == GIF_ERROR) return fail("frame");
  for (int y = 0; y < height_; ++y) {
    GifPixelType* row =
        indices.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width_);
    if (EGifPutLine(gif, row, width_) == GIF_ERROR) return fail("pixels");
  }
  ++frames_;
  return {};
}

Result<std::string> GifWriter::finish() {
  if (spent_ || frames_ == 0) return Error{"animation", "has no frames"};
  int error = 0;
  const int closed = EGifCloseFile(static_cast<GifFileType*>(gif_), &error);
  gif_ = nullptr;
  spent_ = true;
  if (closed == GIF_ERROR)
    return Error{"animation", std::string("GIF encoder: ") + GifErrorString(error)};
  return std::move(out_);
}

}  // namespace rope::app
