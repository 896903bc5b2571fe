// The MP4 writer: bytes that libavformat/libavcodec decode back with every frame, the right
// size, codec, frame rate and colours; odd sizes padded by repetition; bad frames refused.
#include <catch2/catch.hpp>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/mem.h>
#include <libswscale/swscale.h>
}

#include <array>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "export/mp4.h"

using namespace rope::app;

namespace {

using Rgb = std::array<int, 3>;

Image solid(int w, int h, Rgb c) {
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.resize(static_cast<std::size_t>(w * h) * 4);
  for (std::size_t i = 0; i < img.rgba.size(); i += 4) {
    for (std::size_t j = 0; j < 3; ++j)
      img.rgba[i + j] = static_cast<std::uint8_t>(c[j]);
    img.rgba[i + 3] = 255;
  }
  return img;
}

void fill(Image& img, int x0, int y0, int x1, int y1, Rgb c) {  // [x0, x1) x [y0, y1)
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x)
      for (std::size_t j = 0; j < 3; ++j)
        img.rgba[static_cast<std::size_t>(y * img.width + x) * 4 + j] =
            static_cast<std::uint8_t>(c[j]);
}

// [SECTION] Decoding from memory, every frame back to RGBA.

struct Decoded {
  std::string codec;  // decoder name: "h264" or "mpeg4"
  int width = 0, height = 0;
  std::int64_t stream_frames = 0;  // the container's sample count
  AVRational frame_rate{0, 1};
  AVColorSpace colorspace = AVCOL_SPC_UNSPECIFIED;
  AVColorRange range = AVCOL_RANGE_UNSPECIFIED;
  std::vector<Image> frames;  // decoded and converted back to RGBA
};

struct Reader {
  const std::string* bytes;
  std::size_t at = 0;
};

int read_memory(void* opaque, std::uint8_t* out, int size) {
  auto* r = static_cast<Reader*>(opaque);
  const auto n = std::min(static_cast<std::size_t>(size), r->bytes->size() - r->at);
  if (n == 0) return AVERROR_EOF;
  std::memcpy(out, r->bytes->data() + r->at, n);
  r->at += n;
  return static_cast<int>(n);
}

std::int64_t seek_memory(void* opaque, std::int64_t offset, int whence) {
  auto* r = static_cast<Reader*>(opaque);
  const auto size = static_cast<std::int64_t>(r->bytes->size());
  std::int64_t to = offset;
  switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE:
      return size;
    case SEEK_SET:
      break;
    case SEEK_CUR:
      to += static_cast<std::int64_t>(r->at);
      break;
    case SEEK_END:
      to += size;
      break;
    default:
      return -1;
  }
  if (to < 0 || to > size) return -1;
  r->at = static_cast<std::size_t>(to);
  return to;
}

