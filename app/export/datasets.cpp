#include "export/datasets.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "io/number_format.h"
#include "rope/axial.h"
#include "rope/decay.h"
#include "rope/extrapolation.h"
#include "rope/frequencies.h"
#include "rope/low_precision.h"
#include "rope/mrope.h"
#include "rope/rotation.h"
#include "rope/sinusoidal.h"
#include "rope/three_codes.h"
#include "state/hf_config.h"
#include "state/models.h"
#include "state/multimodal_params.h"
#include "state/params.h"
#include "state/scaling_params.h"

namespace rope::app {
namespace {

// [SECTION] reading flag values

std::string_view arg(const ExportArgs& args, std::string_view name) {
  for (const auto& [n, text] : args)
    if (n == name) return text;
  return {};
}

// base, position, pairing and max_distance mean here what they mean in the app, so they go
// through the app's own setters: same rule, same message.
Result<Params> through_params(const ExportArgs& args, std::string_view name) {
  Params p;
  if (auto s = set_param(p, name, arg(args, name)); !s) return s.error();
  return p;
}

// A whole number; a text that is not one (8.5, 1e3, 2^70) is reported with the allowed range,
// which parse_integer's own message does not repeat.
Result<std::int64_t> read_integer(const ExportArgs& args, const char* name, const char* allowed) {
  const std::string_view text = arg(args, name);
  auto v = parse_integer(name, text);
  if (!v)
    return Error{name, std::string("must be ") + allowed + ", got " + quote_for_message(text)};
  return std::int64_t{v.value()};
}

Result<int> read_dim(const ExportArgs& args) {
  auto d = read_integer(args, "dim", param_allowed(*find_param("dim")).c_str());
  if (!d) return d.error();
  if (auto s = validate_dim(d.value()); !s) return s.error();
  return static_cast<int>(d.value());
}

Result<double> read_base(const ExportArgs& args) {
  auto p = through_params(args, "base");
  if (!p) return p.error();
  return p.value().base;
}

Result<double> read_position(const ExportArgs& args) {
  auto p = through_params(args, "position");
  if (!p) return p.error();
  return p.value().position;
}

Result<Pairing> read_pairing(const ExportArgs& args) {
  auto p = through_params(args, "pairing");
  if (!p) return p.error();
  return p.value().pairing;
}

// R for decay, 1 ... 100000 as in the app (state/params.h).
Result<std::int64_t> read_max_distance(const ExportArgs& args) {
  auto r = read_integer(args, "max_distance", param_allowed(*find_param("max_distance")).c_str());
  if (!r) return r.error();
  auto p = through_params(args, "max_distance");
  if (!p) return p.error();
  return std::int64_t{p.value().max_distance};
}

// A count of positions, 1 ... max_count.
Result<std::int64_t> read_count(const ExportArgs& args, const char* name, std::int64_t max_count) {
  auto n = read_integer(args, name, ("an integer from 1 to " + std::to_string(max_count)).c_str());
  if (!n) return n.error();
  if (auto s = validate_count(n.value(), max_count, name); !s) return s.error();
  return n;
}

// A vector of d comma-separated numbers; d must be a valid head dimension.
Result<std::vector<double>> read_vector(const ExportArgs& args, const char* name) {
  auto v = parse_real_list(name, arg(args, name));
  if (!v) return v.error();
  const std::vector<double>& x = v.value();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::fabs(x[i]) > kMaxVectorEntry)
      return Error{name, "entry " + std::to_string(i + 1) +
                             " must be a number from -1e100 to 1e100, got " +
                             format_number(x[i], NumberStyle::csv)};
  }
  if (!validate_dim(static_cast<std::int64_t>(x.size())))
    return Error{name, "has " + std::to_string(x.size()) +
                           " entries, but d (the number of entries) must be an even integer "
                           "from 2 to 4096"};
  return v;
}

// d and the base, the first two flags of most datasets, read in that order.
struct DimBase {
  int dim = 0;
  double base = 0.0;
};
Result<DimBase> read_dim_base(const ExportArgs& args) {
  auto dim = read_dim(args);
  if (!dim) return dim.error();
  auto base = read_base(args);
  if (!base) return base.error();
  return DimBase{dim.value(), base.value()};
}

// --query and --key, each a vector of d numbers (read_vector), with the same d. `check_d`, when
// given, judges the query's d for the dataset before the key's length is compared with it.
struct QueryKey {
  std::vector<double> q, k;
};
Result<QueryKey> read_query_key(const ExportArgs& args, Status (*check_d)(std::size_t) = nullptr) {
  auto q = read_vector(args, "query");
  if (!q) return q.error();
  auto k = read_vector(args, "key");
  if (!k) return k.error();
  if (check_d)
    if (auto s = check_d(q.value().size()); !s) return s.error();
  if (k.value().size() != q.value().size())
    return Error{"key", "has " + std::to_string(k.value().size()) + " entries but the query has " +
                            std::to_string(q.value().size()) +
                            "; give both the same number d of entries"};
  return QueryKey{std::move(q).value(), std::move(k).value()};
}

// [SECTION] the datasets

// The scaling flags of `export frequencies`: parameters of the table (state/scaling_params.h),
// plus the LongRoPE lists inline (--long-factor, as sessions keep them) or from a file.
// Their default text is empty: "not given".
constexpr const char* kScalingNames[] = {
    "scaling",      "factor",           "original_context", "beta_fast",       "beta_slow",
    "truncate",     "low_freq_factor",  "high_freq_factor", "sequence_length", "attention_factor",
    "mscale",       "mscale_all_dim",   "rotary_fraction",  "rotary_style",    "long_factor",
    "short_factor", "long_factor_file", "short_factor_file"};

// The context-extension flags given (kScalingNames; a dataset without rotary_fraction and
// rotary_style never receives them) on top of `p`'s extension (a preset's values or the
// defaults), through the app's own setters: same rules, same messages. A scaling parameter
// without --scaling, or a preset that supplies the method, means nothing and is an error.
// Returns θ and θ′ for d and base (state/scaling_params.h: drawn_frequencies, what the views
// and lessons use); an error in a LongRoPE list read from a file names the file's flag.
Result<DrawnFrequencies> read_extension(const ExportArgs& args, int dim, double base, Params& p,
                                        bool has_model) {
  if (arg(args, "scaling").empty() && !has_model)
    for (const char* name : kScalingNames) {
      const std::string_view n = name;
      if (!arg(args, name).empty() && n != "rotary_fraction" && n != "rotary_style")
        return Error{name,
                     "needs --scaling (none, linear, ntk, dynamic, yarn, llama3, longrope "
                     "or proportional) to mean anything"};
    }
  for (const char* name : kScalingNames)
    if (!arg(args, name).empty())
      if (auto st = set_param(p, name, arg(args, name)); !st) return st.error();
  if (auto st = check_typed_lists(p.extension,
                                  [&](std::string_view list) { return !arg(args, list).empty(); });
      !st)
    return st.error();
  auto f = drawn_frequencies(dim, base, p.extension);
  if (f && f.value().error) {
    Error e = *f.value().error;
    for (const char* list : {"long_factor", "short_factor"})
      if (e.parameter == list && !arg(args, e.parameter + "_file").empty()) e.parameter += "_file";
    return e;
  }
  return f;
}

