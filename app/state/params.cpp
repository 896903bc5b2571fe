#include "state/params.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "io/number_format.h"
#include "io/text.h"
#include "rope/frequencies.h"
#include "rope/low_precision.h"
#include "rope/random.h"
#include "rope/scaling.h"
#include "rope/vectors.h"
#include "state/hf_config.h"
#include "state/models.h"
#include "state/multimodal_params.h"

namespace rope::app {
namespace {

// [SECTION] text helpers

Error error(std::string_view parameter, std::string message) {
  return Error{std::string(parameter), std::move(message)};
}

// Looks `text` up in a {name, value} table; the message lists every name.
template <class E, std::size_t N>
Result<E> parse_choice(std::string_view name, std::string_view text,
                       const std::array<std::pair<const char*, E>, N>& table) {
  const std::string_view t = trim(text);
  for (const auto& [n, v] : table)
    if (t == n) return v;
  std::string names;
  for (std::size_t i = 0; i < N; ++i) {
    names += table[i].first;
    if (i + 2 < N) names += ", ";
    if (i + 2 == N) names += " or ";
  }
  return error(name, "must be one of " + names + ", got " + quote_for_message(text));
}

template <class E, std::size_t N>
const char* choice_name(E v, const std::array<std::pair<const char*, E>, N>& table) {
  for (const auto& [n, x] : table)
    if (x == v) return n;
  return "?";
}

// [SECTION] name tables

constexpr std::array<std::pair<const char*, MropeRule>, 5> kMropeRules{{
    {"qwen2", MropeRule::qwen2_vl},
    {"qwen25", MropeRule::qwen2_5_vl},
    {"qwen25_int", MropeRule::qwen2_5_vl_int_seconds},
    {"qwen3", MropeRule::qwen3_vl},
    {"videorope", MropeRule::videorope},
}};
constexpr std::array<std::pair<const char*, MropeLayout>, 3> kMropeLayouts{{
    {"chunked", MropeLayout::chunked},
    {"interleaved", MropeLayout::interleaved},
    {"videorope", MropeLayout::videorope},
}};

#define ROPE_LAB_VIEW_ENTRY(id, type, name, title) {name, ViewId::id},
constexpr std::array<std::pair<const char*, ViewId>, kViewCount> kViews{
    {ROPE_LAB_VIEWS(ROPE_LAB_VIEW_ENTRY)}};
#undef ROPE_LAB_VIEW_ENTRY
constexpr std::array<std::pair<const char*, Pairing>, 2> kPairings{{
    {"interleaved", Pairing::interleaved},
    {"half", Pairing::half_split},
}};
constexpr std::array<std::pair<const char*, PointerLayout>, 2> kLayouts{{
    {"dials", PointerLayout::dials},
    {"circle", PointerLayout::circle},
}};
constexpr std::array<std::pair<const char*, Encoding>, 3> kEncodings{{
    {"none", Encoding::none},
    {"sinusoidal", Encoding::sinusoidal},
    {"rope", Encoding::rope},
}};
constexpr std::array<std::pair<const char*, Content>, 3> kContents{{
    {"shared", Content::shared},
    {"random", Content::random},
    {"sentence", Content::sentence},
}};
constexpr std::array<std::pair<const char*, ScoreMode>, 4> kScoreModes{{
    {"raw", ScoreMode::raw},
    {"scaled", ScoreMode::scaled},
    {"softmax", ScoreMode::softmax},
    {"cosine", ScoreMode::cosine},
}};
constexpr std::array<std::pair<const char*, PairBand>, 3> kPairBands{{
    {"all", PairBand::all},
    {"fast", PairBand::fast},
    {"slow", PairBand::slow},
}};
constexpr std::array<std::pair<const char*, Theme>, 2> kThemes{{
    {"dark", Theme::dark},
    {"light", Theme::light},
}};
constexpr std::array<std::pair<const char*, VectorPreset>, 3> kPresets{{
    {"unit", VectorPreset::unit},
    {"ones", VectorPreset::ones},
    {"random", VectorPreset::random},
}};

// [SECTION] vector choices

Result<VectorChoice> parse_vector_choice(std::string_view name, std::string_view text) {
  const std::string_view t = trim(text);
  for (const auto& [n, v] : kPresets)
    if (t == n) return VectorChoice{v, {}};
  if (t.find_first_of("0123456789") == std::string_view::npos)
    return error(name, "must be unit, ones, random or a comma-separated list of d numbers, got " +
                           quote_for_message(text));
  auto values = parse_real_list(name, t);
  if (!values) return values.error();
  return VectorChoice{VectorPreset::custom, std::move(values).value()};
}

std::string print_vector_choice(const VectorChoice& c) {
  if (c.preset != VectorPreset::custom) return choice_name(c.preset, kPresets);
  std::string s;
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    if (i) s += ',';
    append_number(s, c.values[i], NumberStyle::csv);
  }
  return s;
}

Status check_sentence(std::string_view name, std::string_view text) {
  constexpr std::size_t kMaxChars = 200;
  if (text.size() > kMaxChars)
    return error(name, "must be at most 200 characters, got " + std::to_string(text.size()));
  if (trim(text).empty()) return error(name, "must contain at least one word");
  return {};
}

// [SECTION] numbers checked against the table's range

// A range limit as the messages print it: integers in full, real limits from 1e6 up that are
// powers of ten as "1e9", anything else as its shortest exact text ("0.05").
std::string limit_text(double v, ParamKind kind) {
  if (v < 0) return "-" + limit_text(-v, kind);
  if (kind == ParamKind::integer || (v == std::round(v) && v < 1e6))
    return format_number(v, NumberStyle::csv);
  const double exponent = std::round(std::log10(v));
  if (v == std::pow(10.0, exponent)) return "1e" + format_number(exponent, NumberStyle::csv);
  return format_number(v, NumberStyle::tooltip);
}

std::string range_text(const ParamRange& r, ParamKind kind) {
  std::string s;
  if (std::isinf(r.max)) {
    s = std::string("a finite number ") + (r.above_min ? "greater than " : "of at least ") +
        limit_text(r.min, kind);
  } else {
    s = kind == ParamKind::integer ? (r.even ? "an even integer" : "an integer") : "a number";
    s += " from " + limit_text(r.min, kind) + " to " + limit_text(r.max, kind);
  }
  return r.zero_is_off ? "0 (off) or " + s : s;
}

Error out_of_range(std::string_view name, std::string_view text) {
  return error(name,
               "must be " + param_allowed(*find_param(name)) + ", got " + quote_for_message(text));
}

// A value that is not a number at all gets the same message as one out of range: what is
// allowed, then what was given ("must be an integer from 1 to 10000000, got 'abc'").
Result<long long> integer_param(std::string_view name, std::string_view text) {
  auto r = parse_integer(name, text);
  if (!r || !param_range(name).contains(static_cast<double>(r.value())))
    return out_of_range(name, text);
  return r;
}

Result<double> real_param(std::string_view name, std::string_view text) {
  auto r = parse_real(name, text);
  if (!r || !param_range(name).contains(r.value())) return out_of_range(name, text);
  return r;
}

// The context-extension rows are judged in state/scaling_params.cpp, with their own rules (and
// messages) for numbers out of range; a value that is not a number at all is refused here, with
// the row's range.
Status number_row_first(std::string_view name, std::string_view text) {
  const ParamSpec* spec = find_param(name);
  if (spec && spec->kind == ParamKind::integer && !parse_integer(name, text))
    return out_of_range(name, text);
  if (spec && spec->kind == ParamKind::real && !parse_real(name, text))
    return out_of_range(name, text);
  return {};
}

// [SECTION] the table

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMaxPosition = 1e9;    // |m|, |n|: beyond this cos(m theta) still works, but
                                        // nothing a lecture shows needs it
constexpr double kMaxCoordinate = 1e6;  // trajectory: x and the offset k

// A range whose slider shows all of it.
constexpr ParamRange whole(double min, double max, bool logarithmic = false) {
  ParamRange r;
  r.min = r.slider_min = min;
  r.max = r.slider_max = max;
  r.logarithmic = logarithmic;
  return r;
}

// A range whose slider deliberately shows only slider_min ... slider_max of it.
constexpr ParamRange part(double min, double max, double slider_min, double slider_max,
                          bool logarithmic = false) {
  ParamRange r = whole(min, max, logarithmic);
  r.slider_min = slider_min;
  r.slider_max = slider_max;
  return r;
}

// d: even, kMinDim ... kMaxDim (rope/conventions.h), the core's own rule.
constexpr ParamRange dims(double slider_max, bool logarithmic, bool zero_is_off = false) {
  ParamRange r = part(kMinDim, kMaxDim, kMinDim, slider_max, logarithmic);
  r.even = true;
  r.zero_is_off = zero_is_off;
  return r;
}

// base: finite and greater than 1 (rope::validate_base); the slider spans 10 ... 1e7.
constexpr ParamRange bases(bool zero_is_off = false) {
  ParamRange r = part(1.0, kInf, 10.0, 1e7, /*logarithmic=*/true);
  r.above_min = true;
  r.zero_is_off = zero_is_off;
  return r;
}

// A number greater than 0 with no upper limit; the slider spans slider_min ... slider_max.
constexpr ParamRange positive(double slider_min, double slider_max) {
  ParamRange r = part(0.0, kInf, slider_min, slider_max, /*logarithmic=*/true);
  r.above_min = true;
  return r;
}

// A range that also accepts 0, meaning "off" or "unset" (sequence_length).
constexpr ParamRange off_or(ParamRange r) {
  r.zero_is_off = true;
  return r;
}

constexpr ParamRange kNoRange{};

// `r` with the format and snap its widget shows it with (ParamRange::format, snap).
constexpr ParamRange shown(ParamRange r, const char* format, double snap = 0.0) {
  r.format = format;
  r.snap = snap;
  return r;
}

#define ROPE_CHOICE(field, table)               \
  [](Params& p, std::string_view t) -> Status { \
    auto r = parse_choice(#field, t, table);    \
    if (!r) return r.error();                   \
    p.field = r.value();                        \
    return {};                                  \
  },                                            \
      [](const Params& p) -> std::string { return choice_name(p.field, table); }

#define ROPE_BOOL(field)                        \
  [](Params& p, std::string_view t) -> Status { \
    auto r = parse_bool(#field, t);             \
    if (!r) return r.error();                   \
    p.field = r.value();                        \
    return {};                                  \
  },                                            \
      [](const Params& p) -> std::string { return p.field ? "true" : "false"; }

#define ROPE_REAL(field)                        \
  [](Params& p, std::string_view t) -> Status { \
    auto r = real_param(#field, t);             \
    if (!r) return r.error();                   \
    p.field = r.value();                        \
    return {};                                  \
  },                                            \
      [](const Params& p) { return format_number(p.field, NumberStyle::csv); }

#define ROPE_INT(field)                                  \
  [](Params& p, std::string_view t) -> Status {          \
    auto r = integer_param(#field, t);                   \
    if (!r) return r.error();                            \
    p.field = static_cast<decltype(p.field)>(r.value()); \
    return {};                                           \
  },                                                     \
      [](const Params& p) { return std::to_string(p.field); }

#define ROPE_EXTENSION(name)                              \
  [](Params& p, std::string_view t) -> Status {           \
    if (auto s = number_row_first(name, t); !s) return s; \
    return set_extension_param(p.extension, name, t);     \
  },                                                      \
      [](const Params& p) { return get_extension_param(p.extension, name); }

#define ROPE_TEXT(field)                                  \
  [](Params& p, std::string_view t) -> Status {           \
    if (auto s = check_sentence(#field, t); !s) return s; \
    p.field = std::string(t);                             \
    return {};                                            \
  },                                                      \
      [](const Params& p) { return p.field; }

// One cast point's format of the precision view: fp64, fp32, bf16 or fp16 (rope/low_precision.h).
#define ROPE_FORMAT(point)                                                                  \
  [](Params& p, std::string_view t) -> Status {                                             \
    const auto f = parse_format(trim(t));                                                   \
    if (!f)                                                                                 \
      return error(#point "_format",                                                        \
                   "must be one of fp64, fp32, bf16 or fp16, got " + quote_for_message(t)); \
    p.precision.formats.point = *f;                                                         \
    return {};                                                                              \
  },                                                                                        \
      [](const Params& p) -> std::string { return format_name(p.precision.formats.point); }

using K = ParamKind;

// Another layer of the model in effect: its values applied, and the model named as before (a
// config.json's preset keeps `model` empty).
Status apply_layer(Params& p, const ModelPreset& preset, int layer) {
  const std::string model = p.model;
  if (auto s = apply_model(p, preset, layer); !s) return s;
  p.model = model;
  return {};
}

// {name, kind, range, allowed (choices, text, vectors), help, set, get}
const std::array kSpecs = std::to_array<ParamSpec>({
    // allowed: nullptr, param_allowed lists the views of state/view_list.h (a new view appears
    // in --help and in messages without an edit here)
    {"view", K::choice, kNoRange, nullptr, "the view shown in the main canvas",
     ROPE_CHOICE(view, kViews)},
    // A model preset (state/models.h, assets/models.json) sets d, base, pairing, the partial
    // rotary and scaling rows below; it comes first so that values given beside it win (flags
    // and sessions apply it before the others).
    {"model", K::choice, kNoRange, "a preset of rope-lab models, or none",
     "model preset: sets d, base, pairing, rotary fraction and scaling (rope-lab models)",
     [](Params& p, std::string_view t) -> Status {
       const std::string_view id = trim(t);
       p.config.clear();  // one model at a time: a preset replaces a config.json
       p.config_preset = {};
       if (id.empty() || id == "none") {
         p.model.clear();
         p.layer = -1;
         return {};
       }
       const ModelLibrary& lib = model_library();
       if (const ModelPreset* m = lib.find(id)) return apply_model(p, *m);
       if (!lib.problem.empty()) return error("model", "cannot be set: " + lib.problem);
       return error("model",
                    "must be one of " + lib.ids() + " or none, got " + quote_for_message(t));
     },
     [](const Params& p) { return p.model.empty() ? std::string("none") : p.model; }},
    // A model's Hugging Face config.json (state/hf_config.h), read as a preset and applied as
    // one; set first with `model`, so values given beside it win.
    {"config", K::text, kNoRange, "the path of a config.json, or empty",
     "a model's Hugging Face config.json: d, base, scaling and partial rotation as transformers "
     "sets them (rope-lab models --from-config FILE shows what is read)",
     [](Params& p, std::string_view t) -> Status {
       const std::string path(trim(t));
       if (path.empty() || path == "none") {
         p.config.clear();
         p.config_preset = {};
         p.layer = -1;
         return {};
       }
       auto read = load_hf_config(path);
       if (!read) return error("config", quote_for_message(path) + ": " + read.error().to_string());
       Params trial = p;
       if (auto s = apply_model(trial, read.value().preset); !s)
         return error("config", quote_for_message(path) + ": " + s.error().to_string());
       trial.model.clear();
       trial.config = path;
       trial.config_preset.preset = std::make_shared<const ModelPreset>(read.value().preset);
       p = std::move(trial);
       return {};
     },
     [](const Params& p) { return p.config; }},
    // One layer of the model (state/models.h: ModelLayers): after `model` and `config`, which
    // reset it, and before the rows it sets, so that values given beside it win.
    {"layer", K::choice, kNoRange, "none, or a layer of the model from 0 to its layer count - 1",
     "model layer: that layer's RoPE (Gemma 3's local and global layers, Llama 4's NoPE layers)",
     [](Params& p, std::string_view t) -> Status {
       const std::string_view text = trim(t);
       const ModelPreset* preset = active_preset(p);
       if (text.empty() || text == "none") {
         if (p.layer < 0) return {};
         if (!preset) {
           p.layer = -1;
           return {};
         }
         return apply_layer(p, *preset, -1);  // back to the model's top-level values
       }
       if (!preset)
         return error("layer",
                      "needs a model whose layers differ first (gemma-3-12b, "
                      "llama-4-scout, smollm3-3b, gpt-oss-20b, ... or a config.json), got " +
                          quote_for_message(t));
       if (preset->layers.empty())
         return error("layer", "is not available: " + preset->name +
                                   " has the same RoPE in every layer, got " +
                                   quote_for_message(t));
       auto r = parse_integer("layer", text);
       const int count = preset->layers.count();
       if (!r || r.value() < 0 || r.value() >= count)
         return error("layer", "must be none or an integer from 0 to " + std::to_string(count - 1) +
                                   " (" + preset->name + " has " + std::to_string(count) +
                                   " layers), got " + quote_for_message(t));
       return apply_layer(p, *preset, static_cast<int>(r.value()));
     },
     [](const Params& p) { return p.layer < 0 ? std::string("none") : std::to_string(p.layer); }},
    // d and base are the core's own (rope::validate_dim, validate_base): judged, and reported,
    // by the core; their rows here hold the same ranges (tests/app/test_params.cpp checks both
    // agree) for the sliders and --help.
    {"dim", K::integer, shown(dims(512, false), "d = %d"), nullptr, "head dimension d",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_integer("dim", t);
       if (!r) return out_of_range("dim", t);
       if (auto s = validate_dim(r.value()); !s) return s;
       p.dim = static_cast<int>(r.value());
       fit_vectors_to_dim(p);
       // a multimodal section for another d goes back to auto (the model's split at this d)
       if (!mm_section(p, p.mm_layout)) p.mm_section = "auto";
       return {};
     },
     [](const Params& p) { return std::to_string(p.dim); }},
    {"base", K::real, shown(bases(), "base = %.0f", 1.0), nullptr,
     "frequency base: theta_i = base^(-2i/d)",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_real("base", t);
       if (!r) return out_of_range("base", t);
       if (auto s = validate_base(r.value()); !s) return s;
       p.base = r.value();
       return {};
     },
     [](const Params& p) { return format_number(p.base, NumberStyle::csv); }},
    {"position", K::real, shown(part(-kMaxPosition, kMaxPosition, 0.0, 256.0), "%.2f"), nullptr,
     "query position m", ROPE_REAL(position)},
    {"key_position", K::real, shown(part(-kMaxPosition, kMaxPosition, 0.0, 256.0), "%.2f"), nullptr,
     "key position n", ROPE_REAL(key_position)},
    {"pairing", K::choice, kNoRange, "interleaved or half",
     "which coordinates form a block: (x2i, x2i+1) or (xi, xi+d/2)",
     ROPE_CHOICE(pairing, kPairings)},
    {"query", K::vector, kNoRange, "unit, ones, random or d comma-separated numbers",
     "the query vector q",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_vector_choice("query", t);
       if (!r) return r.error();
       p.query = std::move(r).value();
       return {};
     },
     [](const Params& p) { return print_vector_choice(p.query); }},
    {"key", K::vector, kNoRange, "unit, ones, random or d comma-separated numbers",
     "the key vector k",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_vector_choice("key", t);
       if (!r) return r.error();
       p.key = std::move(r).value();
       return {};
     },
     [](const Params& p) { return print_vector_choice(p.key); }},
    {"seed", K::integer, whole(0, static_cast<double>(kMaxSeed)), nullptr,
     "seed of every random vector", ROPE_INT(seed)},
    {"layout", K::choice, kNoRange, "dials or circle",
     "pointers: one dial per block, or all on one circle", ROPE_CHOICE(layout, kLayouts)},
    {"trails", K::boolean, kNoRange, nullptr, "pointers: draw recent positions as a trail",
     ROPE_BOOL(trails)},
    {"trail_length", K::real, shown(part(0.0, 1000.0, 0.0, 50.0), "%.0f positions"), nullptr,
     "pointers: trail length in positions", ROPE_REAL(trail_length)},
    {"emulate_precision", K::boolean, kNoRange, nullptr,
     "pointers: also draw q, k rotated with the precision formats (emulated)",
     ROPE_BOOL(emulate_precision)},
    {"polar", K::boolean, kNoRange, nullptr,
     "pointers: label each pointer's length and its turn from position 0 (polar form)",
     ROPE_BOOL(polar)},
    {"playing", K::boolean, kNoRange, nullptr, "animate the position", ROPE_BOOL(playing)},
    {"speed", K::real, shown(whole(0.05, 100.0, true), "speed %.2f positions/s"), nullptr,
     "animation speed in positions per second", ROPE_REAL(speed)},
    {"positions", K::integer, shown(whole(8, 4096, true), "N = %d positions"), nullptr,
     "heatmap: number of positions N", ROPE_INT(positions)},
    {"stride", K::integer, shown(whole(1, 1024, true), "stride s = %d"), nullptr,
     "heatmap: positions 0, s, 2s, … (N of them, s apart: past 4096)", ROPE_INT(stride)},
    {"encoding", K::choice, kNoRange, "none, sinusoidal or rope", "heatmap: position encoding",
     ROPE_CHOICE(encoding, kEncodings)},
    {"compare", K::boolean, kNoRange, nullptr, "heatmap: all three encodings side by side",
     ROPE_BOOL(compare)},
    {"content", K::choice, kNoRange, "shared, random or sentence",
     "heatmap: the vectors at each position", ROPE_CHOICE(content, kContents)},
    {"score_mode", K::choice, kNoRange, "raw, scaled, softmax or cosine",
     "heatmap: q.k, q.k/sqrt(d), row softmax, or 1 + cos(q, k)",
     ROPE_CHOICE(score_mode, kScoreModes)},
    {"causal", K::boolean, kNoRange, nullptr, "heatmap: mask keys after the query",
     ROPE_BOOL(causal)},
    {"attention_window", K::integer,
     off_or(shown(part(1, static_cast<double>(kMaxContext), 1, 65536, true), "window = %d")),
     nullptr,
     "heatmap: sliding-window attention, keys m - n >= W hidden (a model's local layers); 0: off",
     ROPE_INT(attention_window)},
    {"attention_chunk", K::integer,
     off_or(shown(part(1, static_cast<double>(kMaxContext), 1, 65536, true), "chunk = %d")),
     nullptr,
     "heatmap: chunked attention, keys in another chunk of C positions hidden (Llama 4); 0: off",
     ROPE_INT(attention_chunk)},
    {"linear_sums", K::boolean, kNoRange, nullptr,
     "heatmap: linear attention's d x d summary and running sums, not the N x N matrix",
     ROPE_BOOL(linear_sums)},
    {"linear_reuse", K::boolean, kNoRange, nullptr,
     "heatmap (linear_sums): every query's numerator read from the one S, not the running sums z",
     ROPE_BOOL(linear_reuse)},
    {"sentence_pair", K::boolean, kNoRange, nullptr,
     "heatmap (sentence content): sentence A beside sentence B, the query's token framed in each",
     ROPE_BOOL(sentence_pair)},
    {"pair_band", K::choice, kNoRange, "all, fast or slow",
     "heatmap: scores of all pairs, the fastest quarter or the slowest quarter only",
     ROPE_CHOICE(pair_band, kPairBands)},
    {"diagonal_fit", K::boolean, kNoRange, nullptr,
     "heatmap: RoPE's scores on the diagonal n - m against q.k (random content), with the best "
     "single factor, not the N x N matrix",
     ROPE_BOOL(diagonal_fit)},
    {"max_distance", K::integer, shown(part(1, 100000, 16, 100000, true), "max distance R = %d"),
     nullptr, "decay: largest relative distance R", ROPE_INT(max_distance)},
    {"context_length", K::integer, shown(part(1, 1e7, 16, 1e7, true), "context length %d"), nullptr,
     "spectrum: context length marked", ROPE_INT(context_length)},
    {"pe_positions", K::integer, shown(whole(1, 4096, true), "%d positions"), nullptr,
     "sinusoidal: positions (rows) in the figure", ROPE_INT(pe_positions)},
    {"pe_dim", K::integer, shown(dims(kMaxDim, true), "d = %d"), nullptr,
     "sinusoidal: dimensions (columns) in the figure", ROPE_INT(pe_dim)},
    {"learned_positions", K::integer, off_or(shown(whole(1, 4096, true), "learned L = %d")),
     nullptr, "sinusoidal: a learned table of L rows instead (none past L); 0: off",
     ROPE_INT(learned_positions)},
    {"pe_add_ones", K::boolean, kNoRange, nullptr,
     "sinusoidal: plot x + PE at m and m + k, x = (1, ..., 1), under the table",
     ROPE_BOOL(pe_add_ones)},
    {"compare_base", K::real, shown(bases(/*zero_is_off=*/true), "%.0f", 1.0), nullptr,
     "decay: overlay the curve for this base", ROPE_REAL(compare_base)},
    {"compare_dim", K::integer, shown(dims(512, false, /*zero_is_off=*/true), "d = %d"), nullptr,
     "decay: overlay the curve for this d", ROPE_INT(compare_dim)},
    {"mean_score", K::boolean, kNoRange, nullptr,
     "decay: overlay the mean score of seeded random q, k", ROPE_BOOL(mean_score)},
    {"partial_compare", K::boolean, kNoRange, nullptr,
     "spectrum: with a rotary fraction p < 1, draw the other meaning of p beside the one in use",
     ROPE_BOOL(partial_compare)},
    {"grid_size", K::integer, shown(whole(2, 32), "grid side = %d patches"), nullptr,
     "axial: patches per side of the image grid", ROPE_INT(grid_size)},
    {"query_row", K::integer, shown(whole(0, 31), "query row r₁ = %d"), nullptr,
     "axial: row of the query patch (0 at the top)", ROPE_INT(query_row)},
    {"query_column", K::integer, shown(whole(0, 31), "query column c₁ = %d"), nullptr,
     "axial: column of the query patch (0 at the left)", ROPE_INT(query_column)},
    {"key_row", K::integer, shown(whole(0, 31), "key row r₂ = %d"), nullptr,
     "axial: row of the key patch of the read-out", ROPE_INT(key_row)},
    {"key_column", K::integer, shown(whole(0, 31), "key column c₂ = %d"), nullptr,
     "axial: column of the key patch of the read-out", ROPE_INT(key_column)},
    {"shift_row", K::integer, shown(whole(-31, 31), "move both: Δ rows = %d"), nullptr,
     "axial: rows both patches move by in the second panel", ROPE_INT(shift_row)},
    {"shift_column", K::integer, shown(whole(-31, 31), "move both: Δ columns = %d"), nullptr,
     "axial: columns both patches move by in the second panel", ROPE_INT(shift_column)},
    {"axial_moved", K::boolean, kNoRange, nullptr,
     "axial: draw the second panel, both patches moved by (shift_row, shift_column)",
     ROPE_BOOL(axial_moved)},
    {"axial_rectangle", K::boolean, kNoRange, nullptr,
     "axial: outline the rectangle with the query and key patches at opposite corners, and its "
     "other two corners (r2, c1) and (r1, c2)",
     ROPE_BOOL(axial_rectangle)},
    {"mm_sequence", K::text, kNoRange,
     "segments text:N, image:HxW, video:TxHxW separated by commas (at most 16, 2048 tokens)",
     "multimodal: the sequence of text, images and videos (merged patches)",
     [](Params& p, std::string_view t) -> Status {
       if (auto r = parse_mm_sequence(t); !r) return r.error();
       p.mm_sequence = std::string(trim(t));
       return {};
     },
     [](const Params& p) { return p.mm_sequence; }},
    {"mm_rule", K::choice, kNoRange, "qwen2, qwen25, qwen25_int, qwen3 or videorope",
     "multimodal: how position ids are given out (the models' get_rope_index)",
     ROPE_CHOICE(mm_rule, kMropeRules)},
    {"mm_layout", K::choice, kNoRange, "chunked, interleaved or videorope",
     "multimodal: which pairs turn with t, h and w", ROPE_CHOICE(mm_layout, kMropeLayouts)},
    {"mm_section", K::text, kNoRange, "auto, or t,h,w: pairs per axis summing to d/2",
     "multimodal: mrope_section of the layout (auto: the model's split scaled to d)",
     [](Params& p, std::string_view t) -> Status {
       if (auto st = check_mm_section_text(t); !st) return st;
       p.mm_section = std::string(trim(t));
       return {};
     },
     [](const Params& p) { return p.mm_section; }},
    {"mm_query", K::integer, shown(whole(0, kMmMaxTokens - 1), "query token = %d"), nullptr,
     "multimodal: the query token (its index in the sequence)", ROPE_INT(mm_query)},
    {"mm_seconds", K::real, shown(part(0, 3600, 0, 4), "seconds per grid = %.3g"), nullptr,
     "multimodal: seconds per temporal grid of every video (Qwen2.5-VL's time ids)",
     ROPE_REAL(mm_seconds)},
    {"mm_tokens_per_second", K::integer, shown(part(1, 1000, 1, 8), "tokens per second = %d"),
     nullptr, "multimodal: Qwen2.5-VL's temporal ids per second of video",
     ROPE_INT(mm_tokens_per_second)},
    {"mm_compare", K::boolean, kNoRange, nullptr,
     "multimodal: draw the other layout (chunked or interleaved) beside", ROPE_BOOL(mm_compare)},
    {"point_x", K::real, shown(whole(-kMaxCoordinate, kMaxCoordinate), "%.4g"), nullptr,
     "trajectory: first coordinate of x", ROPE_REAL(point_x)},
    {"point_y", K::real, shown(whole(-kMaxCoordinate, kMaxCoordinate), "%.4g"), nullptr,
     "trajectory: second coordinate of x", ROPE_REAL(point_y)},
    {"offset", K::real,
     shown(part(-kMaxCoordinate, kMaxCoordinate, -10.0, 10.0), "offset k = %.2f"), nullptr,
     "trajectory: the shift k in PE_{pos+k} = M(k) PE_pos", ROPE_REAL(offset)},
    {"sentence_a", K::text, kNoRange, "text, up to 200 characters", "sentence demo: first sentence",
     ROPE_TEXT(sentence_a)},
    {"sentence_b", K::text, kNoRange, "text, up to 200 characters",
     "sentence demo: second sentence", ROPE_TEXT(sentence_b)},
    {"query_word", K::text, kNoRange, "a word of both sentences", "sentence demo: the query word",
     ROPE_TEXT(query_word)},
    {"key_word", K::text, kNoRange, "a word of both sentences", "sentence demo: the key word",
     ROPE_TEXT(key_word)},
    {"lesson", K::text, kNoRange, "lesson name",
     "lesson to show (without --view: opens the derivation view)",
     [](Params& p, std::string_view t) -> Status {
       constexpr std::size_t kMaxName = 100;
       if (t.size() > kMaxName) return error("lesson", "must be at most 100 characters");
       p.lesson = std::string(trim(t));
       return {};
     },
     [](const Params& p) { return p.lesson; }},
    {"step", K::integer, whole(1, 1000), nullptr,
     "lesson step, counted from 1 (without --view: opens the derivation view)", ROPE_INT(step)},
    {"show_view", K::choice, kNoRange, "any view but derivation",
     "derivation: the view drawn beside the lesson",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_choice("show_view", t, kViews);
       if (!r) return r.error();
       if (r.value() == ViewId::derivation)
         return error("show_view", "must be a view other than derivation");
       p.show_view = r.value();
       return {};
     },
     [](const Params& p) -> std::string { return choice_name(p.show_view, kViews); }},
    {"theme", K::choice, kNoRange, "dark or light", "colour theme (light is the projector theme)",
     ROPE_CHOICE(theme, kThemes)},
    {"ui_scale", K::real, whole(0.5, 4.0), nullptr, "size of everything on screen",
     ROPE_REAL(ui_scale)},
    {"presentation", K::boolean, kNoRange, nullptr, "full screen, projector theme, slim controls",
     ROPE_BOOL(presentation)},
    // precision view (state/precision_params.h): the preset row comes before the four formats,
    // so flags and sessions apply a preset first and a format given beside it wins
    {"precision", K::choice, kNoRange, "fp32, bf16, fp16, theta-bf16, fix, exact or custom",
     "precision: all four cast points as a preset of rope/low_precision.h (custom: keep them)",
     [](Params& p, std::string_view t) -> Status {
       const std::string_view name = trim(t);
       if (name == "custom") return {};  // what a custom state reads back as: nothing to set
       const auto f = parse_precision_preset(name);
       if (!f)
         return error("precision",
                      "must be one of fp32, bf16, fp16, theta-bf16, fix, exact or custom, got " +
                          quote_for_message(t));
       p.precision.formats = *f;
       return {};
     },
     [](const Params& p) -> std::string { return preset_name(p.precision.formats); }},
    {"position_format", K::choice, kNoRange, "fp64, fp32, bf16 or fp16",
     "precision: format of the position m", ROPE_FORMAT(position)},
    {"theta_format", K::choice, kNoRange, "fp64, fp32, bf16 or fp16",
     "precision: format of theta_i (inv_freq)", ROPE_FORMAT(theta)},
    {"angle_format", K::choice, kNoRange, "fp64, fp32, bf16 or fp16",
     "precision: format of the angle m theta_i", ROPE_FORMAT(angle)},
    {"trig_format", K::choice, kNoRange, "fp64, fp32, bf16 or fp16",
     "precision: format of cos and sin", ROPE_FORMAT(trig)},
    {"precision_pair", K::integer, shown(whole(0, kMaxPrecisionPair), "pair shown large: %d"),
     nullptr, "precision: the pair shown large (below d/2)",
     [](Params& p, std::string_view t) -> Status {
       auto r = integer_param("precision_pair", t);
       if (!r) return r.error();
       p.precision.pair = static_cast<int>(r.value());
       return {};
     },
     [](const Params& p) { return std::to_string(p.precision.pair); }},
    // context extension (state/scaling_params.h): one block, judged there with the core's limits
    // (rope/scaling.h); the ranges here are the same limits, for the sliders and --help
    {"scaling", K::choice, kNoRange,
     "none, linear, ntk, dynamic, yarn, llama3, longrope or proportional",
     "context extension: the method that changes theta_i", ROPE_EXTENSION("scaling")},
    {"factor", K::real,
     shown(part(kMinScalingFactor, kMaxScalingFactor, 1.0, 64.0, true), "s = %.3g"), nullptr,
     "context extension: s = target context / L", ROPE_EXTENSION("factor")},
    {"original_context", K::integer,
     shown(part(1, static_cast<double>(kMaxContext), 256, 131072, true), "L = %d"), nullptr,
     "context extension: L, the pre-training context", ROPE_EXTENSION("original_context")},
    {"beta_fast", K::real, shown(part(kMinBeta, kMaxBeta, 1.0, 128.0, true), "β_fast = %.3g"),
     nullptr, "yarn: pairs turning more often in L keep theta (at least beta_slow)",
     ROPE_EXTENSION("beta_fast")},
    {"beta_slow", K::real, shown(part(kMinBeta, kMaxBeta, 0.125, 32.0, true), "β_slow = %.3g"),
     nullptr, "yarn: pairs turning less often in L get theta/s", ROPE_EXTENSION("beta_slow")},
    {"truncate", K::boolean, kNoRange, nullptr,
     "yarn: round the ramp ends to whole pairs (floor/ceil)", ROPE_EXTENSION("truncate")},
    {"low_freq_factor", K::real, shown(positive(0.25, 16.0), "low freq factor %.3g"), nullptr,
     "llama3: pairs with wavelength > L/low get theta/s (at most high_freq_factor)",
     ROPE_EXTENSION("low_freq_factor")},
    {"high_freq_factor", K::real, shown(positive(0.25, 16.0), "high freq factor %.3g"), nullptr,
     "llama3: pairs with wavelength < L/high keep theta", ROPE_EXTENSION("high_freq_factor")},
    {"sequence_length", K::integer,
     shown(off_or(part(1, static_cast<double>(kMaxContext), 256, 1048576, true)), "ℓ = %d"),
     nullptr, "dynamic, longrope: the current sequence length (0: unset)",
     ROPE_EXTENSION("sequence_length")},
    {"attention_factor", K::real, part(0, kMaxAttentionFactor, 0, 4), nullptr,
     "yarn, longrope: the factor on cos and sin (0: the method's default)",
     ROPE_EXTENSION("attention_factor")},
    {"mscale", K::real, part(0, kMaxAttentionFactor, 0, 4), nullptr,
     "yarn (DeepSeek): temperature coefficient (0: unset)", ROPE_EXTENSION("mscale")},
    {"mscale_all_dim", K::real, part(0, kMaxAttentionFactor, 0, 4), nullptr,
     "yarn (DeepSeek): temperature coefficient of the divisor (0: unset)",
     ROPE_EXTENSION("mscale_all_dim")},
    // partial rotary: one fraction for both meanings and for the proportional method
    // (state/scaling_params.h, "PARTIAL ROTARY, ONE STATE")
    {"rotary_fraction", K::real, shown(whole(0, 1), "rotary fraction p = %.3g"), nullptr,
     "partial rotary: the fraction p of the head that rotates (its meaning: rotary_style; the "
     "proportional method reads it as p-RoPE)",
     ROPE_EXTENSION("rotary_fraction")},
    {"rotary_style", K::choice, kNoRange, "neox or proportional",
     "partial rotary: neox (theta over int(p d) dims) or proportional (full-head theta, slow "
     "pairs still)",
     ROPE_EXTENSION("rotary_style")},
    {"long_factor", K::vector, kNoRange, "d/2 comma-separated numbers, or empty",
     "longrope: divisors when the sequence is longer than L", ROPE_EXTENSION("long_factor")},
    {"short_factor", K::vector, kNoRange, "d/2 comma-separated numbers, or empty",
     "longrope: divisors up to L", ROPE_EXTENSION("short_factor")},
    {"long_factor_file", K::text, kNoRange, "a file of d/2 numbers",
     "longrope: read long_factor from a file", ROPE_EXTENSION("long_factor_file")},
    {"short_factor_file", K::text, kNoRange, "a file of d/2 numbers",
     "longrope: read short_factor from a file", ROPE_EXTENSION("short_factor_file")},
    {"extension_mode", K::choice, kNoRange, "frequencies or extrapolation",
     "extension: theta' per pair, or why extrapolation fails (PI Fig. 2, 5)",
     ROPE_EXTENSION("extension_mode")},
    {"compare_methods", K::boolean, kNoRange, nullptr,
     "extension: overlay every method at the same s", ROPE_EXTENSION("compare_methods")},
});

#undef ROPE_CHOICE
#undef ROPE_BOOL
#undef ROPE_REAL
#undef ROPE_INT
#undef ROPE_TEXT
#undef ROPE_FORMAT
#undef ROPE_EXTENSION

}  // namespace

std::span<const ParamSpec> param_specs() {
  return kSpecs;
}

std::string quote_for_message(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;  // bytes
  std::size_t n = std::min(text.size(), kMaxShown);
  // not inside a UTF-8 character: back to its first byte
  while (n < text.size() && n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80)
    --n;
  std::string s(text.substr(0, n));
  if (text.size() > n) s += "...";
  return "'" + s + "'";
}

const ParamSpec* find_param(std::string_view name) {
  for (const auto& s : kSpecs)
    if (name == s.name) return &s;
  return nullptr;
}

std::string param_allowed(const ParamSpec& spec) {
  switch (spec.kind) {
    case ParamKind::boolean:
      return "true or false";
    case ParamKind::integer:
    case ParamKind::real:
      return range_text(spec.range, spec.kind);
    case ParamKind::choice:
    case ParamKind::text:
    case ParamKind::vector:
      break;
  }
  if (spec.allowed) return spec.allowed;
  if (std::string_view(spec.name) == "view") {
    std::string out;
    for (std::size_t i = 0; i < kViews.size(); ++i)
      out += std::string(i == 0 ? "" : i + 1 == kViews.size() ? " or " : ", ") + kViews[i].first;
    return out;
  }
  return "";
}

std::vector<std::string> param_choices(const ParamSpec& spec) {
  if (spec.kind != ParamKind::choice) return {};
  const auto is_word = [](std::string_view w) {
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
    });
  };
  std::string text = param_allowed(spec);
  for (std::size_t at; (at = text.find(" or ")) != std::string::npos;)
    text.replace(at, 4, ", ");
  std::vector<std::string> words;
  for (std::size_t from = 0; from <= text.size();) {
    std::size_t comma = text.find(", ", from);
    if (comma == std::string::npos) comma = text.size();
    std::string w = text.substr(from, comma - from);
    if (!is_word(w)) return {};
    words.push_back(std::move(w));
    from = comma + 2;
  }
  return words;
}

