// lessons/quantities.cpp — the check and live-value vocabulary (quantities.h).
//
// [SECTION] helpers: blocks under a pairing, vectors, names and their arguments
// [SECTION] the state a quantity reads
// [SECTION] families: quantities that share one computation, told apart by name
// [SECTION] quantities of the current state that take more than one line
// [SECTION] families of the seeds' ideas (issue 29 §7)
// [SECTION] the table: one row per quantity
// [SECTION] lookup: names, labels, kinds
// [SECTION] QuantityContext
// [SECTION] checks
#include "lessons/quantities.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <complex>
#include <limits>
#include <optional>
#include <utility>

#include "io/number_format.h"
#include "lessons/model_quantities.h"
#include "rope/attention.h"
#include "rope/axial.h"
#include "rope/decay.h"
#include "rope/decimal.h"
#include "rope/extrapolation.h"
#include "rope/frequencies.h"
#include "rope/low_precision.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "rope/scaling.h"
#include "rope/sinusoidal.h"
#include "rope/three_codes.h"
#include "state/params.h"
#include "state/scaling_params.h"
#include "state/words.h"

namespace rope::lessons {
namespace {

using Vec = std::vector<double>;
using Cplx = std::complex<double>;

// [SECTION] helpers

constexpr int kMaxDenseDim = 512;     // dense d x d matrices beyond this are too costly per frame
constexpr int kLinearTokens = 16;     // rows of the linear-attention example
constexpr double kSentenceShift = 2;  // "Coding in" puts two tokens before "Python is love"

// Coordinates (a, b) of block i of a [d] vector (rope::pair_indices), as indices. d is valid
// here: a context whose d is not fails every quantity before one is computed.
std::pair<std::size_t, std::size_t> block_index(std::size_t i, std::size_t d, Pairing pairing) {
  const PairIndices ab = pair_indices(static_cast<int>(i), static_cast<int>(d), pairing);
  return {static_cast<std::size_t>(ab.first), static_cast<std::size_t>(ab.second)};
}

std::vector<Cplx> to_blocks(const Vec& x, Pairing pairing) {
  const std::size_t h = x.size() / 2;
  std::vector<Cplx> z(h);
  for (std::size_t i = 0; i < h; ++i) {
    const auto [a, b] = block_index(i, x.size(), pairing);
    z[i] = Cplx(x[a], x[b]);
  }
  return z;
}

Vec from_blocks(const std::vector<Cplx>& z, Pairing pairing) {
  Vec x(2 * z.size());
  for (std::size_t i = 0; i < z.size(); ++i) {
    const auto [a, b] = block_index(i, x.size(), pairing);
    x[a] = z[i].real();
    x[b] = z[i].imag();
  }
  return x;
}

double norm(const Vec& a) {
  return std::sqrt(dot(a, a));
}

Vec rotated(const Vec& x, double position, const Vec& thetas, Pairing pairing) {
  Vec y(x.size());
  apply_rope<double>(x, y, position, thetas, pairing);
  return y;
}

double max_abs_difference(const Vec& a, const Vec& b) {
  double m = 0.0;
  for (std::size_t j = 0; j < a.size() && j < b.size(); ++j)
    m = std::max(m, std::fabs(a[j] - b[j]));
  return m;
}

Error fail(std::string_view name, std::string message) {
  return Error{std::string(name), std::move(message)};
}

// Splits "theta.3" into ("theta", "3"); no dot: index empty.
std::pair<std::string_view, std::string_view> split_index(std::string_view name) {
  const auto dot_at = name.find('.');
  if (dot_at == std::string_view::npos) return {name, {}};
  return {name.substr(0, dot_at), name.substr(dot_at + 1)};
}

// The pair indices a name may give by what they mean rather than by number: the first pair that
// turns less than once within the original context L, and the pair just before it (the last
// that turns at least once). They follow d, base and L, so a check at them tests the boundary the
// prose names ("pairs {{first_slow_pair}} to {{last_pair}}") at any state.
constexpr std::string_view kFirstSlow = "first_slow";
constexpr std::string_view kLastFast = "last_fast";

bool symbolic_index(std::string_view index) {
  return index == kFirstSlow || index == kLastFast;
}

bool valid_index_syntax(std::string_view index) {
  if (index == "last" || symbolic_index(index)) return true;
  if (index.empty() || index.size() > 6) return false;
  return std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Arguments written into a name: "case_angle.fp16.32.10000.1857.1" -> {"fp16", "32", ...}.
std::vector<std::string_view> split_arguments(std::string_view rest) {
  std::vector<std::string_view> out;
  while (true) {
    const auto dot_at = rest.find('.');
    out.push_back(rest.substr(0, dot_at));
    if (dot_at == std::string_view::npos) return out;
    rest.remove_prefix(dot_at + 1);
  }
}

bool all_digits(std::string_view t, std::size_t max_len) {
  return !t.empty() && t.size() <= max_len &&
         std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A decimal as number.VALUE takes it: digits, optionally a point and more digits.
bool valid_decimal(std::string_view t) {
  const auto point = t.find('.');
  if (point == std::string_view::npos) return all_digits(t, 15);
  return all_digits(t.substr(0, point), 15) && all_digits(t.substr(point + 1), 15);
}

// Placeholders of the table's names: K a block index (or last), FORMAT a float format, PRESET a
// precision preset, VALUE a decimal (the rest of the name), anything else a whole number.
bool valid_argument(std::string_view placeholder, std::string_view arg) {
  if (placeholder == "K") return valid_index_syntax(arg);
  if (placeholder == "FORMAT") return parse_format(arg).has_value();
  if (placeholder == "PRESET") return parse_precision_preset(arg).has_value();
  return all_digits(arg, 16);
}

}  // namespace

// [SECTION] the state a quantity reads

// What a row's function sees: the context's state, its derived vectors and, for an indexed
// name (.K), the block or coordinate index already checked against d.
struct QuantityEnv {
  const app::Params& p;
  const Vec& thetas;       // θ of the whole head, base^(-2i/d): the identities' lessons use it
  const Vec& rope_thetas;  // θ of drawn_frequencies (after the partial rotation): rope_score
  const Vec& q;
  const Vec& k;
  const ScaledFrequencies& scaled;   // theta' and the attention factor (scaling none: theta, 1)
  const std::string& scaling_error;  // why the scaling could not be applied, else empty
  FixedValues& scratch;  // the shared memo: costly results by their arguments (fit, B(s)/d)
  std::size_t i = 0;     // the index of a .K name: a block, or a coordinate of q.K
  double context() const { return static_cast<double>(p.extension.scaling.original_context); }
  double factor() const { return p.extension.scaling.factor; }
  std::size_t d() const { return q.size(); }
  double dim() const { return static_cast<double>(p.dim); }
  double m() const { return p.position; }
  double n() const { return p.key_position; }
  double theta() const { return thetas[i]; }  // block i's frequency, rad per position
};

namespace {

using Env = QuantityEnv;
using Name = std::string_view;  // the name as the lesson wrote it, with its arguments

// The first pair i whose turns within the original context, r_i = L / lambda_i = L theta_i / 2 pi
// (rotations.K, computed the same way), fall below 1; thetas.size() when every pair turns at
// least once. The frequencies fall with i, so every pair after it is slower still.
std::size_t first_slow_index(const Vec& thetas, double context) {
  std::size_t i = 0;
  while (i < thetas.size() && context / wavelength(thetas[i]) >= 1.0)
    ++i;
  return i;
}

Result<Vec> one(double v) {
  return Vec{v};
}

// [SECTION] families: quantities that share one computation, told apart by name

// The precision view's numbers at the current state (rope/low_precision.h).
Result<Vec> low_precision_family(const Env& e, Name name) {
  const PrecisionFormats& f = e.p.precision.formats;
  if (name == "lp_position") return one(round_to(f.position, e.m()));
  if (name == "lp_key_position") return one(round_to(f.position, e.n()));
  if (name == "lp_position_error") return one(round_to(f.position, e.m()) - e.m());
  auto at_m = emulate_angles(e.m(), e.p.dim, e.p.base, f);
  if (!at_m) return fail(name, at_m.error().to_string());
  // lp_fast_error and lp_slow_error split the blocks into the faster half (0 ... ceil(h/2) - 1)
  // and the slower rest; lp_slowest_error is the last block alone (lesson 10, step 2: at d = 8
  // only it stays near its angle at every m near 100 000, the others err by radians)
  if (name == "lp_max_error" || name == "lp_fast_error" || name == "lp_slow_error" ||
      name == "lp_slowest_error") {
    const std::size_t h = at_m.value().size(), fast = (h + 1) / 2;
    const std::size_t first = name == "lp_slow_error"      ? fast
                              : name == "lp_slowest_error" ? h - 1
                                                           : 0;
    const std::size_t last = name == "lp_fast_error" ? fast : h;
    double worst = 0.0;
    for (std::size_t i = first; i < last; ++i) {
      const EmulatedAngle& a = at_m.value()[i];
      if (std::isnan(a.wrapped_error)) return one(a.wrapped_error);  // an angle overflowed
      worst = std::max(worst, std::fabs(a.wrapped_error));
    }
    return one(worst);
  }
  auto at_n = emulate_angles(e.n(), e.p.dim, e.p.base, f);  // lp_score
  if (!at_n) return fail(name, at_n.error().to_string());
  auto rq = rotate_emulated(e.q, at_m.value(), e.p.pairing);
  auto rk = rotate_emulated(e.k, at_n.value(), e.p.pairing);
  if (!rq || !rk) return fail(name, (!rq ? rq.error() : rk.error()).to_string());
  return one(dot(rq.value(), rk.value()));
}

// Quantities whose arguments are written in their names (fixed_quantity): the documented cases
// of low-precision RoPE, computed the same whatever the state. The syntax was checked by
// find_quantity; the ranges are checked here.
Result<Vec> fixed_family(const Env&, Name name) {
  const auto [stem, rest] = split_index(name);
  if (stem == "number") {
    double v = 0.0;
    const auto [ptr, ec] = rope::parse_double(rest, v);
    if (ec != std::errc() || ptr != rest.data() + rest.size())
      return fail(name, "needs a number after 'number.'");
    return one(v);
  }
  const auto args = split_arguments(rest);
  const auto integer = [&](std::size_t j) {
    long long v = 0;
    std::from_chars(args[j].data(), args[j].data() + args[j].size(), v);
    return v;
  };
  if (stem == "stored" || stem == "distinct") {
    const FloatFormat f = *parse_format(args[0]);
    if (stem == "stored") return one(round_to(f, static_cast<double>(integer(1))));
    const long long first = integer(1), last = integer(2);
    if (last < first || last - first >= kMaxSweepPositions)
      return fail(name, "needs FIRST <= LAST and at most 100000 integers, got " +
                            std::to_string(first) + " ... " + std::to_string(last));
    auto v = collapsed_positions(static_cast<double>(first), last - first + 1, f);
    if (!v) return fail(name, v.error().to_string());
    double distinct = 1.0;
    for (std::size_t j = 1; j < v.value().size(); ++j)
      distinct += v.value()[j] != v.value()[j - 1] ? 1.0 : 0.0;
    return one(distinct);
  }
  if (stem.starts_with(
          "decay_")) {  // D.BASE, then N or FIRST.LAST: core's decay curve (rope/decay.h)
    const long long last = stem == "decay_at" ? integer(2) : integer(3);
    const long long first = stem == "decay_at" ? last : integer(2);
    if (first > last || last > 100000)
      return fail(name, "needs distances with FIRST <= LAST <= 100000, got " +
                            std::to_string(first) + " ... " + std::to_string(last));
    auto curve = decay_curve(integer(0), static_cast<double>(integer(1)), last);
    if (!curve) return fail(name, curve.error().to_string());
    const auto b = curve.value().begin();
    const auto lo = b + static_cast<std::ptrdiff_t>(first),
               hi = b + static_cast<std::ptrdiff_t>(last) + 1;
    if (stem == "decay_min") return one(*std::min_element(lo, hi));
    return one(*std::max_element(lo, hi));  // decay_at: the one value
  }
  // case_*: PRESET.D.BASE, then a position M (or the last position LAST), then maybe a block K
  const PrecisionFormats f = *parse_precision_preset(args[0]);
  const long long d = integer(1);
  const auto base = static_cast<double>(integer(2));
  if (stem == "case_max_cos_error") {
    const long long last = integer(3);
    if (!validate_dim(d)) return fail(name, "needs an even D from 2 to 4096");
    if (last >= (1LL << 20) || (last + 1) * (d / 2) > (1LL << 20))
      return fail(name, "covers (LAST + 1) x D/2 angles; at most 1048576 are computed");
    double worst = 0.0;
    for (long long m = 0; m <= last; ++m) {
      auto all = emulate_angles(static_cast<double>(m), d, base, f);
      if (!all) return fail(name, all.error().to_string());
      for (const EmulatedAngle& a : all.value())
        worst = std::max(worst, std::fabs(a.cos - std::cos(a.exact_angle)));
    }
    return one(worst);
  }
  const auto m = static_cast<double>(integer(3));
  if (stem == "case_max_error") {
    const std::vector<double> at{m};
    auto sw = sweep_angle_error(d, base, f, at);
    if (!sw) return fail(name, sw.error().to_string());
    return one(sw.value().max_abs_error[0]);
  }
  auto a = emulate_angle(m, integer(4), d, base, f);
  if (!a) return fail(name, a.error().to_string());
  return one(stem == "case_angle" ? a.value().angle : a.value().wrapped_error);
}

Result<Vec> dense(const Env& e, Name name) {
  if (e.d() > static_cast<std::size_t>(kMaxDenseDim))
    return fail(name, "uses the dense d x d matrix, computed for d up to 512 (d is " +
                          std::to_string(e.d()) + ")");
  const Vec rm = dense_rotation(e.m(), e.thetas, e.p.pairing);
  const Vec rn = dense_rotation(e.n(), e.thetas, e.p.pairing);
  if (name == "dense_rq") return mat_vec(rm, e.q);
  if (name == "dense_score") return one(dot(mat_vec(rm, e.q), mat_vec(rn, e.k)));
  const Vec rtr = mat_transpose_mul(rm, rn, static_cast<int>(e.d()));
  return one(dot(e.q, mat_vec(rtr, e.k)));
}

// h_i = conj(z_q,i) z_k,i, the partial sums S_j of e^{i(n-m)theta_i} and the summation by parts
// (RoFormer 3.4.3, which writes the complex conjugate: h_i = q_i k_i^*, e^{i(m-n)theta_i}; the
// real part, the magnitudes and the bound are the same). n - m is the distance the views show.
Result<Vec> decay_family(const Env& e, Name name) {
  const std::size_t h = e.thetas.size();
  if (name == "decay" || name == "decay0") {
    const double r = name == "decay0" ? 0.0 : std::fabs(e.n() - e.m());
    Cplx s(0.0, 0.0);
    double total = 0.0;
    for (std::size_t i = 0; i < h; ++i) {
      s += std::polar(1.0, r * e.thetas[i]);
      total += std::abs(s);
    }
    return one(total / static_cast<double>(h));
  }
  const auto zq = to_blocks(e.q, e.p.pairing);
  const auto zk = to_blocks(e.k, e.p.pairing);
  std::vector<Cplx> hh(h + 1, Cplx(0.0, 0.0)), s(h + 1, Cplx(0.0, 0.0));  // h_{d/2} = S_0 = 0
  const double r = e.n() - e.m();
  for (std::size_t i = 0; i < h; ++i) {
    hh[i] = std::conj(zq[i]) * zk[i];
    s[i + 1] = s[i] + std::polar(1.0, r * e.thetas[i]);
  }
  Cplx direct(0.0, 0.0), parts(0.0, 0.0);
  double max_step = 0.0, sum_s = 0.0;
  for (std::size_t i = 0; i < h; ++i) {
    direct += hh[i] * (s[i + 1] - s[i]);
    parts -= s[i + 1] * (hh[i + 1] - hh[i]);
    max_step = std::max(max_step, std::abs(hh[i + 1] - hh[i]));
    sum_s += std::abs(s[i + 1]);
  }
  if (name == "abel_sum") return Vec{direct.real(), direct.imag()};
  if (name == "abel_parts") return Vec{parts.real(), parts.imag()};
  if (name == "abs_abel_sum") return one(std::abs(direct));
  if (name == "complex_score") return one(direct.real());
  return one(max_step * sum_s);  // abel_bound
}

// Lesson 9's example (linear_example): core's shared sums against the same rows summed term by
// term here, with and without RoPE in the numerator (rope/attention.h).
Result<Vec> linear_family(const Env& e, Name name) {
  const LinearExample ex = linear_example(e.p.dim, e.p.seed);
  const int n_tok = ex.n, d = ex.d, dv = ex.d;
  const auto row = static_cast<std::size_t>(std::clamp(std::round(e.m()), 0.0, n_tok - 1.0));
  const auto ud = static_cast<std::size_t>(d);
  const auto udv = static_cast<std::size_t>(dv);
  const auto phi = [&](const Vec& x, std::size_t r) {
    Vec out(ud);
    for (std::size_t j = 0; j < ud; ++j) {
      const double a = x[r * ud + j];
      out[j] = a > 0.0 ? a + 1.0 : std::exp(a);  // elu(a) + 1
    }
    return out;
  };
  const bool rope = !name.starts_with("linear_plain");
  if (name == "linear_rope_row" || name == "linear_plain_row") {
    auto out = linear_attention(ex.q, ex.k, ex.v, n_tok, d, dv, e.p.base, e.p.pairing, rope, false);
    if (!out) return out.error();
    const auto b = out.value().begin() + static_cast<std::ptrdiff_t>(row * udv);
    return Vec(b, b + dv);
  }
  if (name == "linear_summary_numerator") {  // R_m phi(q_m) times core's summary kv
    auto sums =
        linear_attention_sums(ex.q, ex.k, ex.v, n_tok, d, dv, e.p.base, e.p.pairing, true, false);
    if (!sums) return sums.error();
    const Vec rq = rotated(phi(ex.q, row), static_cast<double>(row), e.thetas, e.p.pairing);
    Vec num(udv, 0.0);
    for (std::size_t i = 0; i < ud; ++i)
      for (std::size_t c = 0; c < udv; ++c)
        num[c] += rq[i] * sums.value().kv[i * udv + c];
    return num;
  }
  if (name.starts_with("linear_stretched")) {
    // R_m replaced by M_m = diag(1, 2, ..., d) R_m: a matrix of m alone that does not keep
    // lengths. It leaves the sum over n as R_m does: linearity, not length, lets S be shared.
    Vec mq = rotated(phi(ex.q, row), static_cast<double>(row), e.thetas, e.p.pairing);
    for (std::size_t j = 0; j < ud; ++j)
      mq[j] *= static_cast<double>(j + 1);
    Vec num(udv, 0.0);
    if (name == "linear_stretched_summary") {
      auto sums =
          linear_attention_sums(ex.q, ex.k, ex.v, n_tok, d, dv, e.p.base, e.p.pairing, true, false);
      if (!sums) return sums.error();
      for (std::size_t i = 0; i < ud; ++i)
        for (std::size_t c = 0; c < udv; ++c)
          num[c] += mq[i] * sums.value().kv[i * udv + c];
      return num;
    }
    for (std::size_t t = 0; t < static_cast<std::size_t>(n_tok); ++t) {
      const double w =
          dot(mq, rotated(phi(ex.k, t), static_cast<double>(t), e.thetas, e.p.pairing));
      for (std::size_t c = 0; c < udv; ++c)
        num[c] += w * ex.v[t * udv + c];
    }
    return num;  // linear_stretched_direct
  }
  const Vec pq = phi(ex.q, row);
  const Vec rq = rope ? rotated(pq, static_cast<double>(row), e.thetas, e.p.pairing) : pq;
  Vec num(udv, 0.0);
  double den = 0.0;
  for (std::size_t t = 0; t < static_cast<std::size_t>(n_tok); ++t) {
    const Vec pk = phi(ex.k, t);
    const double w =
        dot(rq, rope ? rotated(pk, static_cast<double>(t), e.thetas, e.p.pairing) : pk);
    for (std::size_t c = 0; c < udv; ++c)
      num[c] += w * ex.v[t * udv + c];
    den += dot(pq, pk);
  }
  if (name == "linear_denominator") return one(den);
  if (name == "linear_direct_numerator") return num;
  for (double& x : num)
    x /= den;
  return num;  // linear_rope_direct, linear_plain_direct
}

// The sentence view's numbers: query_word and key_word get their seeded hash vectors and the
// positions of their first occurrences in each sentence (as views/sentence_view.cpp places them).
Result<Vec> sentence_family(const Env& e, Name name) {
  const bool b_side = name.ends_with("_b");
  const auto words = app::split_words(b_side ? e.p.sentence_b : e.p.sentence_a);
  const auto find = [&](const std::string& w) {
    const auto it = std::find(words.begin(), words.end(), w);
    return it == words.end() ? -1.0 : static_cast<double>(it - words.begin());
  };
  const double m = find(e.p.query_word), n = find(e.p.key_word);
  if (m < 0 || n < 0)
    return fail(name, "needs query_word '" + e.p.query_word + "' and key_word '" + e.p.key_word +
                          "' in sentence_" + (b_side ? "b" : "a"));
  if (name.starts_with("sentence_m")) return one(m);
  if (name.starts_with("sentence_n")) return one(n);
  const int d = static_cast<int>(e.d());
  const Vec q = hash_embedding(e.p.query_word, d, e.p.seed);
  const Vec k = hash_embedding(e.p.key_word, d, e.p.seed);
  return one(dot(rotated(q, m, e.thetas, e.p.pairing), rotated(k, n, e.thetas, e.p.pairing)));
}

// Self-attention over the words of sentence_a with RoPE, q = k = v = the words' hash vectors,
// positions first, first + 1, ...: rotating queries and keys makes the weights depend on n - m
// only, so moving every position leaves the output alone; rotating the values as well would
// carry the absolute positions into the output.
Result<Vec> values_family(const Env& e, Name name) {
  const auto words = app::split_words(e.p.sentence_a);
  if (words.empty()) return fail(name, "sentence_a has no words");
  const int d = static_cast<int>(e.d());
  const std::size_t t = words.size();
  std::vector<Vec> x;
  for (const auto& w : words)
    x.push_back(hash_embedding(w, d, e.p.seed));
  const auto at = static_cast<std::size_t>(
      std::clamp(std::round(e.m()), 0.0, static_cast<double>(t - 1)));  // token m
  const auto output = [&](double first, bool rotate_values) {
    Vec w(t * t);
    for (std::size_t r = 0; r < t; ++r)
      for (std::size_t c = 0; c < t; ++c)
        w[r * t + c] = dot(rotated(x[r], first + static_cast<double>(r), e.thetas, e.p.pairing),
                           rotated(x[c], first + static_cast<double>(c), e.thetas, e.p.pairing));
    transform_scores(w, static_cast<std::int64_t>(t), d, ScoreTransform{true, true, false});
    Vec o(x[0].size(), 0.0);
    for (std::size_t c = 0; c < t; ++c) {
      const Vec v = rotate_values
                        ? rotated(x[c], first + static_cast<double>(c), e.thetas, e.p.pairing)
                        : x[c];
      for (std::size_t j = 0; j < o.size(); ++j)
        o[j] += w[at * t + c] * v[j];
    }
    return o;
  };
  const bool values = name.starts_with("out_qkv");
  if (name == "out_qkv_move_change")
    return one(max_abs_difference(output(0.0, true), output(kSentenceShift, true)));
  return output(name.ends_with("_moved") ? kSentenceShift : 0.0, values);
}

// Self-attention over the words of sentence_a, q = k = v = the word's hash embedding:
// without positions it is permutation equivariant, with RoPE it is not.
Result<Vec> attention_family(const Env& e, Name name) {
  const auto words = app::split_words(e.p.sentence_a);  // state/words.h
  const auto t = static_cast<std::int64_t>(words.size());
  if (name == "tokens") return one(static_cast<double>(t));
  if (t < 1) return fail(name, "sentence_a has no words");
  const int d = static_cast<int>(e.d());
  const auto ud = static_cast<std::size_t>(d);
  const auto ut = static_cast<std::size_t>(t);
  const auto outputs = [&](const std::vector<std::string>& ws, bool rope) -> Result<Vec> {
    Vec x;
    for (const auto& w : ws) {
      const Vec h = hash_embedding(w, d, e.p.seed);
      x.insert(x.end(), h.begin(), h.end());
    }
    auto s =
        score_matrix(x, x, t, d, e.p.base, rope ? Encoding::rope : Encoding::none, e.p.pairing);
    if (!s) return s.error();
    Vec w = std::move(s).value();
    transform_scores(w, t, d, ScoreTransform{true, true, false});
    Vec o(ut * ud, 0.0);
    for (std::size_t r = 0; r < ut; ++r)
      for (std::size_t c = 0; c < ut; ++c)
        for (std::size_t j = 0; j < ud; ++j)
          o[r * ud + j] += w[r * ut + c] * x[c * ud + j];
    return o;
  };
  const auto row = [&](const Vec& o, std::size_t r) {
    return Vec(o.begin() + static_cast<std::ptrdiff_t>(r * ud),
               o.begin() + static_cast<std::ptrdiff_t>((r + 1) * ud));
  };
  const bool rope = name.starts_with("rope") || name == "repeat_gap_rope";
  auto o = outputs(words, rope);
  if (!o) return o.error();
  if (name.starts_with("repeat_")) {
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < ut; ++i)
      if (words[i] == e.p.query_word) at.push_back(i);
    if (at.size() < 2)
      return fail(
          name, "needs query_word '" + e.p.query_word + "' to occur at least twice in sentence_a");
    if (name == "repeat_first_nopos") return row(o.value(), at[0]);
    if (name == "repeat_second_nopos") return row(o.value(), at[1]);
    return one(max_abs_difference(row(o.value(), at[0]), row(o.value(), at[1])));
  }
  const auto i =
      static_cast<std::size_t>(std::clamp(std::round(e.m()), 0.0, static_cast<double>(t - 1)));
  std::vector<std::string> reversed(words.rbegin(), words.rend());
  auto o2 = outputs(reversed, rope);
  if (!o2) return o2.error();
  const Vec before = row(o.value(), i);
  const Vec after = row(o2.value(), ut - 1 - i);
  if (name == "nopos_out" || name == "rope_out") return before;
  if (name == "nopos_out_moved" || name == "rope_out_moved") return after;
  return one(max_abs_difference(before, after));  // *_move_change
}

// axial_*: axial 2D RoPE at the axial view's patches (rope/axial.h). The dense score builds
// R(r, c) entry by entry here, independently of the core.
Result<Vec> axial_family(const Env& e, Name name) {
  const app::Params& p = e.p;
  const Vec &q = e.q, &k = e.k;
  const auto at = [](int r, int c) {
    return Patch{static_cast<double>(r), static_cast<double>(c)};
  };
  const Patch q0 = at(p.query_row, p.query_column), k0 = at(p.key_row, p.key_column);
  const Patch q1 = at(p.query_row + p.shift_row, p.query_column + p.shift_column);
  const Patch k1 = at(p.key_row + p.shift_row, p.key_column + p.shift_column);
  if (name == "axial_grid") return one(p.grid_size);
  if (name == "axial_r1") return one(q0.row);
  if (name == "axial_c1") return one(q0.column);
  if (name == "axial_r2") return one(k0.row);
  if (name == "axial_c2") return one(k0.column);
  if (name == "axial_dr") return one(k0.row - q0.row);
  if (name == "axial_dc") return one(k0.column - q0.column);
  if (name == "axial_shift_r") return one(p.shift_row);
  if (name == "axial_shift_c") return one(p.shift_column);
  if (auto s = validate_axial_dim(p.dim); !s)
    return fail(name, "cannot be computed: " + s.error().to_string());
  if (name == "axial_quarter") return one(p.dim / 4);
  if (name == "axial_theta_last") return one(axial_frequencies(p.dim, p.base).value().back());
  const auto score = [&](Patch a, Patch b) {
    return axial_score(q, k, a, b, p.base, p.pairing).value();
  };
  if (name == "axial_score") return one(score(q0, k0));
  if (name == "axial_shifted_score") return one(score(q1, k1));
  if (name == "axial_self_score") return one(score(q0, q0));
  if (name == "axial_relative_score")
    return one(
        axial_relative_score(q, k, {k0.row - q0.row, k0.column - q0.column}, p.base, p.pairing)
            .value());
  // A row part plus a column part: these two sums agree (the query stays at (r1, c1)).
  if (name == "axial_corners") return one(score(q0, k0) + score(q0, q0));
  if (name == "axial_cross_corners")
    return one(score(q0, {k0.row, q0.column}) + score(q0, {q0.row, k0.column}));
  // axial_dense_score: q^T (R_1^T R_2) k with R(r, c) [d][d] written out and the product formed
  if (p.dim > kMaxDenseDim) return fail(name, "needs d <= 512");
  const auto d = static_cast<std::size_t>(p.dim);
  const auto dense = [&](Patch x) {
    Vec r(d * d, 0.0);
    for (std::size_t i = 0; i < d / 2; ++i) {
      const bool row_half = i < d / 4;
      const double j = static_cast<double>(row_half ? i : i - d / 4);
      const double phi =
          (row_half ? x.row : x.column) * std::pow(p.base, -4.0 * j / static_cast<double>(d));
      const auto [a, b] = block_index(i, d, p.pairing);
      r[a * d + a] = std::cos(phi);
      r[a * d + b] = -std::sin(phi);
      r[b * d + a] = std::sin(phi);
      r[b * d + b] = std::cos(phi);
    }
    return r;
  };
  const Vec r1 = dense(q0), r2 = dense(k0);
  Vec product(d * d, 0.0);  // R_1^T R_2
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t l = 0; l < d; ++l)
      for (std::size_t j = 0; j < d; ++j)
        product[i * d + j] += r1[l * d + i] * r2[l * d + j];
  double s = 0.0;
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j)
      s += q[i] * product[i * d + j] * k[j];
  return one(s);
}

// [SECTION] quantities of the current state that take more than one line

// rope_score and the others that rotate q to m and k to n with θ.
Result<Vec> rope_score(const Env& e, Name) {
  return one(dot(rotated(e.q, e.m(), e.rope_thetas, e.p.pairing),
                 rotated(e.k, e.n(), e.rope_thetas, e.p.pairing)));
}

// The scaling's θ′ and attention factor, or why the scaling cannot be applied at this state.
std::optional<Error> scaling_refused(const Env& e, Name name) {
  if (e.scaling_error.empty()) return std::nullopt;
  return fail(name, "cannot be computed: " + e.scaling_error);
}

Result<Vec> scaled_score(const Env& e, Name name) {
  if (auto no = scaling_refused(e, name)) return *no;
  const double a2 = e.scaled.attention_factor * e.scaled.attention_factor;
  const Vec& ts = e.scaled.theta_scaled;
  return one(a2 * dot(rotated(e.q, e.m(), ts, e.p.pairing), rotated(e.k, e.n(), ts, e.p.pairing)));
}

Result<Vec> scaled_relative_score(const Env& e, Name name) {
  if (auto no = scaling_refused(e, name)) return *no;
  const double a2 = e.scaled.attention_factor * e.scaled.attention_factor;
  return one(a2 * dot(e.q, rotated(e.k, e.n() - e.m(), e.scaled.theta_scaled, e.p.pairing)));
}

// score_ratio at this state's q, k and at the next seed's (R in the app: the same presets).
std::pair<double, double> score_ratios(const Env& e) {
  const auto ratio = [&](const Vec& q, const Vec& k) {
    return dot(rotated(q, e.m(), e.thetas, e.p.pairing), rotated(k, e.n(), e.thetas, e.p.pairing)) /
           dot(q, k);
  };
  app::Params next = e.p;
  next.seed = e.p.seed + 1;
  return {ratio(e.q, e.k), ratio(app::effective_vector(next.query, next, false),
                                 app::effective_vector(next.key, next, true))};
}

// f(q, m) f*(k, n) summed over the blocks: each rotated to its own position first.
Result<Vec> complex_product(const Env& e, Name) {
  const auto fq = rotate_complex(to_blocks(e.q, e.p.pairing), e.m(), e.thetas);
  const auto fk = rotate_complex(to_blocks(e.k, e.p.pairing), e.n(), e.thetas);
  Cplx sum(0.0, 0.0);
  for (std::size_t i = 0; i < fq.size(); ++i)
    sum += fq[i] * std::conj(fk[i]);
  return Vec{sum.real(), sum.imag()};
}

Result<Vec> complex_product_relative(const Env& e, Name) {
  const auto zq = to_blocks(e.q, e.p.pairing), zk = to_blocks(e.k, e.p.pairing);
  Cplx sum(0.0, 0.0);
  for (std::size_t i = 0; i < zq.size(); ++i)
    sum += zq[i] * std::conj(zk[i]) * std::polar(1.0, (e.m() - e.n()) * e.thetas[i]);
  return Vec{sum.real(), sum.imag()};
}

// Block i of f(q, m) = R_m q and of f(k, n) = R_n k as complex numbers, and their product
// f(q, m) f*(k, n): lesson 4's polar form, where lengths multiply and angles subtract.
//   product_length    |f(q, m) f*(k, n)|          length_product    |f(q, m)| |f(k, n)|
//   product_angle     arg(f(q, m) f*(k, n))       angle_difference  arg f(q, m) - arg f(k, n)
// Angles in rad, wrapped into (-pi, pi].
Result<Vec> polar_family(const Env& e, Name name) {
  const auto [a, b] = block_index(e.i, e.d(), e.p.pairing);
  const Vec rq = rotated(e.q, e.m(), e.thetas, e.p.pairing);
  const Vec rk = rotated(e.k, e.n(), e.thetas, e.p.pairing);
  const Cplx fq(rq[a], rq[b]), fk(rk[a], rk[b]);
  const auto [stem, index] = split_index(name);
  if (stem == "product_length") return one(std::abs(fq * std::conj(fk)));
  if (stem == "length_product") return one(std::abs(fq) * std::abs(fk));
  if (stem == "product_angle") return one(std::arg(fq * std::conj(fk)));
  return one(std::remainder(std::arg(fq) - std::arg(fk), kTwoPi));  // angle_difference
}

// The frequency ladder's steps theta_{i+1} / theta_i over i = 0 ... d/2 - 2 (the wavelengths'
// steps lambda_{i+1} / lambda_i are their inverses): the least and the largest. A geometric
// ladder has one step, b^(-2/d); any other rule for theta_i gives two different numbers. A
// single block (d = 2) has no step: both are 1.
Result<Vec> ladder_family(const Env& e, Name name) {
  if (e.thetas.size() < 2) return one(1.0);
  const bool waves = name.starts_with("wavelength");
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i + 1 < e.thetas.size(); ++i) {
    const double r = waves ? e.thetas[i] / e.thetas[i + 1] : e.thetas[i + 1] / e.thetas[i];
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  return one(name.ends_with("_min") ? lo : hi);
}

// q^T R(phi) k = cos(phi) q.k + sin(phi) q^T J k, with q^T J k = q_b k_a - q_a k_b
Result<Vec> blockwise_score(const Env& e, Name) {
  double s = 0.0;
  for (std::size_t i = 0; i < e.thetas.size(); ++i) {
    const auto [a, b] = block_index(i, e.q.size(), e.p.pairing);
    const double phi = (e.n() - e.m()) * e.thetas[i];
    s += (e.q[a] * e.k[a] + e.q[b] * e.k[b]) * std::cos(phi) +
         (e.q[b] * e.k[a] - e.q[a] * e.k[b]) * std::sin(phi);
  }
  return one(s);
}

// The RoPE score under pairing `use`, q and k first permuted from the interleaved to the
// half-split layout when `permuted`.
double pairing_score(const Env& e, Pairing use, bool permuted) {
  Vec q = e.q, k = e.k;
  if (permuted) {
    const auto perm = interleaved_to_half_permutation(e.p.dim);
    q = permute<double>(e.q, perm);
    k = permute<double>(e.k, perm);
  }
  return dot(rotated(q, e.m(), e.thetas, use), rotated(k, e.n(), e.thetas, use));
}

// The three listings of the code view (rope/three_codes.h) at this state.
Result<Vec> code_family(const Env& e, Name name) {
  auto c = compare_codes(e.q, e.k, e.m(), e.n(), e.thetas);
  if (!c) return fail(name, "cannot be computed: " + c.error().to_string());
  const CodeComparison& cc = c.value();
  if (name == "code_math_score") return one(cc.score_math);
  if (name == "code_meta_score") return one(cc.score_complex);
  if (name == "code_half_score") return one(cc.score_half_permuted);
  if (name == "code_half_score_without_p") return one(cc.score_half_unpermuted);
  if (name == "code_gap_with_p") return one(std::fabs(cc.score_half_permuted - cc.score_math));
  if (name == "code_gap_without_p") return one(std::fabs(cc.score_half_unpermuted - cc.score_math));
  if (name == "code_shuffled_score") {
    const auto sq = apply_permutation_transposed(e.q, cc.perm).value();
    const auto sk = apply_permutation_transposed(e.k, cc.perm).value();
    return one(
        dot(rotate_math(sq, e.m(), e.thetas).value(), rotate_math(sk, e.n(), e.thetas).value()));
  }
  if (name == "code_math_rq") return cc.rq_math;
  if (name == "code_meta_rq") return cc.rq_complex;
  if (name == "code_half_rq") return cc.rq_half;
  return apply_permutation(cc.rq_math, cc.perm).value();  // code_permuted_math_rq
}

Result<Vec> rotate_half_rq(const Env& e, Name name) {
  auto y = rotate_half_form(e.q, e.m(), e.thetas);  // core's listing of the transformers form
  if (!y) return fail(name, y.error().to_string());
  return std::move(y).value();
}

Result<Vec> rotate_half_score(const Env& e, Name name) {
  auto yq = rotate_half_form(e.q, e.m(), e.thetas);
  auto yk = rotate_half_form(e.k, e.n(), e.thetas);
  if (!yq || !yk) return fail(name, (!yq ? yq.error() : yk.error()).to_string());
  return one(dot(yq.value(), yk.value()));
}

// The heatmap's row m with the same content at every position (content shared): its keys at
// n = 0, s, 2s, ... (N of them, stride s). The least score over the row with the sinusoidal
// encoding added, min_n (q + PE_m).(k + PE_n), or with RoPE, min_n (R_m q).(R_n k). Lesson 2:
// under addition related tokens keep a high score at every distance; under rotation the
// distance alone can lower it.
Result<Vec> row_min_family(const Env& e, Name name) {
  const int count = e.p.positions;
  if (count < 1 || count > 4096) return fail(name, "needs N = positions from 1 to 4096");
  const bool additive = name.starts_with("additive");
  Vec qm =
      additive ? sinusoidal_vector(e.m(), e.thetas) : rotated(e.q, e.m(), e.thetas, e.p.pairing);
  if (additive)
    for (std::size_t j = 0; j < qm.size(); ++j)
      qm[j] += e.q[j];
  double least = std::numeric_limits<double>::infinity();
  for (int t = 0; t < count; ++t) {
    const double pos = static_cast<double>(t) * e.p.stride;
    Vec kn = additive ? sinusoidal_vector(pos, e.thetas) : rotated(e.k, pos, e.thetas, e.p.pairing);
    if (additive)
      for (std::size_t j = 0; j < kn.size(); ++j)
        kn[j] += e.k[j];
    least = std::min(least, dot(qm, kn));
  }
  return one(least);
}

Result<Vec> pe_dot_formula(const Env& e, Name) {
  double s = 0.0;
  for (double th : e.thetas)
    s += std::cos(e.p.offset * th);
  return one(s);
}

// The angle by which R_m turns block i of x, from the vectors (atan2), not from m theta.
double turn(const Env& e, const Vec& x) {
  const auto [a, b] = block_index(e.i, e.d(), e.p.pairing);
  const Vec y = rotated(x, e.m(), e.thetas, e.p.pairing);
  return std::remainder(std::atan2(y[b], y[a]) - std::atan2(x[b], x[a]), kTwoPi);
}

// Block i's angle at m as the precision view's formats store it (rope/low_precision.h).
Result<EmulatedAngle> stored_angle(const Env& e, Name name) {
  auto a = emulate_angle(e.m(), static_cast<std::int64_t>(e.i), e.p.dim, e.p.base,
                         e.p.precision.formats);
  if (!a) return fail(name, a.error().to_string());
  return a;
}

// Partial rotary and decoupled RoPE: lessons/model_quantities.h tells its names apart.
Result<Vec> model_family(const Env& e, Name name) {
  if (auto v = model_quantity(e.p, e.q, e.k, name)) return *v;
  return fail(name, "is not a lesson quantity");
}

// PI's B(s)/d at its least over the positions a step draws, s = 0 ... 2L − 1 (capped at 10⁶),
// times `scale` (1: the ratio itself; 2d: the least extrapolation bound 2 B(s)).
// The least is remembered in the context's memo under (d, base, 2L): at L = 4096 it costs
// milliseconds, which a lesson step paid every frame.
Result<Vec> least_b_over_d(const Env& e, Name name, double scale) {
  const std::int64_t max_s =
      std::min<std::int64_t>(2 * e.p.extension.scaling.original_context - 1, 1000000);
  // a key no quantity name can be (names have no spaces)
  const std::string key = "b_over_d " + std::to_string(e.p.dim) + " " + std::to_string(max_s) +
                          " " + app::format_number(e.p.base, app::NumberStyle::csv);
  auto cached = e.scratch.find(key);
  if (cached == e.scratch.end()) {
    auto b = rope::b_over_d(e.p.dim, e.p.base, max_s);
    if (!b) return fail(name, b.error().to_string());
    cached =
        e.scratch.emplace(key, Vec{*std::min_element(b.value().begin(), b.value().end())}).first;
  }
  return one(scale * cached->second[0]);
}

// PI's Fig. 2 as the extension view draws it (views/extrapolation_panel.cpp): the d functions
// sin(s theta_j), cos(s theta_j) fitted to seeded N(0, 1) targets at s = 0 ... L-1 with the
// app's rank tolerance, then max |a(s)| over [0, L), over [L, 2L) and between the integers of
// the view's third panel (steps of 1/8). The fit is remembered under its arguments in the
// context's shared memo: the three maxima share it, and a view that keeps one memo across states
// (the derivation view) fits again only when d, base, L or the seed change, not when m moves.
// Its cost grows as L d min(L, d); a lesson quantity is computed on the UI thread, so it stops
// at 2^26 (d = 128: L up to 4096, about 0.05 s) where the view, computing in the background,
// goes to 2^30.
constexpr std::int64_t kMaxLessonFitWork = std::int64_t{1} << 26;

Result<Vec> fit_family(const Env& e, Name name) {
  const std::int64_t L = e.p.extension.scaling.original_context, d = e.p.dim;
  // a key no quantity name can be (names have no spaces)
  const std::string key = "fit " + std::to_string(d) + " " + std::to_string(L) + " " +
                          std::to_string(e.p.seed) + " " +
                          app::format_number(e.p.base, app::NumberStyle::csv);
  auto cached = e.scratch.find(key);
  if (cached == e.scratch.end()) {
    if (L * d * std::min(L, d) > kMaxLessonFitWork)
      return fail(name,
                  "fits L d min(L, d) <= 2^26 (d = 128: L up to 4096) in a lesson; "
                  "the extension view draws larger fits");
    auto fit = fit_random_target(d, e.p.base, L, e.p.seed, app::kFitRankTolerance);
    if (!fit) return fail(name, fit.error().to_string());
    auto all = evaluate_fit_range(fit.value(), 0.0, 2.0 * static_cast<double>(L), 1.0);
    const auto [from, to] = app::between_integers_range(L);
    auto between = evaluate_fit_range(fit.value(), from, to, app::kBetweenStep);
    if (!all || !between) return fail(name, (!all ? all.error() : between.error()).to_string());
    const auto largest = [](auto first, auto last) {
      double m = 0.0;
      for (auto it = first; it != last; ++it)
        m = std::max(m, std::fabs(*it));
      return m;
    };
    const auto mid = all.value().begin() + static_cast<std::ptrdiff_t>(L);
    cached =
        e.scratch
            .emplace(key, Vec{largest(all.value().begin(), mid), largest(mid, all.value().end()),
                              largest(between.value().begin(), between.value().end())})
            .first;
  }
  const Vec& f = cached->second;
  if (name == "fit_inside") return one(f[0]);
  if (name == "fit_beyond") return one(f[1]);
  if (name == "fit_between") return one(f[2]);
  if (name == "fit_between_growth") return one(f[2] / f[0]);
  return one(f[1] / f[0]);  // fit_growth
}

// [SECTION] families of the seeds' ideas (issue 29 §7)

// Lesson 2: a learned table of L = learned_positions rows (the sinusoidal view's, seeded values
// in [-1, 1) standing in for trained ones, rope::random_vectors(L, d, seed)): the length of its
// row at the query position m rounded to a whole position, 0 where it has none (m < 0, m >= L).
Result<Vec> learned_family(const Env& e, Name name) {
  const int L = e.p.learned_positions, d = e.p.pe_dim;
  if (name == "learned_positions") return one(static_cast<double>(L));
  const double row = std::floor(e.m() + 0.5);
  if (!(row >= 0.0 && row < L)) return one(0.0);
  const Vec table = random_vectors(static_cast<int>(row) + 1, d, e.p.seed);  // rows 0 ... m
  const auto at = static_cast<std::size_t>(row) * static_cast<std::size_t>(d);
  double s2 = 0.0;
  for (std::size_t j = at; j < table.size(); ++j)
    s2 += table[j] * table[j];
  return one(std::sqrt(s2));
}

// Lesson 2: x = (1, ..., 1) [d] with the sinusoidal encoding added, or turned by RoPE. The
// similarity of the positions m and m + k, minus that of m + 1 and m + 1 + k (k = offset): the
// same offset one position later. A rotation keeps it (0 up to rounding); the sum does not.
Result<Vec> offset_gap_family(const Env& e, Name name) {
  const Vec x(e.d(), 1.0);
  const bool added = name == "offset_gap_added";
  const auto encoded = [&](double pos) {
    if (!added) return rotated(x, pos, e.thetas, e.p.pairing);
    Vec y = sinusoidal_vector(pos, e.thetas);  // [d], block i at (2i, 2i + 1)
    for (double& v : y)
      v += 1.0;
    return y;
  };
  const double k = e.p.offset;
  const double here = dot(encoded(e.m()), encoded(e.m() + k));
  const double later = dot(encoded(e.m() + 1.0), encoded(e.m() + 1.0 + k));
  return one(std::fabs(here - later));
}

// Lesson 13: the heatmap's shared q and k with only the fastest or the slowest quarter of the
// pairs kept (rope::keep_band, as pair_band draws them), their score g(Δ) = q_B R_Δ k_B at the
// heatmap's distances Δ = j·stride, |j| < N (θ of the whole head, no scaling). How far the
// score falls off the diagonal: (g(0) − max_{Δ≠0} g(Δ)) / |g(0)|, 0 when g(0) = 0. Near 1: a
// sharp diagonal; near 0: the same score at every distance shown.
Result<Vec> band_family(const Env& e, Name name) {
  const PairBand band = name == "band_drop_fast" ? PairBand::fast : PairBand::slow;
  Vec q = e.q, k = e.k;
  keep_band<double>(q, band, e.p.pairing);
  keep_band<double>(k, band, e.p.pairing);
  const auto g = [&](double delta) { return dot(q, rotated(k, delta, e.thetas, e.p.pairing)); };
  const double at0 = g(0.0);
  double off = -std::numeric_limits<double>::infinity();
  for (int j = 1; j < e.p.positions; ++j)
    for (double sign : {-1.0, 1.0})
      off = std::max(off, g(sign * j * static_cast<double>(e.p.stride)));
  if (at0 == 0.0 || !std::isfinite(off)) return one(0.0);
  return one((at0 - off) / std::fabs(at0));
}

// Lesson 9: the heatmap's random content (q_m = rope::random_vectors(N, d, seed) row m, k_n the
// same with seed + 1, positions j·stride), every pair (m, n) of its N positions:
//   sim_cosine_min     min 1 + (R_m q_m)·(R_n k_n) / (|R_m q_m| |R_n k_n|)   (the heatmap's cosine)
//   sim_cosine_su_min  the same divided by the unrotated lengths |q_m| |k_n| (Su's argument)
//   sim_phi_rope_min   min (R_m φ(q_m))·(R_n φ(k_n)), φ = elu + 1 (lesson 9's numerator weights)
constexpr int kMaxSimilarityPositions = 512;  // N² d work on the UI thread

Result<Vec> similarity_family(const Env& e, Name name) {
  const int n_pos = e.p.positions, d = e.p.dim;
  if (n_pos > kMaxSimilarityPositions)
    return fail(name, "takes N <= 512 positions in a lesson (N is " + std::to_string(n_pos) + ")");
  const Vec qs = random_vectors(n_pos, d, e.p.seed), ks = random_vectors(n_pos, d, e.p.seed + 1);
  const auto ud = static_cast<std::size_t>(d);
  const bool phi = name == "sim_phi_rope_min", su = name == "sim_cosine_su_min";
  const auto row = [&](const Vec& x, int r) {
    Vec v(x.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(r) * ud),
          x.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(r + 1) * ud));
    if (phi)
      for (double& a : v)
        a = a > 0.0 ? a + 1.0 : std::exp(a);  // elu(a) + 1
    return v;
  };
  std::vector<Vec> rq, rk;
  Vec lq, lk;  // the lengths each divides by
  for (int r = 0; r < n_pos; ++r) {
    const double pos = static_cast<double>(r) * e.p.stride;
    const Vec q = row(qs, r), k = row(ks, r);
    rq.push_back(rotated(q, pos, e.thetas, e.p.pairing));
    rk.push_back(rotated(k, pos, e.thetas, e.p.pairing));
    lq.push_back(norm(su ? q : rq.back()));
    lk.push_back(norm(su ? k : rk.back()));
  }
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t m = 0; m < rq.size(); ++m)
    for (std::size_t n = 0; n < rk.size(); ++n) {
      const double s = dot(rq[m], rk[n]);
      const double l = lq[m] * lk[n];
      least = std::min(least, phi ? s : 1.0 + (l > 0.0 ? s / l : 0.0));
    }
  return one(least);
}

