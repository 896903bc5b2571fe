#include "lessons/model_quantities.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "rope/attention.h"
#include "rope/frequencies.h"
#include "rope/mrope.h"
#include "rope/partial_rotary.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "rope/scaling.h"
#include "rope/vectors.h"
#include "state/multimodal_params.h"
#include "state/scaling_params.h"

namespace rope::lessons {
namespace {

using Vec = std::vector<double>;

Result<Vec> one(double v) {
  return Vec{v};
}

Vec rotated(const Vec& x, double position, const Vec& thetas, Pairing pairing) {
  Vec out(x.size());
  apply_rope<double>(x, out, position, thetas, pairing);
  return out;
}

// 2π/θ of the last rotating pair under `style`, 0 when p leaves that meaning nothing to rotate.
double slowest(const app::Params& p, RotaryStyle style) {
  auto th = partial_frequencies(p.dim, p.base, p.extension.scaling.rotary_fraction, style);
  if (!th) return 0.0;
  const int pairs = rotated_pairs(p.dim, p.extension.scaling.rotary_fraction, style);
  return wavelength(th.value()[static_cast<std::size_t>(pairs - 1)]);
}

double mla_scale(const app::Params& p) {
  const ScalingParams& sp = p.extension.scaling;
  const double m = sp.method == ScalingMethod::yarn && sp.mscale_all_dim > 0.0
                       ? yarn_mscale(sp.factor, sp.mscale_all_dim)
                       : 1.0;
  return m * m / std::sqrt(static_cast<double>(kMlaNopeDims + p.dim));
}

// The keys the query at m sees under the state's masks (causal, a layer's window and chunks),
// positions 0 ... max(m, n), one per position: rope::visible_keys, the heatmap's own rule.
VisibleKeys keys_of(const app::Params& p, std::int64_t m, std::int64_t n) {
  ScoreTransform t;
  t.causal = p.causal;
  t.window = p.attention_window;
  t.chunk = p.attention_chunk;
  return visible_keys(m, std::max(m, n) + 1, t);
}

constexpr std::int64_t kMaxRowKeys = 1 << 16;  // a row_weight row is summed key by key

// The multimodal view's numbers (rope/mrope.h, state/multimodal_params.h) at the state:
//   mm_pairs_t / _h / _w       pairs that turn with that axis under mm_layout
//   mm_fastest_t / _h / _w     the wavelength 2π/θ of that axis's fastest pair (0: it has none)
//   mm_t.N, mm_h.N, mm_w.N     the ids of token N of mm_sequence
//   mm_next_id.N               1 + the largest id of the tokens before N: where text after a
//                              vision block goes on (get_rope_index)
//   mm_pair_score.A.B          (R(p_A) q)·(R(p_B) k) under mm_layout and its section
std::optional<Result<Vec>> multimodal_quantity(const app::Params& p, const Vec& q, const Vec& k,
                                               std::string_view name) {
  const auto fail = [&](const std::string& why) {
    return Result<Vec>(Error{std::string(name), why});
  };
  auto section = app::mm_section(p, p.mm_layout);
  if (!section) return fail(section.error().to_string());
  auto axes = mrope_pair_axes(p.dim, section.value(), p.mm_layout);
  if (!axes) return fail(axes.error().to_string());
  for (const auto& [suffix, axis] :
       {std::pair{'t', MropeAxis::t}, {'h', MropeAxis::h}, {'w', MropeAxis::w}}) {
    if (name == std::string("mm_pairs_") + suffix)
      return one(static_cast<double>(std::count(axes.value().begin(), axes.value().end(), axis)));
    if (name == std::string("mm_fastest_") + suffix) {
      for (std::size_t j = 0; j < axes.value().size(); ++j)
        if (axes.value()[j] == axis)
          return one(wavelength(theta(static_cast<int>(j), p.dim, p.base)));
      return one(0.0);
    }
  }
  auto tokens = app::mm_tokens(p);
  if (!tokens) return fail(tokens.error().to_string());
  const std::vector<MropeToken>& t = tokens.value();
  // the token indices written in the name, after its stem
  std::vector<std::size_t> index;
  for (std::string_view rest = name.substr(name.find('.') + 1);;) {
    const std::size_t dot = rest.find('.');
    const std::string_view part = rest.substr(0, dot);
    std::size_t v = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (ec != std::errc() || ptr != part.data() + part.size() || v >= t.size())
      return fail("token " + std::string(part) + " is outside 0 ... " +
                  std::to_string(t.size() - 1) + " of mm_sequence");
    index.push_back(v);
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  const MropePosition& a = t[index[0]].position;
  if (name.starts_with("mm_t.")) return one(a.t);
  if (name.starts_with("mm_h.")) return one(a.h);
  if (name.starts_with("mm_w.")) return one(a.w);
  if (name.starts_with("mm_next_id.")) {
    double top = -1.0;
    for (std::size_t j = 0; j < index[0]; ++j)
      top = std::max({top, t[j].position.t, t[j].position.h, t[j].position.w});
    return one(top + 1.0);
  }
  if (name.starts_with("mm_pair_score.") && index.size() == 2) {
    auto s =
        mrope_score(q, k, a, t[index[1]].position, p.base, section.value(), p.mm_layout, p.pairing);
    if (!s) return fail(s.error().to_string());
    return one(s.value());
  }
  return std::nullopt;
}

}  // namespace

std::optional<Result<Vec>> model_quantity(const app::Params& p, const Vec& q, const Vec& k,
                                          std::string_view name) {
  const double frac = p.extension.scaling.rotary_fraction;
  // Python's int() of the same double product, as GPT-NeoX and transformers
  const int product_dims = static_cast<int>(static_cast<double>(p.dim) * frac);
  if (name == "rotary_fraction") return one(frac);
  if (name == "pairs_neox") return one(rotated_pairs(p.dim, frac, RotaryStyle::neox));
  if (name == "pairs_proportional")
    return one(rotated_pairs(p.dim, frac, RotaryStyle::proportional));
  if (name == "slowest_neox") return one(slowest(p, RotaryStyle::neox));
  if (name == "slowest_proportional") return one(slowest(p, RotaryStyle::proportional));
  if (name == "slowest_neox_formula") {
    const int r = product_dims;
    if (r < 2 || r % 2 != 0 || frac > 1.0) return one(0.0);
    return one(2.0 * kPi * std::pow(p.base, static_cast<double>(r - 2) / r));
  }
  if (name == "slowest_proportional_formula") {
    const int pairs = product_dims / 2;
    if (pairs < 1 || frac > 1.0) return one(0.0);
    return one(2.0 * kPi * std::pow(p.base, 2.0 * (pairs - 1) / p.dim));
  }
  if (name == "turning_pairs" || name == "slowest_turning") {
    // counted from the angles the views draw (θ′ of drawn_frequencies, rotary_style as the
    // state says): a pair turns when its angle at position 1 is not 0. A p that leaves no whole
    // pair (neox with int(d p) odd) is an error the panel reports while every pair keeps
    // turning; it counts 0 here, as pairs_neox does, so that a slide's count never stands
    // beside a drawing that only shows the error
    auto sf = app::drawn_frequencies(p);
    if (!sf) return Result<Vec>(sf.error());
    if (sf.value().error && sf.value().error->parameter == "rotary_fraction") return one(0.0);
    if (sf.value().error) return Result<Vec>(*sf.value().error);
    double count = 0.0, slowest_theta = 0.0;
    for (double t : sf.value().theta_drawn)
      if (t != 0.0) {
        count += 1.0;
        slowest_theta = slowest_theta == 0.0 ? t : std::min(slowest_theta, t);
      }
    if (name == "turning_pairs") return one(count);
    return one(slowest_theta == 0.0 ? 0.0 : wavelength(slowest_theta));
  }
  if (name.starts_with("mm_")) return multimodal_quantity(p, q, k, name);
  const bool entropy = name.starts_with("row_entropy");
  const bool row =
      name == "visible_keys" || name == "uniform_weight" || name == "row_weight" || entropy;
  if (!row && !name.starts_with("mla_") && !name.starts_with("effective_")) return std::nullopt;
  const auto m_row = static_cast<std::int64_t>(std::llround(p.position));
  const auto n_col = static_cast<std::int64_t>(std::llround(p.key_position));
  // a heatmap row holds positions 0, 1, ...: a negative m sees no key, a negative n is no key
  if (row && (m_row < 0 || n_col < 0)) return one(0.0);
  if (row && (m_row > kMaxContext || n_col > kMaxContext))
    return Result<Vec>(Error{name == "row_weight" ? "position" : std::string(name),
                             "needs positions m, n up to 2^30 (a row of the heatmap)"});
  if (name == "visible_keys") {
    const VisibleKeys v = keys_of(p, m_row, n_col);
    return one(static_cast<double>(v.last - v.first));
  }
  if (name == "uniform_weight") {
    const VisibleKeys v = keys_of(p, m_row, n_col);
    return one(v.contains(n_col) ? 1.0 / static_cast<double>(v.last - v.first) : 0.0);
  }

  // The decoupled head: q_C, k_C without RoPE (seeded, as the app's random vectors), and the
  // current q, k as the RoPE part, rotated with the θ′ every view uses.
  auto sf = app::drawn_frequencies(p);
  if (sf && sf.value().error && sf.value().error->parameter == "rotary_fraction") {
    // a fraction that leaves no whole pair to rotate is reported by the panel, and every pair
    // keeps rotating meanwhile
    app::Params whole = p;
    whole.extension.scaling.rotary_fraction = 1.0;
    sf = app::drawn_frequencies(whole);
  }
  if (!sf) return Result<Vec>(sf.error());
  if (sf.value().error) return Result<Vec>(*sf.value().error);
  const Vec& th = sf.value().theta_drawn;
  const Vec qc = make_vector(VectorSource::random, kMlaNopeDims, {}, p.seed + 1000).value();
  const Vec kc = make_vector(VectorSource::random, kMlaNopeDims, {}, p.seed + 2000).value();
  const double m = p.position, n = p.key_position;
  const Vec rq = rotated(q, m, th, p.pairing), rk = rotated(k, n, th, p.pairing);
  if (name == "row_weight" || entropy) {
    // the heatmap's softmax row m with shared content: scores a²(R_m q)·(R_j k)/√d over the
    // visible keys j, stable (minus the row's largest). row_weight: the weight of key n;
    // row_entropy: -sum w ln w of the row (nats), and _plain the same with a² left out
    const VisibleKeys v = keys_of(p, m_row, n_col);
    if (!entropy && !v.contains(n_col)) return one(0.0);
    if (v.last - v.first > kMaxRowKeys)
      return Result<Vec>(Error{std::string(name), "sums at most 65536 keys, the row has " +
                                                      std::to_string(v.last - v.first)});
    const double a = sf.value().attention_factor;
    const auto weights = [&](double a2) {
      const double scale = a2 / std::sqrt(static_cast<double>(p.dim));
      const Vec rqm = rotated(q, static_cast<double>(m_row), th, p.pairing);
      Vec w;
      double top = -std::numeric_limits<double>::infinity();
      for (std::int64_t j = v.first; j < v.last; ++j) {
        w.push_back(scale * dot(rqm, rotated(k, static_cast<double>(j), th, p.pairing)));
        top = std::max(top, w.back());
      }
      double sum = 0.0;
      for (double& x : w)
        sum += (x = std::exp(x - top));
      for (double& x : w)
        x /= sum;
      return w;
    };
    const auto entropy_of = [](const Vec& w) {
      double h = 0.0;
      for (double x : w)
        h -= x > 0.0 ? x * std::log(x) : 0.0;
      return h;
    };
    if (name == "row_weight") return one(weights(a * a)[static_cast<std::size_t>(n_col - v.first)]);
    if (name == "row_entropy") return one(entropy_of(weights(a * a)));
    if (name == "row_entropy_plain") return one(entropy_of(weights(1.0)));
    return one(entropy_of(weights(1.0)) - entropy_of(weights(a * a)));  // row_entropy_drop
  }
  if (name == "mla_nope_score") return one(dot(qc, kc));
  if (name == "mla_rope_score" || name == "effective_score") return one(dot(rq, rk));
  if (name == "mla_rope_relative" || name == "effective_relative")
    return one(dot(q, rotated(k, n - m, th, p.pairing)));
  if (name == "mla_scale") return one(mla_scale(p));
  if (name == "mla_scale_formula") {
    const ScalingParams& sp = p.extension.scaling;
    double ms = 1.0;
    if (sp.method == ScalingMethod::yarn && sp.mscale_all_dim > 0.0 && sp.factor > 1.0)
      ms = 0.1 * sp.mscale_all_dim * std::log(sp.factor) + 1.0;
    return one(ms * ms * std::pow(kMlaNopeDims + p.dim, -0.5));
  }
  if (name == "mla_plain_scale")
    return one(1.0 / std::sqrt(static_cast<double>(kMlaNopeDims + p.dim)));
  if (name == "mla_scale_gain")
    return one(mla_scale(p) * std::sqrt(static_cast<double>(kMlaNopeDims + p.dim)));
  if (name == "mla_score") return one(mla_scale(p) * (dot(qc, kc) + dot(rq, rk)));
  if (name == "mla_score_moved") {
    constexpr double kMove = 1000.0;  // positions both the query and the key move by
    const Vec mq = rotated(q, m + kMove, th, p.pairing), mk = rotated(k, n + kMove, th, p.pairing);
    return one(mla_scale(p) * (dot(qc, kc) + dot(mq, mk)));
  }
  if (name == "mla_concat_score") {
    Vec a = qc, b = kc;
    a.insert(a.end(), rq.begin(), rq.end());
    b.insert(b.end(), rk.begin(), rk.end());
    return one(mla_scale(p) * dot(a, b));
  }
  return std::nullopt;
}

}  // namespace rope::lessons