// Whether a table gets its scaled columns: --scaling was given (even none) or a preset scales.
bool scaled_table(const ExportArgs& args, const Params& p) {
  return !arg(args, "scaling").empty() || p.extension.scaling.method != ScalingMethod::none;
}

// The scaled frequency table's columns (build_frequencies with a scaling).
CsvTable scaled_frequency_table(DrawnFrequencies f, std::int64_t rows, double context) {
  return CsvTable{{"i", "theta", "wavelength", "theta_scaled", "wavelength_scaled", "ratio",
                   "rotations_per_context", "attention_factor"},
                  rows,
                  [f = std::move(f), context](std::int64_t r, std::span<double> cells) {
                    const auto i = static_cast<std::size_t>(r);
                    const double t = f.theta[i], t2 = f.theta_drawn[i];
                    cells[0] = static_cast<double>(r);
                    cells[1] = t;
                    cells[2] = wavelength(t);
                    cells[3] = t2;
                    cells[4] = wavelength(t2);
                    cells[5] = t > 0.0 ? t2 / t : 0.0;  // a pair outside rotary_dim: 0
                    cells[6] = rotations_per_context(t, context);
                    cells[7] = f.attention_factor;
                  }};
}

// i, theta_i, 2 pi / theta_i for the d/2 blocks; with --scaling (or a model preset that scales)
// also theta'_i and the rest of rope::scaled_frequencies (the columns of export/datasets.h).
// --model NAME starts from the preset's values (state/models.h); every flag given beside it
// wins. A partial rotation (--rotary-fraction, --rotary-style, or the preset's) gives theta = 0
// to the pairs that do not rotate in the three-column table (their wavelength is "inf"), as the
// app's views use it (state/scaling_params.h: drawn_frequencies).
Result<CsvTable> build_frequencies(const ExportArgs& args) {
  Params p;
  p.extension = ExtensionParams{};
  const bool has_config = !arg(args, "config").empty();
  const bool has_model = !arg(args, "model").empty() || has_config;
  if (has_config) {
    // a model's config.json read as a preset (state/hf_config.h)
    if (!arg(args, "model").empty()) return Error{"config", "give --config or --model, not both"};
    auto read = load_hf_config(std::string(arg(args, "config")));
    if (!read)
      return Error{"config", std::string(arg(args, "config")) + ": " + read.error().to_string()};
    if (auto st = apply_model(p, read.value().preset); !st) return st.error();
    p.model.clear();
    p.config = std::string(arg(args, "config"));
    p.config_preset.preset = std::make_shared<const ModelPreset>(read.value().preset);
  } else if (has_model) {
    if (auto st = set_param(p, "model", arg(args, "model")); !st) return st.error();
  }
  // one layer of the model (state/models.h): its base, scaling or NoPE, before the flags beside
  const bool has_layer = !arg(args, "layer").empty();
  if (has_layer && !has_model)
    return Error{"layer", "needs --model or --config (a model whose layers differ)"};
  if (has_layer)
    if (auto st = set_param(p, "layer", arg(args, "layer")); !st) return st.error();
  for (const char* name : {"dim", "base"})
    if (!has_model && arg(args, name).empty())
      return Error{
          name,
          std::string("is required by export frequencies unless --model is given (") +
              (name == std::string_view("dim") ? "head dimension d: an even integer from 2 to 4096)"
                                               : "frequency base: a finite number > 1)")};
  int dim = p.dim;
  if (!arg(args, "dim").empty()) {
    auto d = read_dim(args);
    if (!d) return d.error();
    dim = d.value();
  }
  double base = p.base;
  if (!arg(args, "base").empty()) {
    auto b = read_base(args);
    if (!b) return b.error();
    base = b.value();
  }
  auto sf = read_extension(args, dim, base, p, has_model);
  if (!sf) return sf.error();
  const bool scaled = scaled_table(args, p);
  const auto rows = static_cast<std::int64_t>(sf.value().theta.size());
  // with --layer, a last column names the layer every row belongs to
  const double layer = static_cast<double>(p.layer);
  CsvTable table;
  if (!scaled) {
    table = CsvTable{
        {"i", "theta", "wavelength"},
        rows,
        [thetas = std::move(sf).value().theta_drawn](std::int64_t r, std::span<double> cells) {
          const double t = thetas[static_cast<std::size_t>(r)];
          cells[0] = static_cast<double>(r);
          cells[1] = t;
          cells[2] = wavelength(t);
        }};
  } else {
    table = scaled_frequency_table(std::move(sf).value(), rows,
                                   static_cast<double>(p.extension.scaling.original_context));
  }
  if (!has_layer) return table;
  table.header.emplace_back("layer");
  table.fill_row = [row = std::move(table.fill_row), layer](std::int64_t r,
                                                            std::span<double> cells) {
    row(r, cells.first(cells.size() - 1));
    cells.back() = layer;
  };
  return table;
}

// PE_pos for pos = 0 ... N-1: one row per position, d columns.
Result<CsvTable> build_sinusoidal(const ExportArgs& args) {
  auto n = read_count(args, "positions", kMaxSinusoidalPositions);
  if (!n) return n.error();
  auto db = read_dim_base(args);
  if (!db) return db.error();
  const auto [dim, base] = db.value();
  const std::int64_t d = dim;
  if (n.value() * d > kMaxSinusoidalNumbers)
    return Error{"positions", std::to_string(n.value()) + " positions x " + std::to_string(d) +
                                  " dimensions is " + std::to_string(n.value() * d) +
                                  " numbers, more than one export holds (" +
                                  std::to_string(kMaxSinusoidalNumbers) + "); use at most " +
                                  std::to_string(kMaxSinusoidalNumbers / d) +
                                  " positions for dim " + std::to_string(d)};
  auto th = frequencies(d, base);
  if (!th) return th.error();

  std::vector<std::string> header{"pos"};
  for (std::int64_t c = 0; c < d; ++c)
    header.push_back("d" + std::to_string(c));
  return CsvTable{std::move(header), n.value(),
                  [thetas = std::move(th).value()](std::int64_t r, std::span<double> cells) {
                    const std::vector<double> pe =
                        sinusoidal_vector(static_cast<double>(r), thetas);
                    cells[0] = static_cast<double>(r);
                    for (std::size_t c = 0; c < pe.size(); ++c)
                      cells[c + 1] = pe[c];
                  }};
}

