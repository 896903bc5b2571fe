// mrope.cpp — M-RoPE: three position ids per token, and d/2 pairs shared out between them.
//
// [SECTION] Names
// [SECTION] Position ids (the get_rope_index functions)
// [SECTION] Pair layouts and angles
// [SECTION] Scores
#include "rope/mrope.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "internal.h"
#include "rope/frequencies.h"
#include "rope/rotation.h"

namespace rope {

// -----------------------------------------------------------------------------------------------
// [SECTION] Names
// -----------------------------------------------------------------------------------------------

const char* mrope_rule_name(MropeRule rule) {
  switch (rule) {
    case MropeRule::qwen2_vl:
      return "qwen2";
    case MropeRule::qwen2_5_vl:
      return "qwen25";
    case MropeRule::qwen2_5_vl_int_seconds:
      return "qwen25_int";
    case MropeRule::qwen3_vl:
      return "qwen3";
    case MropeRule::videorope:
      return "videorope";
  }
  return "qwen2";
}

std::optional<MropeRule> parse_mrope_rule(std::string_view name) {
  for (const MropeRule r :
       {MropeRule::qwen2_vl, MropeRule::qwen2_5_vl, MropeRule::qwen2_5_vl_int_seconds,
        MropeRule::qwen3_vl, MropeRule::videorope}) {
    if (name == mrope_rule_name(r)) return r;
  }
  return std::nullopt;
}

const char* mrope_token_kind_name(MropeTokenKind kind) {
  switch (kind) {
    case MropeTokenKind::text:
      return "text";
    case MropeTokenKind::vision_start:
      return "vision_start";
    case MropeTokenKind::vision_end:
      return "vision_end";
    case MropeTokenKind::timestamp:
      return "timestamp";
    case MropeTokenKind::patch:
      return "patch";
  }
  return "text";
}

const char* mrope_layout_name(MropeLayout layout) {
  switch (layout) {
    case MropeLayout::chunked:
      return "chunked";
    case MropeLayout::interleaved:
      return "interleaved";
    case MropeLayout::videorope:
      return "videorope";
  }
  return "chunked";
}

std::optional<MropeLayout> parse_mrope_layout(std::string_view name) {
  for (const MropeLayout l :
       {MropeLayout::chunked, MropeLayout::interleaved, MropeLayout::videorope}) {
    if (name == mrope_layout_name(l)) return l;
  }
  return std::nullopt;
}

const char* mrope_axis_name(MropeAxis axis) {
  switch (axis) {
    case MropeAxis::t:
      return "t";
    case MropeAxis::h:
      return "h";
    case MropeAxis::w:
      return "w";
  }
  return "t";
}

// -----------------------------------------------------------------------------------------------
// [SECTION] Position ids (the get_rope_index functions)
// -----------------------------------------------------------------------------------------------
//
// All four models walk the sequence the same way (get_rope_index): they cut it into blocks —
// each run of text tokens, each vision block — and keep a list of the blocks' ids. A block starts
// at st_idx = (largest id of the previous block) + 1, or 0 for the first. Every vision block is
// preceded by its <|vision_start|> text token, so text and vision blocks alternate and the text
// before a vision block is never empty here.
//
// float32: two rules compute with float tensors, and the ids they give depend on float32 rounding
// (a truncation or a sum can land one below where double arithmetic lands).
//   * Qwen2.5-VL: torch.arange (int64) * second_per_grid_t (a float32 tensor from the processor,
//     or the Python float 1.0) * tokens_per_second is a float32 product, then .long() truncates.
//   * VideoRoPE: its position_ids tensor is float32 and t_index * scale_factor is float32, so
//     every id it makes is a float32 sum (get_t_scale_rope_index).
// A float32 sum or product is reproduced by doing it in double and rounding once to float: the
// double result of two floats' + or * rounds to the same float as the exact result (53 >= 2*24 +
// 2 bits), and no fused multiply-add can change it since the double product is exact.

namespace {

float f32_mul(float a, float b) {
  return static_cast<float>(static_cast<double>(a) * static_cast<double>(b));
}
float f32_add(float a, float b) {
  return static_cast<float>(static_cast<double>(a) + static_cast<double>(b));
}

Error segment_error(std::size_t index, const char* kind, const std::string& what) {
  return Error{"segments", "segment " + std::to_string(index) + " (" + kind + "): " + what};
}

std::string range_text(std::int64_t lo, std::int64_t hi, std::int64_t got) {
  return "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
         std::to_string(got);
}

const char* kind_name(MropeSegmentKind kind) {
  switch (kind) {
    case MropeSegmentKind::text:
      return "text";
    case MropeSegmentKind::image:
      return "image";
    case MropeSegmentKind::video:
      return "video";
  }
  return "text";
}

Status validate_rule_params(const MropeRuleParams& p) {
  if (p.tokens_per_second < 1 || p.tokens_per_second > 1000)
    return Error{"tokens_per_second", range_text(1, 1000, p.tokens_per_second)};
  if (p.timestamp_tokens < 0 || p.timestamp_tokens > 64)
    return Error{"timestamp_tokens", range_text(0, 64, p.timestamp_tokens)};
  if (!std::isfinite(p.temporal_scale) || !(p.temporal_scale > 0.0) || p.temporal_scale > 64.0) {
    return Error{"temporal_scale", "must be a finite number greater than 0 and at most 64, got " +
                                       detail::format_number(p.temporal_scale)};
  }
  return {};
}

// The number of tokens segment s becomes under `rule`, or an error. Sides are checked first, so
// the products stay far below int64 overflow.
Result<std::int64_t> segment_tokens(const MropeSegment& s, std::size_t index, MropeRule rule,
                                    std::int64_t timestamp_tokens) {
  const char* kind = kind_name(s.kind);
  const auto side = [&](const char* field, std::int64_t v) -> Status {
    if (v < 1 || v > kMropeMaxGridSide)
      return segment_error(index, kind,
                           std::string(field) + " " + range_text(1, kMropeMaxGridSide, v));
    return {};
  };
  switch (s.kind) {
    case MropeSegmentKind::text:
      if (s.length < 1 || s.length > kMropeMaxTokens)
        return segment_error(index, kind, "length " + range_text(1, kMropeMaxTokens, s.length));
      return s.length;
    case MropeSegmentKind::image:
      if (s.grid_t != 1)
        return segment_error(index, kind, "grid_t must be 1, got " + std::to_string(s.grid_t));
      if (auto st = side("grid_h", s.grid_h); !st) return st.error();
      if (auto st = side("grid_w", s.grid_w); !st) return st.error();
      return 2 + s.grid_h * s.grid_w;
    case MropeSegmentKind::video:
      if (auto st = side("grid_t", s.grid_t); !st) return st.error();
      if (auto st = side("grid_h", s.grid_h); !st) return st.error();
      if (auto st = side("grid_w", s.grid_w); !st) return st.error();
      if (!std::isfinite(s.seconds_per_grid) || s.seconds_per_grid < 0.0 ||
          s.seconds_per_grid > 3600.0) {
        return segment_error(index, kind,
                             "seconds_per_grid must be a finite number from 0 to 3600, got " +
                                 detail::format_number(s.seconds_per_grid));
      }
      if (rule == MropeRule::qwen3_vl)
        return s.grid_t * (timestamp_tokens + 2 + s.grid_h * s.grid_w);
      return 2 + s.grid_t * s.grid_h * s.grid_w;
  }
  return segment_error(index, kind, "unknown kind");
}

// The walk over blocks. Text tokens are pushed one at a time; a vision block is pushed whole.
class IdWalker {
 public:
  IdWalker(const MropeRuleParams& p, std::vector<MropeToken>& out)
      : p_(p), out_(out), videorope_(p.rule == MropeRule::videorope) {}