// Lesson 7: the multiplicative bias e_ij = (q·k) a_ij fits any content with one number per
// distance. How far RoPE is from that, on the heatmap's random content (q_j = random_vectors(N,
// d, seed) row j, k_j the same with seed + 1, positions j·stride) along the diagonal r = n − m
// (rounded): rope::diagonal_fit's residual, what the best single factor leaves of the scores
// (0 for any multiplicative bias). The diagonal fit panel draws the same fit.
Result<Vec> bias_residual(const Env& e, Name name) {
  const int n_pos = e.p.positions, d = e.p.dim;
  const double r = std::round(e.n() - e.m());
  if (!(std::fabs(r) < n_pos))
    return fail(name, "needs |n - m| < N = " + std::to_string(n_pos) + " (the heatmap's cells)");
  if (n_pos > kMaxSimilarityPositions)
    return fail(name, "takes N <= 512 positions in a lesson (N is " + std::to_string(n_pos) + ")");
  const Vec qs = random_vectors(n_pos, d, e.p.seed), ks = random_vectors(n_pos, d, e.p.seed + 1);
  auto fit = diagonal_fit(qs, ks, n_pos, d, e.p.base, e.p.pairing, static_cast<std::int64_t>(r),
                          static_cast<double>(e.p.stride));
  if (!fit) return fail(name, fit.error().to_string());
  return one(fit.value().residual);
}

