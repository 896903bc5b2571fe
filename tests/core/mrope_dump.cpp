// mrope_dump.cpp — a test driver printing what rope/mrope.h computes for one sequence, so that
// tests/cli/check_mrope.py can recompute it independently from the models' code.
//
//   mrope_dump --segments text:3,image:2x3,text:2,video:3x2x2@0.5 --rule qwen2|qwen25|qwen25_int|
//              qwen3|videorope --dim D --base B --section a,b,c --layout chunked|interleaved|
//              videorope [--pairing half|interleaved] [--seconds-per-grid S]
//              [--tokens-per-second N] [--timestamp-tokens N] [--temporal-scale X]
//              [--seed N | --q v,v,... --k v,v,...] [--query I]
//
// A video's seconds per grid is @S after its grid, else --seconds-per-grid (default 1).
// stdout, comma-separated, numbers as %.17g:
//   q,<d values>                 the query vector (drawn from --seed unless --q is given)
//   k,<d values>                 the key vector
//   axes,<d/2 names>             the axis of each pair: t, h or w
//   query,<index>                the query token (default: the last)
//   token,segment,kind,frame,row,column,t,h,w,score,angle_0,...   header, then one row a token:
//                                its ids, the score of the query against k at its position, and
//                                its d/2 angles in radians
// Bad input: one line "mrope_dump: error: PARAMETER: MESSAGE" on stderr, nothing on stdout,
// exit status 2.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rope/mrope.h"
#include "rope/random.h"

