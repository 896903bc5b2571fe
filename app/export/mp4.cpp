#include "export/mp4.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace rope::app {

namespace {

constexpr const char* kX264 = "libx264";
constexpr const char* kMpeg4 = "mpeg4";

// Owners for FFmpeg's objects: each frees with the library's own function (the *_free(&p)
// functions take the pointer's address and null it; here it is a copy, which is fine).
struct CodecContextFree {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FormatContextFree {
  void operator()(AVFormatContext* f) const { avformat_free_context(f); }  // not f->pb
};
struct IoContextFree {
  void operator()(AVIOContext* io) const {
    av_freep(&io->buffer);  // avio may have replaced the buffer given to it; free the current one
    avio_context_free(&io);
  }
};
struct FrameFree {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketFree {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct SwsFree {
  void operator()(SwsContext* s) const { sws_freeContext(s); }
};
struct DictionaryFree {
  void operator()(AVDictionary* d) const { av_dict_free(&d); }
};

// The file being muxed, in memory. The mp4 muxer writes forward and, at the end, seeks back to
// patch the mdat box's size, so writes may land before the end and overwrite.
struct MemoryFile {
  std::string bytes;
  std::size_t at = 0;  // the write position, bytes from the start
};

// FFmpeg 6.1 (libavformat 61) made the write callback's buffer const; Debian 12 has 5.1.
#if LIBAVFORMAT_VERSION_MAJOR >= 61
using WriteBuffer = const std::uint8_t*;
#else
using WriteBuffer = std::uint8_t*;
#endif

int write_memory(void* opaque, WriteBuffer data, int size) {
  auto* file = static_cast<MemoryFile*>(opaque);
  const auto n = static_cast<std::size_t>(size);
  if (file->at + n > file->bytes.size()) file->bytes.resize(file->at + n);
  std::memcpy(file->bytes.data() + file->at, data, n);
  file->at += n;
  return size;
}

std::int64_t seek_memory(void* opaque, std::int64_t offset, int whence) {
  auto* file = static_cast<MemoryFile*>(opaque);
  const auto size = static_cast<std::int64_t>(file->bytes.size());
  std::int64_t to = 0;
  switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE:
      return size;
    case SEEK_SET:
      to = offset;
      break;
    case SEEK_CUR:
      to = static_cast<std::int64_t>(file->at) + offset;
      break;
    case SEEK_END:
      to = size + offset;
      break;
    default:
      return AVERROR(EINVAL);
  }
  if (to < 0) return AVERROR(EINVAL);
  file->at = static_cast<std::size_t>(to);  // past the end: the next write fills the gap with 0
  return to;
}

std::string av_error_text(int av_error) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  if (av_strerror(av_error, text, sizeof text) < 0)
    std::snprintf(text, sizeof text, "FFmpeg error %d", av_error);
  return text;
}

}  // namespace

struct Mp4Writer::Codec {
  // Declared so that they are destroyed in a safe order (reverse): the format context before
  // the I/O context it writes through, and the memory file last.
  MemoryFile file;
  std::unique_ptr<AVIOContext, IoContextFree> io;
  std::unique_ptr<AVFormatContext, FormatContextFree> format;
  std::unique_ptr<AVCodecContext, CodecContextFree> encoder;
  std::unique_ptr<SwsContext, SwsFree> to_yuv;
  std::unique_ptr<AVFrame, FrameFree> frame;  // yuv420p, video_width x video_height
  std::unique_ptr<AVPacket, PacketFree> packet;
  AVStream* stream = nullptr;        // owned by format
  std::vector<std::uint8_t> padded;  // [video_height][video_width][4]: odd sizes only
};

Mp4Writer::Mp4Writer(int width, int height, double fps, Mp4Encoder choice)
    : width_(std::max(1, width)),
      height_(std::max(1, height)),
      fps_(std::clamp(fps, 1.0, 1000.0)),
      choice_(choice) {
  av_log_set_level(AV_LOG_QUIET);
}

Mp4Writer::~Mp4Writer() = default;

const char* Mp4Writer::encoder_name() {
  for (const char* name : {kX264, kMpeg4})
    if (avcodec_find_encoder_by_name(name)) return name;
  return nullptr;
}

Error Mp4Writer::out_of_memory() {
  codec_.reset();
  spent_ = true;
  return Error{"animation", "out of memory: the MP4 encoder (" +
                                std::string(*encoder_ ? encoder_ : "FFmpeg") +
                                ") could not hold its frames at " + std::to_string(video_width()) +
                                "x" + std::to_string(video_height()) +
                                "; choose a smaller size or scale, or write a GIF (which needs "
                                "one frame at a time)"};
}

Error Mp4Writer::fail(const char* what, int av_error) {
  if (av_error == AVERROR(ENOMEM)) return out_of_memory();
  codec_.reset();
  spent_ = true;
  std::string message =
      std::string("MP4 encoder (") + (*encoder_ ? encoder_ : "none") + "): " + what;
  if (av_error != 0) message += ": " + av_error_text(av_error);
  return Error{"animation", message};
}

// [SECTION] Opening: encoder, muxer over memory, RGBA -> YUV converter, one reusable frame.
Status Mp4Writer::open() {
  const AVCodec* found = nullptr;
  if (choice_ != Mp4Encoder::mpeg4) found = avcodec_find_encoder_by_name(kX264);
  if (!found && choice_ != Mp4Encoder::libx264) found = avcodec_find_encoder_by_name(kMpeg4);
  if (!found) {
    if (choice_ == Mp4Encoder::best)
      return fail(
          "this libavcodec has neither the H.264 encoder libx264 nor the MPEG-4 encoder "
          "mpeg4",
          0);
    encoder_ = choice_ == Mp4Encoder::libx264 ? kX264 : kMpeg4;
    return fail("this libavcodec does not have it", 0);
  }
  encoder_ = found->name;
  const bool x264 = std::strcmp(found->name, kX264) == 0;

  auto c = std::make_unique<Codec>();
  AVFormatContext* format = nullptr;
  if (const int e = avformat_alloc_output_context2(&format, nullptr, "mp4", nullptr); e < 0)
    return fail("mp4 muxer", e);
  c->format.reset(format);

  constexpr int kIoBufferBytes = 64 * 1024;
  auto* buffer = static_cast<unsigned char*>(av_malloc(kIoBufferBytes));
  if (!buffer) return fail("I/O buffer", AVERROR(ENOMEM));
  c->io.reset(avio_alloc_context(buffer, kIoBufferBytes, /*write_flag=*/1, &c->file, nullptr,
                                 write_memory, seek_memory));
  if (!c->io) {
    av_free(buffer);
    return fail("I/O context", AVERROR(ENOMEM));
  }
  c->format->pb = c->io.get();
  c->format->flags |= AVFMT_FLAG_CUSTOM_IO;

  c->stream = avformat_new_stream(c->format.get(), nullptr);
  c->encoder.reset(avcodec_alloc_context3(found));
  if (!c->stream || !c->encoder) return fail("stream", AVERROR(ENOMEM));

  // Time: one tick per frame. fps as a fraction (20 -> 20/1, 12.5 -> 25/2).
  const AVRational rate = av_d2q(fps_, 1000);
  AVCodecContext* enc = c->encoder.get();
  enc->width = video_width();
  enc->height = video_height();
  enc->pix_fmt = AV_PIX_FMT_YUV420P;
  enc->time_base = av_inv_q(rate);
  enc->framerate = rate;
  enc->sample_aspect_ratio = AVRational{1, 1};
  enc->color_range = AVCOL_RANGE_MPEG;
  enc->color_primaries = AVCOL_PRI_BT709;
  enc->color_trc = AVCOL_TRC_BT709;
  enc->colorspace = AVCOL_SPC_BT709;
  if (c->format->oformat->flags & AVFMT_GLOBALHEADER)
    enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;  // SPS/PPS in the mp4 sample description
  AVDictionary* options = nullptr;
  if (x264) {
    // Measured on an 81-frame 1280x720 pointers sweep: crf 18 is within 0.5 dB PSNR of
    // lossless (crf 0: 1.0 MB; the rest of the loss is 4:2:0 on thin coloured lines) at 634 KB;
    // preset "fast" encodes about twice as fast as "medium" for 6 % more bytes, "veryfast" loses
    // 0.4 dB. Tune "animation" (weaker deblocking, more reference frames) suits flat fills and
    // hard edges: +0.2 dB over no tune.
    av_dict_set(&options, "crf", "18", 0);
    av_dict_set(&options, "preset", "fast", 0);
    av_dict_set(&options, "tune", "animation", 0);
    // x264 holds every frame of its look-ahead, B-frame and thread pipeline, about 33 MB each
    // at 3840x2160: with the settings above a 4K sweep peaked at 1.78 GB (81 frames, pointers,
    // measured with /usr/bin/time). Above 1080p the pipeline is shortened: at 4K 0.91 GB, the
    // encoder's own PSNR 57.5 dB instead of 58.3 (both far beyond what an eye can tell), 2 %
    // smaller and a quarter faster; above 4K (8K from --scale 2) it is cut to the bone: 1.55 GB
    // for 41 frames at 7680x4320 where the 4K settings took 3.0 GB, PSNR 57.9 dB.
    const long pixels = static_cast<long>(enc->width) * enc->height;
    if (pixels > 3840L * 2160L)
      av_dict_set(&options, "x264-params",
                  "rc-lookahead=4:sync-lookahead=0:threads=1:bframes=1:ref=1", 0);
    else if (pixels > 1920L * 1080L)
      av_dict_set(&options, "x264-params",
                  "rc-lookahead=12:sync-lookahead=0:threads=2:bframes=3:ref=2", 0);
  } else {
    enc->flags |= AV_CODEC_FLAG_QSCALE;  // constant quantiser 2 (of 1 ... 31): near-transparent
    enc->global_quality = FF_QP2LAMBDA * 2;
  }
  errno = 0;  // see add(): x264 allocates its frame pool here
  const int opened = avcodec_open2(enc, found, &options);
  std::unique_ptr<AVDictionary, DictionaryFree> unused(options);  // options it did not take
  if (opened < 0 && errno == ENOMEM) return out_of_memory();
  if (opened < 0) return fail("opening the encoder", opened);

  if (const int e = avcodec_parameters_from_context(c->stream->codecpar, enc); e < 0)
    return fail("stream parameters", e);
  c->stream->time_base = enc->time_base;  // a hint: the muxer picks its own in write_header
  c->stream->avg_frame_rate = rate;
  if (const int e = avformat_write_header(c->format.get(), nullptr); e < 0)
    return fail("mp4 header", e);

  // RGBA (full range, no matrix) -> BT.709 limited-range YUV. Same size, so the filter only
  // matters for the 2x2 chroma averaging; ACCURATE_RND avoids an off-by-one bias in the levels.
  c->to_yuv.reset(sws_getContext(
      enc->width, enc->height, AV_PIX_FMT_RGBA, enc->width, enc->height, AV_PIX_FMT_YUV420P,
      SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nullptr, nullptr, nullptr));
  if (!c->to_yuv) return fail("colour converter", AVERROR(EINVAL));
  const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
  sws_setColorspaceDetails(c->to_yuv.get(), bt709, /*src_range=*/1, bt709, /*dst_range=*/0,
                           /*brightness=*/0, /*contrast=*/1 << 16, /*saturation=*/1 << 16);

  c->frame.reset(av_frame_alloc());
  c->packet.reset(av_packet_alloc());
  if (!c->frame || !c->packet) return fail("frame", AVERROR(ENOMEM));
  AVFrame* f = c->frame.get();
  f->format = enc->pix_fmt;
  f->width = enc->width;
  f->height = enc->height;
  f->color_range = enc->color_range;
  f->color_primaries = enc->color_primaries;
  f->color_trc = enc->color_trc;
  f->colorspace = enc->colorspace;
  if (const int e = av_frame_get_buffer(f, 0); e < 0) return fail("frame", e);
  codec_ = std::move(c);
  return {};
}

// [SECTION] Encoding
Status Mp4Writer::add(const Image& image) {
  if (image.width != width_ || image.height != height_)
    return Error{"animation", "a frame of " + std::to_string(image.width) + "x" +
                                  std::to_string(image.height) + " does not match " +
                                  std::to_string(width_) + "x" + std::to_string(height_)};
  const std::size_t w = static_cast<std::size_t>(width_), h = static_cast<std::size_t>(height_);
  if (image.rgba.size() != w * h * 4)
    return Error{"animation", "a frame of " + std::to_string(width_) + "x" +
                                  std::to_string(height_) + " holds " +
                                  std::to_string(image.rgba.size()) + " bytes, not w*h*4"};
  if (spent_) return Error{"animation", "the MP4 writer is finished or failed; make a new one"};
  if (!codec_) {
    if (auto s = open(); !s) return s;
  }

  // Odd sides: copy into the even-sized buffer, repeating the last column and row.
  const std::uint8_t* rgba = image.rgba.data();
  const std::size_t vw = static_cast<std::size_t>(video_width());
  if (vw != w || static_cast<std::size_t>(video_height()) != h) {
    std::vector<std::uint8_t>& p = codec_->padded;
    p.resize(vw * static_cast<std::size_t>(video_height()) * 4);
    for (std::size_t y = 0; y < static_cast<std::size_t>(video_height()); ++y) {
      const std::uint8_t* src = rgba + std::min(y, h - 1) * w * 4;
      std::uint8_t* dst = p.data() + y * vw * 4;
      std::memcpy(dst, src, w * 4);
      if (vw != w) std::memcpy(dst + w * 4, src + (w - 1) * 4, 4);
    }
    rgba = p.data();
  }

  AVFrame* f = codec_->frame.get();
  if (const int e = av_frame_make_writable(f); e < 0) return fail("frame", e);
  const int stride = video_width() * 4;
  if (const int e =
          sws_scale(codec_->to_yuv.get(), &rgba, &stride, 0, video_height(), f->data, f->linesize);
      e < 0)
    return fail("colour conversion", e);
  f->pts = frames_;
  errno = 0;
  if (const int e = avcodec_send_frame(codec_->encoder.get(), f); e < 0) {
    // libx264 reports a failed allocation as "Generic error in an external library"; the
    // malloc it made left errno at ENOMEM, which is what the message must say (review N12).
    if (errno == ENOMEM || e == AVERROR(ENOMEM)) return out_of_memory();
    return fail("encoding a frame", e);
  }
  ++frames_;
  return drain(false);
}

Status Mp4Writer::drain(bool flushing) {
  AVCodecContext* enc = codec_->encoder.get();
  AVPacket* packet = codec_->packet.get();
  for (;;) {
    errno = 0;  // see add(): a failed allocation inside the encoder leaves ENOMEM
    const int got = avcodec_receive_packet(enc, packet);
    if (got == AVERROR(EAGAIN) && !flushing) return {};
    if (got == AVERROR_EOF) return {};
    if (got < 0 && (errno == ENOMEM || got == AVERROR(ENOMEM))) return out_of_memory();
    if (got < 0) return fail("encoding", got);
    packet->stream_index = codec_->stream->index;
    if (packet->duration == 0) packet->duration = 1;  // every frame lasts one tick
    av_packet_rescale_ts(packet, enc->time_base, codec_->stream->time_base);
    if (const int e = av_interleaved_write_frame(codec_->format.get(), packet); e < 0)
      return fail("muxing", e);  // av_interleaved_write_frame has taken the packet's data
  }
}

Result<std::string> Mp4Writer::finish() {
  if (spent_) return Error{"animation", "the MP4 writer is finished or failed; make a new one"};
  if (frames_ == 0 || !codec_) return Error{"animation", "has no frames"};
  if (const int e = avcodec_send_frame(codec_->encoder.get(), nullptr); e < 0)
    return fail("flushing the encoder", e);
  if (auto s = drain(true); !s) return s.error();
  if (const int e = av_write_trailer(codec_->format.get()); e < 0) return fail("mp4 index", e);
  avio_flush(codec_->io.get());
  std::string bytes = std::move(codec_->file.bytes);
  codec_.reset();
  spent_ = true;
  return bytes;
}

}  // namespace rope::app