// Lesson 8: the decay curve D(r) at base and at compare_base (the decay view's two curves), d as
// set, r = 0 ... max_distance: their largest difference over D(0).
Result<Vec> decay_gap(const Env& e, Name name) {
  if (!(e.p.compare_base > 1.0))
    return fail(name, "needs a compare_base (the decay view's overlay)");
  const std::int64_t last = std::min(e.p.max_distance, 100000);
  auto a = decay_curve(e.p.dim, e.p.base, last);
  auto b = decay_curve(e.p.dim, e.p.compare_base, last);
  if (!a || !b) return fail(name, (!a ? a.error() : b.error()).to_string());
  double gap = 0.0;
  for (std::size_t r = 0; r < a.value().size() && r < b.value().size(); ++r)
    gap = std::max(gap, std::fabs(a.value()[r] - b.value()[r]));
  return one(gap / a.value().front());
}

// [SECTION] the table: one row per quantity

// Adding a quantity is adding its row: the name (arguments as placeholders, see find_quantity),
// the TeX label, the help line (rope-lab lessons --quantities and FORMAT.md, which a test checks
// against this table), the function, and the kind when the name takes arguments.

constexpr QuantityInfo kTable[] = {
    // state
    {"m", "m", "query position m", [](const Env& e, Name) { return one(e.m()); }},
    {"n", "n", "key position n", [](const Env& e, Name) { return one(e.n()); }},
    {"delta", "n-m", "relative position n - m",
     [](const Env& e, Name) { return one(e.n() - e.m()); }},
    {"d", "d", "head dimension d",
     [](const Env& e, Name) { return one(static_cast<double>(e.p.dim)); }},
    {"half", "d/2", "number of 2D blocks d/2",
     [](const Env& e, Name) { return one(static_cast<double>(e.p.dim / 2)); }},
    {"base", "b", "frequency base", [](const Env& e, Name) { return one(e.p.base); }},
    {"offset", "k", "the shift k of the sinusoidal identity (parameter offset)",
     [](const Env& e, Name) { return one(e.p.offset); }},
    {"shift", "s", "the constant 2: tokens put in front of a sentence ('Coding in')",
     [](const Env&, Name) { return one(kSentenceShift); }},
    {"zero", "0", "the number 0, for checks such as 'gap == zero'",
     [](const Env&, Name) { return one(0.0); }},
    {"pairing", "\\text{pairing}", "interleaved or half (as words)",
     [](const Env&, Name name) -> Result<Vec> { return fail(name, "is a word, not a number"); }},
    // per block or coordinate
    {"theta.K", "\\theta_K", "frequency of block K: base^(-2K/d)",
     [](const Env& e, Name) { return one(e.theta()); }, QuantityKind::block},
    {"slowest_theta_formula", "b^{-(d-2)/d}", "the slowest frequency written out: base^(-(d-2)/d)",
     [](const Env& e, Name) { return one(std::pow(e.p.base, -(e.dim() - 2.0) / e.dim())); }},
    {"slowest_wavelength_formula", "2\\pi b^{(d-2)/d}",
     "the slowest wavelength written out: 2 pi base^((d-2)/d), positions",
     [](const Env& e, Name) {
       return one(kTwoPi * std::pow(e.p.base, (e.dim() - 2.0) / e.dim()));
     }},
    {"theta_step_min", "\\min_i \\theta_{i+1}/\\theta_i",
     "the least ratio theta_{i+1} / theta_i of neighbouring blocks (1 at d = 2: one block)",
     ladder_family},
    {"theta_step_max", "\\max_i \\theta_{i+1}/\\theta_i",
     "the largest ratio theta_{i+1} / theta_i (equal to the least: the ladder is geometric)",
     ladder_family},
    {"wavelength_step_min", "\\min_i \\lambda_{i+1}/\\lambda_i",
     "the least ratio lambda_{i+1} / lambda_i of neighbouring wavelengths (1 at d = 2)",
     ladder_family},
    {"wavelength_step_max", "\\max_i \\lambda_{i+1}/\\lambda_i",
     "the largest ratio lambda_{i+1} / lambda_i (equal to the least: the ladder is geometric)",
     ladder_family},
    {"context_length", "N",
     "the context length of the spectrum view (parameter context_length); a check against it "
     "is held at its step's state only",
     [](const Env& e, Name) { return one(static_cast<double>(e.p.context_length)); }},
    {"wavelength.K", "\\lambda_K", "wavelength of block K: 2 pi / theta_K positions",
     [](const Env& e, Name) { return one(wavelength(e.theta())); }, QuantityKind::block},
    {"angle_m.K", "m\\theta_K", "rotation angle of block K at the query position, radians",
     [](const Env& e, Name) { return one(e.m() * e.theta()); }, QuantityKind::block},
    {"angle_n.K", "n\\theta_K", "rotation angle of block K at the key position, radians",
     [](const Env& e, Name) { return one(e.n() * e.theta()); }, QuantityKind::block},
    {"angle_delta.K", "(n-m)\\theta_K", "angle between the rotations of block K, radians",
     [](const Env& e, Name) { return one((e.n() - e.m()) * e.theta()); }, QuantityKind::block},
    {"q.K", "q_K", "coordinate K of the query vector",
     [](const Env& e, Name) { return one(e.q[e.i]); }, QuantityKind::coordinate},
    {"k.K", "k_K", "coordinate K of the key vector",
     [](const Env& e, Name) { return one(e.k[e.i]); }, QuantityKind::coordinate},
    {"rq.K", "(\\boldsymbol{R}_m\\boldsymbol{q})_K", "coordinate K of the rotated query",
     [](const Env& e, Name) { return one(rotated(e.q, e.m(), e.thetas, e.p.pairing)[e.i]); },
     QuantityKind::coordinate},
    {"turn_q.K", "\\arg(\\boldsymbol{R}_m\\boldsymbol{q})_K - \\arg q_K",
     "the angle by which R_m turns block K of q, from the vectors (atan2), wrapped into (-pi, pi]",
     [](const Env& e, Name) { return one(turn(e, e.q)); }, QuantityKind::block},
    {"turn_k.K", "\\arg(\\boldsymbol{R}_m\\boldsymbol{k})_K - \\arg k_K",
     "the same for the key turned to the query position m, wrapped into (-pi, pi]",
     [](const Env& e, Name) { return one(turn(e, e.k)); }, QuantityKind::block},
    {"angle_m_wrapped.K", "\\mathrm{wrap}(m\\theta_K)",
     "the angle m theta_K wrapped into (-pi, pi], radians",
     [](const Env& e, Name) { return one(std::remainder(e.m() * e.theta(), kTwoPi)); },
     QuantityKind::block},
    // scores
    {"rope_score", "(\\boldsymbol{R}_m\\boldsymbol{q})^\\top(\\boldsymbol{R}_n\\boldsymbol{k})",
     "RoPE score: rotate q to m and k to n (efficient form), then dot", rope_score},
    {"relative_score", "\\boldsymbol{q}^\\top\\boldsymbol{R}_{n-m}\\boldsymbol{k}",
     "q dotted with k rotated by the relative position n - m only",
     [](const Env& e, Name) {
       return one(dot(e.q, rotated(e.k, e.n() - e.m(), e.rope_thetas, e.p.pairing)));
     }},
    {"content_score", "\\boldsymbol{q}^\\top\\boldsymbol{k}", "q.k without positions",
     [](const Env& e, Name) { return one(dot(e.q, e.k)); }},
    {"score_ratio", "s/(\\boldsymbol{q}^\\top\\boldsymbol{k})",
     "rope_score divided by content_score: what position does to this pair's score",
     [](const Env& e, Name) { return one(score_ratios(e).first); }},
    {"score_ratio_next", "s'/(\\boldsymbol{q}'^\\top\\boldsymbol{k}')",
     "the same for the next seed's random q', k' (what R brings) at the same m and n",
     [](const Env& e, Name) { return one(score_ratios(e).second); }},
    {"bias_residual", "|s - a\\,c|/|s|",
     "heatmap, random content: along the diagonal n - m, what the best single a leaves of RoPE's "
     "scores s ~ a (q.k)",
     bias_residual},
    {"score_ratio_gap", "|\\text{ratio} - \\text{ratio}'|",
     "|score_ratio - score_ratio_next|: zero if the score were content times a(n - m)",
     [](const Env& e, Name) {
       const auto [r0, r1] = score_ratios(e);
       return one(std::fabs(r0 - r1));
     }},
    {"complex_product",
     "\\sum_i (q_i e^{\\mathrm{i}m\\theta_i})(k_i e^{\\mathrm{i}n\\theta_i})^{*}",
     "the complex product f(q, m) f*(k, n) summed over the blocks, as (real, imaginary)",
     complex_product},
    {"complex_product_relative", "\\sum_i q_i k_i^{*} e^{\\mathrm{i}(m-n)\\theta_i}",
     "the same from m - n alone, as (real, imaginary)", complex_product_relative},
    {"radial_product",
     "\\|\\boldsymbol{R}_m\\boldsymbol{q}\\|\\,\\|\\boldsymbol{R}_m\\boldsymbol{k}\\|",
     "lengths of q and k both rotated to the query position m, multiplied",
     [](const Env& e, Name) {
       return one(norm(rotated(e.q, e.m(), e.thetas, e.p.pairing)) *
                  norm(rotated(e.k, e.m(), e.thetas, e.p.pairing)));
     }},
    {"norm_product", "\\|\\boldsymbol{q}\\|\\,\\|\\boldsymbol{k}\\|",
     "length of q times length of k",
     [](const Env& e, Name) { return one(norm(e.q) * norm(e.k)); }},
    {"product_length.K", "|f(q,m)\\,f^{*}(k,n)|",
     "block K: the length of the complex product (R_m q)_K (R_n k)_K*", polar_family,
     QuantityKind::block},
    {"length_product.K", "|f(q,m)|\\,|f(k,n)|",
     "block K: the length of (R_m q)_K times the length of (R_n k)_K", polar_family,
     QuantityKind::block},
    {"product_angle.K", "\\arg f(q,m)\\,f^{*}(k,n)",
     "block K: the angle of that product, rad in (-pi, pi]", polar_family, QuantityKind::block},
    {"angle_difference.K", "\\arg f(q,m) - \\arg f(k,n)",
     "block K: the angle of (R_m q)_K minus that of (R_n k)_K, wrapped into (-pi, pi]",
     polar_family, QuantityKind::block},
    {"sentence_m_a", "m_A", "position of query_word in sentence_a (first occurrence, from 0)",
     sentence_family},
    {"sentence_n_a", "n_A", "position of key_word in sentence_a", sentence_family},
    {"sentence_m_b", "m_B", "position of query_word in sentence_b", sentence_family},
    {"sentence_n_b", "n_B", "position of key_word in sentence_b", sentence_family},
    {"sentence_score_a",
     "(\\boldsymbol{R}_{m_A}\\boldsymbol{q})^\\top(\\boldsymbol{R}_{n_A}\\boldsymbol{k})",
     "the sentence view's score in sentence A: the words' vectors at the words' positions",
     sentence_family},
    {"sentence_score_b",
     "(\\boldsymbol{R}_{m_B}\\boldsymbol{q})^\\top(\\boldsymbol{R}_{n_B}\\boldsymbol{k})",
     "the same in sentence B", sentence_family},
    {"shifted_score",
     "(\\boldsymbol{R}_{m+2}\\boldsymbol{q})^\\top(\\boldsymbol{R}_{n+2}\\boldsymbol{k})",
     "the RoPE score after two tokens are put in front (both positions + 2)",
     [](const Env& e, Name) {
       return one(dot(rotated(e.q, e.m() + kSentenceShift, e.thetas, e.p.pairing),
                      rotated(e.k, e.n() + kSentenceShift, e.thetas, e.p.pairing)));
     }},
    // "dense:" says which side of 6-1's check forms the d x d matrices (review D15)
    {"dense_score",
     "\\text{dense: "
     "}(\\boldsymbol{R}^d_{\\Theta,m}\\boldsymbol{q})^\\top(\\boldsymbol{R}^d_{\\Theta,n}"
     "\\boldsymbol{k})",
     "the score with the dense d x d block-diagonal matrices (d <= 512)", dense},
    {"dense_relative_score",
     "\\boldsymbol{q}^\\top(\\boldsymbol{R}^{d\\top}_{\\Theta,m}\\boldsymbol{R}^d_{\\Theta,n})"
     "\\boldsymbol{k}",
     "q^T (R_m^T R_n) k with the dense matrix product formed (d <= 512)", dense},
    {"complex_score", "\\mathrm{Re}\\sum_i q_i^{*} k_i\\, e^{\\mathrm{i}(n-m)\\theta_i}",
     "the complex form: blocks as complex numbers, real part of the sum", decay_family},
    {"blockwise_score",
     "\\sum_i \\hat q_i^\\top\\hat k_i\\cos(n-m)\\theta_i + \\hat q_i^\\top J\\hat k_i\\sin(n-m)"
     "\\theta_i",
     "block-wise expansion with J = [[0,-1],[1,0]]", blockwise_score},
    {"interleaved_score", "s_{\\text{interleaved}}",
     "RoPE score with interleaved pairing of q and k",
     [](const Env& e, Name) { return one(pairing_score(e, Pairing::interleaved, false)); }},
    {"half_score", "s_{\\text{half}}", "RoPE score with half-split pairing of the same q and k",
     [](const Env& e, Name) { return one(pairing_score(e, Pairing::half_split, false)); }},
    {"half_permuted_score", "s_{\\text{half}}(P\\boldsymbol{q}, P\\boldsymbol{k})",
     "half-split score after permuting q and k (interleaved -> half layout)",
     [](const Env& e, Name) { return one(pairing_score(e, Pairing::half_split, true)); }},
    // the code view (rope/three_codes.h): the listings A (math), B (Meta), C (rotate_half)
    {"code_math_score", "s_A", "code view: q.k by the math listing (interleaved blocks)",
     code_family},
    {"code_meta_score", "s_B", "code view: q.k by Meta's complex listing", code_family},
    {"code_half_score", "s_C(P\\boldsymbol{q}, P\\boldsymbol{k})",
     "code view: q.k by the rotate_half listing, q and k permuted by P", code_family},
    {"code_half_score_without_p", "s_C(\\boldsymbol{q}, \\boldsymbol{k})",
     "code view: q.k by the rotate_half listing without P", code_family},
    {"code_shuffled_score", "s_A(P^\\top\\boldsymbol{q}, P^\\top\\boldsymbol{k})",
     "code view: the math listing's score of the shuffled vectors P^T q, P^T k", code_family},
    {"code_gap_with_p", "|s_C(Pq,Pk) - s_A|", "code view: |half score after P - math score|",
     code_family},
    {"code_gap_without_p", "|s_C(q,k) - s_A|", "code view: |half score without P - math score|",
     code_family},
    {"norm_q", "\\|\\boldsymbol{q}\\|", "length of q",
     [](const Env& e, Name) { return one(norm(e.q)); }},
    {"norm_k", "\\|\\boldsymbol{k}\\|", "length of k",
     [](const Env& e, Name) { return one(norm(e.k)); }},
    {"norm_rq", "\\|\\boldsymbol{R}_m\\boldsymbol{q}\\|", "length of the rotated query",
     [](const Env& e, Name) { return one(norm(rotated(e.q, e.m(), e.thetas, e.p.pairing))); }},
    {"norm_rk", "\\|\\boldsymbol{R}_n\\boldsymbol{k}\\|", "length of the rotated key",
     [](const Env& e, Name) { return one(norm(rotated(e.k, e.n(), e.thetas, e.p.pairing))); }},
    // vectors
    // R_m q as lesson 3 taught it, whatever computes it: lesson 4 checks it against the complex
    // form before lesson 6 introduces the element-wise notation (review D15)
    {"efficient_rq", "\\boldsymbol{R}_m\\boldsymbol{q}", "R_m q by the element-wise form (vector)",
     [](const Env& e, Name) -> Result<Vec> { return rotated(e.q, e.m(), e.thetas, e.p.pairing); }},
    {"dense_rq", "\\boldsymbol{R}^d_{\\Theta,m}\\boldsymbol{q}",
     "R_m q by the dense matrix (vector, d <= 512)", dense},
    {"code_math_rq", "A: R_m\\boldsymbol{q}", "code view: R_m q by the math listing (vector)",
     code_family},
    {"code_meta_rq", "B: R_m\\boldsymbol{q}", "code view: R_m q by Meta's complex listing (vector)",
     code_family},
    {"code_half_rq", "C: R_m P\\boldsymbol{q}",
     "code view: R_m (P q) by the rotate_half listing (vector)", code_family},
    {"code_permuted_math_rq", "P(R_m\\boldsymbol{q})",
     "code view: the math listing's R_m q reordered by P (vector)", code_family},
    {"complex_rq", "q_i e^{\\mathrm{i}m\\theta_i}",
     "R_m q by complex multiplication of each block (vector)",
     [](const Env& e, Name) -> Result<Vec> {
       return from_blocks(rotate_complex(to_blocks(e.q, e.p.pairing), e.m(), e.thetas),
                          e.p.pairing);
     }},
    {"rotate_half_rq",
     "\\boldsymbol{q}\\otimes\\cos + \\mathrm{rotate\\_half}(\\boldsymbol{q})\\otimes\\sin",
     "the rotate_half formula as written: q cat(cos, cos) + rotate_half(q) cat(sin, sin) (vector)",
     rotate_half_rq},
    {"rotate_half_score", "s_{\\text{rotate\\_half}}",
     "the rotate_half formula as written, q at m and k at n (core rotate_half_form), then dot",
     rotate_half_score},
    {"half_complex_rq", "(q_i + \\mathrm{i}q_{i+d/2})e^{\\mathrm{i}m\\theta_i}",
     "R_m q with blocks (q_i, q_i+d/2) as complex numbers, whatever pairing says (vector)",
     [](const Env& e, Name) -> Result<Vec> {
       return from_blocks(rotate_complex(to_blocks(e.q, Pairing::half_split), e.m(), e.thetas),
                          Pairing::half_split);
     }},
    {"pe_shifted", "PE_{m+k}", "sinusoidal encoding at position m + offset (vector)",
     [](const Env& e, Name) -> Result<Vec> {
       return sinusoidal_vector(e.m() + e.p.offset, e.thetas);
     }},
    {"rotated_pe", "M(k)\\,PE_m", "the offset matrix M(k) applied to PE_m (vector)",
     [](const Env& e, Name) -> Result<Vec> {
       return mat_vec(sinusoidal_offset_matrix(e.p.offset, e.thetas),
                      sinusoidal_vector(e.m(), e.thetas));
     }},
    {"pe_dot", "PE_m^\\top PE_{m+k}", "dot product of two sinusoidal encodings",
     [](const Env& e, Name) {
       return one(dot(sinusoidal_vector(e.m(), e.thetas),
                      sinusoidal_vector(e.m() + e.p.offset, e.thetas)));
     }},
    {"additive_row_min", "\\min_n (\\boldsymbol{q}+PE_m)^\\top(\\boldsymbol{k}+PE_n)",
     "the heatmap's row m with the same q, k at every position and the sinusoidal encoding added: "
     "its least score over the N keys",
     row_min_family},
    {"rope_row_min",
     "\\min_n (\\boldsymbol{R}_m\\boldsymbol{q})^\\top(\\boldsymbol{R}_n\\boldsymbol{k})",
     "the same row with RoPE instead: its least score over the N keys", row_min_family},
    {"pe_dot_formula", "\\sum_i\\cos k\\theta_i", "the same, from the offset alone",
     pe_dot_formula},
    {"offset_gap_added", "|s(m)-s(m+1)|",
     "x = (1, ..., 1) plus PE: |(x+PE_m).(x+PE_m+k) - (x+PE_m+1).(x+PE_m+1+k)|, k = offset",
     offset_gap_family},
    {"offset_gap_rotated", "|r(m)-r(m+1)|",
     "the same with x turned by RoPE instead: |(R_m x).(R_m+k x) - (R_m+1 x).(R_m+1+k x)|",
     offset_gap_family},
    {"learned_positions", "L", "the rows of the learned table (learned_positions; 0: none)",
     learned_family},
    {"learned_norm", "\\|P_m\\|",
     "length of the learned table's row at m (seeded stand-in values; 0: no row, m < 0 or m >= L)",
     learned_family},
    {"band_drop_fast", "1-\\max_{\\Delta\\neq 0} g_{\\text{fast}}(\\Delta)/g_{\\text{fast}}(0)",
     "heatmap: shared q, k with the fastest quarter of the pairs only, (g(0) - max g(D)) / |g(0)| "
     "over its distances D != 0, g(D) = q R_D k",
     band_family},
    {"band_drop_slow", "1-\\max_{\\Delta\\neq 0} g_{\\text{slow}}(\\Delta)/g_{\\text{slow}}(0)",
     "the same with the slowest quarter of the pairs only", band_family},
    // long-range decay
    {"abel_sum", "\\sum_i h_i e^{\\mathrm{i}(n-m)\\theta_i}",
     "the complex score sum, as (real, imaginary)", decay_family},
    {"abel_parts", "-\\sum_i S_{i+1}(h_{i+1}-h_i)",
     "the same sum after summation by parts, as (real, imaginary)", decay_family},
    {"abs_abel_sum", "\\left|\\sum_i h_i e^{\\mathrm{i}(n-m)\\theta_i}\\right|",
     "magnitude of the score sum", decay_family},
    {"abel_bound", "\\max_i|h_{i+1}-h_i|\\sum_j|S_j|", "the summation-by-parts bound",
     decay_family},
    {"decay", "D(|n-m|)", "relative decay bound (1/(d/2)) sum_j |S_j| at r = |n - m|",
     decay_family},
    {"decay0", "D(0)", "the same at r = 0: (d/2 + 1)/2", decay_family},
    {"compare_base", "b'", "the decay view's overlay base (compare_base; 0: none)",
     [](const Env& e, Name) { return one(e.p.compare_base); }},
    {"decay_gap", "\\max_r|D_b(r)-D_{b'}(r)|/D(0)",
     "largest difference of D(r) at base and at compare_base over r = 0 ... max_distance, over "
     "D(0)",
     decay_gap},
    {"decay_at.D.BASE.N", "D(N)",
     "the decay bound D at distance N for head dimension D and base BASE (N <= 100000)",
     fixed_family, QuantityKind::fixed},
    {"decay_min.D.BASE.FIRST.LAST", "\\min_{r} D(r)",
     "the least D(r) over the distances r = FIRST ... LAST (d = D, base BASE, LAST <= 100000)",
     fixed_family, QuantityKind::fixed},
    {"decay_max.D.BASE.FIRST.LAST", "\\max_{r} D(r)",
     "the largest D(r) over the distances r = FIRST ... LAST (d = D, base BASE, LAST <= 100000)",
     fixed_family, QuantityKind::fixed},
    // linear attention
    {"linear_rope_row", "\\mathrm{LinAttn}_m",
     "row m of linear attention with RoPE in the numerator (core, 16 seeded tokens, dv = d)",
     linear_family},
    {"linear_rope_direct",
     "\\frac{\\sum_n (R_m\\phi(q_m))^\\top R_n\\phi(k_n) v_n}"
     "{\\sum_n\\phi(q_m)^\\top\\phi(k_n)}",
     "the same row summed term by term", linear_family},
    {"sim_cosine_min", "\\min\\,1+\\cos(R_m q_m, R_n k_n)",
     "heatmap, random content (N <= 512): least 1 + cos of the rotated q_m, k_n over all m, n",
     similarity_family},
    {"sim_cosine_su_min", "\\min\\,1+\\frac{(R_m q_m)^\\top R_n k_n}{\\|q_m\\|\\|k_n\\|}",
     "the same divided by the unrotated lengths |q_m| |k_n|", similarity_family},
    {"sim_phi_rope_min", "\\min\\,(R_m\\phi(q_m))^\\top R_n\\phi(k_n)",
     "the same vectors through phi = elu + 1, rotated: least numerator weight over all m, n",
     similarity_family},
    {"linear_denominator", "\\sum_n\\phi(q_m)^\\top\\phi(k_n)",
     "the unrotated denominator of that row (positive)", linear_family},
    {"linear_plain_row",
     "\\frac{\\phi(q_m)^\\top\\sum_n\\phi(k_n)v_n^\\top}"
     "{\\phi(q_m)^\\top\\sum_n\\phi(k_n)}",
     "row m of linear attention without RoPE, from the two shared sums (core)", linear_family},
    {"linear_plain_direct",
     "\\frac{\\sum_n\\phi(q_m)^\\top\\phi(k_n)\\,v_n}{\\sum_n\\phi(q_m)^\\top\\phi(k_n)}",
     "the same row with every weight phi(q_m).phi(k_n) formed, term by term", linear_family},
    {"linear_summary_numerator", "\\big(R_m\\phi(q_m)\\big)^\\top\\sum_n R_n\\phi(k_n)v_n^\\top",
     "numerator of row m: the rotated query times the d x d summary core sums once", linear_family},
    {"linear_direct_numerator", "\\sum_n\\big(R_m\\phi(q_m)\\big)^\\top R_n\\phi(k_n)\\,v_n",
     "the same numerator summed term by term", linear_family},
    // permutation
    {"linear_stretched_summary", "\\big(M_m\\phi(q_m)\\big)^\\top S",
     "the numerator with R_m replaced by M_m = diag(1, ..., d) R_m, which stretches lengths, "
     "times the same summary S (vector)",
     linear_family},
    {"linear_stretched_direct", "\\sum_n\\big(M_m\\phi(q_m)\\big)^\\top R_n\\phi(k_n)\\,v_n",
     "the same summed term by term (vector)", linear_family},
    {"nopos_out", "o_m", "self-attention output at token m of sentence_a, no positions (vector)",
     attention_family},
    {"nopos_out_moved", "o'_{T-1-m}",
     "the same token's output after reversing the sentence, no positions (vector)",
     attention_family},
    {"rope_out", "o_m^{\\text{RoPE}}", "output at token m with RoPE (vector)", attention_family},
    {"rope_out_moved", "o'^{\\text{RoPE}}_{T-1-m}",
     "the same token's output after reversing, with RoPE (vector)", attention_family},
    {"nopos_move_change", "\\max|o_m - o'_{T-1-m}|", "how much reversing changed it, no positions",
     attention_family},
    {"rope_move_change", "\\max|o^{\\text{RoPE}}_m - o'^{\\text{RoPE}}_{T-1-m}|",
     "how much reversing changed it, with RoPE", attention_family},
    {"repeat_gap_nopos", "\\max|o_{\\text{1st}} - o_{\\text{2nd}}|",
     "difference of the outputs at the two occurrences of query_word, no positions",
     attention_family},
    {"repeat_gap_rope", "\\max|o^{\\text{RoPE}}_{\\text{1st}} - o^{\\text{RoPE}}_{\\text{2nd}}|",
     "the same with RoPE", attention_family},
    {"repeat_first_nopos", "o_{\\text{1st}}",
     "output at the first occurrence of query_word in sentence_a, no positions (vector)",
     attention_family},
    {"repeat_second_nopos", "o_{\\text{2nd}}",
     "output at its second occurrence, no positions (vector)", attention_family},
    {"tokens", "T", "number of words in sentence_a", attention_family},
    {"out_qk", "o_m",
     "output at token m of sentence_a, RoPE on queries and keys only (values as they are; vector)",
     values_family},
    {"out_qk_moved", "o_m^{(+2)}",
     "the same with every position moved by shift (2): numbered from 2 instead of 0 (vector)",
     values_family},
    {"out_qkv", "\\tilde o_m", "output at token m with the values rotated too (vector)",
     values_family},
    {"out_qkv_moved", "\\tilde o_m^{(+2)}", "the same with every position moved by 2 (vector)",
     values_family},
    {"out_qkv_move_change", "\\max|\\tilde o_m - \\tilde o_m^{(+2)}|",
     "how much moving every position by 2 changes the output when values are rotated too",
     values_family},
    // context extension (the scaling, factor and original_context parameters)
    {"factor", "s", "the scale factor s of the context extension (parameter factor)",
     [](const Env& e, Name) { return one(e.factor()); }},
    {"inv_factor", "1/s", "1/s: what Position Interpolation multiplies every theta by",
     [](const Env& e, Name) { return one(1.0 / e.factor()); }},
    {"original_context", "L", "the original (pre-training) context L (original_context)",
     [](const Env& e, Name) { return one(e.context()); }},
    {"two_pi", "2\\pi", "the number 2 pi: one full turn, radians",
     [](const Env&, Name) { return one(kTwoPi); }},
    {"theta_scaled.K", "\\theta'_K", "frequency of block K after the scaling, rad per position",
     [](const Env& e, Name name) -> Result<Vec> {
       if (auto no = scaling_refused(e, name)) return *no;
       return one(e.scaled.theta_scaled[e.i]);
     },
     QuantityKind::block},
    {"ratio.K", "\\theta'_K/\\theta_K", "what the scaling multiplies theta_K by",
     [](const Env& e, Name name) -> Result<Vec> {
       if (auto no = scaling_refused(e, name)) return *no;
       return one(e.scaled.theta_scaled[e.i] / e.theta());
     },
     QuantityKind::block},
    {"rotations.K", "r_K", "turns of block K within the original context: L / wavelength_K",
     [](const Env& e, Name) { return one(e.context() / wavelength(e.theta())); },
     QuantityKind::block},
    {"last_pair", "d/2-1", "the index of the slowest pair, d/2 - 1",
     [](const Env& e, Name) { return one(static_cast<double>(e.p.dim / 2 - 1)); }},
    {"first_slow_pair", "i_{r<1}",
     "the first pair that turns less than once within the original context L (d/2: none); as a "
     "block index: theta.first_slow, and theta.last_fast for the pair before it",
     [](const Env& e, Name) {
       return one(static_cast<double>(first_slow_index(e.thetas, e.context())));
     }},
    {"last_fast_pair", "i_{r<1}-1",
     "the pair before first_slow_pair: the last that turns at least once within L (-1: none)",
     [](const Env& e, Name) {
       return one(static_cast<double>(first_slow_index(e.thetas, e.context())) - 1.0);
     }},
    {"slow_pairs", "N_{r<1}", "how many pairs turn less than once within L",
     [](const Env& e, Name) {
       return one(static_cast<double>(e.thetas.size() - first_slow_index(e.thetas, e.context())));
     }},
    {"extended_context", "sL", "the extended context s L, positions",
     [](const Env& e, Name) { return one(e.factor() * e.context()); }},
    {"scaled_base", "b'",
     "the base the scaling uses: b s^(d/(d-2)) for ntk, its own b' for dynamic, else base",
     [](const Env& e, Name name) -> Result<Vec> {
       if (auto no = scaling_refused(e, name)) return *no;
       return one(e.scaled.base_used);
     }},
    {"last_kept_pair", "i_{\\text{kept}}",
     "the last pair of those from 0 on whose theta the scaling keeps (theta' = theta; -1: none)",
     [](const Env& e, Name name) -> Result<Vec> {
       if (auto no = scaling_refused(e, name)) return *no;
       const auto& t = e.scaled;
       std::size_t i = 0;
       while (i < t.theta.size() && std::fabs(t.theta_scaled[i] / t.theta[i] - 1.0) <= 1e-12)
         ++i;
       return one(static_cast<double>(i) - 1.0);
     }},
    {"first_divided_pair", "i_{/s}",
     "the first pair from which on the scaling divides every theta by s (d/2: none)",
     [](const Env& e, Name name) -> Result<Vec> {
       if (auto no = scaling_refused(e, name)) return *no;
       const auto& t = e.scaled;
       std::size_t i = t.theta.size();
       while (i > 0 &&
              std::fabs(t.theta_scaled[i - 1] * e.factor() / t.theta[i - 1] - 1.0) <= 1e-12)
         --i;
       return one(static_cast<double>(i));
     }},
    {"train_angle.K", "L\\theta_K", "the angle block K reaches at position L, rad",
     [](const Env& e, Name) { return one(e.context() * e.theta()); }, QuantityKind::block},
    {"extended_angle.K", "sL\\theta_K", "the angle block K reaches at position s L, unscaled",
     [](const Env& e, Name) { return one(e.factor() * e.context() * e.theta()); },
     QuantityKind::block},
    {"scaled_angle.K", "sL\\theta'_K", "the same with the scaled theta', rad",
     [](const Env& e, Name name) -> Result<Vec> {
       if (auto no = scaling_refused(e, name)) return *no;
       return one(e.factor() * e.context() * e.scaled.theta_scaled[e.i]);
     },
     QuantityKind::block},
    {"attention_factor", "a",
     "the factor on cos and sin of the scaling (1 for most methods); scores scale by a^2",
     [](const Env& e, Name name) -> Result<Vec> {
       if (auto no = scaling_refused(e, name)) return *no;
       return one(e.scaled.attention_factor);
     }},
    {"attention_factor_squared", "a^2",
     "the square of the attention factor: what every score is multiplied by",
     [](const Env& e, Name name) -> Result<Vec> {
       if (auto no = scaling_refused(e, name)) return *no;
       return one(e.scaled.attention_factor * e.scaled.attention_factor);
     }},
    {"yarn_temperature", "0.1\\ln s + 1", "YaRN's sqrt(1/t) = 0.1 ln s + 1 (1 for s <= 1)",
     [](const Env& e, Name) {
       return one(e.factor() <= 1.0 ? 1.0 : 0.1 * std::log(e.factor()) + 1.0);
     }},
    {"ramp_low", "i_{\\text{low}}",
     "YaRN: the last pair index that keeps theta, floor(c(beta_fast)); 0 for other methods",
     [](const Env& e, Name name) -> Result<Vec> {
       if (auto no = scaling_refused(e, name)) return *no;
       return one(e.scaled.ramp_low);
     }},
    {"ramp_high", "i_{\\text{high}}",
     "YaRN: the first pair index divided by s, ceil(c(beta_slow)); 0 for other methods",
     [](const Env& e, Name name) -> Result<Vec> {
       if (auto no = scaling_refused(e, name)) return *no;
       return one(e.scaled.ramp_high);
     }},
    {"high_wavelength", "L/h", "Llama 3.1: L / high_freq_factor, below it theta is kept, positions",
     [](const Env& e, Name) { return one(e.context() / e.p.extension.scaling.high_freq_factor); }},
    {"low_wavelength", "L/\\ell",
     "Llama 3.1: L / low_freq_factor, above it theta is divided by s, positions",
     [](const Env& e, Name) { return one(e.context() / e.p.extension.scaling.low_freq_factor); }},
    {"interp_bound", "\\tfrac{d}{32\\ln b}",
     "Position Interpolation's bound on the interpolated score between integers / max|h|",
     [](const Env& e, Name) { return one(e.dim() / (32.0 * std::log(e.p.base))); }},
    // B(s)/d is not at least 1 for every s (d = 128, b = 10 000: 0.59 at s = 70 508; below 1
    // first at s = 4861), so the bound is taken over the range the step shows, s < 2L
    {"b_over_d_min", "\\min_{s<2L} B(s)/d",
     "PI's B(s)/d at its least over s = 0 ... 2L - 1 (rope::b_over_d)",
     [](const Env& e, Name name) { return least_b_over_d(e, name, 1.0); }},
    {"extrap_bound", "2\\min_{s<2L} B(s)",
     "PI's extrapolation bound 2 B(s) / max|h| at its least over s = 0 ... 2L - 1",
     [](const Env& e, Name name) { return least_b_over_d(e, name, 2.0 * e.dim()); }},
    {"fit_inside", "\\max_{s<L}|a(s)|",
     "PI's Fig. 2: the least-squares fit of seeded N(0, 1) targets at s = 0 ... L-1 (the "
     "extension view's), its largest |a(s)| on [0, L)",
     fit_family},
    {"fit_beyond", "\\max_{L\\le s<2L}|a(s)|", "the same fit's largest |a(s)| on [L, 2L)",
     fit_family},
    {"fit_between", "\\max_{25\\le s<75}|a(s)|",
     "the same fit's largest |a(s)| between the integers of the view's third panel, steps of 1/8",
     fit_family},
    {"fit_growth", "\\frac{\\max_{L\\le s<2L}|a|}{\\max_{s<L}|a|}",
     "fit_beyond / fit_inside: how many times larger the fit gets past L", fit_family},
    {"fit_between_growth", "\\frac{\\max_{25\\le s<75}|a|}{\\max_{s<L}|a|}",
     "fit_between / fit_inside: how many times larger the fit gets between the integers",
     fit_family},
    {"scaled_score",
     "a^2(\\boldsymbol{R}'_m\\boldsymbol{q})^\\top(\\boldsymbol{R}'_n\\boldsymbol{k})",
     "RoPE score with theta' and the attention factor: rotate q to m and k to n, dot, times a^2",
     scaled_score},
    {"scaled_relative_score", "a^2\\,\\boldsymbol{q}^\\top\\boldsymbol{R}'_{n-m}\\boldsymbol{k}",
     "the same from the relative position n - m only", scaled_relative_score},
    // low precision at the current state (the formats of the precision view)
    {"lp_position", "\\tilde m", "the query position m as the position format stores it",
     low_precision_family},
    {"lp_key_position", "\\tilde n", "the key position n as the position format stores it",
     low_precision_family},
    {"lp_position_error", "\\tilde m - m",
     "the stored query position minus m, positions (before any angle is rounded)",
     low_precision_family},
    {"lp_position_turn.K", "(\\tilde m - m)\\theta_K",
     "what the position's rounding alone adds to the angle of block K, rad (not wrapped)",
     [](const Env& e, Name) {
       return one((round_to(e.p.precision.formats.position, e.m()) - e.m()) * e.theta());
     },
     QuantityKind::block},
    {"lp_theta.K", "\\tilde\\theta_K", "theta_K as the theta format stores it",
     [](const Env& e, Name name) -> Result<Vec> {
       auto a = stored_angle(e, name);
       if (!a) return a.error();
       return one(a.value().theta);
     },
     QuantityKind::block},
    {"lp_angle.K", "\\tilde\\phi_K",
     "the angle of block K at m as stored: position and theta rounded, product rounded, rad",
     [](const Env& e, Name name) -> Result<Vec> {
       auto a = stored_angle(e, name);
       if (!a) return a.error();
       return one(a.value().angle);
     },
     QuantityKind::block},
    {"lp_error.K", "\\tilde\\phi_K - m\\theta_K",
     "the stored angle minus the exact one, wrapped into (-pi, pi], rad",
     [](const Env& e, Name name) -> Result<Vec> {
       auto a = stored_angle(e, name);
       if (!a) return a.error();
       return one(a.value().wrapped_error);
     },
     QuantityKind::block},
    {"lp_max_error", "\\max_i|\\tilde\\phi_i - m\\theta_i|",
     "the largest |wrapped error| over the blocks at m, rad", low_precision_family},
    {"lp_fast_error", "\\max_{i<h/2}|\\tilde\\phi_i - m\\theta_i|",
     "the largest |wrapped error| over the faster half of the blocks, i < d/4 (rounded up), rad",
     low_precision_family},
    {"lp_slow_error", "\\max_{i\\ge h/2}|\\tilde\\phi_i - m\\theta_i|",
     "the largest |wrapped error| over the slower half of the blocks, rad", low_precision_family},
    {"lp_slowest_error", "|\\tilde\\phi_{d/2-1} - m\\theta_{d/2-1}|",
     "the |wrapped error| of the slowest block, rad", low_precision_family},
    {"lp_score",
     "(\\tilde{\\boldsymbol{R}}_m\\boldsymbol{q})^\\top(\\tilde{\\boldsymbol{R}}_n\\boldsymbol{k})",
     "the RoPE score with the stored cos and sin at m and n (products in double)",
     low_precision_family},
    // fixed arguments: the same value whatever the sliders say
    {"number.VALUE", "\\text{value}",
     "the number VALUE as written (digits, one decimal point), e.g. number.1045, number.0.78; "
     "a check against it states a fact about its step's state, which the tests hold there only",
     fixed_family, QuantityKind::fixed},
    {"stored.FORMAT.N", "\\mathrm{fl}(N)",
     "the integer N as FORMAT (fp64, fp32, bf16 or fp16) stores it", fixed_family,
     QuantityKind::fixed},
    {"distinct.FORMAT.FIRST.LAST", "N_{\\text{distinct}}",
     "how many different values the integers FIRST ... LAST become in FORMAT (at most 100000)",
     fixed_family, QuantityKind::fixed},
    {"case_angle.PRESET.D.BASE.M.K", "\\mathrm{fl}(\\tilde m\\,\\tilde\\theta_K)",
     "the stored angle of block K at position M, head dimension D, base BASE, with the four "
     "formats of PRESET (fp32, bf16, fp16, theta-bf16, fix, exact), rad",
     fixed_family, QuantityKind::fixed},
    {"case_error.PRESET.D.BASE.M.K", "\\tilde\\phi_K - m\\theta_K",
     "that angle minus the exact one, wrapped into (-pi, pi], rad", fixed_family,
     QuantityKind::fixed},
    {"case_max_error.PRESET.D.BASE.M", "\\max_i|\\tilde\\phi_i - m\\theta_i|",
     "the largest |wrapped error| over the blocks at position M, rad", fixed_family,
     QuantityKind::fixed},
    {"case_max_cos_error.PRESET.D.BASE.LAST", "\\max_{m,i}|\\widetilde{\\cos} - \\cos|",
     "the largest |stored cos - exact cos| over positions 0 ... LAST and every block", fixed_family,
     QuantityKind::fixed},
    // partial rotary and DeepSeek's decoupled RoPE (lessons/model_quantities.h)
    {"rotary_fraction", "p", "the rotary fraction p", model_family},
    {"pairs_neox", "k_{\\text{neox}}", "pairs that rotate under neox: int(d p)/2 (0: none)",
     model_family},
    {"pairs_proportional", "k_{\\text{prop}}", "pairs that rotate under proportional",
     model_family},
    {"slowest_neox", "\\lambda_{\\text{neox}}",
     "slowest kept wavelength under neox, positions (0: nothing rotates)", model_family},
    {"slowest_proportional", "\\lambda_{\\text{prop}}",
     "slowest kept wavelength under proportional, positions (0: nothing rotates)", model_family},
    {"slowest_neox_formula", "2\\pi b^{(R-2)/R}", "the same written out, R = int(d p)",
     model_family},
    {"slowest_proportional_formula", "2\\pi b^{2(k-1)/d}",
     "the same written out, k = int(d p) div 2", model_family},
    {"turning_pairs", "k_{\\text{turning}}",
     "pairs whose angle at position 1 is not 0 under the theta' the views draw (rotary_style as "
     "set), counted",
     model_family},
    {"slowest_turning", "\\lambda_{\\text{slowest turning}}",
     "2 pi / theta' of the slowest of those pairs, positions (0: none turns)", model_family},
    // R, not R': lesson 13 writes R for the rotation with the model's own θ, as the mla_ labels
    // do (review D14)
    {"effective_score",
     "(\\boldsymbol{R}_m\\boldsymbol{q})^\\top(\\boldsymbol{R}_n\\boldsymbol{k})",
     "the RoPE score with theta' (partial rotary and scaling applied)", model_family},
    {"effective_relative", "\\boldsymbol{q}^\\top\\boldsymbol{R}_{n-m}\\boldsymbol{k}",
     "q dotted with k rotated by n - m, with theta'", model_family},
    {"mm_pairs_t", "n_t", "multimodal: pairs that turn with t under mm_layout", model_family},
    {"mm_pairs_h", "n_h", "multimodal: pairs that turn with h under mm_layout", model_family},
    {"mm_pairs_w", "n_w", "multimodal: pairs that turn with w under mm_layout", model_family},
    {"mm_fastest_t", "\\lambda_{t,\\min}",
     "multimodal: wavelength of the fastest pair that turns with t (0: none), positions",
     model_family},
    {"mm_fastest_h", "\\lambda_{h,\\min}",
     "multimodal: wavelength of the fastest pair that turns with h (0: none), positions",
     model_family},
    {"mm_fastest_w", "\\lambda_{w,\\min}",
     "multimodal: wavelength of the fastest pair that turns with w (0: none), positions",
     model_family},
    {"mm_t.K", "t_K", "multimodal: the t id of token K of mm_sequence", model_family},
    {"mm_h.K", "h_K", "multimodal: the h id of token K", model_family},
    {"mm_w.K", "w_K", "multimodal: the w id of token K", model_family},
    {"mm_next_id.K", "\\text{next id}_K",
     "multimodal: 1 + the largest id of the tokens before K (where text after an image goes on)",
     model_family},
    {"mm_pair_score.K.K", "s",
     "multimodal: the query at the first token K against the key at the second, (R(p) q).(R(p') k) "
     "under mm_layout",
     model_family},
    {"visible_keys", "N_m",
     "keys the query at m sees under the causal mask and a layer's window and chunks",
     model_family},
    {"uniform_weight", "1/N_m", "one over visible_keys (0 when key n is masked)", model_family},
    {"row_weight", "w_{mn}",
     "the softmax weight of key n in row m: a^2 (R_m q).(R_j k)/sqrt(d) over the visible keys j",
     model_family},
    {"row_entropy", "H_m",
     "the entropy -sum w ln w of that softmax row m (the keys row_weight sums over), nats",
     model_family},
    {"row_entropy_plain", "H_m|_{a=1}", "the same row's entropy with a^2 left out (a = 1)",
     model_family},
    {"row_entropy_drop", "H_m|_{a=1} - H_m",
     "row_entropy_plain - row_entropy: how much a^2 sharpens row m, nats", model_family},
    {"mla_nope_score", "\\boldsymbol{q}_C^\\top\\boldsymbol{k}_C",
     "decoupled RoPE: the 128 dimensions without RoPE (seeded q_C, k_C)", model_family},
    {"mla_rope_score",
     "(\\boldsymbol{R}_m\\boldsymbol{q}_R)^\\top(\\boldsymbol{R}_n\\boldsymbol{k}_R)",
     "decoupled RoPE: the RoPE part (q, k, theta'), its key shared by every head", model_family},
    {"mla_rope_relative", "\\boldsymbol{q}_R^\\top\\boldsymbol{R}_{n-m}\\boldsymbol{k}_R",
     "decoupled RoPE: the RoPE part from n - m alone", model_family},
    {"mla_scale", "\\frac{\\text{mscale}^2}{\\sqrt{128+d}}",
     "decoupled RoPE: the softmax scale (128 + d)^(-1/2) mscale^2", model_family},
    {"mla_scale_formula", "(128+d)^{-1/2}(0.1\\ln s+1)^2", "the same written out", model_family},
    {"mla_plain_scale", "\\tfrac{1}{\\sqrt{128+d}}",
     "decoupled RoPE: the softmax scale without YaRN's mscale, (128 + d)^(-1/2)", model_family},
    {"mla_scale_gain", "\\text{mscale}^2",
     "decoupled RoPE: mla_scale / mla_plain_scale, how many times YaRN raises the scale",
     model_family},
    {"mla_score", "\\text{scale}\\,(\\text{nope}+\\text{rope})",
     "decoupled RoPE: the score as the sum of the two parts, scaled", model_family},
    {"mla_score_moved", "\\text{score}\\big|_{m+1000,\\,n+1000}",
     "decoupled RoPE: the score with both positions moved by 1000 (q_C, k_C unmoved: no RoPE)",
     model_family},
    {"mla_concat_score",
     "\\text{scale}\\,[\\boldsymbol{q}_C;\\boldsymbol{R}_m\\boldsymbol{q}_R]^\\top[\\boldsymbol{k}_"
     "C;\\boldsymbol{R}_n\\boldsymbol{k}_R]",
     "decoupled RoPE: one dot product of the concatenated vectors, scaled", model_family},
    // axial 2D RoPE for images (rope/axial.h): patches (row, column) of the axial view
    {"axial_grid", "N", "axial: patches per side of the grid (grid_size)", axial_family},
    {"axial_quarter", "d/4", "axial: blocks per axis, d/4", axial_family},
    {"axial_r1", "r_1", "axial: row of the query patch", axial_family},
    {"axial_c1", "c_1", "axial: column of the query patch", axial_family},
    {"axial_r2", "r_2", "axial: row of the key patch", axial_family},
    {"axial_c2", "c_2", "axial: column of the key patch", axial_family},
    {"axial_dr", "r_2-r_1", "axial: row offset of the key from the query", axial_family},
    {"axial_dc", "c_2-c_1", "axial: column offset of the key from the query", axial_family},
    {"axial_shift_r", "\\Delta r", "axial: rows both patches move by (shift_row)", axial_family},
    {"axial_shift_c", "\\Delta c", "axial: columns both patches move by (shift_column)",
     axial_family},
    {"axial_theta_last", "\\theta_{d/4-1}", "axial: the slowest frequency base^(-(d-4)/d)",
     axial_family},
    {"axial_score",
     "(\\boldsymbol{R}_{r_1,c_1}\\boldsymbol{q})^\\top(\\boldsymbol{R}_{r_2,c_2}\\boldsymbol{k})",
     "axial: score of q at the query patch and k at the key patch (d a multiple of 4)",
     axial_family},
    {"axial_shifted_score",
     "(\\boldsymbol{R}_{r_1+\\Delta r,c_1+\\Delta c}\\boldsymbol{q})^\\top(\\boldsymbol{R}_{r_2+"
     "\\Delta r,c_2+\\Delta c}\\boldsymbol{k})",
     "axial: the same with both patches moved by (shift_row, shift_column)", axial_family},
    {"axial_relative_score",
     "\\boldsymbol{q}^\\top\\boldsymbol{R}_{r_2-r_1,c_2-c_1}\\boldsymbol{k}",
     "axial: q dotted with k rotated by the offset (r2 - r1, c2 - c1) only", axial_family},
    {"axial_dense_score",
     "\\boldsymbol{q}^\\top\\boldsymbol{R}^\\top_{r_1,c_1}\\boldsymbol{R}_{r_2,c_2}\\boldsymbol{k}",
     "axial: the score with the dense d x d block-diagonal matrices formed (d <= 512)",
     axial_family},
    {"axial_self_score",
     "(\\boldsymbol{R}_{r_1,c_1}\\boldsymbol{q})^\\top(\\boldsymbol{R}_{r_1,c_1}\\boldsymbol{k})",
     "axial: score with the key on the query's own patch", axial_family},
    {"axial_corners", "s_{r_2,c_2}+s_{r_1,c_1}",
     "axial: score at the key patch plus score at the query's own patch", axial_family},
    {"axial_cross_corners", "s_{r_2,c_1}+s_{r_1,c_2}",
     "axial: scores at the two other corners of their rectangle, (r2, c1) and (r1, c2)",
     axial_family},
};

}  // namespace