  void text(MropeTokenKind kind, int segment, int frame) {
    if (!in_text_) {
      text_start_ = next_start();
      text_length_ = 0;
      in_text_ = true;
    }
    // Text ids: torch.arange(text_len) + st_idx (every get_rope_index). VideoRoPE's st_idx can be
    // a float32 tensor, so its ids are float32 sums.
    const double id = videorope_ ? static_cast<double>(f32_add(static_cast<float>(text_length_),
                                                               static_cast<float>(text_start_)))
                                 : text_start_ + static_cast<double>(text_length_);
    out_.push_back({{id, id, id}, kind, segment, frame, -1, -1});
    ++text_length_;
    last_max_ = id;  // a text block's largest id (t, h and w alike) is its last
    has_block_ = true;
  }

  // A vision block of `frames` x rows x columns patches of segment `segment`. `frame_label` is
  // the frame reported for the first temporal grid (Qwen3-VL's one-frame blocks carry theirs).
  void vision(const MropeSegment& s, int segment, std::int64_t frames, int frame_label) {
    // The text block before it (the model appends it, then the vision block): st_idx is where it
    // started, text_len its length.
    const double st_idx = in_text_ ? text_start_ : next_start();
    const std::int64_t text_len = in_text_ ? text_length_ : 0;
    in_text_ = false;
    const std::int64_t rows = s.grid_h, columns = s.grid_w;
    if (videorope_) {
      vision_videorope(segment, frames, rows, columns, st_idx, text_len);
      return;
    }
    // Qwen: stack([t_index, h_index, w_index]) + text_len + st_idx, all int64.
    const double st = st_idx + static_cast<double>(text_len);
    double block_max = st;
    for (std::int64_t f = 0; f < frames; ++f) {
      const double t = st + static_cast<double>(time_index(s, f));
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < columns; ++c) {
          const MropePosition pos{t, st + static_cast<double>(r), st + static_cast<double>(c)};
          block_max = std::max({block_max, pos.t, pos.h, pos.w});
          out_.push_back({pos, MropeTokenKind::patch, segment, frame_label + static_cast<int>(f),
                          static_cast<int>(r), static_cast<int>(c)});
        }
    }
    last_max_ = block_max;  // llm_pos_ids_list[-1].max(): the largest of t, h and w
    has_block_ = true;
  }

