// Fuzz target: the TeX subset (app/typeset) parsed and laid out with the shipped math font, with
// one live value so that {{x}} placeholders are exercised too. Inputs past 4096 bytes are cut:
// an equation in a lesson is a line or two, and the fuzzer should spend its time on structure.
#include <cstdlib>

#include "fuzz_entry.h"
#include "rope/typeset/layout.h"

namespace {

const rope::typeset::MathFont& font() {
  static const rope::typeset::FontLoad loaded =
      rope::typeset::MathFont::load(rope::typeset::MathFont::kDefaultPath);
  if (!loaded.font) std::abort();  // the fuzzer needs the math font (fonts-lmodern)
  return *loaded.font;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rope::typeset;
  constexpr std::size_t kMaxBytes = 4096;
  const std::string_view tex = rope::fuzz::as_text(data, size < kMaxBytes ? size : kMaxBytes);
  const Values values{{"x", "-1.25"}, {"v", "(0.5, 2)"}};
  const Typeset t = typeset(tex, values, font(), LayoutOptions{});
  for (const Diagnostic& d : t.diagnostics)
    if (d.column < 1 || d.message.empty()) rope::fuzz::broken();  // a problem names its place
  return 0;
}