const ParamRange& param_range(std::string_view name) {
  const ParamSpec* spec = find_param(name);
  return spec ? spec->range : kNoRange;
}

bool ParamRange::contains(double v) const {
  if (!std::isfinite(v)) return false;
  if (zero_is_off && v == 0.0) return true;
  if (above_min ? !(v > min) : !(v >= min)) return false;
  return v <= max && (!even || std::fmod(v, 2.0) == 0.0);
}

double ParamRange::clamp(double v) const {
  if (std::isnan(v)) return min;
  if (zero_is_off && v == 0.0) return v;
  double c = std::clamp(v, min, max);
  if (even && std::fmod(c, 2.0) != 0.0) c += 1.0;  // an odd integer: up to the next even one
  if (c > max) c -= 2.0;
  if (above_min && !(c > min)) c = std::nextafter(min, max);
  return c;
}

Status set_param(Params& params, std::string_view name, std::string_view text) {
  const ParamSpec* spec = find_param(name);
  if (!spec) return Error{std::string(name), "is not a parameter of RoPE Lab"};
  Params trial = params;  // a failed set leaves params untouched
  if (auto s = spec->set(trial, text); !s) return s;
  params = std::move(trial);
  return {};
}

Status set_param_value(Params& params, std::string_view name, double v) {
  const ParamSpec* spec = find_param(name);
  if (!spec) return Error{std::string(name), "is not a parameter of RoPE Lab"};
  if (spec->kind != ParamKind::integer && spec->kind != ParamKind::real)
    return Error{std::string(name), "is not a number parameter"};
  if (spec->kind == ParamKind::integer) v = std::round(v);
  // the shortest exact text reads back as the same double: the round trip loses nothing
  return change_param(params, name, format_number(spec->range.clamp(v), NumberStyle::csv));
}