 private:
  // st_idx of a new block: llm_pos_ids_list[-1].max() + 1 (VideoRoPE: [-1][0].max() + 1, the
  // largest t, as a float32 tensor), or 0 for the first block.
  double next_start() const {
    if (!has_block_) return 0.0;
    return videorope_ ? static_cast<double>(f32_add(static_cast<float>(last_max_), 1.0f))
                      : last_max_ + 1.0;
  }

  // The temporal id offset of temporal grid f (patches of grid f have t = st + time_index).
  std::int64_t time_index(const MropeSegment& s, std::int64_t f) const {
    if (s.kind == MropeSegmentKind::image) return 0;  // T = 1 (Qwen2.5-VL: second_per_grid_t = 0)
    switch (p_.rule) {
      case MropeRule::qwen2_5_vl: {
        // Qwen2_5_VLModel.get_rope_index (PR #35569): time_tensor = expanded_range *
        // second_per_grid_t * tokens_per_second in float32, then time_tensor.long().
        const float step = f32_mul(static_cast<float>(f), static_cast<float>(s.seconds_per_grid));
        const float t = f32_mul(step, static_cast<float>(p_.tokens_per_second));
        return static_cast<std::int64_t>(t);  // .long(): toward zero; t >= 0 and < 4e9 here
      }
      case MropeRule::qwen2_5_vl_int_seconds: {
        // The later transformers version: torch.as_tensor(second_per_grid_t,
        // dtype=range_tensor.dtype) casts the float32 seconds to int64 (toward zero) first.
        const auto seconds = static_cast<std::int64_t>(static_cast<float>(s.seconds_per_grid));
        return f * seconds * p_.tokens_per_second;
      }
      case MropeRule::qwen2_vl:
        return f;  // Qwen2VLModel.get_rope_index: t_index = arange(T)
      case MropeRule::qwen3_vl:
      case MropeRule::videorope:
        return 0;  // Qwen3-VL blocks are one frame; VideoRoPE elsewhere
    }
    return f;
  }

