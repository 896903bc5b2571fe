#include "export/png.h"

#include <png.h>

#include <algorithm>
#include <csetjmp>

#include "io/atomic_file.h"

namespace rope::app {

void unpremultiply(std::span<std::uint8_t> rgba) {
  for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) {
    const unsigned a = rgba[i + 3];
    for (std::size_t c = 0; c < 3; ++c) {
      const unsigned v = a == 0 ? 0U : std::min(255U, (rgba[i + c] * 255U + a / 2) / a);
      rgba[i + c] = static_cast<std::uint8_t>(v);
    }
  }
}

void unpremultiply(Image& image) {
  unpremultiply(std::span<std::uint8_t>(image.rgba));
}

// libpng reports errors by longjmp to the setjmp of the call that failed, so every function
// below that calls into libpng sets its jump point first and keeps no C++ object with a
// destructor alive across the calls (a longjmp would skip it).
struct PngWriter::State {
  png_structp png = nullptr;
  png_infop info = nullptr;
  AtomicFile file;
  std::string* memory = nullptr;  // encode_png: bytes go here instead of to `file`
  Status sink;                    // the first failed write; later writes are dropped
  std::string libpng_message;     // what libpng's error handler was told
  std::size_t bytes = 0;
  int width = 0;
  int height = 0;
  int rows = 0;

  ~State() {
    if (png) png_destroy_write_struct(&png, &info);
  }
};

namespace {

using State = PngWriter::State;

extern "C" void on_png_error(png_structp png, png_const_charp message) {
  auto* s = static_cast<State*>(png_get_error_ptr(png));
  s->libpng_message = message ? message : "unknown error";
  png_longjmp(png, 1);
}

extern "C" void on_png_warning(png_structp, png_const_charp) {}  // nothing we can act on

extern "C" void on_png_write(png_structp png, png_bytep data, png_size_t size) {
  auto* s = static_cast<State*>(png_get_io_ptr(png));
  if (!s->sink) return;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (s->memory) {
    s->memory->append(bytes);
  } else {
    s->sink = s->file.write(bytes);
  }
  s->bytes += size;
}

extern "C" void on_png_flush(png_structp) {}  // the file is flushed once, by commit()

// Compression for flat-colour UI pictures (large areas of one colour, anti-aliased edges).
// Measured on the 4x canvas of the default state (`screenshot --size 1920x1080 --canvas-only
// --scale 4`, 7680 x 4320, 2026-11-24, load 3-4), file size and zlib + libpng time (perf):
//   level 1, filter none      1 420 845 bytes   ~0.2 s
//   level 1, filter sub       1 506 592 bytes   ~0.45 s
//   level 1, all five filters 1 430 573 bytes   whole command 0.7 s slower than none
//   level 3, filter sub       1 488 729 bytes   whole command 0.2 s slower than level 1
//   level 6, filter sub         991 580 bytes   whole command 2.3 s slower than level 1
//   (stb_image_write before:  2 021 128 bytes, ~2.7 s)
// Large runs of one colour compress well without a filter; level 6 saves a third of the size
// for over a second of a 2 s budget. Level 1 and no filter it is.
constexpr int kZlibLevel = 1;
constexpr int kFilters = PNG_FILTER_NONE;

Status begin(State& s) {
  if (setjmp(png_jmpbuf(s.png))) return Error{"output", "PNG encoding failed: " + s.libpng_message};
  png_set_write_fn(s.png, &s, on_png_write, on_png_flush);
  png_set_IHDR(s.png, s.info, static_cast<png_uint_32>(s.width), static_cast<png_uint_32>(s.height),
               8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(s.png, kZlibLevel);
  png_set_filter(s.png, PNG_FILTER_TYPE_BASE, kFilters);
  // zlib's output arrives in pieces of this size (bytes): fewer, larger writes to the file
  png_set_compression_buffer_size(s.png, 256 * 1024);
  png_write_info(s.png, s.info);
  return {};
}

Status put_row(State& s, const std::uint8_t* row) {
  if (setjmp(png_jmpbuf(s.png))) return Error{"output", "PNG encoding failed: " + s.libpng_message};
  png_write_row(s.png, row);
  return {};
}

Status end(State& s) {
  if (setjmp(png_jmpbuf(s.png))) return Error{"output", "PNG encoding failed: " + s.libpng_message};
  png_write_end(s.png, s.info);
  return {};
}

Status open_state(std::unique_ptr<State>& state, int width, int height) {
  if (width < 1 || height < 1 || width > kMaxPngSide || height > kMaxPngSide)
    return Error{"output", "the picture must be 1 to " + std::to_string(kMaxPngSide) +
                               " pixels on each side, got " + std::to_string(width) + "x" +
                               std::to_string(height)};
  state = std::make_unique<State>();
  State& s = *state;
  s.width = width;
  s.height = height;
  s.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &s, on_png_error, on_png_warning);
  if (s.png) s.info = png_create_info_struct(s.png);
  if (!s.png || !s.info) return Error{"output", "PNG encoding failed: out of memory"};
  return {};
}

}  // namespace

