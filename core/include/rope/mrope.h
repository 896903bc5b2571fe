// rope/mrope.h — multimodal RoPE (M-RoPE) of Qwen2-VL, Qwen2.5-VL and Qwen3-VL, and VideoRoPE.
//
// A vision-language model feeds one sequence of tokens to its language model: text, then the
// patches of an image, more text, the patches of a video... M-RoPE gives every token three
// position ids (t, h, w) instead of one. Text tokens have t = h = w; a patch of an image has the
// same t as its whole image and h, w growing with its row and column. The d/2 rotation pairs are
// then shared out between the three axes: pair j still turns with its usual frequency theta_j,
// but by (t or h or w) * theta_j. Two things vary between models, and this header has both:
//   * how ids are given out (MropeRule, mrope_positions), and
//   * which pairs listen to which axis (MropeLayout, mrope_pair_axes).
// Every rule below was read from the models' code; the function it comes from is named beside
// it here and in mrope.cpp. Read in huggingface/transformers, src/transformers/models/:
// qwen2_vl/modeling_qwen2_vl.py (commit 00b676f8), qwen2_5_vl/modeling_qwen2_5_vl.py (efa7189c,
// the first version; 00b676f8, the int cast), qwen3_vl/modeling_qwen3_vl.py (00709b86) and
// processing_qwen3_vl.py; VideoRoPE in Wiselnn570/VideoRoPE,
// videorope-transformer/modeling_videorope.py (309f5c84), which is what its paper (arXiv
// 2502.05173) trains with: which_rope = "videorope" selects get_t_scale_rope_index with
// scale_factor = 2.0 and apply_m_modify_multimodal_rotary_pos_emb.
//
// CONVENTIONS (those of rope/conventions.h, plus):
//   * Position ids are doubles. The Qwen rules give integers (exact in a double far beyond the
//     limits here); VideoRoPE's scaled time is a real number, float32 in its code, and is
//     reproduced bit for bit (mrope.cpp says how).
//   * Segments are what the processor and chat template put in the sequence for one item:
//       text  n        n text tokens
//       image h x w    <|vision_start|>, h*w patches, <|vision_end|>   (grid after the 2x2 merge:
//                      the model's llm_grid_h = grid_h / spatial_merge_size, the same for w)
//       video t x h x w  Qwen2-VL, Qwen2.5-VL, VideoRoPE: <|vision_start|>, t*h*w patches,
//                      <|vision_end|>; Qwen3-VL: per temporal grid f, the timestamp text
//                      "<x.x seconds>" (MropeRuleParams::timestamp_tokens tokens, a count that
//                      depends on the tokenizer), <|vision_start|>, h*w patches, <|vision_end|>
//                      (processing_qwen3_vl.py, Qwen3VLProcessor: the video placeholder).
//     Patches are in (frame, row, column) order, column fastest.
//   * Ids (get_rope_index of each model): the first text token has id 0 and each next text token
//     one more; a vision block (an image, a video, or for Qwen3-VL one frame) starts at
//     st = (the largest id of the block before it) + 1 and its patch (f, r, c) gets
//       t = st + time(f),  h = st + r,  w = st + c
//     with time(f) = f (Qwen2-VL), 0 (Qwen3-VL: each frame is a block of its own), and
//     trunc(f * seconds_per_grid * tokens_per_second) (Qwen2.5-VL, in float32 as torch does it;
//     see MropeRule for the variant that truncates seconds_per_grid first). The text after a
//     block goes on from st + max(time(f_last), h_grid - 1, w_grid - 1) + 1.
//     VideoRoPE (rule videorope) centres the frame on the diagonal: t = st + delta f,
//     h = t + r - (h_grid - 1) / 2, w = t + c - (w_grid - 1) / 2 (integer halves), and the text
//     after it goes on from the largest t + 1.
//   * mrope_section = (s_t, s_h, s_w) counts pairs per axis, s_t + s_h + s_w = d/2. Layouts
//     (pair j = 0 ... d/2-1, theta_j = base^(-2j/d), j = 0 the fastest):
//       chunked      Qwen2-VL, Qwen2.5-VL (apply_multimodal_rotary_pos_emb): j < s_t -> t,
//                    j < s_t + s_h -> h, else w. [16, 24, 24] at d = 128: w turns only the
//                    slowest pairs 40 ... 63.
//       interleaved  Qwen3-VL (Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope): t, except
//                    j % 3 == 1 and j < 3 s_h -> h, j % 3 == 2 and j < 3 s_w -> w. [24, 20, 20]
//                    at d = 128: h = 1, 4, ..., 58 and w = 2, 5, ..., 59, spread from fast to
//                    slow; t = 0, 3, ..., 63 (22 pairs) and 61, 62 (past 3 s_h = 3 s_w = 60).
//       videorope    VideoRoPE (modeling_videorope.py, apply_m_modify_multimodal_rotary_pos_emb):
//                    j < s_h + s_w -> h for even j, w for odd j; the slowest s_t pairs -> t.
//     The models pair coordinates half_split (rotate_half); both pairings are accepted here.
//   * A score is (R(p_q) q) . (R(p_k) k). R(p) is block-diagonal with angles linear in (t, h, w),
//     so the score depends only on the offset p_k - p_q, axis by axis (mrope_relative_score).
//
// Limits: at most kMropeMaxTokens tokens; grid sides (frames, rows, columns) 1 ... 1024.
// Angles are computed in double (the models build inv_freq and the angles in float32).
//
// Not here: Qwen2.5-Omni's audio ids and its interleaving of audio with video chunks; the
// models' batch padding and rope_deltas (the ids of tokens generated later: max id + 1 on).
//
// Usage:
//   using rope::MropeSegment;
//   std::vector<MropeSegment> seq{MropeSegment::text(3), MropeSegment::image(2, 3),
//                                 MropeSegment::text(2)};
//   auto tokens = rope::mrope_positions(seq, {rope::MropeRule::qwen2_vl});   // 13 tokens
//   auto axes = rope::mrope_pair_axes(128, {16, 24, 24}, rope::MropeLayout::chunked);
//   auto s = rope::mrope_scores(q, k, tokens.value()[12].position,
//                               rope::mrope_token_positions(tokens.value()), 1e6,
//                               {16, 24, 24}, rope::MropeLayout::chunked,
//                               rope::Pairing::half_split);   // one score per token
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "rope/conventions.h"