  // VideoRoPE (get_t_scale_rope_index): t = (f * scale + text_len) + st_idx, h = (r - (H-1)//2)
  // + t, w = (c - (W-1)//2) + t, every operation float32; the block's largest t goes on.
  void vision_videorope(int segment, std::int64_t frames, std::int64_t rows, std::int64_t columns,
                        double st_idx, std::int64_t text_len) {
    const auto scale = static_cast<float>(p_.temporal_scale);
    const std::int64_t h_shift = (rows - 1) / 2, w_shift = (columns - 1) / 2;
    float t_max = 0.0f;
    for (std::int64_t f = 0; f < frames; ++f) {
      const float t =
          f32_add(f32_add(f32_mul(static_cast<float>(f), scale), static_cast<float>(text_len)),
                  static_cast<float>(st_idx));
      t_max = f == 0 ? t : std::max(t_max, t);
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < columns; ++c) {
          const float h = f32_add(static_cast<float>(r - h_shift), t);
          const float w = f32_add(static_cast<float>(c - w_shift), t);
          out_.push_back({{static_cast<double>(t), static_cast<double>(h), static_cast<double>(w)},
                          MropeTokenKind::patch,
                          segment,
                          static_cast<int>(f),
                          static_cast<int>(r),
                          static_cast<int>(c)});
        }
    }
    last_max_ = static_cast<double>(t_max);
    has_block_ = true;
  }

  const MropeRuleParams& p_;
  std::vector<MropeToken>& out_;
  bool videorope_;
  bool has_block_ = false;   // llm_pos_ids_list is not empty
  double last_max_ = 0.0;    // largest id of the last block (VideoRoPE: largest t)
  bool in_text_ = false;     // a text block is open
  double text_start_ = 0.0;  // its st_idx
  std::int64_t text_length_ = 0;
};

}  // namespace

Result<std::vector<MropeToken>> mrope_positions(std::span<const MropeSegment> segments,
                                                const MropeRuleParams& params) {
  if (auto s = validate_rule_params(params); !s) return s.error();
  if (segments.empty()) return Error{"segments", "must hold at least one segment, got none"};
  // Pass 1: validate every segment and count the tokens before allocating.
  std::int64_t total = 0;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    auto n = segment_tokens(segments[i], i, params.rule, params.timestamp_tokens);
    if (!n) return n.error();
    total += n.value();
    if (total > kMropeMaxTokens) {
      return Error{"segments", "must hold at most " + std::to_string(kMropeMaxTokens) +
                                   " tokens in all; segments 0 ... " + std::to_string(i) +
                                   " already hold " + std::to_string(total)};
    }
  }
  // Pass 2: the tokens, in order, with their ids.
  std::vector<MropeToken> out;
  out.reserve(static_cast<std::size_t>(total));
  IdWalker walk(params, out);
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const MropeSegment& s = segments[i];
    const int seg = static_cast<int>(i);
    if (s.kind == MropeSegmentKind::text) {
      for (std::int64_t j = 0; j < s.length; ++j)
        walk.text(MropeTokenKind::text, seg, -1);
    } else if (s.kind == MropeSegmentKind::video && params.rule == MropeRule::qwen3_vl) {
      // Qwen3VLModel.get_rope_index: video_grid_thw = repeat_interleave(video_grid_thw, T) with
      // T set to 1, so each frame is its own block; Qwen3VLProcessor writes
      // "<x.x seconds><|vision_start|>" before each frame and "<|vision_end|>" after it.
      for (std::int64_t f = 0; f < s.grid_t; ++f) {
        const int frame = static_cast<int>(f);
        for (std::int64_t j = 0; j < params.timestamp_tokens; ++j)
          walk.text(MropeTokenKind::timestamp, seg, frame);
        walk.text(MropeTokenKind::vision_start, seg, frame);
        walk.vision(s, seg, 1, frame);
        walk.text(MropeTokenKind::vision_end, seg, frame);
      }
    } else {
      walk.text(MropeTokenKind::vision_start, seg, -1);
      walk.vision(s, seg, s.grid_t, 0);
      walk.text(MropeTokenKind::vision_end, seg, -1);
    }
  }
  return out;
}