std::span<const QuantityInfo> quantity_table() {
  return kTable;
}

// [SECTION] lookup: names, labels, kinds

const QuantityInfo* find_quantity(std::string_view name) {
  const auto [stem, index] = split_index(name);
  for (const QuantityInfo& q : kTable) {
    const auto [qs, qi] = split_index(q.name);
    if (qs != stem) continue;
    if (qi.empty() != index.empty()) continue;
    if (qi.empty()) return &q;
    if (qi == "VALUE") {
      if (valid_decimal(index)) return &q;
      continue;
    }
    const auto want = split_arguments(qi), got = split_arguments(index);
    if (want.size() != got.size()) continue;
    bool ok = true;
    for (std::size_t j = 0; j < want.size(); ++j)
      ok = ok && valid_argument(want[j], got[j]);
    if (ok) return &q;
  }
  return nullptr;
}

std::string quantity_label(std::string_view name) {
  const QuantityInfo* q = find_quantity(name);
  if (q == nullptr) return {};
  const auto [stem, rest] = split_index(name);
  if (stem == "decay_at" || stem == "decay_min" || stem == "decay_max") {
    const auto a = split_arguments(rest);
    if (stem == "decay_at") return "D(" + std::string(a[2]) + ")";
    return std::string(stem == "decay_min" ? "\\min" : "\\max") + "_{" + std::string(a[2]) +
           "\\le r\\le " + std::string(a[3]) + "} D(r)";
  }
  // The arguments written in, so that two checks of one quantity at different arguments say
  // which is which: theta.28 -> \theta_{28}, stored.bf16.257 -> fl_bf16(257),
  // distinct.bf16.256.511 -> the count over [256, 511].
  const auto a = split_arguments(rest);
  std::string label = q->label;
  if (stem == "stored" && a.size() == 2)
    return "\\mathrm{fl}_{\\text{" + std::string(a[0]) + "}}(" + std::string(a[1]) + ")";
  if (stem == "distinct" && a.size() == 3)
    return "N_{\\text{distinct}}[" + std::string(a[1]) + ", " + std::string(a[2]) + "]";
  // a case_* quantity names its formats: fix and fp32 side by side must not read the same; one
  // at a position M names it as the m the step's prose writes (m = 15 962), since it does not
  // follow the slider
  if (stem.starts_with("case_") && !a.empty()) {
    std::string at;
    if (stem != "case_max_cos_error" && a.size() >= 4 && all_digits(a[3], 16))
      at = ",\\ m = " + app::format_number(std::stod(std::string(a[3])), app::NumberStyle::tex);
    label += "\\;[\\text{" + std::string(a[0]) + "}" + at + "]";
  }
  const std::string_view table_name = q->name;
  // "last" is the slowest block, d/2 - 1 at the state the check runs in; first_slow and
  // last_fast are named as first_slow_pair is, i_{r<1}, and the pair before it
  if (table_name.ends_with(".K") && !a.empty() &&
      (all_digits(a.back(), 9) || a.back() == "last" || symbolic_index(a.back()))) {
    const std::string index = "_{" +
                              (a.back() == "last"       ? std::string("d/2-1")
                               : a.back() == kFirstSlow ? std::string("i_{r<1}")
                               : a.back() == kLastFast  ? std::string("i_{r<1}-1")
                                                        : std::string(a.back())) +
                              "}";
    for (std::size_t at = label.find("_K"); at != std::string::npos;
         at = label.find("_K", at + index.size()))
      label.replace(at, 2, index);
  }
  return label;
}

