// tests/fuzz/replay_main.cpp — main() for the fuzz targets in builds without libFuzzer: runs the
// target once on every regular file named on the command line or found (recursively, in name
// order) in a folder named there, and prints how many inputs it ran. Exit 0 when all returned;
// a crash, a sanitizer report or a broken property ends the process as it would under libFuzzer.
//
//   fuzz_lesson assets/lessons tests/lessons/broken   ->  "fuzz_lesson: 31 inputs replayed"
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_entry.h"

namespace {

std::vector<std::filesystem::path> inputs_under(const std::filesystem::path& p) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  if (std::filesystem::is_directory(p, ec)) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(p, ec))
      if (e.is_regular_file(ec)) out.push_back(e.path());
  } else {
    out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// (stdio rather than an istreambuf_iterator, which gcc 12 at -O3 flags with -Wnull-dereference)
bool read_file(const std::filesystem::path& file, std::string& bytes) {
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) return false;
  char buffer[1 << 14];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0)
    bytes.append(buffer, got);
  const bool ok = std::ferror(f) == 0;
  std::fclose(f);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string name = std::filesystem::path(argv[0]).filename().string();
  int count = 0;
  for (int a = 1; a < argc; ++a) {
    for (const auto& file : inputs_under(argv[a])) {
      std::string bytes;
      if (!read_file(file, bytes)) {
        std::fprintf(stderr, "%s: cannot read %s\n", name.c_str(), file.c_str());
        return 1;
      }
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++count;
    }
  }
  if (count == 0) {
    std::fprintf(stderr, "%s: no inputs found in the paths given\n", name.c_str());
    return 1;
  }
  std::printf("%s: %d inputs replayed\n", name.c_str(), count);
  return 0;
}