// D(r) for r = 0 ... R (rope/decay.h); with --scaling also D(r) at theta' (value_scaled), the
// two curves the decay view draws (the bound is not multiplied by the attention factor there).
Result<CsvTable> build_decay(const ExportArgs& args) {
  auto db = read_dim_base(args);
  if (!db) return db.error();
  const auto [dim, base] = db.value();
  auto r_max = read_max_distance(args);
  if (!r_max) return r_max.error();
  Params p;
  p.extension = ExtensionParams{};
  auto sf = read_extension(args, dim, base, p, false);
  if (!sf) return sf.error();
  // θ after the partial rotation (the whole head's without one), as the view draws D(r)
  auto curve = decay_curve_thetas(sf.value().theta, r_max.value());
  if (!curve) return curve.error();
  const auto rows = static_cast<std::int64_t>(curve.value().size());
  if (!scaled_table(args, p))
    return CsvTable{{"distance", "value"},
                    rows,
                    [values = std::move(curve).value()](std::int64_t r, std::span<double> cells) {
                      cells[0] = static_cast<double>(r);
                      cells[1] = values[static_cast<std::size_t>(r)];
                    }};
  auto scaled = decay_curve_thetas(sf.value().theta_drawn, r_max.value());
  if (!scaled) return scaled.error();
  return CsvTable{{"distance", "value", "value_scaled"},
                  rows,
                  [values = std::move(curve).value(), values_scaled = std::move(scaled).value()](
                      std::int64_t r, std::span<double> cells) {
                    const auto i = static_cast<std::size_t>(r);
                    cells[0] = static_cast<double>(r);
                    cells[1] = values[i];
                    cells[2] = values_scaled[i];
                  }};
}

// y = R_m x: d rows (index, y_index). A partial rotation (--rotary-fraction) leaves the pairs
// past it unrotated, as the pointers view shows them. With --scaling also y' = R'_m x at theta'
// (value_scaled, the solid pointers of the view) and the attention factor a, which the model
// multiplies cos and sin, so y', by (the view scales the scores by a^2, not the pointers).
Result<CsvTable> build_rotate(const ExportArgs& args) {
  auto x = read_vector(args, "vector");
  if (!x) return x.error();
  auto m = read_position(args);
  if (!m) return m.error();
  auto base = read_base(args);
  if (!base) return base.error();
  auto pairing = read_pairing(args);
  if (!pairing) return pairing.error();
  const std::vector<double>& xs = x.value();
  const int dim = static_cast<int>(xs.size());
  Params p;
  p.extension = ExtensionParams{};
  auto sf = read_extension(args, dim, base.value(), p, false);
  if (!sf) return sf.error();
  // θ before the scaling and θ′ (drawn_frequencies), as the view draws them
  const bool scaled = scaled_table(args, p);
  const std::vector<double>& theta = sf.value().theta;

  const auto d = static_cast<std::size_t>(dim);
  std::vector<double> y(d), y_scaled(scaled ? d : 0);
  apply_rope<double>(xs, y, m.value(), theta, pairing.value());
  if (scaled) apply_rope<double>(xs, y_scaled, m.value(), sf.value().theta_drawn, pairing.value());
  const auto rows = static_cast<std::int64_t>(d);
  if (!scaled)
    return CsvTable{
        {"index", "value"}, rows, [values = std::move(y)](std::int64_t r, std::span<double> cells) {
          cells[0] = static_cast<double>(r);
          cells[1] = values[static_cast<std::size_t>(r)];
        }};
  return CsvTable{{"index", "value", "value_scaled", "attention_factor"},
                  rows,
                  [values = std::move(y), values_scaled = std::move(y_scaled),
                   a = sf.value().attention_factor](std::int64_t r, std::span<double> cells) {
                    const auto i = static_cast<std::size_t>(r);
                    cells[0] = static_cast<double>(r);
                    cells[1] = values[i];
                    cells[2] = values_scaled[i];
                    cells[3] = a;
                  }};
}

// The code view's numbers (rope/three_codes.h): one row per coordinate j = 0 ... d-1 with
// P[j], q, k, both rotated under the interleaved (Meta) and half-split (rotate_half, after P
// and without it) codes, and the three scores, the same on every row.
Result<CsvTable> build_code(const ExportArgs& args) {
  auto qk = read_query_key(args);
  if (!qk) return qk.error();
  auto [q, k] = std::move(qk).value();
  auto m = read_position(args);
  if (!m) return m.error();
  auto n = through_params(args, "key_position");
  if (!n) return n.error();
  auto base = read_base(args);
  if (!base) return base.error();
  auto th = frequencies(static_cast<std::int64_t>(q.size()), base.value());
  if (!th) return th.error();
  auto c = compare_codes(q, k, m.value(), n.value().key_position, th.value());
  if (!c) return c.error();
  const auto rows = static_cast<std::int64_t>(q.size());
  return CsvTable{{"index", "perm", "q", "k", "rq_interleaved", "rk_interleaved", "rq_half",
                   "rk_half", "rq_half_without_p", "rk_half_without_p", "score_interleaved",
                   "score_half", "score_half_without_p"},
                  rows,
                  [qv = std::move(q), kv = std::move(k), cc = std::move(c).value()](
                      std::int64_t r, std::span<double> cells) {
                    const auto j = static_cast<std::size_t>(r);
                    cells[0] = static_cast<double>(r);
                    cells[1] = static_cast<double>(cc.perm[j]);
                    cells[2] = qv[j];
                    cells[3] = kv[j];
                    cells[4] = cc.rq_complex[j];
                    cells[5] = cc.rk_complex[j];
                    cells[6] = cc.rq_half[j];
                    cells[7] = cc.rk_half[j];
                    cells[8] = cc.rq_half_nop[j];
                    cells[9] = cc.rk_half_nop[j];
                    cells[10] = cc.score_complex;
                    cells[11] = cc.score_half_permuted;
                    cells[12] = cc.score_half_unpermuted;
                  }};
}

// The query's d for axial 2D RoPE, in the words of --query.
Status axial_query_dim(std::size_t d) {
  if (!validate_axial_dim(static_cast<std::int64_t>(d)))
    return Error{"query", "has " + std::to_string(d) +
                              " entries, but axial 2D RoPE needs d (the number of entries) a "
                              "multiple of 4 from 4 to 4096"};
  return {};
}

// Axial 2D RoPE on a grid (rope/axial.h): one row per key patch (row, column) of the
// grid_size x grid_size grid, the score with the query at (query_row, query_column), and the
// offset (row - query_row, column - query_column) it depends on. The same k at every patch.
Result<CsvTable> build_axial(const ExportArgs& args) {
  auto qk = read_query_key(args, axial_query_dim);
  if (!qk) return qk.error();
  auto [q, k] = std::move(qk).value();
  Params p;  // grid_size, query_row and query_column are the app's parameters, with its ranges
  for (const char* name : {"grid_size", "query_row", "query_column", "base", "pairing"})
    if (auto st = set_param(p, name, arg(args, name)); !st) return st.error();
  const Patch at{static_cast<double>(p.query_row), static_cast<double>(p.query_column)};
  auto g = axial_score_grid(q, k, at, p.grid_size, p.grid_size, p.base, p.pairing);
  if (!g) return g.error();
  const int n = p.grid_size;
  return CsvTable{{"row", "column", "score", "row_offset", "column_offset"},
                  static_cast<std::int64_t>(n) * n,
                  [scores = std::move(g).value(), n, at](std::int64_t r, std::span<double> cells) {
                    const double row = static_cast<double>(r / n);
                    const double column = static_cast<double>(r % n);
                    cells[0] = row;
                    cells[1] = column;
                    cells[2] = scores[static_cast<std::size_t>(r)];
                    cells[3] = row - at.row;
                    cells[4] = column - at.column;
                  }};
}