Status change_param(Params& params, std::string_view name, std::string_view text) {
  Params trial = params;
  if (auto s = set_param(trial, name, text); !s) return s;
  // One value of a state that holds together changes; a value that breaks a rule between
  // parameters (a rotary fraction that rotates no pair at this d, LongRoPE without its lists)
  // is refused, or the window would show a state no session or export takes (the property
  // test, tests/app/test_state_property.cpp, found both).
  if (validate_params(params).ok())
    if (auto s = validate_params(trial); !s) return s;
  params = std::move(trial);
  return {};
}

double param_value(const Params& params, std::string_view name) {
  const ParamSpec* spec = find_param(name);
  if (!spec || (spec->kind != ParamKind::integer && spec->kind != ParamKind::real))
    return std::numeric_limits<double>::quiet_NaN();
  auto v = parse_real(name, spec->get(params));
  return v ? v.value() : std::numeric_limits<double>::quiet_NaN();
}

bool fit_vectors_to_dim(Params& p) {
  bool changed = false;
  for (VectorChoice* c : {&p.query, &p.key}) {
    if (c->preset != VectorPreset::custom || c->values.size() == static_cast<std::size_t>(p.dim))
      continue;
    *c = c == &p.query ? Params{}.query : Params{}.key;
    changed = true;
  }
  return changed;
}