namespace {

// Numbers are read with strtod / from_chars rather than by CLI11, so that the driver reads the
// same double as Python does from the same text.
bool read_double(std::string_view text, double& out) {
  if (text.empty()) return false;
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && errno == 0;
}

bool read_int(std::string_view text, std::int64_t& out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc{} && ptr == text.data() + text.size();
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(sep, start);
    out.push_back(
        text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

int fail(const std::string& message) {
  std::fprintf(stderr, "mrope_dump: error: %s\n", message.c_str());
  return 2;
}

// "text:N", "image:HxW", "video:TxHxW" or "video:TxHxW@S".
bool parse_segment(std::string_view item, double default_seconds, rope::MropeSegment& out) {
  const std::size_t colon = item.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view kind = item.substr(0, colon);
  std::string_view rest = item.substr(colon + 1);
  double seconds = default_seconds;
  if (const std::size_t at = rest.find('@'); at != std::string_view::npos) {
    if (kind != "video" || !read_double(rest.substr(at + 1), seconds)) return false;
    rest = rest.substr(0, at);
  }
  const auto parts = split(rest, 'x');
  std::vector<std::int64_t> n(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (!read_int(parts[i], n[i])) return false;
  if (kind == "text" && n.size() == 1) {
    out = rope::MropeSegment::text(n[0]);
  } else if (kind == "image" && n.size() == 2) {
    out = rope::MropeSegment::image(n[0], n[1]);
  } else if (kind == "video" && n.size() == 3) {
    out = rope::MropeSegment::video(n[0], n[1], n[2], seconds);
  } else {
    return false;
  }
  return true;
}

bool parse_doubles(std::string_view text, std::vector<double>& out) {
  out.clear();
  for (const std::string_view part : split(text, ',')) {
    double v = 0.0;
    if (!read_double(part, v)) return false;
    out.push_back(v);
  }
  return true;
}

void print_row(const char* label, const std::vector<double>& v) {
  std::printf("%s", label);
  for (const double x : v)
    std::printf(",%.17g", x);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Print rope::mrope_positions, angles and scores as CSV (test driver)", "mrope_dump"};
  std::string segments_text, rule_name = "qwen2", dim_text, base_text, section_text = "",
                             layout_name = "chunked", pairing_name = "half";
  std::string seconds_text = "1", tps_text = "2", timestamp_text = "0", scale_text = "2";
  std::string seed_text = "1", q_text, k_text, query_text;
  app.add_option("--segments", segments_text, "text:N,image:HxW,video:TxHxW[@S],...")->required();
  app.add_option("--rule", rule_name, "qwen2, qwen25, qwen25_int, qwen3 or videorope");
  app.add_option("--dim", dim_text, "head dimension D")->required();
  app.add_option("--base", base_text, "base B")->required();
  app.add_option("--section", section_text, "mrope_section a,b,c")->required();
  app.add_option("--layout", layout_name, "chunked, interleaved or videorope");
  app.add_option("--pairing", pairing_name, "half or interleaved");
  app.add_option("--seconds-per-grid", seconds_text, "default seconds per temporal grid");
  app.add_option("--tokens-per-second", tps_text, "Qwen2.5-VL tokens_per_second");
  app.add_option("--timestamp-tokens", timestamp_text, "Qwen3-VL tokens per frame timestamp");
  app.add_option("--temporal-scale", scale_text, "VideoRoPE delta");
  app.add_option("--seed", seed_text, "seed of the random q and k");
  app.add_option("--q", q_text, "the query vector v,v,... (instead of a random one)");
  app.add_option("--k", k_text, "the key vector v,v,... (instead of a random one)");
  app.add_option("--query", query_text, "index of the query token (default: the last)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    return fail(e.what());
  }

  // Flags.
  std::int64_t dim = 0, seed = 0;
  double base = 0.0, seconds = 0.0;
  rope::MropeRuleParams params;
  if (!read_int(dim_text, dim)) return fail("dim: must be an integer, got '" + dim_text + "'");
  if (!read_double(base_text, base)) return fail("base: must be a number, got '" + base_text + "'");
  if (!read_double(seconds_text, seconds))
    return fail("seconds_per_grid: must be a number, got '" + seconds_text + "'");
  if (!read_int(tps_text, params.tokens_per_second))
    return fail("tokens_per_second: must be an integer, got '" + tps_text + "'");
  if (!read_int(timestamp_text, params.timestamp_tokens))
    return fail("timestamp_tokens: must be an integer, got '" + timestamp_text + "'");
  if (!read_double(scale_text, params.temporal_scale))
    return fail("temporal_scale: must be a number, got '" + scale_text + "'");
  if (!read_int(seed_text, seed)) return fail("seed: must be an integer, got '" + seed_text + "'");
  const auto rule = rope::parse_mrope_rule(rule_name);
  if (!rule) {
    return fail("rule: must be one of qwen2, qwen25, qwen25_int, qwen3, videorope, got '" +
                rule_name + "'");
  }
  params.rule = *rule;
  const auto layout = rope::parse_mrope_layout(layout_name);
  if (!layout) {
    return fail("layout: must be one of chunked, interleaved, videorope, got '" + layout_name +
                "'");
  }
  const auto pairing = rope::parse_pairing(pairing_name);
  if (!pairing) return fail("pairing: must be half or interleaved, got '" + pairing_name + "'");
  rope::MropeSection section{};
  {
    const auto parts = split(section_text, ',');
    bool ok = parts.size() == 3;
    for (std::size_t i = 0; ok && i < 3; ++i)
      ok = read_int(parts[i], section[i]);
    if (!ok) return fail("mrope_section: must be three integers a,b,c, got '" + section_text + "'");
  }
  std::vector<rope::MropeSegment> segments;
  for (const std::string_view item : split(segments_text, ',')) {
    rope::MropeSegment s;
    if (!parse_segment(item, seconds, s)) {
      return fail("segments: each must be text:N, image:HxW or video:TxHxW[@S], got '" +
                  std::string(item) + "'");
    }
    segments.push_back(s);
  }

  // The sequence, the pair axes, q and k.
  auto tokens = rope::mrope_positions(segments, params);
  if (!tokens) return fail(tokens.error().to_string());
  auto axes = rope::mrope_pair_axes(dim, section, *layout);
  if (!axes) return fail(axes.error().to_string());
  std::vector<double> q, k;
  if (!q_text.empty() && !parse_doubles(q_text, q))
    return fail("q: must be numbers v,v,..., got '" + q_text + "'");
  if (!k_text.empty() && !parse_doubles(k_text, k))
    return fail("k: must be numbers v,v,..., got '" + k_text + "'");
  rope::SplitMix64 rng(static_cast<std::uint64_t>(seed));
  const auto draw = [&](std::vector<double>& v) {
    v.resize(static_cast<std::size_t>(dim));
    for (double& x : v)
      x = rng.uniform(-1.0, 1.0);
  };
  if (q_text.empty()) draw(q);
  if (k_text.empty()) draw(k);
  if (static_cast<std::int64_t>(q.size()) != dim || static_cast<std::int64_t>(k.size()) != dim) {
    return fail("q: q and k must have --dim = " + std::to_string(dim) + " entries, got " +
                std::to_string(q.size()) + " and " + std::to_string(k.size()));
  }
  const auto n = static_cast<std::int64_t>(tokens.value().size());
  std::int64_t query = n - 1;
  if (!query_text.empty() && (!read_int(query_text, query) || query < 0 || query >= n)) {
    return fail("query: must be an integer from 0 to " + std::to_string(n - 1) + ", got '" +
                query_text + "'");
  }
  const auto& toks = tokens.value();
  const auto scores =
      rope::mrope_scores(q, k, toks[static_cast<std::size_t>(query)].position,
                         rope::mrope_token_positions(toks), base, section, *layout, *pairing);
  if (!scores) return fail(scores.error().to_string());
  // Every angle row is computed before printing, so an error leaves stdout empty.
  std::vector<std::vector<double>> angles;
  for (const auto& tok : toks) {
    auto a = rope::mrope_angles(dim, base, section, *layout, tok.position);
    if (!a) return fail(a.error().to_string());
    angles.push_back(std::move(a).value());
  }

  // Output.
  print_row("q", q);
  print_row("k", k);
  std::printf("axes");
  for (const rope::MropeAxis a : axes.value())
    std::printf(",%s", rope::mrope_axis_name(a));
  std::printf("\nquery,%lld\n", static_cast<long long>(query));
  std::printf("token,segment,kind,frame,row,column,t,h,w,score");
  for (std::size_t j = 0; j < axes.value().size(); ++j)
    std::printf(",angle_%zu", j);
  std::printf("\n");
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const auto& tok = toks[i];
    std::printf("%zu,%d,%s,%d,%d,%d,%.17g,%.17g,%.17g,%.17g", i, tok.segment,
                rope::mrope_token_kind_name(tok.kind), tok.frame, tok.row, tok.column,
                tok.position.t, tok.position.h, tok.position.w, scores.value()[i]);
    for (const double a : angles[i])
      std::printf(",%.17g", a);
    std::printf("\n");
  }
  return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
}
