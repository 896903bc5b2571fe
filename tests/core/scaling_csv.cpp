// scaling_csv — a test-only driver that prints rope::scaled_frequencies as CSV, with the flags
// the future `rope-lab export frequencies --scaling ...` will take. check_scaling.py runs it
// against an independent Python implementation of the same formulas.
//
//   scaling_csv --dim 128 --base 10000 --scaling yarn --factor 8 --original-context 4096
//
// Columns: i,theta,wavelength,theta_scaled,wavelength_scaled,ratio,rotations_per_context,
// attention_factor — every number %.17g; the wavelength of θ = 0 is "inf"; ratio = θ′/θ;
// rotations_per_context = L·θ/2π of the original θ. Bad input: exit 2, one line on stderr
// naming the flag ("scaling_csv: error: --factor: must be ...").
#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "rope/frequencies.h"
#include "rope/scaling.h"

namespace {

constexpr int kExitUsage = 2;

int fail(const std::string& message) {
  std::fprintf(stderr, "scaling_csv: error: %s\n", message.c_str());
  return kExitUsage;
}

// "original_context" -> "--original-context"; the lists come from files: "--long-factor-file".
std::string flag_of(const std::string& parameter) {
  std::string f = "--" + parameter;
  for (char& c : f)
    if (c == '_') c = '-';
  if (parameter == "long_factor" || parameter == "short_factor") f += "-file";
  return f;
}

// The whole text must be one number ("nan" and "inf" included: validation names them).
bool parse_double(const std::string& text, double& out) {
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, out);
  return r.ec == std::errc{} && r.ptr == end && !text.empty();
}

bool parse_int(const std::string& text, std::int64_t& out) {
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, out);
  return r.ec == std::errc{} && r.ptr == end && !text.empty();
}

// Numbers separated by commas, spaces or newlines.
bool read_list(const std::string& path, const std::string& flag, std::vector<double>& out,
               std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = flag + ": cannot read '" + path + "'";
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string all = text.str();
  for (char& c : all)
    if (c == ',' || c == '\n' || c == '\r' || c == '\t') c = ' ';
  std::istringstream words(all);
  std::string word;
  while (words >> word) {
    double v = 0.0;
    if (!parse_double(word, v)) {
      error = flag + ": entry " + std::to_string(out.size() + 1) + " must be a number, got '" +
              word + "'";
      return false;
    }
    out.push_back(v);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Print rope::scaled_frequencies as CSV (test driver)", "scaling_csv"};
  std::string dim_text, base_text, method_text = "none", long_file, short_file;
  std::string factor_text, context_text, beta_fast_text, beta_slow_text, truncate_text;
  std::string low_text, high_text, length_text, attention_text, mscale_text, mscale_all_text;
  std::string fraction_text;
  app.add_option("--dim", dim_text, "rotary dimension d")->required();
  app.add_option("--base", base_text, "base b")->required();
  app.add_option("--scaling", method_text, "none, linear, ntk, dynamic, yarn, llama3, ...");
  app.add_option("--factor", factor_text, "s");
  app.add_option("--original-context", context_text, "L");
  app.add_option("--beta-fast", beta_fast_text);
  app.add_option("--beta-slow", beta_slow_text);
  app.add_option("--truncate", truncate_text, "true or false");
  app.add_option("--low-freq-factor", low_text);
  app.add_option("--high-freq-factor", high_text);
  app.add_option("--sequence-length", length_text);
  app.add_option("--attention-factor", attention_text);
  app.add_option("--mscale", mscale_text);
  app.add_option("--mscale-all-dim", mscale_all_text);
  app.add_option("--rotary-fraction", fraction_text);
  app.add_option("--long-factor-file", long_file);
  app.add_option("--short-factor-file", short_file);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    for (char& c : what)
      if (c == '\n') c = ' ';
    return fail(what);
  }

  rope::ScalingParams p;
  std::int64_t dim = 0;
  double base = 0.0;
  if (!parse_int(dim_text, dim)) return fail("--dim: must be an integer, got '" + dim_text + "'");
  if (!parse_double(base_text, base))
    return fail("--base: must be a number, got '" + base_text + "'");
  const auto method = rope::parse_scaling(method_text);
  if (!method)
    return fail(
        "--scaling: must be one of none, linear, ntk, dynamic, yarn, llama3, longrope or "
        "proportional, got '" +
        method_text + "'");
  p.method = *method;

  struct RealFlag {
    const char* flag;
    const std::string& text;
    double& value;
  };
  for (const RealFlag& f : {RealFlag{"--factor", factor_text, p.factor},
                            RealFlag{"--beta-fast", beta_fast_text, p.beta_fast},
                            RealFlag{"--beta-slow", beta_slow_text, p.beta_slow},
                            RealFlag{"--low-freq-factor", low_text, p.low_freq_factor},
                            RealFlag{"--high-freq-factor", high_text, p.high_freq_factor},
                            RealFlag{"--attention-factor", attention_text, p.attention_factor},
                            RealFlag{"--mscale", mscale_text, p.mscale},
                            RealFlag{"--mscale-all-dim", mscale_all_text, p.mscale_all_dim},
                            RealFlag{"--rotary-fraction", fraction_text, p.rotary_fraction}}) {
    if (!f.text.empty() && !parse_double(f.text, f.value))
      return fail(std::string(f.flag) + ": must be a number, got '" + f.text + "'");
  }
  if (!context_text.empty() && !parse_int(context_text, p.original_context))
    return fail("--original-context: must be an integer, got '" + context_text + "'");
  if (!length_text.empty() && !parse_int(length_text, p.sequence_length))
    return fail("--sequence-length: must be an integer, got '" + length_text + "'");
  if (!truncate_text.empty()) {
    if (truncate_text != "true" && truncate_text != "false")
      return fail("--truncate: must be true or false, got '" + truncate_text + "'");
    p.truncate = truncate_text == "true";
  }
  std::string error;
  if (!long_file.empty() && !read_list(long_file, "--long-factor-file", p.long_factor, error))
    return fail(error);
  if (!short_file.empty() && !read_list(short_file, "--short-factor-file", p.short_factor, error))
    return fail(error);

  const auto result = rope::scaled_frequencies(dim, base, p);
  if (!result) return fail(flag_of(result.error().parameter) + ": " + result.error().message);
  const rope::ScaledFrequencies& r = result.value();

  std::printf(
      "i,theta,wavelength,theta_scaled,wavelength_scaled,ratio,rotations_per_context,"
      "attention_factor\n");
  const double context = static_cast<double>(p.original_context);
  for (std::size_t i = 0; i < r.theta.size(); ++i) {
    const double t = r.theta[i];
    const double t2 = r.theta_scaled[i];
    std::printf("%zu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", i, t, rope::wavelength(t), t2,
                rope::wavelength(t2), t2 / t, rope::rotations_per_context(t, context),
                r.attention_factor);
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}
