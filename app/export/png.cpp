#include "export/png.h"

#include <stb_image_write.h>

#include "export/atomic_file.h"

namespace rope::app {

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
