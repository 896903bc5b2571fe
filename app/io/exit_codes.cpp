#include "io/exit_codes.h"

#include <cstdio>

namespace rope::app {

void print_error(const std::string& message) {
  std::fprintf(stderr, "rope-lab: error: %s\n", message.c_str());
}

}  // namespace rope::app