PngWriter::PngWriter() = default;
PngWriter::~PngWriter() = default;

Status PngWriter::open(const std::filesystem::path& path, int width, int height) {
  return open(path, width, height, WriteOptions{});
}

Status PngWriter::open(const std::filesystem::path& path, int width, int height,
                       const WriteOptions& options) {
  state_.reset();
  if (auto s = open_state(state_, width, height); !s) {
    state_.reset();
    return s;
  }
  if (auto s = state_->file.open(path, options); !s) {
    state_.reset();
    return s;
  }
  if (auto s = begin(*state_); !s || !state_->sink) {
    Status failed = s ? state_->sink : s;
    state_.reset();
    return failed;
  }
  return {};
}

Status PngWriter::write_row(std::span<const std::uint8_t> rgba) {
  if (!state_) return Error{"output", "the PNG is not open"};
  State& s = *state_;
  if (rgba.size() != static_cast<std::size_t>(s.width) * 4 || s.rows >= s.height) {
    const std::string why = s.rows >= s.height
                                ? "more than " + std::to_string(s.height) + " rows"
                                : "a row of " + std::to_string(rgba.size()) + " bytes, not " +
                                      std::to_string(static_cast<std::size_t>(s.width) * 4);
    state_.reset();
    return Error{"output", "PNG encoding failed: " + why};
  }
  Status r = put_row(s, rgba.data());
  if (r && !s.sink) r = s.sink;
  if (!r) {
    state_.reset();
    return r;
  }
  ++s.rows;
  return {};
}

Status PngWriter::finish() {
  if (!state_) return Error{"output", "the PNG is not open"};
  State& s = *state_;
  Status r;
  if (s.rows != s.height)
    r = Error{"output", "PNG encoding failed: " + std::to_string(s.rows) + " of " +
                            std::to_string(s.height) + " rows written"};
  if (r) r = end(s);
  if (r && !s.sink) r = s.sink;
  if (r && !s.memory) r = s.file.commit();
  if (!r) state_.reset();
  return r;
}

std::size_t PngWriter::bytes_written() const {
  return state_ ? state_->bytes : 0;
}

namespace {

Status check_image(const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() !=
          static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4)
    return Error{"output", "the image to save is empty or malformed"};
  return {};
}

}  // namespace

Result<std::string> encode_png(const Image& image) {
  if (auto s = check_image(image); !s) return s.error();
  std::string bytes;
  std::unique_ptr<State> state;
  if (auto s = open_state(state, image.width, image.height); !s) return s.error();
  state->memory = &bytes;
  if (auto s = begin(*state); !s) return s.error();
  const auto row = static_cast<std::size_t>(image.width) * 4;
  for (int y = 0; y < image.height; ++y)
    if (auto s = put_row(*state, image.rgba.data() + static_cast<std::size_t>(y) * row); !s)
      return s.error();
  if (auto s = end(*state); !s) return s.error();
  state.reset();
  return bytes;
}

Status write_png(const std::filesystem::path& path, const Image& image) {
  if (auto s = check_image(image); !s) return s;
  PngWriter png;
  Status s = png.open(path, image.width, image.height);
  const auto row = static_cast<std::size_t>(image.width) * 4;
  for (int y = 0; s && y < image.height; ++y)
    s = png.write_row(
        std::span<const std::uint8_t>(image.rgba.data() + static_cast<std::size_t>(y) * row, row));
  if (s) s = png.finish();
  return s;
}

}  // namespace rope::app