// The multimodal flags in the order they are applied: the preset first, so that every value
// given beside it wins; d before the vectors (a typed vector must have d entries) and before
// the section (the dim row sends a section for another d back to auto); the layout before the
// section (mm_section is the layout's own).
constexpr const char* kMultimodalOrder[] = {"model",
                                            "dim",
                                            "base",
                                            "pairing",
                                            "seed",
                                            "query",
                                            "key",
                                            "mm_rule",
                                            "mm_layout",
                                            "mm_section",
                                            "mm_sequence",
                                            "mm_seconds",
                                            "mm_tokens_per_second",
                                            "mm_query"};

// A typed query or key as the multimodal dataset takes it: d entries (d = --dim), each within
// the bound of the other datasets' vectors (kMaxVectorEntry).
Status check_typed_vector(const VectorChoice& c, const char* name, int dim) {
  if (c.preset != VectorPreset::custom) return {};
  for (std::size_t i = 0; i < c.values.size(); ++i)
    if (std::fabs(c.values[i]) > kMaxVectorEntry)
      return Error{name, "entry " + std::to_string(i + 1) +
                             " must be a number from -1e100 to 1e100, got " +
                             format_number(c.values[i], NumberStyle::csv)};
  if (c.values.size() != static_cast<std::size_t>(dim))
    return Error{name, "has " + std::to_string(c.values.size()) + " entries but d (--dim) is " +
                           std::to_string(dim) +
                           "; give exactly d comma-separated numbers, or unit, ones or random"};
  return {};
}

// The kind column's code (export/datasets.h).
double token_kind_code(MropeTokenKind kind) {
  switch (kind) {
    case MropeTokenKind::text:
      return 0.0;
    case MropeTokenKind::vision_start:
      return 1.0;
    case MropeTokenKind::vision_end:
      return 2.0;
    case MropeTokenKind::timestamp:
      return 3.0;
    case MropeTokenKind::patch:
      return 4.0;
  }
  return -1.0;
}

// The multimodal view's numbers (views/multimodal_view.cpp: compute): every token of
// mm_sequence with its ids under mm_rule, and the score of the query token (mm_query, clamped
// to the last token as the view clamps it) against the key k at that token's position, under
// mm_layout with its section and under the view's other layout (interleaved beside chunked,
// chunked beside interleaved and VideoRoPE) with that layout's default section. Every flag is a
// parameter set through the table (state/params.cpp), so its message is the table's; a flag not
// given keeps the preset's value (--model) or the app's default.
Result<CsvTable> build_multimodal(const ExportArgs& args) {
  Params p;
  for (const char* name : kMultimodalOrder)
    if (!arg(args, name).empty())
      if (auto st = set_param(p, name, arg(args, name)); !st) return st.error();
  if (auto st = check_typed_vector(p.query, "query", p.dim); !st) return st.error();
  if (auto st = check_typed_vector(p.key, "key", p.dim); !st) return st.error();
  auto tokens = mm_tokens(p);
  if (!tokens) {
    // the core's names for what the table calls mm_sequence and mm_tokens_per_second (the
    // table's ranges lie inside the core's, so this is a safety net)
    Error e = tokens.error();
    if (e.parameter == "segments") e.parameter = "mm_sequence";
    if (e.parameter == "tokens_per_second") e.parameter = "mm_tokens_per_second";
    return e;
  }
  const MropeLayout other =
      p.mm_layout == MropeLayout::chunked ? MropeLayout::interleaved : MropeLayout::chunked;
  // the core names the section mrope_section (rope::validate_mrope_section); here it is a flag
  const auto section_of = [&p](MropeLayout layout) -> Result<MropeSection> {
    auto s = mm_section(p, layout);
    if (!s && s.error().parameter == "mrope_section") return Error{"mm_section", s.error().message};
    return s;
  };
  auto section = section_of(p.mm_layout);
  if (!section) return section.error();
  auto section_other = section_of(other);
  if (!section_other) return section_other.error();
  const std::vector<double> q = effective_vector(p.query, p, false);
  const std::vector<double> k = effective_vector(p.key, p, true);
  const std::vector<MropePosition> at = mrope_token_positions(tokens.value());
  const auto n = static_cast<int>(at.size());
  const MropePosition query_at = at[static_cast<std::size_t>(std::clamp(p.mm_query, 0, n - 1))];
  auto score = mrope_scores(q, k, query_at, at, p.base, section.value(), p.mm_layout, p.pairing);
  if (!score) return score.error();
  auto score_other =
      mrope_scores(q, k, query_at, at, p.base, section_other.value(), other, p.pairing);
  if (!score_other) return score_other.error();
  return CsvTable{
      {"token", "kind", "segment", "frame", "row", "column", "t", "h", "w", "score", "score_other",
       "offset_t", "offset_h", "offset_w"},
      n,
      [tk = std::move(tokens).value(), s = std::move(score).value(),
       s2 = std::move(score_other).value(), query_at](std::int64_t r, std::span<double> cells) {
        const auto i = static_cast<std::size_t>(r);
        const MropeToken& t = tk[i];
        cells[0] = static_cast<double>(r);
        cells[1] = token_kind_code(t.kind);
        cells[2] = static_cast<double>(t.segment);
        cells[3] = static_cast<double>(t.frame);
        cells[4] = static_cast<double>(t.row);
        cells[5] = static_cast<double>(t.column);
        cells[6] = t.position.t;
        cells[7] = t.position.h;
        cells[8] = t.position.w;
        cells[9] = s[i];
        cells[10] = s2[i];
        cells[11] = t.position.t - query_at.t;
        cells[12] = t.position.h - query_at.h;
        cells[13] = t.position.w - query_at.w;
      }};
}

// The largest N with N * N * d <= kMaxScoreWork.
std::int64_t max_score_positions(std::int64_t d) {
  auto n = static_cast<std::int64_t>(std::sqrt(static_cast<double>(kMaxScoreWork / d)));
  while (n * n * d > kMaxScoreWork)
    --n;
  while ((n + 1) * (n + 1) * d <= kMaxScoreWork)
    ++n;
  return n;
}

