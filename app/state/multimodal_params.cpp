// state/multimodal_params.cpp — the multimodal view's sequence and section (multimodal_params.h).
#include "state/multimodal_params.h"

#include <charconv>

#include "io/number_format.h"
#include "io/text.h"
#include "state/params.h"

namespace rope::app {
namespace {

Error sequence_error(const std::string& message) {
  return Error{"mm_sequence", message};
}

// A whole number from lo to hi, the whole text.
bool whole_number(std::string_view text, int lo, int hi, int& out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc{} && ptr == text.data() + text.size() && out >= lo && out <= hi;
}

// "4x6" -> {4, 6}; the sides from 1 to their limits.
bool sides(std::string_view text, std::vector<int>& out, std::size_t count, int first_max) {
  out.clear();
  while (true) {
    const std::size_t x = text.find('x');
    const std::string_view part = text.substr(0, x);
    int v = 0;
    const int hi = out.empty() ? first_max : kMmMaxSide;
    if (!whole_number(part, 1, hi, v)) return false;
    out.push_back(v);
    if (x == std::string_view::npos) break;
    text.remove_prefix(x + 1);
  }
  return out.size() == count;
}

}  // namespace

Result<std::vector<MropeSegment>> parse_mm_sequence(std::string_view text) {
  const std::string allowed =
      "segments text:N (N 1 to 256), image:HxW (1 to 32 a side), video:TxHxW (T 1 to 16) "
      "separated by commas, at most 16 segments and 2048 tokens";
  std::vector<MropeSegment> out;
  std::int64_t tokens = 0;
  std::string_view rest = trim(text);
  if (rest.empty()) return sequence_error("must be " + allowed + ", got ''");
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const std::string where = "segment " + std::to_string(out.size() + 1) + " " +
                              quote_for_message(std::string(item)) + ": ";
    const std::size_t colon = item.find(':');
    const std::string_view kind = item.substr(0, colon);
    const std::string_view size =
        colon == std::string_view::npos ? std::string_view() : item.substr(colon + 1);
    std::vector<int> v;
    if (kind == "text") {
      int n = 0;
      if (!whole_number(size, 1, kMmMaxText, n))
        return sequence_error(where + "text:N needs N from 1 to 256");
      out.push_back(MropeSegment::text(n));
      tokens += n;
    } else if (kind == "image") {
      if (!sides(size, v, 2, kMmMaxSide))
        return sequence_error(where + "image:HxW needs H and W from 1 to 32");
      out.push_back(MropeSegment::image(v[0], v[1]));
      tokens += std::int64_t{v[0]} * v[1] + 2;
    } else if (kind == "video") {
      if (!sides(size, v, 3, kMmMaxFrames))
        return sequence_error(where + "video:TxHxW needs T from 1 to 16, H and W from 1 to 32");
      out.push_back(MropeSegment::video(v[0], v[1], v[2]));
      tokens += std::int64_t{v[0]} * v[1] * v[2] + 2;
    } else {
      return sequence_error(where + "must be text:N, image:HxW or video:TxHxW");
    }
    if (out.size() > static_cast<std::size_t>(kMmMaxSegments))
      return sequence_error("must have at most 16 segments");
  }
  if (tokens > kMmMaxTokens)
    return sequence_error("has " + std::to_string(tokens) +
                          " tokens (vision markers included), at most 2048 are drawn");
  return out;
}

Status check_mm_section_text(std::string_view text) {
  const std::string_view t = trim(text);
  if (t == "auto") return {};
  int parts = 0;
  std::string_view rest = t;
  while (true) {
    const std::size_t comma = rest.find(',');
    int v = 0;
    if (!whole_number(trim(rest.substr(0, comma)), 0, 2048, v)) break;
    ++parts;
    if (comma == std::string_view::npos) {
      if (parts == 3) return {};
      break;
    }
    rest.remove_prefix(comma + 1);
  }
  return Error{"mm_section",
               "must be auto or three whole numbers t,h,w (pairs per axis, summing "
               "to d/2), got " +
                   quote_for_message(std::string(text))};
}

MropeSection mm_default_section(int dim, MropeLayout layout) {
  const std::int64_t pairs = dim / 2;
  if (layout == MropeLayout::interleaved) {  // Qwen3-VL's (24, 20, 20) at 64 pairs
    const std::int64_t hw = pairs * 20 / 64;
    return {pairs - 2 * hw, hw, hw};
  }
  const std::int64_t t = dim / 8;  // Qwen2-VL's (16, 24, 24) at 64 pairs
  const std::int64_t rest = pairs - t;
  return {t, (rest + 1) / 2, rest / 2};
}

Result<MropeSection> mm_section(const Params& p, MropeLayout layout) {
  MropeSection s = mm_default_section(p.dim, layout);
  if (layout == p.mm_layout && trim(p.mm_section) != "auto") {
    std::string_view rest = trim(p.mm_section);
    for (std::int64_t& v : s) {
      const std::size_t comma = rest.find(',');
      int x = 0;
      if (!whole_number(trim(rest.substr(0, comma)), 0, 2048, x))
        return check_mm_section_text(p.mm_section).error();
      v = x;
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  // the core's name for it is mrope_section; here it is the parameter mm_section
  if (auto st = validate_mrope_section(p.dim, s, layout); !st)
    return Error{"mm_section", st.error().message};
  return s;
}

MropeRuleParams mm_rule_params(const Params& p) {
  MropeRuleParams r;
  r.rule = p.mm_rule;
  r.tokens_per_second = p.mm_tokens_per_second;
  return r;
}

Result<std::vector<MropeToken>> mm_tokens(const Params& p) {
  auto seq = parse_mm_sequence(p.mm_sequence);
  if (!seq) return seq.error();
  for (MropeSegment& s : seq.value())
    if (s.kind == MropeSegmentKind::video) s.seconds_per_grid = p.mm_seconds;
  return mrope_positions(seq.value(), mm_rule_params(p));
}

std::string mm_position_words(const MropePosition& at) {
  return "(" + format_number(at.t, NumberStyle::label, 6) + ", " +
         format_number(at.h, NumberStyle::label, 6) + ", " +
         format_number(at.w, NumberStyle::label, 6) + ")";
}

}  // namespace rope::app