namespace rope {

inline constexpr std::int64_t kMropeMaxTokens = 65536;
inline constexpr std::int64_t kMropeMaxGridSide = 1024;

// --- Id rules --------------------------------------------------------------------------------

enum class MropeRule {
  // Qwen2VLModel.get_rope_index: time(f) = f.
  qwen2_vl,
  // Qwen2_5_VLModel.get_rope_index as the Qwen team wrote it (transformers PR #35569, read at
  // efa7189c): time(f) = trunc(f * seconds_per_grid * tokens_per_second), computed in float32.
  qwen2_5_vl,
  // The same function in later transformers versions (read at 00b676f8), which cast
  // second_per_grid_t to the int64 dtype of torch.arange first: time(f) = f *
  // trunc(seconds_per_grid) * tokens_per_second, so a grid shorter than 1 s (fps > 2) gives every
  // frame t = st.
  qwen2_5_vl_int_seconds,
  // Qwen3VLModel.get_rope_index: a video is split into one-frame blocks (video_grid_thw repeated
  // T times with T = 1), separated by timestamp text; time(f) = 0 within each.
  qwen3_vl,
  // VideoRoPE's get_t_scale_rope_index (modeling_videorope.py): the diagonal layout.
  videorope,
};

// "qwen2", "qwen25", "qwen25_int", "qwen3", "videorope": the names the command line uses.
const char* mrope_rule_name(MropeRule rule);
std::optional<MropeRule> parse_mrope_rule(std::string_view name);

// The rule and the constants it reads. Each field is read by one rule only and ignored by the
// others, but always validated.
struct MropeRuleParams {
  MropeRule rule = MropeRule::qwen2_vl;
  // Qwen2.5-VL: vision_config.tokens_per_second, temporal ids per second of video, an integer
  // (2 in the published Qwen2.5-VL configs; Qwen2_5_VLVisionConfig defaults to 4). 1 ... 1000.
  std::int64_t tokens_per_second = 2;
  // Qwen3-VL: text tokens of the "<x.x seconds>" timestamp written before each frame. 0 ... 64.
  std::int64_t timestamp_tokens = 0;
  // VideoRoPE: delta, the t step between frames (its code hard-codes scale_factor = 2.0).
  // Finite, > 0, at most 64.
  double temporal_scale = 2.0;
};

// --- Segments and tokens ---------------------------------------------------------------------

enum class MropeSegmentKind { text, image, video };

// One item of the sequence (see CONVENTIONS for the tokens each kind becomes).
struct MropeSegment {
  MropeSegmentKind kind = MropeSegmentKind::text;
  std::int64_t length = 1;  // text: tokens, 1 ... kMropeMaxTokens
  std::int64_t grid_t = 1;  // video: temporal grids (frames after the temporal merge); image: 1
  std::int64_t grid_h = 1;  // image, video: rows of merged patches, 1 ... 1024
  std::int64_t grid_w = 1;  // image, video: columns of merged patches, 1 ... 1024
  // Video, Qwen2.5-VL rules: the video's entry of second_per_grid_ts, seconds per temporal grid
  // (temporal_patch_size / fps; 1.0 when the model is given none). Finite, 0 ... 3600.
  double seconds_per_grid = 1.0;