bool fixed_quantity(std::string_view name) {
  const QuantityInfo* q = find_quantity(name);
  return q != nullptr && q->kind == QuantityKind::fixed;
}

LinearExample linear_example(int dim, std::uint64_t seed) {
  LinearExample ex;
  ex.n = kLinearTokens;
  ex.d = dim;
  ex.q = random_vectors(ex.n, ex.d, seed + 10);
  ex.k = random_vectors(ex.n, ex.d, seed + 11);
  ex.v = random_vectors(ex.n, ex.d, seed + 12);
  return ex;
}

// [SECTION] QuantityContext

QuantityContext::QuantityContext(const app::Params& params, std::shared_ptr<FixedValues> fixed)
    : p_(params), memo_(fixed ? std::move(fixed) : std::make_shared<FixedValues>()) {
  auto th = frequencies(p_.dim, p_.base);
  if (!th) {
    error_ = th.error().to_string();
    return;
  }
  thetas_ = std::move(th).value();
  q_ = app::effective_vector(p_.query, p_, false);
  k_ = app::effective_vector(p_.key, p_, true);
  auto f = app::drawn_frequencies(p_);  // d and base are valid here
  if (!f) return;
  rope_thetas_ = f.value().theta;
  if (f.value().error) {
    scaling_error_ = f.value().error->to_string();
    return;
  }
  scaled_ = std::move(f.value().method);
  scaled_.theta = std::move(f.value().theta);
  scaled_.theta_scaled = std::move(f.value().theta_drawn);
}