Image to_rgba(const AVFrame* f) {
  Image img;
  img.width = f->width;
  img.height = f->height;
  img.rgba.resize(static_cast<std::size_t>(f->width * f->height) * 4);
  SwsContext* sws = sws_getContext(f->width, f->height, static_cast<AVPixelFormat>(f->format),
                                   f->width, f->height, AV_PIX_FMT_RGBA,
                                   SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr,
                                   nullptr, nullptr);
  REQUIRE(sws != nullptr);
  const int space = f->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT;
  sws_setColorspaceDetails(sws, sws_getCoefficients(space), f->color_range == AVCOL_RANGE_JPEG,
                           sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
  std::uint8_t* dst[] = {img.rgba.data()};
  const int stride[] = {f->width * 4};
  sws_scale(sws, f->data, f->linesize, 0, f->height, dst, stride);
  sws_freeContext(sws);
  return img;
}

Decoded decode(const std::string& bytes) {
  Decoded out;
  Reader reader{&bytes};
  constexpr int kBuffer = 4096;
  auto* buffer = static_cast<unsigned char*>(av_malloc(kBuffer));
  AVIOContext* io =
      avio_alloc_context(buffer, kBuffer, 0, &reader, read_memory, nullptr, seek_memory);
  REQUIRE(io != nullptr);
  AVFormatContext* format = avformat_alloc_context();
  format->pb = io;
  format->flags |= AVFMT_FLAG_CUSTOM_IO;
  REQUIRE(avformat_open_input(&format, nullptr, nullptr, nullptr) == 0);
  REQUIRE(avformat_find_stream_info(format, nullptr) >= 0);
  REQUIRE(format->nb_streams == 1);
  const AVStream* stream = format->streams[0];
  const AVCodec* codec = avcodec_find_decoder(stream->codecpar->codec_id);
  REQUIRE(codec != nullptr);
  out.codec = codec->name;
  out.width = stream->codecpar->width;
  out.height = stream->codecpar->height;
  out.stream_frames = stream->nb_frames;
  out.frame_rate = stream->avg_frame_rate;
  out.colorspace = stream->codecpar->color_space;
  out.range = stream->codecpar->color_range;

  AVCodecContext* decoder = avcodec_alloc_context3(codec);
  REQUIRE(avcodec_parameters_to_context(decoder, stream->codecpar) >= 0);
  REQUIRE(avcodec_open2(decoder, codec, nullptr) == 0);
  AVPacket* packet = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  const auto receive = [&] {
    while (avcodec_receive_frame(decoder, frame) == 0) {
      out.frames.push_back(to_rgba(frame));
      av_frame_unref(frame);
    }
  };
  while (av_read_frame(format, packet) == 0) {
    CHECK(avcodec_send_packet(decoder, packet) == 0);
    av_packet_unref(packet);
    receive();
  }
  avcodec_send_packet(decoder, nullptr);  // flush: frames held back for reordering
  receive();
  av_frame_free(&frame);
  av_packet_free(&packet);
  avcodec_free_context(&decoder);
  avformat_close_input(&format);  // does not free a custom pb
  av_freep(&io->buffer);
  avio_context_free(&io);
  return out;
}

Rgb pixel(const Image& img, int x, int y) {
  const auto i = static_cast<std::size_t>(y * img.width + x) * 4;
  return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]};
}

// H.264 at crf 18 and the YUV round trip (BT.709, limited range: ~1.16 RGB levels per luma
// step) bring a flat area back within 8 levels per channel. Measured over eleven colours from black
// to white and the primaries: at most 1 level off with libx264, 3 with mpeg4.
constexpr int kTolerance = 8;

bool near(Rgb a, Rgb b) {
  for (std::size_t i = 0; i < 3; ++i)
    if (std::abs(a[i] - b[i]) > kTolerance) return false;
  return true;
}

}  // namespace

TEST_CASE("an MP4 decodes with the requested frames, size, codec and colours", "[mp4]") {
  REQUIRE(Mp4Writer::encoder_name() != nullptr);
  // best is libx264 wherever libavcodec has it (Debian's does); the mpeg4 fallback is forced
  // here so that it is covered too.
  const Mp4Encoder choice = GENERATE(Mp4Encoder::best, Mp4Encoder::mpeg4);
  const std::string expected = choice == Mp4Encoder::best ? Mp4Writer::encoder_name() : "mpeg4";
  INFO("encoder " << expected);
  // A 16x16 yellow square moving right over blue, 64x48 at 20 fps for 10 frames.
  const Rgb background{30, 60, 200}, square{240, 200, 40};
  constexpr int kFrames = 10;
  Mp4Writer writer(64, 48, 20.0, choice);
  for (int k = 0; k < kFrames; ++k) {
    Image img = solid(64, 48, background);
    fill(img, 4 * k, 16, 4 * k + 16, 32, square);
    REQUIRE(writer.add(img).ok());
  }
  CHECK(writer.frames() == kFrames);
  const std::string encoder = writer.encoder();
  CHECK(encoder == expected);
  auto bytes = writer.finish();
  REQUIRE(bytes.ok());
  CHECK(bytes.value().substr(4, 4) == "ftyp");  // an ISO media file starts with its ftyp box

  const Decoded d = decode(bytes.value());
  CHECK(d.codec == (encoder == "libx264" ? "h264" : "mpeg4"));
  CHECK(d.width == 64);
  CHECK(d.height == 48);
  CHECK(d.stream_frames == kFrames);
  CHECK(d.frame_rate.num == 20 * d.frame_rate.den);
  CHECK(d.colorspace == AVCOL_SPC_BT709);
  CHECK(d.range == AVCOL_RANGE_MPEG);
  REQUIRE(d.frames.size() == kFrames);
  for (int k : {0, 5, kFrames - 1}) {
    const Image& f = d.frames[static_cast<std::size_t>(k)];
    INFO("frame " << k);
    CHECK(near(pixel(f, 4 * k + 8, 24), square));  // the square's centre
    CHECK(near(pixel(f, 60, 4), background));      // top-right corner
    CHECK(near(pixel(f, 2, 44), background));      // bottom-left corner
  }
}