Status validate_params(const Params& p) {
  const auto check = [&](const VectorChoice& c, const char* name) -> Status {
    if (c.preset == VectorPreset::custom && c.values.size() != static_cast<std::size_t>(p.dim))
      return Error{name, "has " + std::to_string(c.values.size()) + " values but dim is " +
                             std::to_string(p.dim) + "; give exactly dim comma-separated numbers"};
    return {};
  };
  if (auto s = check(p.query, "query"); !s) return s;
  if (auto s = check(p.key, "key"); !s) return s;
  return validate_extension(p.extension, p.dim, p.base);
}

std::vector<double> effective_vector(const VectorChoice& c, int dim, std::uint64_t seed,
                                     bool is_key) {
  VectorSource source = VectorSource::given;
  switch (c.preset) {
    case VectorPreset::unit:
      source = VectorSource::unit;
      break;
    case VectorPreset::ones:
      source = VectorSource::ones;
      break;
    case VectorPreset::random:
      source = VectorSource::random;
      break;
    case VectorPreset::custom:
      break;
  }
  auto v = make_vector(source, dim, c.values, is_key ? key_seed(seed) : seed);
  // Params hold a valid d and finite values (the parameter table checks them): never reached
  return v ? std::move(v).value()
           : std::vector<double>(static_cast<std::size_t>(std::max(dim, 0)), 0.0);
}

