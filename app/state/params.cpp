#include "state/params.h"

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "rope/frequencies.h"
#include "rope/low_precision.h"
#include "rope/random.h"

namespace rope::app {
namespace {

// [SECTION] text helpers

std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;  // a pasted essay is not echoed whole
  std::string s(text.substr(0, kMaxShown));
  if (text.size() > kMaxShown) s += "...";
  return "'" + s + "'";
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

Error error(std::string_view parameter, std::string message) {
  return Error{std::string(parameter), std::move(message)};
}

Result<double> real_in(std::string_view name, std::string_view text, double lo, double hi,
                       const char* allowed) {
  auto r = parse_real(name, text);
  if (!r) return r;
  if (!(r.value() >= lo && r.value() <= hi))
    return error(name, std::string("must be ") + allowed + ", got " + quoted(text));
  return r;
}

Result<long long> integer_in(std::string_view name, std::string_view text, long long lo,
                             long long hi, const char* allowed) {
  auto r = parse_integer(name, text);
  if (!r) return r;
  if (r.value() < lo || r.value() > hi)
    return error(name, std::string("must be ") + allowed + ", got " + quoted(text));
  return r;
}

Result<bool> parse_bool(std::string_view name, std::string_view text) {
  const std::string_view t = trim(text);
  if (t == "true" || t == "on" || t == "yes" || t == "1") return true;
  if (t == "false" || t == "off" || t == "no" || t == "0") return false;
  return error(name, "must be true or false (also on/off, yes/no, 1/0), got " + quoted(text));
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
  return error(name, "must be one of " + names + ", got " + quoted(text));
}

template <class E, std::size_t N>
const char* choice_name(E v, const std::array<std::pair<const char*, E>, N>& table) {
  for (const auto& [n, x] : table)
    if (x == v) return n;
  return "?";
}

// [SECTION] name tables

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
constexpr std::array<std::pair<const char*, ScoreMode>, 3> kScoreModes{{
    {"raw", ScoreMode::raw},
    {"scaled", ScoreMode::scaled},
    {"softmax", ScoreMode::softmax},
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
                           quoted(text));
  auto values = parse_real_list(name, t);
  if (!values) return values.error();
  return VectorChoice{VectorPreset::custom, std::move(values).value()};
}

std::string print_vector_choice(const VectorChoice& c) {
  if (c.preset != VectorPreset::custom) return choice_name(c.preset, kPresets);
  std::string s;
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    if (i) s += ',';
    s += format_real(c.values[i]);
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

// [SECTION] the table

constexpr double kMaxPosition = 1e9;  // |m|, |n|: beyond this cos(m theta) still works, but
                                      // nothing a lecture shows needs it

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

#define ROPE_REAL(field, lo, hi, allowed)         \
  [](Params& p, std::string_view t) -> Status {   \
    auto r = real_in(#field, t, lo, hi, allowed); \
    if (!r) return r.error();                     \
    p.field = r.value();                          \
    return {};                                    \
  },                                              \
      [](const Params& p) { return format_real(p.field); }

#define ROPE_INT(field, lo, hi, allowed)                 \
  [](Params& p, std::string_view t) -> Status {          \
    auto r = integer_in(#field, t, lo, hi, allowed);     \
    if (!r) return r.error();                            \
    p.field = static_cast<decltype(p.field)>(r.value()); \
    return {};                                           \
  },                                                     \
      [](const Params& p) { return std::to_string(p.field); }

#define ROPE_EXTENSION(name)                                                               \
  [](Params& p, std::string_view t) { return set_extension_param(p.extension, name, t); }, \
      [](const Params& p) { return get_extension_param(p.extension, name); }

#define ROPE_TEXT(field)                                  \
  [](Params& p, std::string_view t) -> Status {           \
    if (auto s = check_sentence(#field, t); !s) return s; \
    p.field = std::string(t);                             \
    return {};                                            \
  },                                                      \
      [](const Params& p) { return p.field; }

// One cast point's format of the precision view: fp64, fp32, bf16 or fp16 (rope/low_precision.h).
#define ROPE_FORMAT(point)                                                                         \
  [](Params& p, std::string_view t) -> Status {                                                    \
    const auto f = parse_format(trim(t));                                                          \
    if (!f)                                                                                        \
      return error(#point "_format", "must be one of fp64, fp32, bf16 or fp16, got " + quoted(t)); \
    p.precision.formats.point = *f;                                                                \
    return {};                                                                                     \
  },                                                                                               \
      [](const Params& p) -> std::string { return format_name(p.precision.formats.point); }

const std::array kSpecs = std::to_array<ParamSpec>({
    {"view",
     "pointers, sinusoidal, trajectory, sentence, heatmap, decay, spectrum, derivation or "
     "precision",
     "the view shown in the main canvas", ROPE_CHOICE(view, kViews)},
    {"dim", "even integer 2 ... 4096", "head dimension d",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_integer("dim", t);
       if (!r) return r.error();
       if (auto s = validate_dim(r.value()); !s) return s;
       p.dim = static_cast<int>(r.value());
       return {};
     },
     [](const Params& p) { return std::to_string(p.dim); }},
    {"base", "finite number > 1", "frequency base: theta_i = base^(-2i/d)",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_real("base", t);
       if (!r) return r.error();
       if (auto s = validate_base(r.value()); !s) return s;
       p.base = r.value();
       return {};
     },
     [](const Params& p) { return format_real(p.base); }},
    {"position", "number from -1e9 to 1e9", "query position m",
     ROPE_REAL(position, -kMaxPosition, kMaxPosition, "a number from -1e9 to 1e9")},
    {"key_position", "number from -1e9 to 1e9", "key position n",
     ROPE_REAL(key_position, -kMaxPosition, kMaxPosition, "a number from -1e9 to 1e9")},
    {"pairing", "interleaved or half",
     "which coordinates form a block: (x2i, x2i+1) or (xi, xi+d/2)",
     ROPE_CHOICE(pairing, kPairings)},
    {"query", "unit, ones, random or d comma-separated numbers", "the query vector q",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_vector_choice("query", t);
       if (!r) return r.error();
       p.query = std::move(r).value();
       return {};
     },
     [](const Params& p) { return print_vector_choice(p.query); }},
    {"key", "unit, ones, random or d comma-separated numbers", "the key vector k",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_vector_choice("key", t);
       if (!r) return r.error();
       p.key = std::move(r).value();
       return {};
     },
     [](const Params& p) { return print_vector_choice(p.key); }},
    {"seed", "integer 0 ... 2^53-1", "seed of every random vector",
     ROPE_INT(seed, 0, kMaxSeed, "an integer from 0 to 9007199254740991")},
    {"layout", "dials or circle", "pointers: one dial per block, or all on one circle",
     ROPE_CHOICE(layout, kLayouts)},
    {"trails", "true or false", "pointers: draw recent positions as a trail", ROPE_BOOL(trails)},
    {"trail_length", "number 0 ... 1000", "pointers: trail length in positions",
     ROPE_REAL(trail_length, 0.0, 1000.0, "a number from 0 to 1000")},
    {"playing", "true or false", "animate the position", ROPE_BOOL(playing)},
    {"speed", "number 0.05 ... 100", "animation speed in positions per second",
     ROPE_REAL(speed, 0.05, 100.0, "a number from 0.05 to 100")},
    {"positions", "integer 8 ... 4096", "heatmap: number of positions N",
     ROPE_INT(positions, 8, 4096, "an integer from 8 to 4096")},
    {"encoding", "none, sinusoidal or rope", "heatmap: position encoding",
     ROPE_CHOICE(encoding, kEncodings)},
    {"compare", "true or false", "heatmap: all three encodings side by side", ROPE_BOOL(compare)},
    {"content", "shared, random or sentence", "heatmap: the vectors at each position",
     ROPE_CHOICE(content, kContents)},
    {"score_mode", "raw, scaled or softmax", "heatmap: q.k, q.k/sqrt(d), or row softmax",
     ROPE_CHOICE(score_mode, kScoreModes)},
    {"causal", "true or false", "heatmap: mask keys after the query", ROPE_BOOL(causal)},
    {"max_distance", "integer 1 ... 100000", "decay: largest relative distance R",
     ROPE_INT(max_distance, 1, 100000, "an integer from 1 to 100000")},
    {"context_length", "integer 1 ... 10000000", "spectrum: context length marked",
     ROPE_INT(context_length, 1, 10000000, "an integer from 1 to 10000000")},
    {"pe_positions", "integer 1 ... 4096", "sinusoidal: positions (rows) in the figure",
     ROPE_INT(pe_positions, 1, 4096, "an integer from 1 to 4096")},
    {"pe_dim", "even integer 2 ... 4096", "sinusoidal: dimensions (columns) in the figure",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_integer("pe_dim", t);
       if (!r) return r.error();
       if (!validate_dim(r.value()))
         return error("pe_dim", "must be an even integer from 2 to 4096, got " + quoted(t));
       p.pe_dim = static_cast<int>(r.value());
       return {};
     },
     [](const Params& p) { return std::to_string(p.pe_dim); }},
    {"compare_base", "0 (off) or a finite number > 1", "decay: overlay the curve for this base",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_real("compare_base", t);
       if (!r) return r.error();
       if (r.value() != 0.0) {
         if (auto s = validate_base(r.value()); !s)
           return error("compare_base",
                        "must be 0 (off) or a finite number greater than 1, got " + quoted(t));
       }
       p.compare_base = r.value();
       return {};
     },
     [](const Params& p) { return format_real(p.compare_base); }},
    {"compare_dim", "0 (off) or an even integer 2 ... 4096", "decay: overlay the curve for this d",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_integer("compare_dim", t);
       if (!r) return r.error();
       if (r.value() != 0 && !validate_dim(r.value()))
         return error("compare_dim",
                      "must be 0 (off) or an even integer from 2 to 4096, got " + quoted(t));
       p.compare_dim = static_cast<int>(r.value());
       return {};
     },
     [](const Params& p) { return std::to_string(p.compare_dim); }},
    {"mean_score", "true or false", "decay: overlay the mean score of seeded random q, k",
     ROPE_BOOL(mean_score)},
    {"point_x", "number from -1e6 to 1e6", "trajectory: first coordinate of x",
     ROPE_REAL(point_x, -1e6, 1e6, "a number from -1e6 to 1e6")},
    {"point_y", "number from -1e6 to 1e6", "trajectory: second coordinate of x",
     ROPE_REAL(point_y, -1e6, 1e6, "a number from -1e6 to 1e6")},
    {"offset", "number from -1e6 to 1e6", "trajectory: the shift k in PE_{pos+k} = M(k) PE_pos",
     ROPE_REAL(offset, -1e6, 1e6, "a number from -1e6 to 1e6")},
    {"sentence_a", "text, up to 200 characters", "sentence demo: first sentence",
     ROPE_TEXT(sentence_a)},
    {"sentence_b", "text, up to 200 characters", "sentence demo: second sentence",
     ROPE_TEXT(sentence_b)},
    {"query_word", "a word of both sentences", "sentence demo: the query word",
     ROPE_TEXT(query_word)},
    {"key_word", "a word of both sentences", "sentence demo: the key word", ROPE_TEXT(key_word)},
    {"lesson", "lesson name", "lesson shown by the derivation view",
     [](Params& p, std::string_view t) -> Status {
       constexpr std::size_t kMaxName = 100;
       if (t.size() > kMaxName) return error("lesson", "must be at most 100 characters");
       p.lesson = std::string(trim(t));
       return {};
     },
     [](const Params& p) { return p.lesson; }},
    {"step", "integer 1 ... 1000", "lesson step, counted from 1",
     ROPE_INT(step, 1, 1000, "an integer from 1 to 1000")},
    {"show_view", "any view but derivation", "derivation: the view drawn beside the lesson",
     [](Params& p, std::string_view t) -> Status {
       auto r = parse_choice("show_view", t, kViews);
       if (!r) return r.error();
       if (r.value() == ViewId::derivation)
         return error("show_view", "must be a view other than derivation");
       p.show_view = r.value();
       return {};
     },
     [](const Params& p) -> std::string { return choice_name(p.show_view, kViews); }},
    {"theme", "dark or light", "colour theme (light is the projector theme)",
     ROPE_CHOICE(theme, kThemes)},
    {"ui_scale", "number 0.5 ... 4", "size of everything on screen",
     ROPE_REAL(ui_scale, 0.5, 4.0, "a number from 0.5 to 4")},
    {"presentation", "true or false", "full screen, projector theme, slim controls",
     ROPE_BOOL(presentation)},
    // precision view (state/precision_params.h): the preset row comes before the four formats,
    // so flags and sessions apply a preset first and a format given beside it wins
    {"precision", "fp32, bf16, fp16, theta-bf16, fix, exact or custom",
     "precision: all four cast points as a preset of rope/low_precision.h (custom: keep them)",
     [](Params& p, std::string_view t) -> Status {
       const std::string_view name = trim(t);
       if (name == "custom") return {};  // what a custom state reads back as: nothing to set
       const auto f = parse_precision_preset(name);
       if (!f)
         return error(
             "precision",
             "must be one of fp32, bf16, fp16, theta-bf16, fix, exact or custom, got " + quoted(t));
       p.precision.formats = *f;
       return {};
     },
     [](const Params& p) -> std::string { return preset_name(p.precision.formats); }},
    {"position_format", "fp64, fp32, bf16 or fp16", "precision: format of the position m",
     ROPE_FORMAT(position)},
    {"theta_format", "fp64, fp32, bf16 or fp16", "precision: format of theta_i (inv_freq)",
     ROPE_FORMAT(theta)},
    {"angle_format", "fp64, fp32, bf16 or fp16", "precision: format of the angle m theta_i",
     ROPE_FORMAT(angle)},
    {"trig_format", "fp64, fp32, bf16 or fp16", "precision: format of cos and sin",
     ROPE_FORMAT(trig)},
    {"precision_pair", "integer 0 ... 2047", "precision: the pair shown large (below d/2)",
     [](Params& p, std::string_view t) -> Status {
       auto r = integer_in("precision_pair", t, 0, kMaxPrecisionPair, "an integer from 0 to 2047");
       if (!r) return r.error();
       p.precision.pair = static_cast<int>(r.value());
       return {};
     },
     [](const Params& p) { return std::to_string(p.precision.pair); }},
    // context extension (state/scaling_params.h): one block, its rules in that file
    {"scaling", "none, linear, ntk, dynamic, yarn, llama3, longrope or proportional",
     "context extension: the method that changes theta_i", ROPE_EXTENSION("scaling")},
    {"factor", "number 1e-6 ... 1e6", "context extension: s = target context / L",
     ROPE_EXTENSION("factor")},
    {"original_context", "integer 1 ... 2^30", "context extension: L, the pre-training context",
     ROPE_EXTENSION("original_context")},
    {"beta_fast", "number 0.001 ... 100000, at least beta_slow",
     "yarn: pairs turning more often in L keep theta", ROPE_EXTENSION("beta_fast")},
    {"beta_slow", "number 0.001 ... 100000", "yarn: pairs turning less often in L get theta/s",
     ROPE_EXTENSION("beta_slow")},
    {"truncate", "true or false", "yarn: round the ramp ends to whole pairs (floor/ceil)",
     ROPE_EXTENSION("truncate")},
    {"low_freq_factor", "number > 0, less than high_freq_factor",
     "llama3: pairs with wavelength > L/low get theta/s", ROPE_EXTENSION("low_freq_factor")},
    {"high_freq_factor", "number > 0", "llama3: pairs with wavelength < L/high keep theta",
     ROPE_EXTENSION("high_freq_factor")},
    {"sequence_length", "0 (unset) or integer 1 ... 2^30",
     "dynamic, longrope: the current sequence length", ROPE_EXTENSION("sequence_length")},
    {"attention_factor", "0 (the method's default) or number up to 100",
     "yarn, longrope: the factor on cos and sin", ROPE_EXTENSION("attention_factor")},
    {"mscale", "0 (unset) or number up to 100", "yarn (DeepSeek): temperature coefficient",
     ROPE_EXTENSION("mscale")},
    {"mscale_all_dim", "0 (unset) or number up to 100",
     "yarn (DeepSeek): temperature coefficient of the divisor", ROPE_EXTENSION("mscale_all_dim")},
    {"rotary_fraction", "number 0 ... 1", "proportional: the fraction of pairs that rotate",
     ROPE_EXTENSION("rotary_fraction")},
    {"long_factor", "d/2 comma-separated numbers, or empty",
     "longrope: divisors when the sequence is longer than L", ROPE_EXTENSION("long_factor")},
    {"short_factor", "d/2 comma-separated numbers, or empty", "longrope: divisors up to L",
     ROPE_EXTENSION("short_factor")},
    {"long_factor_file", "a file of d/2 numbers", "longrope: read long_factor from a file",
     ROPE_EXTENSION("long_factor_file")},
    {"short_factor_file", "a file of d/2 numbers", "longrope: read short_factor from a file",
     ROPE_EXTENSION("short_factor_file")},
    {"extension_mode", "frequencies or extrapolation",
     "extension: theta' per pair, or why extrapolation fails (PI Fig. 2, 5)",
     ROPE_EXTENSION("extension_mode")},
    {"compare_methods", "true or false", "extension: overlay every method at the same s",
     ROPE_EXTENSION("compare_methods")},
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

const ParamSpec* find_param(std::string_view name) {
  for (const auto& s : kSpecs)
    if (name == s.name) return &s;
  return nullptr;
}

Status set_param(Params& params, std::string_view name, std::string_view text) {
  const ParamSpec* spec = find_param(name);
  if (!spec) return Error{std::string(name), "is not a parameter of RoPE Lab"};
  Params trial = params;  // a failed set leaves params untouched
  if (auto s = spec->set(trial, text); !s) return s;
  params = std::move(trial);
  return {};
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

std::vector<double> effective_vector(const VectorChoice& c, const Params& p, bool is_key) {
  const auto d = static_cast<std::size_t>(p.dim);
  switch (c.preset) {
    case VectorPreset::unit: {
      std::vector<double> v(d, 0.0);
      if (!v.empty()) v.front() = 1.0;
      return v;
    }
    case VectorPreset::ones:
      return std::vector<double>(d, 1.0);
    case VectorPreset::random:
      return random_vectors(1, p.dim, p.seed + (is_key ? 1U : 0U));
    case VectorPreset::custom: {
      std::vector<double> v = c.values;
      v.resize(d, 0.0);
      return v;
    }
  }
  return std::vector<double>(d, 0.0);
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
  if (end != begin + t.size()) return error(parameter, "must be a number, got " + quoted(text));
  if (!std::isfinite(v) || errno == ERANGE)
    return error(parameter, "must be a finite number, got " + quoted(text));
  return v;
}

Result<long long> parse_integer(std::string_view parameter, std::string_view text) {
  const std::string_view t = trim(text);
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range)
    return error(parameter, "is far too large: " + quoted(text));
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size())
    return error(parameter, "must be a whole number, got " + quoted(text));
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

std::string format_real(double v) {
  char buf[40];
  if (std::isfinite(v) && v == std::round(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", v);
  }
  return buf;
}

}  // namespace rope::app