// S[m][n] = (R_m q) . (R_n k) for m, n = 0 ... N-1, row-major (m outer).
Result<CsvTable> build_scores(const ExportArgs& args) {
  auto qk = read_query_key(args);
  if (!qk) return qk.error();
  auto [q, k] = std::move(qk).value();
  auto n = read_count(args, "positions", kMaxScorePositions);
  if (!n) return n.error();
  auto base = read_base(args);
  if (!base) return base.error();
  auto pairing = read_pairing(args);
  if (!pairing) return pairing.error();
  // the heatmap's stride, through the parameter table (the same range and message)
  auto stride_p = through_params(args, "stride");
  if (!stride_p) return stride_p.error();
  const auto stride = static_cast<double>(stride_p.value().stride);

  const auto d = static_cast<std::int64_t>(q.size());
  const std::int64_t count = n.value();
  if (count * count * d > kMaxScoreWork)
    return Error{"positions", std::to_string(count) + " positions at d = " + std::to_string(d) +
                                  " take N*N*d = " + std::to_string(count * count * d) +
                                  " multiply-adds, more than one export allows (" +
                                  std::to_string(kMaxScoreWork) + "); use at most " +
                                  std::to_string(max_score_positions(d)) +
                                  " positions for d = " + std::to_string(d)};
  Params p;
  p.extension = ExtensionParams{};
  auto sf = read_extension(args, static_cast<int>(d), base.value(), p, false);
  if (!sf) return sf.error();
  const bool scaled = scaled_table(args, p);

  // Rotate q and k once per position: [N][d] each, then every cell is one dot product.
  const auto ud = static_cast<std::size_t>(d);
  const auto un = static_cast<std::size_t>(count);
  // With a scaling the same again at theta': [N][d] each, empty without.
  const std::size_t scaled_n = scaled ? un : 0;
  std::vector<double> rq(un * ud), rk(un * ud), rq2(scaled_n * ud), rk2(scaled_n * ud);
  // q and k by name: clang before 16 cannot capture a structured binding (the browser build)
  const auto rotate_all = [&, &q_in = q, &k_in = k](const std::vector<double>& thetas,
                                                    std::vector<double>& out_q,
                                                    std::vector<double>& out_k) {
    for (std::size_t i = 0; i * ud < out_q.size(); ++i) {
      const double pos = static_cast<double>(i) * stride;
      apply_rope<double>(q_in, std::span(out_q).subspan(i * ud, ud), pos, thetas, pairing.value());
      apply_rope<double>(k_in, std::span(out_k).subspan(i * ud, ud), pos, thetas, pairing.value());
    }
  };
  // θ after the partial rotation (the whole head's without one), then θ′: as the heatmap view
  rotate_all(sf.value().theta, rq, rk);
  rotate_all(sf.value().theta_drawn, rq2, rk2);
  const double a2 = sf.value().attention_factor * sf.value().attention_factor;
  std::vector<std::string> header{"m", "n", "score"};
  if (scaled) header.emplace_back("score_scaled");
  return CsvTable{
      std::move(header), count * count,
      [rq = std::move(rq), rk = std::move(rk), rq2 = std::move(rq2), rk2 = std::move(rk2), un, ud,
       a2, stride](std::int64_t r, std::span<double> cells) {
        const auto cell = static_cast<std::size_t>(r);
        const std::size_t query_pos = cell / un, key_pos = cell % un;
        const auto dot_at = [&](const std::vector<double>& x, const std::vector<double>& y) {
          const double* a = x.data() + query_pos * ud;
          const double* b = y.data() + key_pos * ud;
          double s = 0.0;
          for (std::size_t i = 0; i < ud; ++i)
            s += a[i] * b[i];
          return s;
        };
        cells[0] = static_cast<double>(query_pos) * stride;  // positions
        cells[1] = static_cast<double>(key_pos) * stride;
        cells[2] = dot_at(rq, rk);
        if (!rq2.empty()) cells[3] = a2 * dot_at(rq2, rk2);
      }};
}

// PI's Fig. 2 (rope/extrapolation.h): one least-squares fit to seeded N(0, 1) targets at
// s = 0 ... L-1, evaluated on [0, L) (panel 1), [0, 2L) (panel 2), both in steps of 1, and between
// the integers (panel 3, state/scaling_params.h: between_integers_range, steps of 1/8).
Result<CsvTable> build_extrapolation(const ExportArgs& args) {
  auto db = read_dim_base(args);
  if (!db) return db.error();
  const auto [dim, base] = db.value();
  Params p;
  for (const char* name : {"original_context", "seed"})
    if (auto st = set_param(p, name, arg(args, name)); !st) return st.error();
  auto tolerance = parse_real("rank_tolerance", arg(args, "rank_tolerance"));
  if (!tolerance) return tolerance.error();
  const std::int64_t context = p.extension.scaling.original_context;
  auto fit = fit_random_target(dim, base, context, p.seed, tolerance.value());
  if (!fit) {
    Error e = fit.error();
    if (e.parameter == "context") e.parameter = "original_context";
    return e;
  }
  const auto L = static_cast<double>(context);
  const FitRange between = between_integers_range(context);
  auto beyond = evaluate_fit_range(fit.value(), 0.0, 2.0 * L, 1.0);
  auto inside = evaluate_fit_range(fit.value(), 0.0, L, 1.0);
  auto smooth = evaluate_fit_range(fit.value(), between.from, between.to, kBetweenStep);
  if (!beyond || !inside || !smooth) return Error{"original_context", "cannot be evaluated"};
  struct Row {
    double s, value, panel;
  };
  std::vector<Row> rows;
  for (std::size_t k = 0; k < inside.value().size(); ++k)
    rows.push_back({static_cast<double>(k), inside.value()[k], 1.0});
  for (std::size_t k = 0; k < beyond.value().size(); ++k)
    rows.push_back({static_cast<double>(k), beyond.value()[k], 2.0});
  for (std::size_t k = 0; k < smooth.value().size(); ++k)
    rows.push_back({between.from + static_cast<double>(k) * kBetweenStep, smooth.value()[k], 3.0});
  const auto count = static_cast<std::int64_t>(rows.size());
  return CsvTable{{"s", "value", "panel"},
                  count,
                  [rows = std::move(rows)](std::int64_t r, std::span<double> cells) {
                    const Row& row = rows[static_cast<std::size_t>(r)];
                    cells[0] = row.s;
                    cells[1] = row.value;
                    cells[2] = row.panel;
                  }};
}

// PI's Fig. 5: B(s)/d for s = 0 ... S (rope::b_over_d).
Result<CsvTable> build_b_over_d(const ExportArgs& args) {
  auto db = read_dim_base(args);
  if (!db) return db.error();
  const auto [dim, base] = db.value();
  auto max_s = read_integer(args, "max_s", "an integer from 0 to 1000000");
  if (!max_s) return max_s.error();
  auto values = b_over_d(dim, base, max_s.value());
  if (!values) return values.error();
  const auto rows = static_cast<std::int64_t>(values.value().size());
  return CsvTable{{"s", "b_over_d"},
                  rows,
                  [v = std::move(values).value()](std::int64_t r, std::span<double> cells) {
                    cells[0] = static_cast<double>(r);
                    cells[1] = v[static_cast<std::size_t>(r)];
                  }};
}