Result<Vec> QuantityContext::evaluate(std::string_view name) const {
  const QuantityInfo* row = find_quantity(name);
  if (row == nullptr) return fail(name, "is not a lesson quantity");
  QuantityEnv e{p_, thetas_, rope_thetas_, q_, k_, scaled_, scaling_error_, *memo_};
  if (row->kind == QuantityKind::fixed) {  // the same in every state: computed once per context
    if (const auto it = memo_->find(name); it != memo_->end()) return it->second;
    auto v = row->fn(e, name);
    if (v) memo_->emplace(std::string(name), v.value());
    return v;
  }
  if (!error_.empty()) return fail(name, "cannot be computed: " + error_);
  if (row->kind == QuantityKind::block || row->kind == QuantityKind::coordinate) {
    const std::size_t count = row->kind == QuantityKind::coordinate ? e.d() : thetas_.size();
    const std::string_view index = split_index(name).second;
    e.i = count - 1;  // last
    if (symbolic_index(index)) {
      if (row->kind != QuantityKind::block)
        return fail(name, std::string(index) + " is a pair index; " +
                              std::string(split_index(name).first) + " takes a coordinate");
      const std::size_t first = first_slow_index(thetas_, e.context());
      if (index == kFirstSlow && first == count)
        return fail(name, "every pair turns at least once within L = " +
                              std::to_string(p_.extension.scaling.original_context) +
                              ": there is no first slow pair");
      if (index == kLastFast && first == 0)
        return fail(name, "no pair turns once within L = " +
                              std::to_string(p_.extension.scaling.original_context) +
                              ": there is no last fast pair");
      e.i = index == kFirstSlow ? first : first - 1;
    } else if (index != "last") {
      unsigned long v = 0;
      const auto [ptr, ec] = std::from_chars(index.data(), index.data() + index.size(), v);
      if (ec != std::errc() || ptr != index.data() + index.size() || v >= count)
        return fail(name, "index " + std::string(index) + " is outside 0 ... " +
                              std::to_string(count - 1) + " for d = " + std::to_string(e.d()));
      e.i = v;
    }
  }
  return row->fn(e, name);
}