std::vector<MropePosition> mrope_token_positions(std::span<const MropeToken> tokens) {
  std::vector<MropePosition> out(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i)
    out[i] = tokens[i].position;
  return out;
}

// -----------------------------------------------------------------------------------------------
// [SECTION] Pair layouts and angles
// -----------------------------------------------------------------------------------------------

namespace {

std::string section_text(const MropeSection& s) {
  return std::to_string(s[0]) + "," + std::to_string(s[1]) + "," + std::to_string(s[2]);
}

double component(MropePosition p, MropeAxis axis) {
  switch (axis) {
    case MropeAxis::t:
      return p.t;
    case MropeAxis::h:
      return p.h;
    case MropeAxis::w:
      return p.w;
  }
  return p.t;
}

Status validate_mrope_position(MropePosition p, const std::string& prefix) {
  if (auto s = validate_position(p.t, (prefix + "_t").c_str()); !s) return s;
  if (auto s = validate_position(p.h, (prefix + "_h").c_str()); !s) return s;
  return validate_position(p.w, (prefix + "_w").c_str());
}

// Axes of the d/2 pairs; dim and section already validated.
std::vector<MropeAxis> axes_of(std::int64_t half, const MropeSection& s, MropeLayout layout) {
  std::vector<MropeAxis> axes(static_cast<std::size_t>(half), MropeAxis::t);
  for (std::int64_t j = 0; j < half; ++j) {
    MropeAxis a = MropeAxis::t;
    switch (layout) {
      case MropeLayout::chunked:
        // apply_multimodal_rotary_pos_emb (Qwen2-VL, Qwen2.5-VL): cos.split(mrope_section * 2)
        // cuts the d cos entries into t, h, w, t, h, w chunks and chunk i takes axis i % 3; in
        // each half (rotate_half) pair j is in chunk t, h or w by its place in (s_t, s_h, s_w).
        a = j < s[0] ? MropeAxis::t : (j < s[0] + s[1] ? MropeAxis::h : MropeAxis::w);
        break;
      case MropeLayout::interleaved:
        // Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope: freqs_t = freqs[0], then
        // freqs_t[..., 1:3 s_h:3] = freqs[1] and freqs_t[..., 2:3 s_w:3] = freqs[2].
        if (j % 3 == 1 && j < 3 * s[1]) a = MropeAxis::h;
        if (j % 3 == 2 && j < 3 * s[2]) a = MropeAxis::w;
        break;
      case MropeLayout::videorope:
        // apply_m_modify_multimodal_rotary_pos_emb: sections [s_h + s_w, s_t] per half; the first
        // alternates rows 1, 2 (h, w) from h, the second takes row 0 (t).
        if (j < s[1] + s[2]) a = j % 2 == 0 ? MropeAxis::h : MropeAxis::w;
        break;
    }
    axes[static_cast<std::size_t>(j)] = a;
  }
  return axes;
}

std::vector<double> angles_of(std::int64_t dim, double base, std::span<const MropeAxis> axes,
                              MropePosition at) {
  std::vector<double> a(axes.size());
  for (std::size_t j = 0; j < axes.size(); ++j)
    a[j] = component(at, axes[j]) * theta(static_cast<int>(j), static_cast<int>(dim), base);
  return a;
}

}  // namespace

