// partial_csv.cpp — a test driver printing rope::partial_frequencies as CSV, with the flags the
// future `rope-lab export frequencies` will take, so tests/cli/check_partial.py can compare it
// with an independent implementation before the app grows the flags.
//
//   partial_csv --dim D --base B --rotary-fraction P --rotary-style neox|proportional
//
// stdout: header "i,theta,wavelength", then one row per pair i = 0 ... D/2-1, numbers as %.17g
// (wavelength "inf" for a pair that does not rotate). Bad input: one line
// "partial_csv: error: PARAMETER: MESSAGE" on stderr, nothing on stdout, exit status 2.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rope/frequencies.h"
#include "rope/partial_rotary.h"

namespace {

// Numbers are read here rather than by CLI11: CLI11 2.1 parses a double through strtold and a
// cast, which can round twice and land one ulp away from the double Python reads from the same
// text, and int(D * P) flips at such ulps.
bool read_double(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && errno == 0;
}

bool read_int(const std::string& text, std::int64_t& out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc{} && ptr == text.data() + text.size();
}

int fail(const std::string& message) {
  std::fprintf(stderr, "partial_csv: error: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Print rope::partial_frequencies as CSV (test driver)", "partial_csv"};
  std::string dim_text, base_text, fraction_text = "1";
  std::string style_name = "neox";
  app.add_option("--dim", dim_text, "head dimension D")->required();
  app.add_option("--base", base_text, "base B")->required();
  app.add_option("--rotary-fraction", fraction_text, "rotary fraction P in (0, 1]")
      ->capture_default_str();
  app.add_option("--rotary-style", style_name, "neox or proportional")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    return fail(e.what());
  }
  std::int64_t dim = 0;
  double base = 0.0;
  double fraction = 0.0;
  if (!read_int(dim_text, dim)) return fail("dim: must be an integer, got '" + dim_text + "'");
  if (!read_double(base_text, base)) return fail("base: must be a number, got '" + base_text + "'");
  if (!read_double(fraction_text, fraction))
    return fail("rotary_fraction: must be a number, got '" + fraction_text + "'");
  const auto style = rope::parse_rotary_style(style_name);
  if (!style) {
    return fail("rotary_style: must be one of neox or proportional, got '" + style_name + "'");
  }
  const auto thetas = rope::partial_frequencies(dim, base, fraction, *style);
  if (!thetas) return fail(thetas.error().to_string());
  std::printf("i,theta,wavelength\n");
  for (std::size_t i = 0; i < thetas.value().size(); ++i) {
    const double theta = thetas.value()[i];
    std::printf("%zu,%.17g,%.17g\n", i, theta, rope::wavelength(theta));
  }
  return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
}
