#include "export/png.h"

#include <stb_image_write.h>

#include <algorithm>

#include "io/atomic_file.h"

namespace rope::app {

void unpremultiply(Image& image) {
  for (std::size_t i = 0; i + 3 < image.rgba.size(); i += 4) {
    const unsigned a = image.rgba[i + 3];
    for (std::size_t c = 0; c < 3; ++c) {
      const unsigned v = a == 0 ? 0U : std::min(255U, (image.rgba[i + c] * 255U + a / 2) / a);
      image.rgba[i + c] = static_cast<std::uint8_t>(v);
    }
  }
}

Result<std::string> encode_png(const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() !=
          static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4)
    return Error{"output", "the image to save is empty or malformed"};
  std::string bytes;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  const int ok = stbi_write_png_to_func(append, &bytes, image.width, image.height, 4,
                                        image.rgba.data(), image.width * 4);
  if (!ok) return Error{"output", "PNG encoding failed"};
  return bytes;
}

Status write_png(const std::filesystem::path& path, const Image& image) {
  auto bytes = encode_png(image);
  if (!bytes) return bytes.status();
  return write_file_atomic(path, bytes.value());
}

}  // namespace rope::app