  static MropeSegment text(std::int64_t n) { return {MropeSegmentKind::text, n, 1, 1, 1, 1.0}; }
  static MropeSegment image(std::int64_t rows, std::int64_t columns) {
    return {MropeSegmentKind::image, 0, 1, rows, columns, 1.0};
  }
  static MropeSegment video(std::int64_t frames, std::int64_t rows, std::int64_t columns,
                            double seconds_per_grid = 1.0) {
    return {MropeSegmentKind::video, 0, frames, rows, columns, seconds_per_grid};
  }
};

// A position: the three ids.
struct MropePosition {
  double t = 0.0;
  double h = 0.0;
  double w = 0.0;
};

enum class MropeTokenKind {
  text,          // a token of a text segment
  vision_start,  // <|vision_start|> (positioned as text)
  vision_end,    // <|vision_end|> (positioned as text)
  timestamp,     // Qwen3-VL: a token of a frame's "<x.x seconds>" (positioned as text)
  patch,         // a merged image or video patch
};

// "text", "vision_start", "vision_end", "timestamp", "patch".
const char* mrope_token_kind_name(MropeTokenKind kind);

// One token of the sequence, in order, with where it came from (for drawing the sequence).
struct MropeToken {
  MropePosition position;
  MropeTokenKind kind = MropeTokenKind::text;
  int segment = 0;  // index into the segment list
  int frame = -1;   // patch, and Qwen3-VL's per-frame text: temporal grid index; else -1
  int row = -1;     // patch: row in the merged grid; else -1
  int column = -1;  // patch: column in the merged grid; else -1
};

// The tokens of `segments` with their ids under `params`. Errors: "segments" (empty, a bad
// length or grid side, more than kMropeMaxTokens tokens in all, a bad seconds_per_grid — the
// message names the segment), "tokens_per_second", "timestamp_tokens", "temporal_scale".
Result<std::vector<MropeToken>> mrope_positions(std::span<const MropeSegment> segments,
                                                const MropeRuleParams& params);

// The positions of `tokens`, in order.
std::vector<MropePosition> mrope_token_positions(std::span<const MropeToken> tokens);

// --- Pair layouts ----------------------------------------------------------------------------

enum class MropeLayout { chunked, interleaved, videorope };
enum class MropeAxis { t, h, w };

// "chunked", "interleaved", "videorope"; "t", "h", "w".
const char* mrope_layout_name(MropeLayout layout);
std::optional<MropeLayout> parse_mrope_layout(std::string_view name);
const char* mrope_axis_name(MropeAxis axis);

// mrope_section: pairs per axis (t, h, w).
using MropeSection = std::array<std::int64_t, 3>;

// Checks dim (validate_dim) and section: entries 0 ... d/2 summing to d/2 ("mrope_section: must
// sum to d/2 = 64, got 60"); interleaved also needs h's last pair 3 s_h - 2 and w's last pair
// 3 s_w - 1 to exist (< d/2). Qwen3-VL's code checks neither and never reads s_t: past d/2 its
// strided slices just stop, and h or w would get fewer pairs than the section says.
Status validate_mrope_section(std::int64_t dim, const MropeSection& section, MropeLayout layout);

// The axis of each of the d/2 pairs, pair 0 (fastest) first. Errors: dim, mrope_section.
Result<std::vector<MropeAxis>> mrope_pair_axes(std::int64_t dim, const MropeSection& section,
                                               MropeLayout layout);

// The d/2 angles at `at`, radians: pair j turns by at.<axis(j)> * theta_j, theta_j =
// base^(-2j/d). Errors: dim, base, mrope_section, "position_t" / "_h" / "_w" not finite.
Result<std::vector<double>> mrope_angles(std::int64_t dim, double base, const MropeSection& section,
                                         MropeLayout layout, MropePosition at);

// R(at) x: x rotated pair by pair under `pairing`. d = x.size(). Errors as mrope_angles.
Result<std::vector<double>> mrope_rotate(std::span<const double> x, MropePosition at, double base,
                                         const MropeSection& section, MropeLayout layout,
                                         Pairing pairing);

// --- Scores ----------------------------------------------------------------------------------

// (R(query_at) q) . (R(key_at) k); q and k have the same length d. Errors: as mrope_rotate,
// "key" for a length that differs from the query's, "query_t" ... "key_w" not finite.
Result<double> mrope_score(std::span<const double> q, std::span<const double> k,
                           MropePosition query_at, MropePosition key_at, double base,
                           const MropeSection& section, MropeLayout layout, Pairing pairing);

// q . (R(offset) k): the score from the offset (key - query, per axis) alone.
// Errors: as mrope_score, "offset_t" ... "offset_w" not finite.
Result<double> mrope_relative_score(std::span<const double> q, std::span<const double> k,
                                    MropePosition offset, double base, const MropeSection& section,
                                    MropeLayout layout, Pairing pairing);

// The scores of the query q at query_at against the same key k placed at every entry of
// key_positions, in order (0 ... kMropeMaxTokens entries; none gives none). Errors: as
// mrope_score, "key_positions" for too many entries or a non-finite one (the message names it).
Result<std::vector<double>> mrope_scores(std::span<const double> q, std::span<const double> k,
                                         MropePosition query_at,
                                         std::span<const MropePosition> key_positions, double base,
                                         const MropeSection& section, MropeLayout layout,
                                         Pairing pairing);

}  // namespace rope
