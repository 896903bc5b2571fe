#include "io/exit_codes.h"

#include <algorithm>
#include <cstdio>

namespace rope::app {

std::string readable_message(std::string_view message) {
  std::string out;
  out.reserve(std::min(message.size(), std::size_t{4096}));
  std::size_t i = 0;
  while (i < message.size()) {
    if (message[i] == ' ') {
      out += ' ';
      ++i;
      continue;
    }
    const std::size_t end = std::min(message.find(' ', i), message.size());
    std::string_view run = message.substr(i, end - i);
    const bool cut = run.size() > kLongRun;
    if (cut) {
      std::size_t n = kShownBytes;  // back to the start of a UTF-8 character
      while (n > 0 && (static_cast<unsigned char>(run[n]) & 0xC0) == 0x80)
        --n;
      run = run.substr(0, n);
    }
    for (const char c : run) {
      const auto u = static_cast<unsigned char>(c);
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\r') {
        out += "\\r";
      } else if (u < 0x20 || u == 0x7F) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02X", u);
        out += hex;
      } else {
        out += c;
      }
    }
    if (cut) out += "... (" + std::to_string(end - i) + " bytes)";
    i = end;
  }
  return out;
}

void print_error(const std::string& message) {
  std::fprintf(stderr, "rope-lab: error: %s\n", readable_message(message).c_str());
}

}  // namespace rope::app
