#include "export/gif.h"

#include <gif_lib.h>

#include <algorithm>
#include <cstring>

namespace rope::app {

GifWriter::GifWriter(int width, int height, int delay_cs)
    : width_(width), height_(height), delay_cs_(std::max(2, delay_cs)) {}

Status GifWriter::add(const Image& frame) {
  if (frame.width != width_ || frame.height != height_)
    return Error{"animation", "a frame of " + std::to_string(frame.width) + "x" +
                                  std::to_string(frame.height) + " does not match " +
                                  std::to_string(width_) + "x" + std::to_string(height_)};
  const auto n = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_);
  std::vector<GifByteType> r(n), g(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = frame.rgba[4 * i];
    g[i] = frame.rgba[4 * i + 1];
    b[i] = frame.rgba[4 * i + 2];
  }
  Frame f;
  f.indices.resize(n);
  int colours = 256;
  std::vector<GifColorType> map(256);
  if (GifQuantizeBuffer(static_cast<unsigned>(width_), static_cast<unsigned>(height_), &colours,
                        r.data(), g.data(), b.data(), f.indices.data(), map.data()) == GIF_ERROR)
    return Error{"animation", "colour quantisation of a frame failed"};
  f.colours = colours;
  f.palette.resize(256 * 3, 0);
  for (int c = 0; c < colours; ++c) {
    const auto u = static_cast<std::size_t>(c);
    f.palette[3 * u] = map[u].Red;
    f.palette[3 * u + 1] = map[u].Green;
    f.palette[3 * u + 2] = map[u].Blue;
  }
  frames_.push_back(std::move(f));
  return {};
}

namespace {

int append_output(GifFileType* gif, const GifByteType* data, int size) {
  static_cast<std::string*>(gif->UserData)
      ->append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
  return size;
}

}  // namespace

Result<std::string> GifWriter::finish() {
  if (frames_.empty()) return Error{"animation", "has no frames"};
  std::string out;
  int error = 0;
  GifFileType* gif = EGifOpen(&out, append_output, &error);
  if (!gif) return Error{"animation", std::string("GIF encoder: ") + GifErrorString(error)};
  const auto fail = [&](const char* what) -> Error {
    const int code = gif->Error;
    EGifCloseFile(gif, &error);
    return Error{"animation", std::string("GIF encoder: ") + what + ": " + GifErrorString(code)};
  };
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
  for (Frame& f : frames_) {
    GraphicsControlBlock gcb{};
    gcb.DisposalMode = DISPOSE_DO_NOT;
    gcb.DelayTime = delay_cs_;
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType ext[4];
    const auto len = EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(len), ext) == GIF_ERROR)
      return fail("frame delay");
    std::vector<GifColorType> colours(256);
    for (std::size_t c = 0; c < 256; ++c)
      colours[c] = GifColorType{f.palette[3 * c], f.palette[3 * c + 1], f.palette[3 * c + 2]};
    ColorMapObject* map = GifMakeMapObject(256, colours.data());
    if (!map) return fail("colour map");
    const int put = EGifPutImageDesc(gif, 0, 0, width_, height_, false, map);
    GifFreeMapObject(map);
    if (put == GIF_ERROR) return fail("frame");
    for (int y = 0; y < height_; ++y) {
      GifPixelType* row =
          f.indices.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width_);
      if (EGifPutLine(gif, row, width_) == GIF_ERROR) return fail("pixels");
    }
    std::vector<unsigned char>().swap(f.indices);  // free as we go: frames can be large
  }
  if (EGifCloseFile(gif, &error) == GIF_ERROR)
    return Error{"animation", std::string("GIF encoder: ") + GifErrorString(error)};
  frames_.clear();
  return out;
}

}  // namespace rope::app
