// The streaming PNG encoder (export/png.h): what it writes decodes (stb_image, an independent
// decoder) to exactly the pixels given, row by row or from a whole Image; a wrong row count or
// size is an error that leaves no file and an existing one untouched; unpremultiply by hand.
#include <stb_image.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <span>
#include <sstream>
#include <string>

#include "export/png.h"

using namespace rope::app;
using rope::Status;

namespace {

std::filesystem::path temp_dir() {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rope-lab-png-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

Image random_image(int width, int height, std::uint32_t seed) {
  Image img;
  img.width = width;
  img.height = height;
  img.rgba.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  for (auto& v : img.rgba)
    v = static_cast<std::uint8_t>(byte(rng));
  // and a flat run, the common case in UI pictures, at the start of every row
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width / 3; ++x)
      for (int c = 0; c < 4; ++c)
        img.rgba[(static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                  static_cast<std::size_t>(x)) *
                     4 +
                 static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(40 * c + 7);
  return img;
}

Image decode(const std::string& bytes) {
  Image img;
  int channels = 0;
  unsigned char* data =
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()),
                            static_cast<int>(bytes.size()), &img.width, &img.height, &channels, 4);
  if (!data) return Image{};
  img.rgba.assign(data, data + static_cast<std::ptrdiff_t>(img.width) * img.height * 4);
  stbi_image_free(data);
  return img;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

int files_in(const std::filesystem::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir))
    ++n;
  return n;
}

}  // namespace

TEST_CASE("PNG: a whole image and the same rows streamed decode to exactly the pixels given",
          "[app][png]") {
  const auto dir = temp_dir();
  for (const auto& [w, h, seed] :
       {std::tuple{1, 1, 1U}, {37, 23, 2U}, {300, 5, 3U}, {3, 400, 4U}}) {
    INFO(w << "x" << h);
    const Image img = random_image(w, h, seed);
    const auto whole = dir / "whole.png";
    REQUIRE(write_png(whole, img).ok());
    const Image back = decode(read_file(whole));
    REQUIRE(back.width == w);
    REQUIRE(back.height == h);
    CHECK(back.rgba == img.rgba);

    PngWriter png;
    const auto streamed = dir / "streamed.png";
    std::filesystem::remove(streamed);  // the last size's
    REQUIRE(png.open(streamed, w, h).ok());
    const auto row = static_cast<std::size_t>(w) * 4;
    for (int y = 0; y < h; ++y)
      REQUIRE(png.write_row(std::span<const std::uint8_t>(
                                img.rgba.data() + static_cast<std::size_t>(y) * row, row))
                  .ok());
    CHECK_FALSE(std::filesystem::exists(streamed));  // nothing there before finish()
    REQUIRE(png.finish().ok());
    const std::string bytes = read_file(streamed);
    CHECK(png.bytes_written() == bytes.size());
    CHECK(bytes == read_file(whole));  // the same encoder either way

    auto memory = encode_png(img);
    REQUIRE(memory.ok());
    CHECK(memory.value() == bytes);
  }
  CHECK(files_in(dir) == 2);  // no temporary files left behind
  std::filesystem::remove_all(dir);
}

TEST_CASE("PNG: a wrong row count or size is an error that leaves the old file", "[app][png]") {
  const auto dir = temp_dir();
  const auto path = dir / "old.png";
  std::ofstream(path, std::ios::binary) << "old content";
  const Image img = random_image(8, 4, 5);
  const auto row = std::span<const std::uint8_t>(img.rgba.data(), 32);

  SECTION("too few rows") {
    PngWriter png;
    REQUIRE(png.open(path, 8, 4).ok());
    for (int y = 0; y < 3; ++y)
      REQUIRE(png.write_row(row).ok());
    const Status s = png.finish();
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().parameter == "output");
    CHECK_THAT(s.error().message, Catch::Contains("3 of 4 rows"));
  }
  SECTION("too many rows") {
    PngWriter png;
    REQUIRE(png.open(path, 8, 4).ok());
    for (int y = 0; y < 4; ++y)
      REQUIRE(png.write_row(row).ok());
    const Status s = png.write_row(row);
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.error().message, Catch::Contains("more than 4 rows"));
    CHECK_FALSE(png.finish().ok());  // the writer is closed after an error
  }
  SECTION("a row of the wrong length") {
    PngWriter png;
    REQUIRE(png.open(path, 8, 4).ok());
    const Status s = png.write_row(row.first(28));
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.error().message, Catch::Contains("a row of 28 bytes, not 32"));
  }
  SECTION("abandoned half way") {
    PngWriter png;
    REQUIRE(png.open(path, 8, 4).ok());
    REQUIRE(png.write_row(row).ok());
  }
  SECTION("an empty or malformed image") {
    PngWriter png;
    const Status zero = png.open(path, 0, 4);
    REQUIRE_FALSE(zero.ok());
    CHECK_THAT(zero.error().message, Catch::Contains("got 0x4"));
    Image bad = img;
    bad.rgba.pop_back();
    CHECK_FALSE(write_png(path, bad).ok());
    CHECK_FALSE(encode_png(bad).ok());
  }
  CHECK(read_file(path) == "old content");
  CHECK(files_in(dir) == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("PNG: a file that cannot be created is named in the error", "[app][png]") {
  PngWriter png;
  const Status s = png.open("/nonexistent-dir/x.png", 4, 4);
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.error().parameter, Catch::Contains("/nonexistent-dir/x.png"));
}

TEST_CASE("unpremultiply divides colour by alpha, worked by hand", "[app][png]") {
  // (64, 32, 0) at alpha 128: 64 * 255 / 128 = 127.5 -> 128 (rounded, + a/2 before dividing),
  // 32 * 255 / 128 = 63.75 -> 64; alpha 255 keeps the colour; alpha 0 is all zero; a colour
  // above its alpha (not premultiplied) is held at 255.
  std::uint8_t px[] = {64, 32, 0, 128, 10, 20, 30, 255, 5, 6, 7, 0, 200, 100, 50, 100};
  unpremultiply(std::span<std::uint8_t>(px));
  const std::uint8_t want[] = {128, 64, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0, 255, 255, 128, 100};
  for (std::size_t i = 0; i < sizeof px; ++i) {
    INFO("byte " << i);
    CHECK(int{px[i]} == int{want[i]});
  }
}