Status validate_mrope_section(std::int64_t dim, const MropeSection& section, MropeLayout layout) {
  if (auto s = validate_dim(dim); !s) return s;
  const std::int64_t half = dim / 2;
  for (const std::int64_t v : section) {
    if (v < 0 || v > half) {
      return Error{"mrope_section", "entries must be integers from 0 to d/2 = " +
                                        std::to_string(half) + ", got " + section_text(section)};
    }
  }
  // Chunked: torch.split needs the chunks to cover the d cos entries exactly. VideoRoPE: its
  // loop gathers 2 (s_t + s_h + s_w) entries and multiplies them with q. Interleaved: the code
  // needs nothing, but s_t = d/2 - s_h - s_w is then the t count.
  const std::int64_t sum = section[0] + section[1] + section[2];
  if (sum != half) {
    return Error{"mrope_section", "must sum to d/2 = " + std::to_string(half) + ", got " +
                                      std::to_string(sum) + " (" + section_text(section) + ")"};
  }
  if (layout == MropeLayout::interleaved) {
    // apply_interleaved_mrope gives axis k (1 = h, 2 = w) the pairs k, k + 3, ... below 3 s_k;
    // all s_k of them exist only if the last, 3 s_k - 3 + k, is below d/2.
    for (int k = 1; k <= 2; ++k) {
      const std::int64_t v = section[static_cast<std::size_t>(k)];
      const std::int64_t last = 3 * v - 3 + k;
      if (v > 0 && last >= half) {
        return Error{"mrope_section",
                     std::string("the interleaved layout puts ") + (k == 1 ? "h" : "w") +
                         " on pairs " + std::to_string(k) + ", " + std::to_string(k + 3) +
                         ", ..., " + std::to_string(last) + " (3 * " + std::to_string(v) + " - " +
                         std::to_string(3 - k) +
                         "), past the last pair d/2 - 1 = " + std::to_string(half - 1)};
      }
    }
  }
  return {};
}

Result<std::vector<MropeAxis>> mrope_pair_axes(std::int64_t dim, const MropeSection& section,
                                               MropeLayout layout) {
  if (auto s = validate_mrope_section(dim, section, layout); !s) return s.error();
  return axes_of(dim / 2, section, layout);
}

Result<std::vector<double>> mrope_angles(std::int64_t dim, double base, const MropeSection& section,
                                         MropeLayout layout, MropePosition at) {
  auto axes = mrope_pair_axes(dim, section, layout);
  if (!axes) return axes.error();
  if (auto s = validate_base(base); !s) return s.error();
  if (auto s = validate_mrope_position(at, "position"); !s) return s.error();
  return angles_of(dim, base, axes.value(), at);
}

Result<std::vector<double>> mrope_rotate(std::span<const double> x, MropePosition at, double base,
                                         const MropeSection& section, MropeLayout layout,
                                         Pairing pairing) {
  auto a = mrope_angles(static_cast<std::int64_t>(x.size()), base, section, layout, at);
  if (!a) return a.error();
  std::vector<double> y(x.size());
  detail::rotate_by_angles(x, a.value(), pairing, y);
  return y;
}

// -----------------------------------------------------------------------------------------------
// [SECTION] Scores
// -----------------------------------------------------------------------------------------------

namespace {

// q and k: a valid d, the same length; base and section valid.
Status validate_pair(std::span<const double> q, std::span<const double> k, double base,
                     const MropeSection& section, MropeLayout layout) {
  const auto d = static_cast<std::int64_t>(q.size());
  if (auto s = validate_mrope_section(d, section, layout); !s) return s;
  if (k.size() != q.size())
    return detail::size_error("key", q.size(), k.size(), "[d], as many as the query");
  return validate_base(base);
}

}  // namespace

