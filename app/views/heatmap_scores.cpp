#include "views/heatmap_scores.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <limits>

#include "rope/frequencies.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "rope/sinusoidal.h"
#include "state/params.h"
#include "views/view_scaling.h"

namespace rope::app {
namespace {

std::vector<float> to_float(const std::vector<double>& v) {
  std::vector<float> out(v.size());
  std::transform(v.begin(), v.end(), out.begin(), [](double x) { return static_cast<float>(x); });
  return out;
}

Error cancelled() {
  return Error{"heatmap", "computation cancelled"};
}

// A matrix on its way (prepare_scores, score_rows): rows [0, next_row) of `matrix` are done.
struct PreparedScores {
  EncodedQK encoded;          // q', k' for the rows still to compute (empty when all are done)
  std::vector<float> matrix;  // [N][N] row-major
  std::int64_t next_row = 0;
};

// A dot product divided by the two lengths it came from; 0 when a length is 0.
double cosine_of(double dot_product, double length_a, double length_b) {
  const double l = length_a * length_b;
  return l > 0.0 ? dot_product / l : 0.0;
}

// Rows [N][d] of x rotated at θ′ to their positions 0 ... N−1 and multiplied by a, in double,
// rounded to float: the q′ or k′ of a scaled RoPE.
std::vector<float> rotate_scaled(const std::vector<float>& x, std::int64_t n, std::int64_t d,
                                 const ScaledFrequencies& sf, Pairing pairing, int stride) {
  const auto du = static_cast<std::size_t>(d);
  std::vector<double> row(du), out(du);
  std::vector<float> y(x.size());
  for (std::int64_t m = 0; m < n; ++m) {
    const std::size_t at = static_cast<std::size_t>(m) * du;
    for (std::size_t j = 0; j < du; ++j)
      row[j] = static_cast<double>(x[at + j]);
    apply_rope<double>(row, out, static_cast<double>(m) * stride, sf.theta_scaled, pairing);
    for (std::size_t j = 0; j < du; ++j)
      y[at + j] = static_cast<float>(sf.attention_factor * out[j]);
  }
  return y;
}

// Shared content with a scaling: S[m][n] = g(n − m), g(r) = a²·q·R(θ′, r)k, from 2N − 1 values
// in double (O(N d)), each rounded to float as the unscaled path does.
std::vector<float> shared_scaled(const std::vector<double>& q, const std::vector<double>& k,
                                 std::int64_t n, const ScaledFrequencies& sf, Pairing pairing,
                                 int stride) {
  const auto nu = static_cast<std::size_t>(n);
  std::vector<float> g(2 * nu - 1);  // g[r + N − 1]
  std::vector<double> kr(k.size());
  const double a2 = sf.attention_factor * sf.attention_factor;
  for (std::int64_t r = 1 - n; r < n; ++r) {
    apply_rope<double>(k, kr, static_cast<double>(r) * stride, sf.theta_scaled, pairing);
    double dot = 0.0;
    for (std::size_t j = 0; j < k.size(); ++j)
      dot += q[j] * kr[j];
    g[static_cast<std::size_t>(r + n - 1)] = static_cast<float>(a2 * dot);
  }
  std::vector<float> m(nu * nu);
  for (std::size_t i = 0; i < nu; ++i)
    for (std::size_t j = 0; j < nu; ++j)
      m[i * nu + j] = g[j + nu - 1 - i];
  return m;
}

// S = Q'K'^T for the content of `in`: [N][N] row-major, before any scaling, mask or softmax.
// Shared content gives the whole matrix at once (O(N d) work); random and sentence content give
// the rotated q', k' and an empty matrix whose rows (O(N² d), the heavy part) are then computed
// by score_rows, in one go on threads or a chunk at a time between frames. Sentence content also
// gives its `words`. An Error for invalid inputs or a cancellation.
Result<PreparedScores> prepare_scores(const HeatmapInputs& in, const std::atomic<bool>* cancel,
                                      std::vector<std::string>& words, double& attention_factor) {
  const auto stopped = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
  const std::int64_t n = in.positions;
  const std::int64_t d = in.dim;
  // RoPE with a scaling or a partial rotation on: θ′ and the attention factor of
  // drawn_frequencies (heatmap_inputs sets them for RoPE only); plain RoPE takes the fast kernel
  std::optional<ScaledFrequencies> sf;
  const ExtensionParams ext = drawn_extension(in.scaling, in.rotary_fraction, in.rotary_style);
  if (in.encoding == Encoding::rope && (scaling_on(in.scaling) || partial_rotary(ext))) {
    if (n < 1 || n > 4096) return Error{"positions", "must be from 1 to 4096"};
    auto r = drawn_frequencies(in.dim, in.base, ext);
    if (!r) return r.error();
    if (r.value().error) return *r.value().error;
    sf = ScaledFrequencies{};
    sf->theta = std::move(r.value().theta);
    sf->theta_scaled = std::move(r.value().theta_drawn);
    sf->attention_factor = attention_factor = r.value().attention_factor;
  }
  PreparedScores out;
  if (in.content == Content::shared && sf) {
    std::vector<double> q1 = effective_vector(in.query, in.dim, in.seed, false);
    std::vector<double> k1 = effective_vector(in.key, in.dim, in.seed, true);
    keep_band<double>(q1, in.band, in.pairing);
    keep_band<double>(k1, in.band, in.pairing);
    out.matrix = shared_scaled(q1, k1, n, *sf, in.pairing, in.stride);
    out.next_row = n;
    return out;
  }
  if (in.content == Content::shared) {
    auto q = to_float(effective_vector(in.query, in.dim, in.seed, false));
    auto k = to_float(effective_vector(in.key, in.dim, in.seed, true));
    keep_band<float>(q, in.band, in.pairing);
    keep_band<float>(k, in.band, in.pairing);
    auto m = score_matrix_shared(q, k, n, d, in.base, in.encoding, in.pairing, in.stride);
    if (!m) return m.error();
    out.matrix = std::move(m).value();
    out.next_row = n;
    return out;
  }
  std::vector<float> q, k;
  if (in.content == Content::random) {
    q = to_float(random_vectors(in.positions, in.dim, in.seed));
    k = to_float(random_vectors(in.positions, in.dim, in.seed + 1));
  } else {
    words = sentence_words(in.sentence);
    if (words.empty()) return Error{"sentence_b", "must contain at least one word"};
    q.reserve(words.size() * static_cast<std::size_t>(d));
    for (const auto& w : words) {
      const auto e = hash_embedding(w, in.dim, in.seed);
      q.insert(q.end(), e.begin(), e.end());
    }
    k = q;  // identity projections: q_m = k_m = the word's embedding
  }
  if (in.band != PairBand::all && d > 0)
    for (std::size_t at = 0; at + static_cast<std::size_t>(d) <= q.size();
         at += static_cast<std::size_t>(d)) {
      keep_band<float>(std::span<float>(q.data() + at, static_cast<std::size_t>(d)), in.band,
                       in.pairing);
      keep_band<float>(std::span<float>(k.data() + at, static_cast<std::size_t>(d)), in.band,
                       in.pairing);
    }
  if (stopped()) return cancelled();
  if (sf) {  // rotated here at θ′, so the kernel multiplies them as they are
    if (q.size() != static_cast<std::size_t>(n * d) || k.size() != q.size())
      return Error{"q", "must have N·d entries"};
    q = rotate_scaled(q, n, d, *sf, in.pairing, in.stride);
    k = rotate_scaled(k, n, d, *sf, in.pairing, in.stride);
  }
  auto enc =
      encode_qk_fast(q, k, n, d, in.base, sf ? Encoding::none : in.encoding, in.pairing, in.stride);
  if (!enc) return enc.error();
  q = {};
  k = {};
  out.encoded = std::move(enc).value();
  out.matrix.assign(static_cast<std::size_t>(n * n), 0.0f);
  return out;
}

// Rows of p.matrix from p.next_row on, with `threads` threads, until all are done, `cancel`
// turns true, or (`until` given) the clock passes it after a chunk: the thread-less build computes
// a large matrix a slice per frame this way. Rows are handed out in chunks of about 4 M
// multiply-adds through one counter, so threads balance themselves and a stop is noticed within one
// chunk.
Status score_rows(PreparedScores& p, int threads, const std::atomic<bool>* cancel,
                  const std::chrono::steady_clock::time_point* until = nullptr) {
  const auto stopped = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
  const EncodedQK& e = p.encoded;
  const std::int64_t n = e.n_positions;
  const std::int64_t d = e.dim;
  const std::int64_t chunk =
      std::max<std::int64_t>(1, (1 << 22) / std::max<std::int64_t>(1, n * d));
  // a slice between frames runs on the caller alone, so its rows end in order
  const int extra = until ? 0 : std::clamp(threads, 1, 16) - 1;
  const int helper_count = n * n * d > (1 << 20) ? extra : 0;
  std::atomic<std::int64_t> next{p.next_row};
  std::atomic<std::int64_t> done{p.next_row};  // alone: every row below it is computed
  std::atomic<bool> failed{false};
  const auto work = [&] {
    while (!stopped() && !failed.load(std::memory_order_relaxed)) {
      const std::int64_t b = next.fetch_add(chunk);
      if (b >= n) return;
      const std::int64_t end = std::min(n, b + chunk);
      const std::span<float> rows(p.matrix.data() + b * n, static_cast<std::size_t>((end - b) * n));
      if (!score_rows_fast(e, b, end, rows)) failed = true;
      if (helper_count == 0) done = end;
      // the clock is read after a chunk: a slice always gets somewhere
      if (until && std::chrono::steady_clock::now() >= *until) return;
    }
  };
  std::vector<Worker> helpers;
  for (int t = 0; t < helper_count; ++t)
    helpers.emplace_back(work);
  work();
  helpers.clear();  // joins
  if (failed) return Error{"heatmap", "score rows could not be computed"};
  if (cancel && cancel->load(std::memory_order_relaxed)) return cancelled();
  // with helpers every row is done (nothing but a cancellation stops them); alone, the rows up
  // to where the clock stopped it
  p.next_row = helper_count > 0 ? n : done.load();
  return {};
}

constexpr float kMaxFloat = std::numeric_limits<float>::max();

// The finite minimum and maximum of s; (kMaxFloat, -kMaxFloat) when nothing is finite.
std::pair<float, float> finite_range_of(std::span<const float> s) {
  constexpr float kMax = kMaxFloat;
  float lo = kMax;
  float hi = -kMax;
  if (s.empty()) return {lo, hi};
  // A plain min/max pass vectorises; only if it met -inf (masked cells) or NaN is the slower
  // pass that skips them needed.
  {
    // eight independent lanes: no loop-carried dependency, and the compiler packs them into
    // vector min/max instructions
    constexpr std::size_t kLanes = 8;
    float lo8[kLanes], hi8[kLanes];
    for (std::size_t l = 0; l < kLanes; ++l) {
      lo8[l] = kMax;
      hi8[l] = -kMax;
    }
    const float* v = s.data();
    const std::size_t size = s.size();
    std::size_t i = 0;
    for (; i + kLanes <= size; i += kLanes)
      for (std::size_t l = 0; l < kLanes; ++l) {
        lo8[l] = v[i + l] < lo8[l] ? v[i + l] : lo8[l];
        hi8[l] = v[i + l] > hi8[l] ? v[i + l] : hi8[l];
      }
    for (; i < size; ++i) {
      lo = v[i] < lo ? v[i] : lo;
      hi = v[i] > hi ? v[i] : hi;
    }
    for (std::size_t l = 0; l < kLanes; ++l) {
      lo = std::min(lo, lo8[l]);
      hi = std::max(hi, hi8[l]);
    }
  }
  if (!(lo >= -kMax && hi <= kMax) || std::isnan(s.front())) {
    lo = kMax;
    hi = -kMax;
    for (float v : s) {
      if (!(v >= -kMax && v <= kMax)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  return {lo, hi};
}

// The finite minimum and maximum of the [n][n] matrix s ((0, 0) when nothing is finite).
// `by_distance`: S[m][n] = g(n - m), so row 0 and column 0 hold every value.
std::pair<float, float> finite_range(const std::vector<float>& s, std::size_t nn,
                                     bool by_distance) {
  constexpr float kMax = kMaxFloat;
  float lo = kMax;
  float hi = -kMax;
  if (by_distance) {
    // every distance r >= 0 appears in row 0 and every r <= 0 in column 0, so those two hold
    // every value of the matrix, and its range is read there instead of over N^2 entries
    for (std::size_t j = 0; j < nn; ++j)
      for (float v : {s[j], s[j * nn]})
        if (v >= -kMax && v <= kMax) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
  } else {
    std::tie(lo, hi) = finite_range_of(s);
  }
  if (lo > hi) lo = hi = 0.0f;  // nothing finite
  return {lo, hi};
}

}  // namespace

std::vector<std::string> sentence_words(std::string_view text) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < text.size() && words.size() < 4096) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    if (i > start) words.emplace_back(text.substr(start, i - start));
  }
  return words;
}

HeatmapInputs heatmap_inputs(const Params& p, Encoding encoding) {
  HeatmapInputs in;
  in.positions = p.positions;
  in.stride = p.stride;
  in.dim = p.dim;
  in.base = p.base;
  in.pairing = p.pairing;
  in.encoding = encoding;
  in.content = p.content;
  in.score_mode = p.score_mode;
  in.causal = p.causal;
  in.window = p.attention_window;
  in.chunk = p.attention_chunk;
  in.seed = p.seed;
  in.band = p.pair_band;
  if (encoding == Encoding::rope) {
    in.scaling = view_scaling(p);
    in.rotary_fraction = p.extension.scaling.rotary_fraction;
    if (in.rotary_fraction < 1.0) in.rotary_style = p.extension.rotary_style;
  }
  if (p.content == Content::shared) {
    in.query = p.query;
    in.key = p.key;
    // the random preset depends on the seed; other presets do not
    if (p.query.preset != VectorPreset::random && p.key.preset != VectorPreset::random) in.seed = 0;
  }
  if (p.content == Content::sentence) {
    in.stride = 1;  // positions are the words
    in.sentence = p.sentence_b;
    in.positions = static_cast<int>(std::max<std::size_t>(1, sentence_words(p.sentence_b).size()));
  }
  return in;
}

ScoreTransform score_transform(const HeatmapInputs& in) {
  ScoreTransform t;
  t.scale = in.score_mode == ScoreMode::scaled || in.score_mode == ScoreMode::softmax;
  t.softmax = in.score_mode == ScoreMode::softmax;
  t.causal = in.causal;
  t.window = in.window;
  t.chunk = in.chunk;
  t.step = in.stride;
  return t;
}

std::string mask_text(const HeatmapInputs& in, int m, int n) {
  if (in.causal && n > m) return "masked (n > m)";
  const std::int64_t step = in.stride;
  if (in.window > 0 && (m - n) * step >= in.window)
    return "masked (m − n ≥ window " +
           format_number(static_cast<double>(in.window), NumberStyle::tick) + ")";
  if (in.chunk > 0)
    return "masked (another chunk of " +
           format_number(static_cast<double>(in.chunk), NumberStyle::tick) + ")";
  return "masked";
}

double heatmap_cost(const HeatmapInputs& in) {
  const double n = in.positions;
  const double d = in.dim;
  const double fill = n * n * (in.score_mode == ScoreMode::softmax ? 8.0 : 1.0);
  if (in.content == Content::shared) return n * d + fill;
  return n * n * d + fill;
}

namespace {

// The matrix complete, scaled, masked and softmaxed, and the finite range (lo, hi) of its entries
// known (lo > hi: nothing finite): the colour range and the time taken since `t0`.
HeatmapScores completed(HeatmapScores out, float lo, float hi,
                        std::chrono::steady_clock::time_point t0) {
  const HeatmapInputs& in = out.inputs;
  out.n = in.positions;
  if (lo > hi) lo = hi = 0.0f;  // nothing finite
  out.lo = in.score_mode == ScoreMode::softmax ? 0.0 : static_cast<double>(lo);
  out.hi = static_cast<double>(hi);
  // Scores that differ by less than 0.1 % of their size are drawn as the flat matrix they are:
  // the colour range reaches 0 instead of stretching differences of that size over the whole
  // colour map (lesson 13: the slowest pairs give one score at every distance shown).
  const double size = std::max(std::fabs(out.lo), std::fabs(out.hi));
  if (in.score_mode != ScoreMode::softmax && out.hi - out.lo <= 1e-3 * size) {
    out.lo = std::min(out.lo, 0.0);
    out.hi = std::max(out.hi, 0.0);
  }
  if (in.score_mode == ScoreMode::cosine) {  // the similarity's whole range: 0 ... 2
    out.lo = 0.0;
    out.hi = 2.0;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

// The cosine mode: S_mn -> 1 + S_mn / (|q'_m| |k'_n|), the lengths of the encoded rows in double
// (a row of length 0 has cosine 0 with everything). Before the masks, which then hide cells.
Status cosine_scores(const HeatmapInputs& in, std::vector<float>& s) {
  std::vector<double> q, k;
  if (auto st = encoded_rows(in, q, k); !st) return st;
  const auto nu = static_cast<std::size_t>(in.positions), du = static_cast<std::size_t>(in.dim);
  if (s.size() != nu * nu) return Error{"heatmap", "matrix of wrong size"};
  std::vector<double> qn(nu), kn(nu);
  for (std::size_t m = 0; m < nu; ++m) {
    const std::span<const double> qm(q.data() + m * du, du), km(k.data() + m * du, du);
    qn[m] = std::sqrt(dot(qm, qm));
    kn[m] = std::sqrt(dot(km, km));
  }
  for (std::size_t m = 0; m < nu; ++m)
    for (std::size_t n = 0; n < nu; ++n) {
      float& c = s[m * nu + n];
      c = static_cast<float>(1.0 + cosine_of(static_cast<double>(c), qn[m], kn[n]));
    }
  return {};
}

// The matrix's rows all computed: the score mode's scaling, the causal mask and the softmax, then
// the colour range over the finite entries. `t0`: when the computation started.
Result<HeatmapScores> finish_scores(HeatmapScores out, std::chrono::steady_clock::time_point t0) {
  const HeatmapInputs& in = out.inputs;
  const std::int64_t n = in.positions;
  const ScoreTransform t = score_transform(in);
  if (in.score_mode == ScoreMode::cosine) {
    if (auto st = cosine_scores(in, out.s); !st) return st.error();
  }
  if (t.scale || t.softmax || t.causal || t.window > 0 || t.chunk > 0)
    transform_scores(out.s, n, in.dim, t);  // else identity
  const bool by_distance = in.content == Content::shared && in.encoding != Encoding::sinusoidal &&
                           in.score_mode != ScoreMode::softmax;
  const auto [lo, hi] = finite_range(out.s, static_cast<std::size_t>(n), by_distance);
  return completed(std::move(out), lo, hi, t0);
}

}  // namespace

Result<HeatmapScores> compute_heatmap_scores(const HeatmapInputs& in, int threads,
                                             const std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  HeatmapScores out;
  out.inputs = in;
  auto p = prepare_scores(in, cancel, out.words, out.attention_factor);
  if (!p) return p.error();
  if (auto st = score_rows(p.value(), threads, cancel); !st) return st.error();
  if (cancel && cancel->load(std::memory_order_relaxed)) return cancelled();
  out.s = std::move(p.value().matrix);
  return finish_scores(std::move(out), t0);
}

// [SECTION] one cell, exactly

Status encoded_rows(const HeatmapInputs& in, std::vector<double>& q, std::vector<double>& k) {
  const int n = in.positions, d = in.dim;
  if (n < 1 || n > 4096) return Error{"positions", "must be from 1 to 4096"};
  auto theta = frequencies(d, in.base);
  if (!theta) return theta.error();
  const auto du = static_cast<std::size_t>(d), nu = static_cast<std::size_t>(n);
  // the content rows q_m, k_n before the encoding, [N][d]
  q.clear();
  k.clear();
  if (in.content == Content::shared) {
    const std::vector<double> q1 = effective_vector(in.query, d, in.seed, false);
    const std::vector<double> k1 = effective_vector(in.key, d, in.seed, true);
    for (std::size_t m = 0; m < nu; ++m) {
      q.insert(q.end(), q1.begin(), q1.end());
      k.insert(k.end(), k1.begin(), k1.end());
    }
  } else if (in.content == Content::random) {
    q = random_vectors(n, d, in.seed);
    k = random_vectors(n, d, in.seed + 1);
  } else {
    const std::vector<std::string> words = sentence_words(in.sentence);
    if (words.size() != nu) return Error{"sentence_b", "must hold N words"};
    for (const std::string& w : words) {
      const std::vector<double> e = hash_embedding(w, d, in.seed);
      q.insert(q.end(), e.begin(), e.end());
    }
    k = q;
  }
  if (q.size() != nu * du || k.size() != q.size()) return Error{"heatmap", "content of wrong size"};
  for (std::size_t m = 0; m < nu; ++m) {  // the band's blocks only, as prepare_scores keeps them
    keep_band<double>(std::span<double>(q.data() + m * du, du), in.band, in.pairing);
    keep_band<double>(std::span<double>(k.data() + m * du, du), in.band, in.pairing);
  }
  // the encoding, as prepare_scores applies it: θ′ and a when a scaling or a partial rotation is
  // on (RoPE only), else θ
  std::vector<double> th = std::move(theta).value();
  double a = 1.0;
  const ExtensionParams ext = drawn_extension(in.scaling, in.rotary_fraction, in.rotary_style);
  if (in.encoding == Encoding::rope && (scaling_on(in.scaling) || partial_rotary(ext))) {
    auto r = drawn_frequencies(d, in.base, ext);
    if (!r) return r.error();
    if (r.value().error) return *r.value().error;
    th = std::move(r.value().theta_drawn);
    a = r.value().attention_factor;
  }
  std::vector<double> row(du), out(du);
  for (std::size_t m = 0; m < nu; ++m) {
    const std::span<double> qm(q.data() + m * du, du), km(k.data() + m * du, du);
    const double pos = static_cast<double>(m) * in.stride;
    if (in.encoding == Encoding::rope) {
      for (std::span<double> x : {qm, km}) {
        std::copy(x.begin(), x.end(), row.begin());
        apply_rope<double>(row, out, pos, th, in.pairing);
        for (std::size_t j = 0; j < du; ++j)
          x[j] = a * out[j];
      }
    } else if (in.encoding == Encoding::sinusoidal) {
      const std::vector<double> pe = sinusoidal_vector(pos, th);
      for (std::size_t j = 0; j < du; ++j) {
        qm[j] += pe[j];
        km[j] += pe[j];
      }
    }
  }
  return {};
}

Status ExactScores::prepare(const HeatmapInputs& in) {
  if (for_ && *for_ == in) return {};
  for_.reset();
  if (auto s = encoded_rows(in, q_, k_); !s) return s;
  d_ = in.dim;
  n_ = in.positions;
  for_ = in;
  return {};
}

double ExactScores::raw(int m, int n) const {
  const auto du = static_cast<std::size_t>(d_);
  const double* q = q_.data() + static_cast<std::size_t>(m) * du;
  const double* k = k_.data() + static_cast<std::size_t>(n) * du;
  double s = 0.0;
  for (std::size_t j = 0; j < du; ++j)
    s += q[j] * k[j];
  return s;
}

Result<double> ExactScores::at(const HeatmapInputs& in, int m, int n) {
  if (auto s = prepare(in); !s) return s.error();
  if (m < 0 || n < 0 || m >= n_ || n >= n_) return Error{"cell", "outside the matrix"};
  const bool scaled = in.score_mode == ScoreMode::scaled || in.score_mode == ScoreMode::softmax;
  const double scale = scaled ? 1.0 / std::sqrt(double(d_)) : 1.0;
  const VisibleKeys keys = visible_keys(m, n_, score_transform(in));
  const bool masked = !keys.contains(n);
  if (masked && in.score_mode != ScoreMode::softmax)
    return std::numeric_limits<double>::quiet_NaN();
  if (in.score_mode == ScoreMode::cosine) {
    const auto du = static_cast<std::size_t>(d_);
    const std::span<const double> qm(q_.data() + static_cast<std::size_t>(m) * du, du);
    const std::span<const double> kn(k_.data() + static_cast<std::size_t>(n) * du, du);
    return 1.0 + cosine_of(raw(m, n), std::sqrt(dot(qm, qm)), std::sqrt(dot(kn, kn)));
  }
  if (in.score_mode != ScoreMode::softmax) return scale * raw(m, n);
  if (masked) return 0.0;
  // the row's softmax over its visible keys, stable: exp(s − max)
  const auto first = static_cast<int>(keys.first);
  const auto last = static_cast<int>(keys.last);
  double top = -std::numeric_limits<double>::infinity();
  std::vector<double> row(static_cast<std::size_t>(last - first));
  for (int j = first; j < last; ++j) {
    row[static_cast<std::size_t>(j - first)] = scale * raw(m, j);
    top = std::max(top, row[static_cast<std::size_t>(j - first)]);
  }
  double sum = 0.0;
  for (double v : row)
    sum += std::exp(v - top);
  return std::exp(row[static_cast<std::size_t>(n - first)] - top) / sum;
}

// [SECTION] slices between frames

struct HeatmapSlices::State {
  std::vector<HeatmapInputs> inputs;
  std::vector<HeatmapScores> done;
  std::string error;
  // the panel under way: its scores so far and the rows still to compute
  std::optional<std::pair<HeatmapScores, PreparedScores>> current;
  std::chrono::steady_clock::time_point t0;
  // Rows [0, finished) of the panel under way are transformed (scale, mask, softmax) and their
  // finite range is in (lo, hi): each slice finishes the rows it computed, so that the last one
  // does not pass over all N² entries at once (at N = 4096, longer than a frame in a browser).
  std::int64_t finished = 0;
  float lo = kMaxFloat, hi = -kMaxFloat;
};

HeatmapSlices::HeatmapSlices(std::vector<HeatmapInputs> panels)
    : state_(std::make_unique<State>()) {
  state_->inputs = std::move(panels);
}

HeatmapSlices::~HeatmapSlices() = default;

bool HeatmapSlices::step(double seconds) {
  State& st = *state_;
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(seconds));
  while (st.error.empty() && st.done.size() < st.inputs.size()) {
    if (!st.current) {  // the next panel: its O(N d) preparation
      st.t0 = std::chrono::steady_clock::now();
      HeatmapScores out;
      out.inputs = st.inputs[st.done.size()];
      auto p = prepare_scores(out.inputs, nullptr, out.words, out.attention_factor);
      if (!p) {
        st.error = p.error().to_string();
        break;
      }
      st.current.emplace(std::move(out), std::move(p).value());
      st.finished = 0;
      st.lo = kMaxFloat;
      st.hi = -kMaxFloat;
      // preparing N = 4096 random rows takes a good part of a slice: the rows start next frame
      if (std::chrono::steady_clock::now() >= until) return false;
    }
    auto& [out, p] = *st.current;
    if (auto s = score_rows(p, 1, nullptr, &until); !s) {
      st.error = s.error().to_string();
      break;
    }
    const std::int64_t n = out.inputs.positions;
    // All at once: the rows came in one go (shared content, or small), or the cosine mode, which
    // needs every encoded row's length (finish_scores, once the last row is in)
    const bool whole = out.inputs.score_mode == ScoreMode::cosine;
    if (whole && p.next_row < p.encoded.n_positions) return false;
    if (whole || (st.finished == 0 && p.next_row == n)) {
      out.s = std::move(p.matrix);
      auto r = finish_scores(std::move(out), st.t0);
      st.current.reset();
      if (!r) {
        st.error = r.error().to_string();
        break;
      }
      st.done.push_back(std::move(r).value());
      if (std::chrono::steady_clock::now() >= until) break;
      continue;
    }
    const ScoreTransform t = score_transform(out.inputs);
    if (t.scale || t.softmax || t.causal || t.window > 0 || t.chunk > 0)
      transform_score_rows(p.matrix, n, out.inputs.dim, t, st.finished, p.next_row);
    const auto [lo, hi] = finite_range_of(std::span<const float>(p.matrix).subspan(
        static_cast<std::size_t>(st.finished * n),
        static_cast<std::size_t>((p.next_row - st.finished) * n)));
    st.lo = std::min(st.lo, lo);
    st.hi = std::max(st.hi, hi);
    st.finished = p.next_row;
    if (p.next_row < p.encoded.n_positions) return false;  // the clock ran out: the next frame
    out.s = std::move(p.matrix);
    st.done.push_back(completed(std::move(out), st.lo, st.hi, st.t0));
    st.current.reset();
    if (std::chrono::steady_clock::now() >= until) break;
  }
  return !st.error.empty() || st.done.size() == st.inputs.size();
}

std::vector<HeatmapScores>& HeatmapSlices::panels() {
  return state_->done;
}

const std::string& HeatmapSlices::error() const {
  return state_->error;
}

// [SECTION] the background job

HeatmapJob::HeatmapJob() {
  if constexpr (kHaveThreads) thread_ = Worker([this](const StopToken& st) { run(st); });
}

HeatmapJob::~HeatmapJob() {
  cancel_ = true;
  {
    std::lock_guard lock(mutex_);  // not between the worker's check and its wait
    thread_.request_stop();
  }
  cv_.notify_all();
}  // thread_ joins in its destructor, before the members it uses

std::uint64_t HeatmapJob::submit(std::vector<HeatmapInputs> panels) {
  std::lock_guard lock(mutex_);
  const std::uint64_t id = next_id_++;
  pending_.emplace(id, std::move(panels));
  fresh_ = true;
  cancel_ = true;  // the running computation (if any) is stale now
  cv_.notify_all();
  return id;
}

// Without threads: a slice of the request under way, the newest pending request taking its
// place first (as a submit cancels the worker's computation).
void HeatmapJob::step_slices(double seconds) {
  {
    std::lock_guard lock(mutex_);
    if (pending_) {
      slices_id_ = pending_->first;
      slices_ = std::make_unique<HeatmapSlices>(std::move(pending_->second));
      pending_.reset();
      running_ = true;
    }
  }
  if (!slices_ || !slices_->step(seconds)) return;
  Output out;
  out.id = slices_id_;
  out.error = slices_->error();
  if (out.error.empty()) out.panels = std::move(slices_->panels());
  slices_.reset();
  std::lock_guard lock(mutex_);
  running_ = false;
  done_ = std::move(out);
}

std::optional<HeatmapJob::Output> HeatmapJob::take() {
  if constexpr (!kHaveThreads) {
    // no worker: a request runs here a slice per frame (about a third of a 60 Hz frame) from
    // the frame after the one that submitted it; the view shows the previous picture and
    // "computing …" meanwhile
    if (!std::exchange(fresh_, false)) step_slices(kSliceSeconds);
  }
  std::lock_guard lock(mutex_);
  return std::exchange(done_, std::nullopt);
}

bool HeatmapJob::busy() const {
  std::lock_guard lock(mutex_);
  return pending_.has_value() || running_;
}

bool HeatmapJob::wait_idle(double seconds) {
  if constexpr (!kHaveThreads) step_slices(seconds);  // the rest, if any, a slice per take()
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (busy()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

void HeatmapJob::run(const StopToken& stop) {
  const int threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1U, 8U));
  while (true) {
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return stop.stop_requested() || pending_.has_value(); });
      if (stop.stop_requested()) return;
    }
    compute_pending(threads, &stop);
  }
}

void HeatmapJob::compute_pending(int threads, const StopToken* stop) {
  std::pair<std::uint64_t, std::vector<HeatmapInputs>> request;
  {
    std::unique_lock lock(mutex_);
    if (!pending_) return;
    request = std::move(*pending_);
    pending_.reset();
    cancel_ = false;
    running_ = true;
  }
  Output out;
  out.id = request.first;
  for (const auto& in : request.second) {
    auto r = compute_heatmap_scores(in, threads, &cancel_);
    if (!r) {
      out.error = r.error().to_string();
      out.panels.clear();
      break;
    }
    out.panels.push_back(std::move(r).value());
  }
  std::lock_guard lock(mutex_);
  running_ = false;
  if (cancel_ || (stop && stop->stop_requested())) return;  // superseded: drop it
  done_ = std::move(out);
}

}  // namespace rope::app
