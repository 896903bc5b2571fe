#include "export/datasets.h"

#include <array>
#include <cmath>
#include <cstddef>

#include "io/number_format.h"
#include "rope/decay.h"
#include "rope/frequencies.h"
#include "rope/rotation.h"
#include "rope/sinusoidal.h"
#include "state/params.h"

namespace rope::app {
namespace {

// [SECTION] reading flag values

std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;  // as state/params.cpp: a pasted essay is not echoed
  std::string s(text.substr(0, kMaxShown));
  if (text.size() > kMaxShown) s += "...";
  return "'" + s + "'";
}

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
  if (!v) return Error{name, std::string("must be ") + allowed + ", got " + quoted(text)};
  return std::int64_t{v.value()};
}

Result<int> read_dim(const ExportArgs& args) {
  auto d = read_integer(args, "dim", "an even integer from 2 to 4096");
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
  auto r = read_integer(args, "max_distance", "an integer from 1 to 100000");
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

// [SECTION] the datasets

// i, theta_i, 2 pi / theta_i for the d/2 blocks.
Result<CsvTable> build_frequencies(const ExportArgs& args) {
  auto dim = read_dim(args);
  if (!dim) return dim.error();
  auto base = read_base(args);
  if (!base) return base.error();
  auto th = frequencies(dim.value(), base.value());
  if (!th) return th.error();
  const auto rows = static_cast<std::int64_t>(th.value().size());
  return CsvTable{{"i", "theta", "wavelength"},
                  rows,
                  [thetas = std::move(th).value()](std::int64_t r, std::span<double> cells) {
                    const double t = thetas[static_cast<std::size_t>(r)];
                    cells[0] = static_cast<double>(r);
                    cells[1] = t;
                    cells[2] = wavelength(t);
                  }};
}

// PE_pos for pos = 0 ... N-1: one row per position, d columns.
Result<CsvTable> build_sinusoidal(const ExportArgs& args) {
  auto n = read_count(args, "positions", kMaxSinusoidalPositions);
  if (!n) return n.error();
  auto dim = read_dim(args);
  if (!dim) return dim.error();
  auto base = read_base(args);
  if (!base) return base.error();
  const std::int64_t d = dim.value();
  if (n.value() * d > kMaxSinusoidalNumbers)
    return Error{"positions", std::to_string(n.value()) + " positions x " + std::to_string(d) +
                                  " dimensions is " + std::to_string(n.value() * d) +
                                  " numbers, more than one export holds (" +
                                  std::to_string(kMaxSinusoidalNumbers) + "); use at most " +
                                  std::to_string(kMaxSinusoidalNumbers / d) +
                                  " positions for dim " + std::to_string(d)};
  auto th = frequencies(d, base.value());
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

// D(r) for r = 0 ... R (rope/decay.h).
Result<CsvTable> build_decay(const ExportArgs& args) {
  auto dim = read_dim(args);
  if (!dim) return dim.error();
  auto base = read_base(args);
  if (!base) return base.error();
  auto r_max = read_max_distance(args);
  if (!r_max) return r_max.error();
  auto curve = decay_curve(dim.value(), base.value(), r_max.value());
  if (!curve) return curve.error();
  const auto rows = static_cast<std::int64_t>(curve.value().size());
  return CsvTable{{"distance", "value"},
                  rows,
                  [values = std::move(curve).value()](std::int64_t r, std::span<double> cells) {
                    cells[0] = static_cast<double>(r);
                    cells[1] = values[static_cast<std::size_t>(r)];
                  }};
}

// y = R_m x: d rows (index, y_index).
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
  auto th = frequencies(static_cast<std::int64_t>(xs.size()), base.value());
  if (!th) return th.error();

  std::vector<double> y(xs.size());
  apply_rope<double>(xs, y, m.value(), th.value(), pairing.value());
  const auto rows = static_cast<std::int64_t>(y.size());
  return CsvTable{
      {"index", "value"}, rows, [values = std::move(y)](std::int64_t r, std::span<double> cells) {
        cells[0] = static_cast<double>(r);
        cells[1] = values[static_cast<std::size_t>(r)];
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
  auto q = read_vector(args, "query");
  if (!q) return q.error();
  auto k = read_vector(args, "key");
  if (!k) return k.error();
  if (k.value().size() != q.value().size())
    return Error{"key", "has " + std::to_string(k.value().size()) + " entries but the query has " +
                            std::to_string(q.value().size()) +
                            "; give both the same number d of entries"};
  auto n = read_count(args, "positions", kMaxScorePositions);
  if (!n) return n.error();
  auto base = read_base(args);
  if (!base) return base.error();
  auto pairing = read_pairing(args);
  if (!pairing) return pairing.error();

  const auto d = static_cast<std::int64_t>(q.value().size());
  const std::int64_t count = n.value();
  if (count * count * d > kMaxScoreWork)
    return Error{"positions", std::to_string(count) + " positions at d = " + std::to_string(d) +
                                  " take N*N*d = " + std::to_string(count * count * d) +
                                  " multiply-adds, more than one export allows (" +
                                  std::to_string(kMaxScoreWork) + "); use at most " +
                                  std::to_string(max_score_positions(d)) +
                                  " positions for d = " + std::to_string(d)};
  auto th = frequencies(d, base.value());
  if (!th) return th.error();

  // Rotate q and k once per position: [N][d] each, then every cell is one dot product.
  const auto ud = static_cast<std::size_t>(d);
  const auto un = static_cast<std::size_t>(count);
  std::vector<double> rq(un * ud), rk(un * ud);
  for (std::size_t p = 0; p < un; ++p) {
    const double pos = static_cast<double>(p);
    apply_rope<double>(q.value(), std::span(rq).subspan(p * ud, ud), pos, th.value(),
                       pairing.value());
    apply_rope<double>(k.value(), std::span(rk).subspan(p * ud, ud), pos, th.value(),
                       pairing.value());
  }
  return CsvTable{
      {"m", "n", "score"},
      count * count,
      [rq = std::move(rq), rk = std::move(rk), un, ud](std::int64_t r, std::span<double> cells) {
        const auto cell = static_cast<std::size_t>(r);
        const std::size_t query_pos = cell / un, key_pos = cell % un;
        const double* a = rq.data() + query_pos * ud;
        const double* b = rk.data() + key_pos * ud;
        double s = 0.0;
        for (std::size_t i = 0; i < ud; ++i)
          s += a[i] * b[i];
        cells[0] = static_cast<double>(query_pos);
        cells[1] = static_cast<double>(key_pos);
        cells[2] = s;
      }};
}

// [SECTION] the table of datasets

constexpr const char* kVectorAllowed =
    "an even number (2 to 4096) of comma-separated numbers, each from -1e100 to 1e100";

constexpr ExportFlag kDim{"dim", "D", "head dimension d", "an even integer from 2 to 4096",
                          nullptr};
constexpr ExportFlag kBase{"base", "B", "frequency base, theta_i = base^(-2i/d)",
                           "a finite number > 1", nullptr};
constexpr ExportFlag kBaseDefault{"base", "B", "frequency base, theta_i = base^(-2i/d)",
                                  "a finite number > 1", "10000"};
constexpr ExportFlag kPairing{"pairing", "P", "which coordinates form block i",
                              "interleaved (x2i, x2i+1) or half (xi, xi+d/2)", "interleaved"};

constexpr std::array kFrequencyFlags{kDim, kBase};
constexpr std::array kSinusoidalFlags{
    ExportFlag{"positions", "N", "positions pos = 0 ... N-1",
               "an integer from 1 to 100000, with N*D at most 16777216", nullptr},
    kDim, kBaseDefault};
constexpr std::array kDecayFlags{kDim, kBase,
                                 ExportFlag{"max_distance", "R", "relative distances r = 0 ... R",
                                            "an integer from 1 to 100000", nullptr}};
constexpr std::array kRotateFlags{
    ExportFlag{"vector", "X0,X1,...", "the vector x; d is the number of entries", kVectorAllowed,
               nullptr},
    ExportFlag{"position", "M", "position m", "a number from -1e9 to 1e9", nullptr}, kBase,
    kPairing};
constexpr std::array kScoreFlags{
    ExportFlag{"query", "Q0,Q1,...", "the query q; d is the number of entries", kVectorAllowed,
               nullptr},
    ExportFlag{"key", "K0,K1,...", "the key k", "d comma-separated numbers, as many as the query",
               nullptr},
    ExportFlag{"positions", "N", "query and key positions m, n = 0 ... N-1",
               "an integer from 1 to 4096, with N*N*d at most 4294967296", nullptr},
    kBase, kPairing};

constexpr std::array kDatasets{
    DatasetSpec{"frequencies", "block frequencies theta_i and wavelengths 2 pi / theta_i",
                "i,theta,wavelength", kFrequencyFlags, build_frequencies},
    DatasetSpec{"sinusoidal", "the sinusoidal encoding table PE[pos][j]", "pos,d0,d1,...,d{D-1}",
                kSinusoidalFlags, build_sinusoidal},
    DatasetSpec{"decay", "RoPE's long-range decay bound D(r) (RoFormer 3.4.3)", "distance,value",
                kDecayFlags, build_decay},
    DatasetSpec{"rotate", "the rotated vector R_m x", "index,value", kRotateFlags, build_rotate},
    DatasetSpec{"scores", "RoPE scores (R_m q) . (R_n k) for every pair of positions", "m,n,score",
                kScoreFlags, build_scores},
};

}  // namespace

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
                               ": " + f.allowed + ")"};
    complete.emplace_back(f.name, f.default_text);
  }
  return spec.build(complete);
}

}  // namespace rope::app
