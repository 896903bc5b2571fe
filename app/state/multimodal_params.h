// state/multimodal_params.h — the multimodal view's settings (rope/mrope.h): the sequence as
// text, the pair layout's section, and what the view and `rope-lab export multimodal` compute
// from them.
//
// The sequence is written as segments separated by commas (parameter mm_sequence):
//   text:N       N text tokens, 1 ... 256
//   image:HxW    an image of H x W merged patches (after the models' 2 x 2 merge), 1 ... 32 a side
//   video:TxHxW  a video of T temporal grids of H x W merged patches, T 1 ... 16
// at most 16 segments and 2048 tokens in all (the view draws every token), e.g.
// "text:3,image:4x6,text:3". Image and video segments bring their own <|vision_start|> and
// <|vision_end|> (rope/mrope.h: CONVENTIONS).
//
// mm_section "auto" splits the d/2 pairs as the layout's model does at d = 128, scaled to d:
// chunked and VideoRoPE as Qwen2-VL's (16, 24, 24) — t ⌊d/8⌋, h and w the rest, h = ⌈rest/2⌉;
// interleaved as Qwen3-VL's (24, 20, 20) — h = w = ⌊(d/2)·20/64⌋, t the rest. "a,b,c" sets it.
//
// Usage:
//   auto seq = parse_mm_sequence(p.mm_sequence);          // Result<std::vector<MropeSegment>>
//   auto sec = mm_section(p, p.mm_layout);                // Result<MropeSection>
//   auto tokens = mm_tokens(p);                           // ids under p's rule
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rope/mrope.h"
#include "state/app_state.h"

namespace rope::app {

inline constexpr int kMmMaxSegments = 16;
inline constexpr int kMmMaxText = 256;
inline constexpr int kMmMaxSide = 32;
inline constexpr int kMmMaxFrames = 16;
inline constexpr int kMmMaxTokens = 2048;

// The segments of `text`; the Error names mm_sequence, the segment and what is allowed.
Result<std::vector<MropeSegment>> parse_mm_sequence(std::string_view text);

// "auto" or "a,b,c" (three whole numbers from 0 to 2048), as mm_section's setter checks it; the
// sum is checked against d/2 where the section is used (mm_section).
Status check_mm_section_text(std::string_view text);

// The section for `layout` at the state's d: p.mm_section when it is not "auto" and `layout` is
// the state's own layout, else the layout's default split (above). Errors: mm_section (its sum,
// the interleaved layout's limits: rope::validate_mrope_section).
Result<MropeSection> mm_section(const Params& p, MropeLayout layout);
MropeSection mm_default_section(int dim, MropeLayout layout);

// The rule and its constants (mm_rule, mm_tokens_per_second; Qwen3-VL's timestamps: 0 tokens).
MropeRuleParams mm_rule_params(const Params& p);

// The tokens of p.mm_sequence with their ids (every video segment's seconds per grid is
// p.mm_seconds). Errors: mm_sequence, or the core's.
Result<std::vector<MropeToken>> mm_tokens(const Params& p);

// "(3, 5, 7)": a token's ids as the view and the tooltips write them.
std::string mm_position_words(const MropePosition& at);

}  // namespace rope::app