// The positions of `export precision`: --positions M0,M1,... or --range A:B (integers A ... B),
// exactly one of them.
Result<std::vector<double>> read_precision_positions(const ExportArgs& args) {
  const std::string_view list = arg(args, "positions");
  const std::string_view range = arg(args, "range");
  if (list.empty() == range.empty())
    return Error{"positions", std::string("give either --positions M0,M1,... or --range A:B, ") +
                                  (list.empty() ? "got neither" : "got both")};
  std::vector<double> out;
  if (!list.empty()) {
    auto v = parse_real_list("positions", list);
    if (!v) return v.error();
    out = std::move(v).value();
  } else {
    const auto colon = range.find(':', 1);  // from 1: "-5:5" starts with a minus, not a colon
    constexpr const char* kRangeAllowed =
        "two integers A:B with A <= B, each from -1e15 to 1e15, at most 100000 positions";
    if (colon == std::string_view::npos)
      return Error{"range",
                   std::string("must be ") + kRangeAllowed + ", got " + quote_for_message(range)};
    auto a = parse_integer("range", range.substr(0, colon));
    auto b = parse_integer("range", range.substr(colon + 1));
    constexpr long long kLimit = 1'000'000'000'000'000LL;
    if (!a || !b || a.value() > b.value() || a.value() < -kLimit || b.value() > kLimit ||
        b.value() - a.value() >= rope::kMaxSweepPositions)
      return Error{"range",
                   std::string("must be ") + kRangeAllowed + ", got " + quote_for_message(range)};
    for (long long m = a.value(); m <= b.value(); ++m)
      out.push_back(static_cast<double>(m));
  }
  if (out.size() > static_cast<std::size_t>(rope::kMaxSweepPositions))
    return Error{"positions", "must hold at most " + std::to_string(rope::kMaxSweepPositions) +
                                  " positions, got " + std::to_string(out.size())};
  return out;
}

// The four formats: the preset first, then each format flag that was given.
Result<PrecisionFormats> read_formats(const ExportArgs& args) {
  Params p;
  if (auto s = set_param(p, "precision", arg(args, "precision")); !s) return s.error();
  for (const char* name : {"position_format", "theta_format", "angle_format", "trig_format"}) {
    const std::string_view text = arg(args, name);
    if (text == kFromPreset) continue;
    if (auto s = set_param(p, name, text); !s) return s.error();
  }
  return p.precision.formats;
}

// Every pair at every position with the four casts emulated (rope/low_precision.h):
// position,pair,exact_angle,angle,wrapped_error,cos,sin, positions outer.
Result<CsvTable> build_precision(const ExportArgs& args) {
  auto db = read_dim_base(args);
  if (!db) return db.error();
  const auto [dim, base] = db.value();
  auto positions = read_precision_positions(args);
  if (!positions) return positions.error();
  auto formats = read_formats(args);
  if (!formats) return formats.error();
  const auto half = static_cast<std::int64_t>(dim / 2);
  const auto count = static_cast<std::int64_t>(positions.value().size());
  if (count * half > rope::kMaxSweepEntries)
    return Error{"positions", std::to_string(count) + " positions x " + std::to_string(half) +
                                  " pairs is " + std::to_string(count * half) +
                                  " rows, more than one export holds (" +
                                  std::to_string(rope::kMaxSweepEntries) + ")"};
  // One position's d/2 angles at a time: rows come in order, so each position is emulated once.
  struct Cache {
    std::int64_t position = -1;
    std::vector<EmulatedAngle> angles;
  };
  return CsvTable{{"position", "pair", "exact_angle", "angle", "wrapped_error", "cos", "sin"},
                  count * half,
                  [ps = std::move(positions).value(), d = dim, b = base, f = formats.value(), half,
                   cache = Cache{}](std::int64_t r, std::span<double> cells) mutable {
                    const std::int64_t k = r / half;
                    if (k != cache.position) {
                      // validated above: d, base and every position are fine
                      cache.angles =
                          emulate_angles(ps[static_cast<std::size_t>(k)], d, b, f).value();
                      cache.position = k;
                    }
                    const auto i = static_cast<std::size_t>(r % half);
                    const EmulatedAngle& a = cache.angles[i];
                    cells[0] = ps[static_cast<std::size_t>(k)];
                    cells[1] = static_cast<double>(i);
                    cells[2] = a.exact_angle;
                    cells[3] = a.angle;
                    cells[4] = a.wrapped_error;
                    cells[5] = a.cos;
                    cells[6] = a.sin;
                  }};
}

// [SECTION] the table of datasets

constexpr const char* kVectorAllowed =
    "an even number (2 to 4096) of comma-separated numbers, each from -1e100 to 1e100";

// A flag whose `allowed` is nullptr is the parameter of its name: its text is the parameter
// table's (flag_allowed), so a range is written once, in state/params.cpp.
constexpr ExportFlag kDim{"dim", "D", "head dimension d", nullptr, nullptr};
constexpr ExportFlag kBase{"base", "B", "frequency base, theta_i = base^(-2i/d)", nullptr, nullptr};
constexpr ExportFlag kBaseDefault{"base", "B", "frequency base, theta_i = base^(-2i/d)", nullptr,
                                  "10000"};
constexpr ExportFlag kPairing{"pairing", "P",
                              "which coordinates form block i: interleaved (x2i, x2i+1) or half "
                              "(xi, xi+d/2)",
                              nullptr, "interleaved"};

// Joins flag tables into one (a dataset's own flags, then shared groups).
template <std::size_t... N>
constexpr auto join_flags(const std::array<ExportFlag, N>&... parts) {
  std::array<ExportFlag, (N + ...)> out{};
  std::size_t at = 0;
  ((std::copy(parts.begin(), parts.end(), out.begin() + static_cast<std::ptrdiff_t>(at)), at += N),
   ...);
  return out;
}

// "": not given (read_extension tells an absent flag from a given one by its empty text).
// The parameters of the scaling methods, shared by every dataset that takes --scaling; each
// dataset names its own --scaling (what it adds).
constexpr std::array kScalingParamFlags{
    ExportFlag{"factor", "S", "s = target context / L", nullptr, ""},
    ExportFlag{"original_context", "L", "the pre-training context L in tokens", nullptr, ""},
    ExportFlag{"beta_fast", "B",
               "yarn: pairs turning more often in L keep theta (at least beta_slow)", nullptr, ""},
    ExportFlag{"beta_slow", "B", "yarn: pairs turning less often in L get theta/s", nullptr, ""},
    ExportFlag{"truncate", "BOOL", "yarn: round the ramp ends to whole pairs", nullptr, ""},
    ExportFlag{"low_freq_factor", "F",
               "llama3: wavelengths above L/F get theta/s (at most high_freq_factor)", nullptr, ""},
    ExportFlag{"high_freq_factor", "F", "llama3: wavelengths below L/F keep theta", nullptr, ""},
    ExportFlag{"sequence_length", "N", "dynamic, longrope: the current sequence length (0: unset)",
               nullptr, ""},
    ExportFlag{"attention_factor", "A",
               "yarn, longrope: the factor on cos and sin (0: the method's default)", nullptr, ""},
    ExportFlag{"mscale", "M", "yarn (DeepSeek): temperature coefficient (0: unset)", nullptr, ""},
    ExportFlag{"mscale_all_dim", "M",
               "yarn (DeepSeek): temperature coefficient of the divisor (0: unset)", nullptr, ""},
    ExportFlag{"long_factor", "F0,F1,...", "longrope: divisors beyond L, inline", nullptr, ""},
    ExportFlag{"short_factor", "F0,F1,...", "longrope: divisors up to L, inline", nullptr, ""},
    ExportFlag{"long_factor_file", "FILE",
               "longrope: divisors beyond L, from a file (separated by commas, spaces or new "
               "lines)",
               nullptr, ""},
    ExportFlag{"short_factor_file", "FILE",
               "longrope: divisors up to L, from a file (separated by commas, spaces or new "
               "lines)",
               nullptr, ""}};