TEST_CASE("an MP4 of odd size is padded to even by repeating the last column and row", "[mp4]") {
  // Grey, with the last 5 columns green and the last 5 rows blue: the padding must continue them
  // (padding with black would show at x = 65 and y = 47).
  const Mp4Encoder choice = GENERATE(Mp4Encoder::best, Mp4Encoder::mpeg4);
  const Rgb grey{128, 128, 128}, green{40, 200, 60}, blue{30, 40, 210};
  Image img = solid(65, 47, grey);
  fill(img, 60, 0, 65, 42, green);
  fill(img, 0, 42, 65, 47, blue);
  Mp4Writer writer(65, 47, 10.0, choice);
  CHECK(writer.video_width() == 66);
  CHECK(writer.video_height() == 48);
  for (int k = 0; k < 3; ++k)
    REQUIRE(writer.add(img).ok());
  auto bytes = writer.finish();
  REQUIRE(bytes.ok());
  const Decoded d = decode(bytes.value());
  CHECK(d.width == 66);
  CHECK(d.height == 48);
  REQUIRE(d.frames.size() == 3);
  const Image& f = d.frames[2];
  CHECK(near(pixel(f, 20, 20), grey));
  CHECK(near(pixel(f, 64, 20), green));
  CHECK(near(pixel(f, 65, 20), green));  // padding column
  CHECK(near(pixel(f, 20, 46), blue));
  CHECK(near(pixel(f, 20, 47), blue));  // padding row
}

TEST_CASE("an MP4 keeps a fractional frame rate", "[mp4]") {
  Mp4Writer writer(32, 32, 12.5);
  for (int k = 0; k < 4; ++k)
    REQUIRE(writer.add(solid(32, 32, {k * 60, 0, 0})).ok());
  auto bytes = writer.finish();
  REQUIRE(bytes.ok());
  const Decoded d = decode(bytes.value());
  CHECK(d.frames.size() == 4);
  CHECK(d.frame_rate.num * 2 == 25 * d.frame_rate.den);
}

TEST_CASE("an MP4 writer refuses bad frames and stays usable", "[mp4]") {
  Mp4Writer writer(32, 24, 10.0);
  auto wrong = writer.add(solid(24, 32, {0, 0, 0}));
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message.find("does not match 32x24") != std::string::npos);
  Image short_buffer = solid(32, 24, {0, 0, 0});
  short_buffer.rgba.resize(100);  // claims 32x24 but holds 25 pixels
  CHECK_FALSE(writer.add(short_buffer).ok());
  REQUIRE(writer.add(solid(32, 24, {255, 255, 255})).ok());
  auto bytes = writer.finish();
  REQUIRE(bytes.ok());
  CHECK(decode(bytes.value()).frames.size() == 1);
  CHECK_FALSE(writer.add(solid(32, 24, {0, 0, 0})).ok());  // spent after finish()
  CHECK_FALSE(writer.finish().ok());
}

TEST_CASE("an MP4 with no frames is an error, and one dropped unfinished frees everything",
          "[mp4]") {
  Mp4Writer empty(8, 8, 10.0);
  CHECK_FALSE(empty.finish().ok());
  Mp4Writer dropped(48, 32, 10.0);  // the sanitizer build reports any FFmpeg object left over
  for (int k = 0; k < 5; ++k)
    REQUIRE(dropped.add(solid(48, 32, {k * 50, 100, 0})).ok());
}
