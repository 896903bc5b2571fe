// export/datasets.h — the datasets of `rope-lab export`: their flags, checks and CSV tables.
//
//   frequencies  --dim D --base B                                  i,theta,wavelength
//                --model NAME (a preset, state/models.h; --dim, --base and the rest override)
//                [--rotary-fraction P --rotary-style neox|proportional]: theta 0 = not rotated
//                ... --scaling METHOD [--factor S --original-context L --beta-fast ...]
//                i,theta,wavelength,theta_scaled,wavelength_scaled,ratio,rotations_per_context,
//                attention_factor   (rope/scaling.h; without --scaling the three columns only)
//   sinusoidal   --positions N --dim D [--base B]                  pos,d0,d1,...,d{D-1}
//   decay        --dim D --base B --max-distance R                 distance,value
//   rotate       --vector X --position M --base B [--pairing P]    index,value
//   scores       --query Q --key K --positions N --base B [--pairing P]   m,n,score
//                decay, rotate and scores also take the scaling flags of frequencies, as the
//                decay, pointers and heatmap views use them: --scaling adds value_scaled (D(r)
//                at theta'), value_scaled and attention_factor (R'_m x at theta', a), and
//                score_scaled (a^2 (R'_m q).(R'_n k)); --rotary-fraction and --rotary-style
//                rotate only part of the head (rotate; the pointers view draws it)
//   precision    --dim D [--base B] --positions M0,M1,...|--range A:B [--precision PRESET]
//                [--position-format F] [--theta-format F] [--angle-format F] [--trig-format F]
//                position,pair,exact_angle,angle,wrapped_error,cos,sin (rope/low_precision.h;
//                the preset first, then each format given; positions x d/2 <= 2^24 rows)
//   extrapolation --dim D --base B [--original-context L --seed S --rank-tolerance T]
//                s,value,panel   (PI Fig. 2: panels 1 [0, L), 2 [0, 2L), 3 between integers)
//   b-over-d     --dim D --base B [--max-s S]                      s,b_over_d  (PI Fig. 5)
//   code         --query Q --key K --position M --key-position N [--base B]
//                index,perm,q,k,rq_interleaved,rk_interleaved,rq_half,rk_half,
//                rq_half_without_p,rk_half_without_p,score_interleaved,score_half,
//                score_half_without_p   (rope/three_codes.h; the scores repeat on every row)
//   axial        --query Q --key K [--grid-size N --query-row R --query-column C --base B
//                --pairing P]   row,column,score,row_offset,column_offset  (rope/axial.h; d a
//                multiple of 4; the key k at every patch of the N x N grid)
//   multimodal   [--mm-sequence S --mm-rule R --mm-layout L --mm-section T,H,W --mm-query I
//                --mm-seconds S --mm-tokens-per-second N --dim D --base B --pairing P --query Q
//                --key K --seed S --model NAME]   (rope/mrope.h, state/multimodal_params.h: the
//                multimodal view's numbers; every flag is the parameter of its name, a flag not
//                given keeps --model's value or the app's default)
//                token,kind,segment,frame,row,column,t,h,w,score,score_other,offset_t,offset_h,
//                offset_w: one row per token in sequence order; kind 0 text, 1 <|vision_start|>,
//                2 <|vision_end|>, 3 timestamp text (not produced: the app gives Qwen3-VL's
//                timestamps 0 tokens), 4 patch; segment the index into --mm-sequence; frame,
//                row, column the patch's place (-1 for other tokens, but frame is set on the
//                markers around each frame of a Qwen3-VL video); t, h, w the token's ids under
//                --mm-rule; score (R(p_query) q) . (R(p_token) k) under --mm-layout with
//                --mm-section, score_other under the other layout the view draws (interleaved
//                beside chunked, chunked beside interleaved and videorope) with its default
//                section; offset_* = the token's ids minus the query token's. The query token is
//                --mm-query clamped to the last token, as in the view.
//
// One table describes each dataset and its flags: the command line registers its options and
// --help from it, and build_dataset judges the text of every flag with the rules the rest of
// the app uses (state/params.h, rope::validate_*), so a bad value gets the same message
// wherever it is typed. The numbers come from the core functions the views call.
//
// Sizes are limited so that an export stays a file a notebook can load and takes seconds, not
// hours: sinusoidal N*D <= 2^24 numbers; scores N <= 4096 (16.7M rows) and N*N*d <= 2^32
// multiply-adds.
//
// Usage:
//   const DatasetSpec* spec = find_dataset("frequencies");
//   Result<CsvTable> t = build_dataset(*spec, {{"dim", "64"}, {"base", "10000"}});
//   if (!t) report(t.error());  // parameter "dim", "base", ... (snake_case, as everywhere)
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "export/csv.h"
#include "rope/conventions.h"

namespace rope::app {

struct ExportFlag {
  const char* name;          // snake_case; the flag is --name with '_' -> '-'
  const char* value_name;    // placeholder in --help: "D", "X0,X1,..."
  const char* what;          // what the value means, e.g. "head dimension d"
  const char* allowed;       // what the value may be; nullptr when the flag is the parameter of
                             // the same name: flag_allowed() takes the parameter table's text
  const char* default_text;  // nullptr: the flag is required; "": optional, the builder tells
                             // "not given" by the empty text (the default is in the allowed
                             // text: the app's default, for a parameter's flag)
};

// What f's value may be, for --help and messages: its own `allowed`, or the parameter table's
// text (state/params.h param_allowed) with "(default V)" when the builder falls back on the app's
// default V. "an even integer from 2 to 4096", "a number from 1e-6 to 1e6 (default 1)", ...
std::string flag_allowed(const ExportFlag& f);

// The default of precision's four format flags: the format --precision gives that cast point.
inline constexpr const char* kFromPreset = "as --precision";

// (parameter name, text as typed) for each flag given; absent flags take their default.
using ExportArgs = std::vector<std::pair<std::string, std::string>>;

struct DatasetSpec {
  const char* name;     // "frequencies"
  const char* summary;  // one line for --help
  const char* columns;  // the header row, e.g. "i,theta,wavelength"
  std::span<const ExportFlag> flags;
  Result<CsvTable> (*build)(const ExportArgs& args);  // args complete: defaults filled in
};

std::span<const DatasetSpec> dataset_specs();
const DatasetSpec* find_dataset(std::string_view name);  // nullptr when unknown
// "frequencies, sinusoidal, decay, rotate, scores or precision"
std::string dataset_names();

// Fills in defaults, reports a missing required flag or a flag the dataset does not have, then
// checks every value and builds the table. Error.parameter is the snake_case flag name.
Result<CsvTable> build_dataset(const DatasetSpec& spec, const ExportArgs& args);

// Limits (see the top of this file).
inline constexpr std::int64_t kMaxSinusoidalPositions = 100'000;
inline constexpr std::int64_t kMaxSinusoidalNumbers = std::int64_t{1} << 24;  // N * D
inline constexpr std::int64_t kMaxScorePositions = 4096;
inline constexpr std::int64_t kMaxScoreWork = std::int64_t{1} << 32;  // N * N * d
inline constexpr double kMaxVectorEntry = 1e100;  // |x_i|: scores stay far from overflow

}  // namespace rope::app