constexpr std::array kRotaryFlags{
    ExportFlag{"rotary_fraction", "P",
               "partial rotary: the fraction of the head that rotates (no --scaling needed)",
               nullptr, ""},
    ExportFlag{"rotary_style", "S",
               "what the fraction means: neox (theta over int(P*D) dims) or proportional "
               "(full-head theta, the slow pairs still)",
               nullptr, ""}};
constexpr std::array kFrequencyFlags = join_flags(
    std::array{
        ExportFlag{"model", "NAME",
                   "a model preset (rope-lab models, e.g. llama-3.1-8b or pythia-6.9b): its d, "
                   "base, rotary fraction and scaling; flags given beside it win",
                   nullptr, ""},
        ExportFlag{"config", "FILE",
                   "a model's Hugging Face config.json, read as a preset (rope-lab models "
                   "--from-config FILE shows what is read); flags given beside it win",
                   "a config.json of at most 4 MB", ""},
        ExportFlag{"layer", "N",
                   "one layer of the model (rope-lab models lists them): that layer's base, "
                   "scaling or NoPE (theta = 0); adds a column `layer`",
                   "an integer from 0 to the model's layer count - 1", ""},
        // required unless --model gives them: the app's defaults do not apply, so their own text
        ExportFlag{"dim", "D", "head dimension d",
                   "an even integer from 2 to 4096 (required without --model)", ""},
        ExportFlag{"base", "B", "frequency base, theta_i = base^(-2i/d)",
                   "a finite number > 1 (required without --model)", ""},
        ExportFlag{"scaling", "METHOD",
                   "context extension: adds theta_scaled, wavelength_scaled, ratio, "
                   "rotations_per_context and attention_factor",
                   nullptr, ""}},
    kScalingParamFlags, kRotaryFlags);
constexpr std::array kSinusoidalFlags{
    ExportFlag{"positions", "N", "positions pos = 0 ... N-1",
               "an integer from 1 to 100000, with N*D at most 16777216", nullptr},
    kDim, kBaseDefault};
constexpr std::array kDecayFlags = join_flags(
    std::array{kDim, kBase,
               ExportFlag{"max_distance", "R", "relative distances r = 0 ... R", nullptr, nullptr},
               ExportFlag{"scaling", "METHOD",
                          "context extension: adds value_scaled, D(r) at theta' (the decay "
                          "view's scaled curve)",
                          nullptr, ""}},
    kScalingParamFlags, kRotaryFlags);
constexpr std::array kRotateFlags = join_flags(
    std::array{ExportFlag{"vector", "X0,X1,...", "the vector x; d is the number of entries",
                          kVectorAllowed, nullptr},
               ExportFlag{"position", "M", "position m", nullptr, nullptr}, kBase, kPairing,
               ExportFlag{"scaling", "METHOD",
                          "context extension: adds value_scaled (R'_m x at theta') and "
                          "attention_factor",
                          nullptr, ""}},
    kScalingParamFlags, kRotaryFlags);
constexpr std::array kCodeFlags{
    ExportFlag{"query", "Q0,Q1,...", "the query q; d is the number of entries", kVectorAllowed,
               nullptr},
    ExportFlag{"key", "K0,K1,...", "the key k", "d comma-separated numbers, as many as the query",
               nullptr},
    ExportFlag{"position", "M", "query position m", nullptr, nullptr},
    ExportFlag{"key_position", "N", "key position n", nullptr, nullptr}, kBaseDefault};
constexpr std::array kScoreOwnFlags{
    ExportFlag{"query", "Q0,Q1,...", "the query q; d is the number of entries", kVectorAllowed,
               nullptr},
    ExportFlag{"key", "K0,K1,...", "the key k", "d comma-separated numbers, as many as the query",
               nullptr},
    ExportFlag{"positions", "N", "query and key positions m, n = 0 ... N-1",
               "an integer from 1 to 4096, with N*N*d at most 4294967296", nullptr},
    ExportFlag{"stride", "S", "positions 0, S, 2S, ...: m and n are the row and column times S",
               nullptr, "1"},
    kBase,
    kPairing,
    ExportFlag{"scaling", "METHOD",
               "context extension: adds score_scaled, a^2 (R'_m q).(R'_n k) at theta' (the "
               "heatmap's scores)",
               nullptr, ""}};
constexpr std::array kScoreFlags = join_flags(kScoreOwnFlags, kScalingParamFlags, kRotaryFlags);

constexpr std::array kAxialFlags{
    ExportFlag{"query", "Q0,Q1,...", "the query q; d is the number of entries",
               "a multiple of 4 (4 to 4096) of comma-separated numbers, each from -1e100 to 1e100",
               nullptr},
    ExportFlag{"key", "K0,K1,...", "the key k, the same at every patch",
               "d comma-separated numbers, as many as the query", nullptr},
    ExportFlag{"grid_size", "N", "the grid: rows and columns 0 ... N-1", nullptr, "8"},
    ExportFlag{"query_row", "R", "row of the query patch", nullptr, "0"},
    ExportFlag{"query_column", "C", "column of the query patch", nullptr, "0"},
    kBaseDefault,
    kPairing};

// Every multimodal flag is the parameter of its name (the table's text and the app's default);
// "": not given, the preset's value or the app's default stays.
constexpr std::array kMultimodalFlags{
    ExportFlag{"mm_sequence", "SEGMENTS",
               "the sequence (merged patches; an image or video brings its <|vision_start|> and "
               "<|vision_end|>)",
               nullptr, ""},
    ExportFlag{"mm_rule", "RULE", "how position ids are given out (the models' get_rope_index)",
               nullptr, ""},
    ExportFlag{"mm_layout", "LAYOUT", "which pairs turn with t, h and w (the score column)",
               nullptr, ""},
    ExportFlag{"mm_section", "T,H,W",
               "mrope_section of --mm-layout, pairs per axis (auto: the model's split scaled to d)",
               nullptr, ""},
    ExportFlag{"mm_query", "I",
               "the query token, its index in the sequence (past the last token: the last)",
               nullptr, ""},
    ExportFlag{"mm_seconds", "S", "seconds per temporal grid of every video (Qwen2.5-VL's ids)",
               nullptr, ""},
    ExportFlag{"mm_tokens_per_second", "N", "Qwen2.5-VL's temporal ids per second of video",
               nullptr, ""},
    ExportFlag{"dim", "D", "head dimension d", nullptr, ""},
    ExportFlag{"base", "B", "frequency base, theta_i = base^(-2i/d)", nullptr, ""},
    ExportFlag{"pairing", "P",
               "which coordinates form block i: interleaved (x2i, x2i+1) or half (xi, xi+d/2)",
               nullptr, ""},
    ExportFlag{"query", "Q", "the query q (a typed one has d entries, each within +-1e100)",
               nullptr, ""},
    ExportFlag{"key", "K", "the key k, the same at every token", nullptr, ""},
    ExportFlag{"seed", "S", "seed of a random query (the key's is seed + 1)", nullptr, ""},
    ExportFlag{"model", "NAME",
               "a model preset (rope-lab models; qwen2-vl-7b, qwen2.5-vl-7b and qwen3-vl-8b set "
               "the rule, layout and section too): flags given beside it win",
               nullptr, ""}};

