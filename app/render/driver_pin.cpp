#include "render/driver_pin.h"

#include <dlfcn.h>
#include <link.h>

#include <cstring>

namespace rope::app {
namespace {

bool is_gl_driver(const char* path) {
  static const char* kParts[] = {"/dri/",      "libGLX_mesa", "libEGL_mesa",
                                 "libgallium", "libLLVM",     "libglapi"};
  for (const char* part : kParts)
    if (std::strstr(path, part)) return true;
  return false;
}

int pin(dl_phdr_info* info, std::size_t, void*) {
  if (info->dlpi_name && *info->dlpi_name && is_gl_driver(info->dlpi_name)) {
    // The returned handle is deliberately never closed: that is the point.
    dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  }
  return 0;
}

}  // namespace

void pin_gl_driver_libraries() {
  dl_iterate_phdr(pin, nullptr);
}

}  // namespace rope::app