Result<double> mrope_score(std::span<const double> q, std::span<const double> k,
                           MropePosition query_at, MropePosition key_at, double base,
                           const MropeSection& section, MropeLayout layout, Pairing pairing) {
  if (auto s = validate_pair(q, k, base, section, layout); !s) return s.error();
  if (auto s = validate_mrope_position(query_at, "query"); !s) return s.error();
  if (auto s = validate_mrope_position(key_at, "key"); !s) return s.error();
  auto rq = mrope_rotate(q, query_at, base, section, layout, pairing);
  if (!rq) return rq.error();
  auto rk = mrope_rotate(k, key_at, base, section, layout, pairing);
  if (!rk) return rk.error();
  return dot(rq.value(), rk.value());
}

Result<double> mrope_relative_score(std::span<const double> q, std::span<const double> k,
                                    MropePosition offset, double base, const MropeSection& section,
                                    MropeLayout layout, Pairing pairing) {
  if (auto s = validate_pair(q, k, base, section, layout); !s) return s.error();
  if (auto s = validate_mrope_position(offset, "offset"); !s) return s.error();
  auto rk = mrope_rotate(k, offset, base, section, layout, pairing);
  if (!rk) return rk.error();
  return dot(q, rk.value());
}

Result<std::vector<double>> mrope_scores(std::span<const double> q, std::span<const double> k,
                                         MropePosition query_at,
                                         std::span<const MropePosition> key_positions, double base,
                                         const MropeSection& section, MropeLayout layout,
                                         Pairing pairing) {
  if (auto s = validate_pair(q, k, base, section, layout); !s) return s.error();
  if (auto s = validate_mrope_position(query_at, "query"); !s) return s.error();
  if (key_positions.size() > static_cast<std::size_t>(kMropeMaxTokens)) {
    return Error{"key_positions", "must have at most " + std::to_string(kMropeMaxTokens) +
                                      " entries, got " + std::to_string(key_positions.size())};
  }
  for (std::size_t i = 0; i < key_positions.size(); ++i) {
    const MropePosition p = key_positions[i];
    for (const MropeAxis axis : {MropeAxis::t, MropeAxis::h, MropeAxis::w}) {
      const double v = component(p, axis);
      if (!std::isfinite(v)) {
        return Error{"key_positions", "entry " + std::to_string(i) + " has " +
                                          mrope_axis_name(axis) + " = " + detail::format_number(v) +
                                          "; ids must be finite"};
      }
    }
  }
  const auto d = static_cast<std::int64_t>(q.size());
  const std::vector<MropeAxis> axes = axes_of(d / 2, section, layout);
  std::vector<double> rq(q.size());
  detail::rotate_by_angles(q, angles_of(d, base, axes, query_at), pairing, rq);
  // With rq = R(query_at) q fixed, pair j contributes rq_a (k_a c - k_b s) + rq_b (k_a s + k_b c)
  // = C_j cos(phi_j) + S_j sin(phi_j), phi_j the key's angle: C_j and S_j are computed once.
  const std::size_t half = axes.size();
  std::vector<double> coef_c(half), coef_s(half), th(half);
  for (std::size_t j = 0; j < half; ++j) {
    const auto [ia, ib] = detail::block_index(j, half, pairing);
    coef_c[j] = rq[ia] * k[ia] + rq[ib] * k[ib];
    coef_s[j] = rq[ib] * k[ia] - rq[ia] * k[ib];
    th[j] = theta(static_cast<int>(j), static_cast<int>(d), base);
  }
  std::vector<double> out(key_positions.size());
  for (std::size_t i = 0; i < key_positions.size(); ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < half; ++j) {
      const double phi = component(key_positions[i], axes[j]) * th[j];
      sum += coef_c[j] * std::cos(phi) + coef_s[j] * std::sin(phi);
    }
    out[i] = sum;
  }
  return out;
}

}  // namespace rope