constexpr std::array kExtrapolationFlags{
    kDim, kBase,
    ExportFlag{"original_context", "L", "the targets are at s = 0 ... L-1",
               "an integer from 2 to 65536, with L*d*min(L, d) at most 2^30", "2048"},
    ExportFlag{"seed", "S", "seed of the N(0, 1) targets", "an integer from 0 to 2^53-1", "1"},
    ExportFlag{"rank_tolerance", "T",
               "relative tolerance of the fit's rank (the size beyond L depends on it)",
               "a number between 0 and 1 (1e-6 gives the paper's scale)", "1e-6"}};
constexpr std::array kBOverDFlags{kDim, kBase,
                                  ExportFlag{"max_s", "S", "relative positions s = 0 ... S",
                                             "an integer from 0 to 1000000", "4095"}};

constexpr std::array kPrecisionFlags{
    kDim,
    kBaseDefault,
    ExportFlag{"positions", "M0,M1,...", "positions m, comma-separated (or --range)",
               "finite numbers, at most 100000", ""},
    ExportFlag{"range", "A:B", "the integer positions A ... B (or --positions)",
               "integers A <= B, at most 100000 of them", ""},
    ExportFlag{"precision", "PRESET", "all four cast points as a preset",
               "fp32, bf16, fp16, theta-bf16, fix or exact", "fp32"},
    ExportFlag{"position_format", "F", "format of the position m", nullptr, kFromPreset},
    ExportFlag{"theta_format", "F", "format of theta_i (inv_freq)", nullptr, kFromPreset},
    ExportFlag{"angle_format", "F", "format of the angle m theta_i", nullptr, kFromPreset},
    ExportFlag{"trig_format", "F", "format of cos and sin", nullptr, kFromPreset}};

constexpr std::array kDatasets{
    DatasetSpec{"frequencies", "block frequencies theta_i and wavelengths 2 pi / theta_i",
                "i,theta,wavelength", kFrequencyFlags, build_frequencies},
    DatasetSpec{"sinusoidal", "the sinusoidal encoding table PE[pos][j]", "pos,d0,d1,...,d{D-1}",
                kSinusoidalFlags, build_sinusoidal},
    DatasetSpec{"decay", "RoPE's long-range decay bound D(r) (RoFormer 3.4.3)",
                "distance,value[,value_scaled]", kDecayFlags, build_decay},
    DatasetSpec{"rotate", "the rotated vector R_m x", "index,value[,value_scaled,attention_factor]",
                kRotateFlags, build_rotate},
    DatasetSpec{"scores", "RoPE scores (R_m q) . (R_n k) for every pair of positions",
                "m,n,score[,score_scaled]", kScoreFlags, build_scores},
    DatasetSpec{"precision",
                "RoPE angles with the position, theta, angle and cos/sin rounded to fp32, bf16 "
                "or fp16 (emulated bit for bit)",
                "position,pair,exact_angle,angle,wrapped_error,cos,sin", kPrecisionFlags,
                build_precision},
    DatasetSpec{"extrapolation",
                "PI Fig. 2: a least-squares fit to random targets on [0, L), evaluated on [0, L) "
                "(panel 1), [0, 2L) (panel 2) and between integers (panel 3)",
                "s,value,panel", kExtrapolationFlags, build_extrapolation},
    DatasetSpec{"b-over-d", "PI Fig. 5: B(s)/d, the factor in the extrapolation bound",
                "s,b_over_d", kBOverDFlags, build_b_over_d},
    DatasetSpec{"code",
                "the code view: q, k rotated by the interleaved (Meta) and rotate_half codes, "
                "with and without the row permutation P, and the three scores",
                "index,perm,q,k,rq_interleaved,rk_interleaved,rq_half,rk_half,rq_half_without_p,"
                "rk_half_without_p,score_interleaved,score_half,score_half_without_p",
                kCodeFlags, build_code},
    DatasetSpec{"axial",
                "axial 2D RoPE for images: the score of a query patch with the key at every "
                "patch of a grid (half the blocks turn with the row, half with the column)",
                "row,column,score,row_offset,column_offset", kAxialFlags, build_axial},
    DatasetSpec{"multimodal",
                "multimodal RoPE (M-RoPE: Qwen2-VL, Qwen2.5-VL, Qwen3-VL, VideoRoPE): every "
                "token's (t, h, w) ids and the score of the query token with the key at it, "
                "under --mm-layout and the other layout the view draws",
                "token,kind,segment,frame,row,column,t,h,w,score,score_other,offset_t,offset_h,"
                "offset_w",
                kMultimodalFlags, build_multimodal},
};

}  // namespace

std::string flag_allowed(const ExportFlag& f) {
  if (f.allowed) return f.allowed;
  const ParamSpec& spec = *find_param(f.name);  // tests/app: every such flag names a parameter
  std::string text = param_allowed(spec);
  if (f.default_text && *f.default_text == '\0')
    if (const std::string app_default = spec.get(Params{}); !app_default.empty())
      text += " (default " + app_default + ")";
  return text;
}

std::span<const DatasetSpec> dataset_specs() {
  return kDatasets;
}

const DatasetSpec* find_dataset(std::string_view name) {
  for (const DatasetSpec& d : kDatasets)
    if (name == d.name) return &d;
  return nullptr;
}

std::string dataset_names() {
  std::string s;
  for (std::size_t i = 0; i < kDatasets.size(); ++i) {
    s += kDatasets[i].name;
    if (i + 2 < kDatasets.size()) s += ", ";
    if (i + 2 == kDatasets.size()) s += " or ";
  }
  return s;
}

Result<CsvTable> build_dataset(const DatasetSpec& spec, const ExportArgs& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& name = args[i].first;
    bool known = false;
    for (const ExportFlag& f : spec.flags)
      known = known || name == f.name;
    if (!known) return Error{name, std::string("is not a flag of export ") + spec.name};
    for (std::size_t j = 0; j < i; ++j)
      if (args[j].first == name) return Error{name, "is given twice"};
    // Without this a '' file name read as "not given" here (review N14).
    if (auto st = check_typed_file_name(name, args[i].second); !st) return st.error();
  }
  ExportArgs complete;
  for (const ExportFlag& f : spec.flags) {
    bool given = false;
    for (const auto& [name, text] : args) {
      if (name != f.name) continue;
      complete.emplace_back(name, text);
      given = true;
    }
    if (given) continue;
    if (!f.default_text)
      return Error{f.name, std::string("is required by export ") + spec.name + " (" + f.what +
                               ": " + flag_allowed(f) + ")"};
    complete.emplace_back(f.name, f.default_text);
  }
  return spec.build(complete);
}

}  // namespace rope::app