std::string QuantityContext::tex_value(std::string_view name, app::Digits digits) const {
  if (name == "pairing")
    return p_.pairing == Pairing::interleaved ? "\\text{interleaved}" : "\\text{half-split}";
  auto v = evaluate(name);
  if (!v) return "\\text{(" + std::string(name) + "?)}";
  const Vec& x = v.value();
  if (x.size() == 1) return app::format_number(x[0], app::NumberStyle::tex, digits);
  constexpr std::size_t kShown = 4;
  std::string s = "(";
  for (std::size_t j = 0; j < x.size() && j < kShown; ++j) {
    if (j) s += ",\\ ";
    app::append_number(s, x[j], app::NumberStyle::tex, digits);
  }
  if (x.size() > kShown) s += ",\\ \\ldots";
  return s + ")";
}

// [SECTION] checks

CheckOutcome run_check(const QuantityContext& ctx, std::string_view left, std::string_view right,
                       Relation relation) {
  CheckOutcome c;
  auto a = ctx.evaluate(left);
  auto b = ctx.evaluate(right);
  if (!a || !b) {
    c.error = (!a ? a.error() : b.error()).to_string();
    return c;
  }
  c.left = std::move(a).value();
  c.right = std::move(b).value();
  if (c.left.size() != c.right.size()) {
    c.error = std::string(left) + " has " + std::to_string(c.left.size()) + " values but " +
              std::string(right) + " has " + std::to_string(c.right.size());
    return c;
  }
  c.computed = true;
  double scale = 1.0;
  for (double x : c.left)
    scale = std::max(scale, std::fabs(x));
  for (double x : c.right)
    scale = std::max(scale, std::fabs(x));
  const app::Params& p = ctx.params();
  // the positions' share of the tolerance is for angles m theta of the state; quantities with
  // their arguments in the name do not move with m
  const double pos = fixed_quantity(left) && fixed_quantity(right)
                         ? 1.0
                         : std::max({1.0, std::fabs(p.position), std::fabs(p.key_position),
                                     std::fabs(p.position + p.offset)});
  c.tolerance = 1e-9 * scale * pos;
  c.passed = true;
  for (std::size_t j = 0; j < c.left.size(); ++j) {
    const double x = c.left[j], y = c.right[j];
    const bool ok =
        relation == Relation::equal ? std::fabs(x - y) <= c.tolerance : x <= y + c.tolerance;
    c.passed = c.passed && ok && std::isfinite(x) && std::isfinite(y);
  }
  return c;
}

}  // namespace rope::lessons