const char* view_name(ViewId v) {
  return choice_name(v, kViews);
}

const char* view_title(ViewId v) {
  switch (v) {
#define ROPE_LAB_VIEW_TITLE(id, type, name, title) \
  case ViewId::id:                                 \
    return title;
    ROPE_LAB_VIEWS(ROPE_LAB_VIEW_TITLE)
#undef ROPE_LAB_VIEW_TITLE
  }
  return "?";
}

std::span<const ViewId> all_views() {
#define ROPE_LAB_VIEW_ALL(id, type, name, title) ViewId::id,
  static constexpr std::array<ViewId, kViewCount> kAll{ROPE_LAB_VIEWS(ROPE_LAB_VIEW_ALL)};
#undef ROPE_LAB_VIEW_ALL
  return kAll;
}

const char* theme_name(Theme t) {
  return choice_name(t, kThemes);
}

Result<double> parse_real(std::string_view parameter, std::string_view text) {
  const std::string t(trim(text));
  if (t.empty()) return error(parameter, "needs a number, got nothing");
  const char* begin = t.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(begin, &end);
  if (end != begin + t.size())
    return error(parameter, "must be a number, got " + quote_for_message(text));
  // ERANGE also flags underflow (1e-320 is a subnormal, 1e-400 reads as 0): both are finite
  // numbers the caller's range then judges; only an overflow to infinity is refused here.
  if (!std::isfinite(v) || (errno == ERANGE && std::abs(v) > 1.0))
    return error(parameter, "must be a finite number, got " + quote_for_message(text));
  return v;
}

Result<bool> parse_bool(std::string_view parameter, std::string_view text) {
  const std::string_view t = trim(text);
  if (t == "true" || t == "on" || t == "yes" || t == "1") return true;
  if (t == "false" || t == "off" || t == "no" || t == "0") return false;
  return error(parameter,
               "must be true or false (also on/off, yes/no, 1/0), got " + quote_for_message(text));
}

Result<long long> parse_integer(std::string_view parameter, std::string_view text) {
  const std::string_view t = trim(text);
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range)
    return error(parameter, "is far too large: " + quote_for_message(text));
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size())
    return error(parameter, "must be a whole number, got " + quote_for_message(text));
  return v;
}

Result<std::vector<double>> parse_real_list(std::string_view parameter, std::string_view text) {
  std::vector<double> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    auto v = parse_real(parameter, item);
    if (!v)
      return error(parameter, "entry " + std::to_string(out.size() + 1) + " " + v.error().message +
                                  " (expected comma-separated numbers)");
    out.push_back(v.value());
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace rope::app
