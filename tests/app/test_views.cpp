// The chart views: the plotting layer's ticks, the heatmap's matrices (diagonals under RoPE,
// the background worker), the sentence demo's equal scores, the decay curve against its
// formula, the colour of rendered heatmap cells, every view drawn offscreen with content, and
// every view's text inside narrow canvases at presentation scale, no two lines overlapping.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "io/colour_map.h"
#include "io/number_format.h"
#include "lessons/quantities.h"
#include "rope/attention.h"
#include "rope/axial.h"
#include "rope/decay.h"
#include "rope/frequencies.h"
#include "rope/low_precision.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "rope/sinusoidal.h"
#include "shell/frame.h"
#include "shell/offscreen_app.h"
#include "state/params.h"
#include "ui/plot.h"
#include "ui/theme.h"
#include "ui/ui_context.h"
#include "view_harness.h"
#include "views/heatmap_scores.h"

using namespace rope::app;
using namespace rope::app::view_test;

namespace {

// A view a content test leaves out, and the test that covers it instead.
struct OptOut {
  ViewId view;
  const char* covered_by;
};

// Every view of the registry (state/view_list.h) but those opted out: a view added to the list
// is covered by each content test at once, unless the test says where else it is checked.
std::vector<ViewId> views_except(std::initializer_list<OptOut> opt_outs) {
  std::vector<ViewId> views;
  for (const ViewId v : all_views())
    if (std::none_of(opt_outs.begin(), opt_outs.end(),
                     [&](const OptOut& o) { return o.view == v; }))
      views.push_back(v);
  return views;
}

// The error a view shows instead of its picture ("" when it shows none): the error() of the
// views that have one (a core or shader message drawn on the canvas).
template <class View>
std::string view_error(const View& view) {
  if constexpr (requires { view.error(); })
    return view.error();
  else
    return "";
}

float at(const HeatmapScores& s, int m, int n) {
  return s
      .s[static_cast<std::size_t>(m) * static_cast<std::size_t>(s.n) + static_cast<std::size_t>(n)];
}

}  // namespace

TEST_CASE("plot ticks are nice numbers, decades on log axes", "[app][plot]") {
  CHECK(plot::nice_step(10.0, 5) == Approx(2.0));
  CHECK(plot::nice_step(256.0, 6) == Approx(50.0));
  CHECK(plot::nice_step(0.0, 5) == 1.0);
  plot::Scale lin{0.0, 256.0, false, 0.0f, 100.0f};
  const auto t = plot::ticks(lin, 6);
  REQUIRE(t.size() == 6);
  CHECK(t.front() == 0.0);
  CHECK(t.back() == 250.0);
  plot::Scale lg{1e-4, 2.0, true, 0.0f, 100.0f};
  const auto d = plot::ticks(lg, 6);
  REQUIRE(d.size() == 5);
  CHECK(d.front() == Approx(1e-4));
  CHECK(d.back() == Approx(1.0));
  CHECK(lg.to_px(1e-4) == Approx(0.0f));
  CHECK(lg.from_px(lg.to_px(0.01)) == Approx(0.01));
  CHECK(format_number(10000.0, NumberStyle::tick) == "10 000");
  CHECK(format_number(1e6, NumberStyle::log_tick) == "10⁶");
  CHECK(format_number(0.25, NumberStyle::tick) == "0.25");
  // the colour map runs from its first to its last control point
  const ImVec4 c0 = plot::colour_map(0.0), c1 = plot::colour_map(1.0);
  CHECK(c0.x == Approx(kColourMap[0][0]));
  CHECK(c1.y == Approx(kColourMap[kColourMapPoints - 1][1]));
  CHECK(plot::colour_map(std::nan("")).x == Approx(c0.x));
}

TEST_CASE("the heatmap shader and the colour map table have the same number of points", "[plot]") {
  std::ifstream in(std::string(ROPE_LAB_SOURCE_DIR) + "/shaders/heatmap.frag");
  REQUIRE(in);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  const std::string decl = "const int kColourMapPoints = ";
  const auto at = text.find(decl);
  REQUIRE(at != std::string::npos);
  CHECK(std::stoi(text.substr(at + decl.size())) == kColourMapPoints);
  CHECK(text.find("u_colours[kColourMapPoints]") != std::string::npos);
}

TEST_CASE("shared content: the RoPE matrix is constant along diagonals, sinusoidal is not",
          "[app][heatmap]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set_all(state.params, {{"view", "heatmap"},
                         {"compare", "true"},
                         {"query", "random"},
                         {"key", "random"},
                         {"positions", "48"}});
  run_frames(ui, state, views, 2);
  const HeatmapView& h = views.heatmap;
  REQUIRE(h.panels().size() == 3);
  const HeatmapScores* rope_s = h.scores(rope::Encoding::rope);
  const HeatmapScores* sin_s = h.scores(rope::Encoding::sinusoidal);
  REQUIRE(rope_s);
  REQUIRE(sin_s);
  REQUIRE(rope_s->n == 48);
  double sin_spread = 0.0;
  for (int r = -47; r <= 47; r += 5) {
    const int m0 = std::max(0, -r);
    // S[m][m + r] = S[m0][m0 + r] for every m: depends on n - m only
    for (int m = m0; m < 48 && m + r < 48; ++m) {
      INFO("r = " << r << ", m = " << m);
      CHECK(at(*rope_s, m, m + r) == Approx(at(*rope_s, m0, m0 + r)).margin(1e-5));
      sin_spread = std::max(sin_spread, std::fabs(static_cast<double>(at(*sin_s, m, m + r)) -
                                                  static_cast<double>(at(*sin_s, m0, m0 + r))));
    }
  }
  CHECK(sin_spread > 0.5);
}

TEST_CASE("the colour range is the finite minimum and maximum of the matrix", "[app][heatmap]") {
  AppState state;
  set_all(state.params, {{"query", "random"}, {"key", "random"}, {"positions", "100"}});
  for (const char* content : {"shared", "random"})
    for (const char* mode : {"raw", "scaled", "softmax"})
      for (bool causal : {false, true})
        for (auto e : {rope::Encoding::none, rope::Encoding::sinusoidal, rope::Encoding::rope}) {
          set(state.params, "content", content);
          set(state.params, "score_mode", mode);
          state.params.causal = causal;
          auto r = compute_heatmap_scores(heatmap_inputs(state.params, e), 1);
          REQUIRE(r.ok());
          float lo = INFINITY, hi = -INFINITY;
          for (float v : r.value().s)
            if (std::isfinite(v)) {
              lo = std::min(lo, v);
              hi = std::max(hi, v);
            }
          INFO(content << " " << mode << " causal " << causal << " " << rope::encoding_name(e));
          // a matrix flat to 0.1 % of its size (shared content, no encoding: q·k everywhere)
          // is drawn flat: its range is widened to reach 0
          const bool flat = std::string(mode) != "softmax" &&
                            static_cast<double>(hi) - static_cast<double>(lo) <=
                                1e-3 * std::max(std::fabs(static_cast<double>(lo)),
                                                std::fabs(static_cast<double>(hi)));
          if (flat) {
            CHECK(r.value().lo == std::min(0.0, static_cast<double>(lo)));
            CHECK(r.value().hi == std::max(0.0, static_cast<double>(hi)));
            continue;
          }
          CHECK(r.value().hi == static_cast<double>(hi));
          if (std::string(mode) != "softmax") CHECK(r.value().lo == static_cast<double>(lo));
        }
}

TEST_CASE("a large heatmap is computed off the UI thread and then shown", "[app][heatmap]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set(state.params, "view", "heatmap");
  set(state.params, "content", "random");
  run_frames(ui, state, views, 2);  // N = 64: computed at once
  REQUIRE(views.heatmap.scores(rope::Encoding::rope));
  // 4096 x 4096 x 512 multiply-adds plus a softmax: over 0.1 s even on a fast machine, so the
  // worker cannot be done within the frame that asked (1024 x 1024 x 64 sometimes was, on a
  // machine three times faster than the one this test was written on)
  set_all(state.params,
          {{"positions", "4096"}, {"dim", "512"}, {"score_mode", "softmax"}, {"causal", "true"}});
  run_frames(ui, state, views, 1);
  // the frame did not wait for it: the previous matrix is still shown
  CHECK(views.heatmap.computing());
  CHECK(views.heatmap.scores(rope::Encoding::rope)->n == 64);
  // a generous wait, not a speed test: under ASan on a loaded 2-core machine it took over 60 s
  REQUIRE(views.heatmap.wait_for_results(240.0));
  run_frames(ui, state, views, 1);
  CHECK_FALSE(views.heatmap.computing());
  const HeatmapScores* s = views.heatmap.scores(rope::Encoding::rope);
  REQUIRE(s);
  REQUIRE(s->n == 4096);
  // causal softmax: each row sums to 1 over n <= m, and keys after the query weigh 0
  for (int m : {0, 1, 500, 4095}) {
    double sum = 0.0;
    for (int n = 0; n < 4096; ++n)
      sum += static_cast<double>(at(*s, m, n));
    CHECK(sum == Approx(1.0).epsilon(1e-4));
    if (m < 4095) CHECK(at(*s, m, m + 1) == 0.0f);
  }
}

TEST_CASE("the first large heatmap is waited for, so a screenshot shows it", "[app][heatmap]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set_all(state.params, {{"view", "heatmap"}, {"content", "random"}, {"positions", "512"}});
  run_frames(ui, state, views, 1);
  CHECK_FALSE(views.heatmap.computing());
  REQUIRE(views.heatmap.scores(rope::Encoding::rope));
  CHECK(views.heatmap.scores(rope::Encoding::rope)->n == 512);
}

TEST_CASE("the sentence demo: equal distance gives equal angle and equal score",
          "[app][sentence]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set(state.params, "view", "sentence");
  set(state.params, "dim", "64");
  run_frames(ui, state, views, 2);
  const SentenceView& v = views.sentence;
  CHECK(v.a().m == 0);
  CHECK(v.a().n == 2);
  CHECK(v.b().m == 2);
  CHECK(v.b().n == 4);
  CHECK(v.a().score == Approx(v.b().score).epsilon(1e-12));
  CHECK(v.a().angle == Approx(v.b().angle).margin(1e-12));
  CHECK(v.a().score != 0.0);
  // a different distance changes the score
  set(state.params, "sentence_b", "Coding in Python is really love");
  run_frames(ui, state, views, 1);
  CHECK(views.sentence.b().n == 5);
  CHECK(std::fabs(views.sentence.b().score - views.sentence.a().score) > 1e-6);
}

// The defect lesson 1 step 2 once showed in the narrow half of the derivation view: sentence B
// without the query word and sentence A without the key word, two red messages drawn on top of
// each other, the title and sentence B running off the right edge.
TEST_CASE("the sentence view on a narrow canvas keeps its words inside and its messages apart",
          "[app][sentence][layout]") {
  UiContext ui(false);
  for (const double scale : {1.0, 1.5}) {
    for (const ImVec2 size : {ImVec2(700, 900), ImVec2(420, 700), ImVec2(1500, 850)}) {
      AppState state;
      state.params.ui_scale = scale;
      set(state.params, "sentence_a", "Jane saw a film and then Jane walked home");
      set(state.params, "query_word", "Jane");  // not in sentence B
      // key word "love": in sentence B, not in A
      SentenceView view;
      draw_alone(ui, state, view, size);
      INFO("canvas " << size.x << " x " << size.y << ", scale " << scale);
      REQUIRE(view.drawn().canvas_max.x - view.drawn().canvas_min.x == Approx(size.x));
      REQUIRE(view.text(0).word_boxes.size() == 9);
      REQUIRE(view.text(1).word_boxes.size() == 5);
      for (const int side : {0, 1})
        for (const TextBox& w : view.text(side).word_boxes) {
          INFO("word '" << w.text << "' at x " << w.min.x << " … " << w.max.x);
          CHECK(inside(w, view.drawn()));
        }
      REQUIRE_FALSE(view.text(0).missing.text.empty());
      REQUIRE_FALSE(view.text(1).missing.text.empty());
      CHECK(inside(view.text(0).missing, view.drawn()));
      CHECK(inside(view.text(1).missing, view.drawn()));
      CHECK_FALSE(overlap(view.text(0).missing, view.text(1).missing));
      // two columns only when both sentences fit in half the width
      if (size.x < 1000) CHECK(view.stacked());
      check_text_fits(view.drawn());
    }
  }
}

TEST_CASE("every chart view fits its text in a narrow canvas at presentation scale",
          "[app][layout]") {
  UiContext ui(false);
  for (const ViewId id : views_except({
           {ViewId::derivation, "tests/lessons/test_derivation_view.cpp (it draws a lesson)"},
       })) {
    const char* name = view_name(id);
    // the step's half of the derivation view on 1920 x 1080 and 1280 x 720 in presentation
    // mode, and the whole canvas in presentation mode on both
    for (const ImVec2 size :
         {ImVec2(920, 990), ImVec2(615, 630), ImVec2(1920, 990), ImVec2(1280, 630)}) {
      AppState state;
      Views views;
      set(state.params, "view", name);
      state.params.ui_scale = 1.5;
      state.params.theme = Theme::light;
      INFO(name << " view, canvas " << size.x << " x " << size.y);
      views.visit(state.params.view, [&](auto& view) {
        if (const DrawnText* drawn = drawn_text(view)) {
          draw_alone(ui, state, view, size);
          check_text_fits(*drawn);
        }
      });
    }
  }
}

TEST_CASE("the decay view plots D(r) as the formula gives it", "[app][decay]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set(state.params, "view", "decay");
  set(state.params, "dim", "128");
  run_frames(ui, state, views, 2);
  const DecayView& v = views.decay;
  REQUIRE(!v.curves().empty());
  const auto& c = v.curves().front();
  CHECK(c.dim == 128);
  CHECK_FALSE(c.mean);
  REQUIRE(c.values.size() == 257);
  // D(r) = (1/(d/2)) sum_{j=1}^{d/2} |sum_{i=0}^{j-1} e^{i r theta_i}|, theta_i = 10000^(-2i/128)
  for (int r : {0, 1, 7, 100, 256}) {
    std::complex<double> partial = 0.0;
    double sum = 0.0;
    for (int i = 0; i < 64; ++i) {
      const double th = std::pow(10000.0, -2.0 * i / 128.0);
      partial += std::polar(1.0, r * th);
      sum += std::abs(partial);
    }
    INFO("r = " << r);
    CHECK(c.values[static_cast<std::size_t>(r)] == Approx(sum / 64.0).epsilon(1e-12));
  }
  CHECK(c.values[0] == Approx(32.5));
  // overlays: base 500 000; the mean random score is off by default (it is not on D's scale
  // unless divided by its own factor, and a first look should show the bound alone)
  bool has_base = false, has_mean = false;
  for (const auto& o : v.curves()) {
    has_base = has_base || (o.base == 500000.0 && !o.mean);
    has_mean = has_mean || o.mean;
  }
  CHECK(has_base);
  CHECK_FALSE(has_mean);
  CHECK_FALSE(has_text(v.drawn(), "Mean score"));

  // Switched on: drawn ÷ (d/2)·max|h̄ᵢ₊₁ − h̄ᵢ|, which by summation by parts keeps it within ±D(r)
  set(state.params, "mean_score", "true");
  run_frames(ui, state, views, 2);
  const DecayView::Curve* mean = nullptr;
  for (const auto& o : v.curves())
    if (o.mean) mean = &o;
  REQUIRE(mean != nullptr);
  const double step = rope::mean_random_max_step(128, 256, state.params.seed).value();
  CHECK(mean->scale == Approx(1.0 / (64.0 * step)).epsilon(1e-12));
  const auto raw = rope::mean_random_score(128, 10000.0, 256, 256, state.params.seed).value();
  CHECK(mean->values == raw);
  const auto& d_r = v.curves().front().values;
  for (std::size_t r = 0; r < raw.size(); ++r)
    CHECK(std::fabs(raw[r] * mean->scale) <= d_r[r] * (1 + 1e-12));
  // the unscaled mean score is far above D somewhere (the reason for the factor): at r = 0
  // it is d/4 = 32 on average against D(0) = 32.5, and D falls faster
  bool above = false;
  for (std::size_t r = 0; r < raw.size(); ++r)
    above = above || raw[r] > d_r[r];
  CHECK(above);
  CHECK(has_text(v.drawn(), "Mean score (dashed grey)"));
  CHECK(has_text(v.drawn(), "the bound keeps it within"));
}

TEST_CASE("the spectrum marks the blocks slower than the context", "[app][spectrum]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set_all(state.params, {{"view", "spectrum"}, {"dim", "128"}, {"context_length", "4096"}});
  run_frames(ui, state, views, 2);
  const SpectrumView& v = views.spectrum;
  REQUIRE(v.wavelengths().size() == 64);
  int expected = 0;
  for (int i = 0; i < 64; ++i)
    if (2.0 * rope::kPi / std::pow(10000.0, -2.0 * i / 128.0) > 4096.0) ++expected;
  CHECK(v.incomplete() == expected);
  CHECK(expected > 0);
  CHECK(v.wavelengths()[0] == Approx(2.0 * rope::kPi));
  // the note on slow blocks: PI divides every θ alike; NTK, YaRN and Llama 3.1 treat them apart
  std::string all;
  for (const TextBox& b : v.drawn().boxes)
    all += b.text + " ";
  for (std::size_t at; (at = all.find("\u00a0")) != std::string::npos;)
    all.replace(at, 2, " ");
  CHECK(all.find("Position interpolation divides every θ by s alike;") != std::string::npos);
  CHECK(all.find("NTK-aware scaling, YaRN and Llama 3.1 keep the fast blocks") !=
        std::string::npos);
  CHECK(all.find("(position interpolation, NTK, YaRN) treat differently") == std::string::npos);
}

TEST_CASE("the trajectory view: added points leave the circle, rotated ones keep |x|",
          "[app][trajectory]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set(state.params, "view", "trajectory");
  for (double pos : {0.0, 1.0, 2.5, 10.0}) {
    state.params.position = pos;
    run_frames(ui, state, views, 2);
    const TrajectoryView& v = views.trajectory;
    INFO("pos = " << pos);
    CHECK(std::hypot(v.rotated().x, v.rotated().y) == Approx(std::sqrt(2.0)));
    CHECK(v.added().x == Approx(1.0 + std::sin(pos)));
    CHECK(v.added().y == Approx(1.0 + std::cos(pos)));
    CHECK(v.angle_rotated() == Approx(1.0));  // k theta with k = 1, theta = 1
    CHECK(v.shifted_matrix().x == Approx(v.shifted_direct().x).margin(1e-12));
    CHECK(v.shifted_matrix().y == Approx(v.shifted_direct().y).margin(1e-12));
  }
}

TEST_CASE("the trajectory view keeps its planes while pos moves; angles in rad",
          "[app][trajectory]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set(state.params, "view", "trajectory");
  set(state.params, "offset", "1");
  std::vector<std::array<float, 8>> rects;
  for (double pos : {0.0, 0.37, 2.5, 6.0, 12.125, 99.75}) {
    state.params.position = pos;
    run_frames(ui, state, views, 2);
    const auto& f = views.trajectory.frames();
    rects.push_back({f[0].area_min.x, f[0].area_min.y, f[0].area_max.x, f[0].area_max.y,
                     static_cast<float>(f[0].x.lo), static_cast<float>(f[0].x.hi),
                     static_cast<float>(f[1].y.lo), static_cast<float>(f[1].y.hi)});
    INFO("pos = " << pos);
    CHECK(has_text(views.trajectory.drawn(), "rad"));
    CHECK_FALSE(has_text(views.trajectory.drawn(), "°"));
  }
  for (const auto& r : rects)
    CHECK(r == rects.front());  // the same px rectangle and the same value range at every pos
  CHECK(rects.front()[5] > rects.front()[4]);
}

TEST_CASE("the heatmap's linear-attention panel shows core's sums, no N x N matrix",
          "[app][heatmap][linear]") {
  UiContext ui(false);
  AppState state;
  Views views;
  for (const char* kv :
       {"view=heatmap", "linear_sums=true", "dim=8", "position=3", "encoding=rope"}) {
    const std::string s = kv;
    const auto eq = s.find('=');
    set(state.params, s.substr(0, eq), s.substr(eq + 1));
  }
  run_frames(ui, state, views, 2);
  const LinearPanel::Model& m = views.heatmap.linear().model();
  REQUIRE(m.error.empty());
  REQUIRE(m.n == 16);
  REQUIRE(m.d == 8);
  CHECK(m.row == 3);
  const auto ex = rope::lessons::linear_example(state.params.dim, state.params.seed);
  const auto sums = rope::linear_attention_sums(ex.q, ex.k, ex.v, 16, 8, 8, 10000.0,
                                                rope::Pairing::interleaved, true, false)
                        .value();
  CHECK(m.summary == sums.kv);
  CHECK(m.denominator == sums.denominator[3]);
  // S = Σₙ Rₙφ(kₙ)vₙᵀ summed here by hand, entry [1][2]: φ = elu + 1, block 0 turns by n rad
  double s12 = 0.0;
  for (int t = 0; t < 16; ++t) {
    const auto phi = [&](double a) { return a > 0.0 ? a + 1.0 : std::exp(a); };
    const double k0 = phi(ex.k[static_cast<std::size_t>(t * 8)]);
    const double k1 = phi(ex.k[static_cast<std::size_t>(t * 8 + 1)]);
    const double rk1 = std::sin(t) * k0 + std::cos(t) * k1;  // coordinate 1 of R_t φ(k_t)
    s12 += rk1 * ex.v[static_cast<std::size_t>(t * 8 + 2)];
  }
  CHECK(m.summary[1 * 8 + 2] == Approx(s12).epsilon(1e-12));
  // the running sums: the last row is z, the first φ(k₀)
  REQUIRE(m.running_z.size() == 16u * 8u);
  for (std::size_t j = 0; j < 8; ++j) {
    CHECK(m.running_z[15 * 8 + j] == Approx(sums.z[j]).epsilon(1e-12));
    CHECK(m.running_z[j] == sums.phi_k[j]);
  }
  // the output row equals core's linear attention
  const auto out = rope::linear_attention(ex.q, ex.k, ex.v, 16, 8, 8, 10000.0,
                                          rope::Pairing::interleaved, true, false)
                       .value();
  for (std::size_t c = 0; c < 8; ++c)
    CHECK(m.output[c] == Approx(out[3 * 8 + c]).epsilon(1e-12));
  CHECK(has_text(views.heatmap.drawn(), "Linear attention: two sums instead of the N × N matrix"));
  CHECK(has_text(views.heatmap.drawn(), format_number(m.denominator, NumberStyle::label, 6)));
  // without RoPE the summary is Σₙ φ(kₙ)vₙᵀ
  set(state.params, "encoding", "none");
  run_frames(ui, state, views, 2);
  const auto plain = rope::linear_attention_sums(ex.q, ex.k, ex.v, 16, 8, 8, 10000.0,
                                                 rope::Pairing::interleaved, false, false)
                         .value();
  CHECK(views.heatmap.linear().model().summary == plain.kv);
  CHECK(plain.kv != sums.kv);
}

TEST_CASE("the linear panel's reuse mode reads every query's row from the one S",
          "[app][heatmap][linear]") {
  UiContext ui(false);
  AppState state;
  Views views;
  for (const char* kv : {"view=heatmap", "linear_sums=true", "linear_reuse=true", "dim=8",
                         "position=5", "encoding=rope"}) {
    const std::string s = kv;
    const auto eq = s.find('=');
    set(state.params, s.substr(0, eq), s.substr(eq + 1));
  }
  run_frames(ui, state, views, 2);
  const LinearPanel::Model& m = views.heatmap.linear().model();
  REQUIRE(m.error.empty());
  REQUIRE(m.reuse);
  REQUIRE(m.rows.size() == 16u * 8u);
  // row t = (R_t φ(q_t))ᵀ S with the panel's one S, formed here: φ = elu + 1, block i of the
  // interleaved pairs turns by t θᵢ, θᵢ = 10000^(−2i/8)
  const auto ex = rope::lessons::linear_example(8, state.params.seed);
  for (int t = 0; t < 16; ++t) {
    std::vector<double> rq(8);
    for (int i = 0; i < 4; ++i) {
      const auto phi = [&](int j) {
        const double a = ex.q[static_cast<std::size_t>(t * 8 + j)];
        return a > 0.0 ? a + 1.0 : std::exp(a);
      };
      const double ang = t * std::pow(10000.0, -2.0 * i / 8.0);
      rq[static_cast<std::size_t>(2 * i)] =
          std::cos(ang) * phi(2 * i) - std::sin(ang) * phi(2 * i + 1);
      rq[static_cast<std::size_t>(2 * i + 1)] =
          std::sin(ang) * phi(2 * i) + std::cos(ang) * phi(2 * i + 1);
    }
    for (std::size_t c = 0; c < 8; ++c) {
      double want = 0.0;
      for (std::size_t i = 0; i < 8; ++i)
        want += rq[i] * m.summary[i * 8 + c];
      CHECK(m.rows[static_cast<std::size_t>(t) * 8 + c] == Approx(want).epsilon(1e-12));
    }
  }
  CHECK(has_text(views.heatmap.drawn(), "one row per query m"));
  CHECK(has_text(views.heatmap.drawn(), "(linearity)"));
  set(state.params, "linear_reuse", "false");
  run_frames(ui, state, views, 2);
  CHECK(has_text(views.heatmap.drawn(), "running sums"));
  CHECK_FALSE(has_text(views.heatmap.drawn(), "one row per query m"));
}

TEST_CASE("the pointers view's polar form labels the lengths and the turns from position 0",
          "[app][pointers]") {
  UiContext ui(false);
  AppState state;
  Views views;
  for (const char* kv : {"view=pointers", "dim=2", "query=0.9,0.5", "key=0.3,1", "position=2",
                         "key_position=1", "polar=true"}) {
    const std::string s = kv;
    const auto eq = s.find('=');
    set(state.params, s.substr(0, eq), s.substr(eq + 1));
  }
  run_frames(ui, state, views, 2);
  const DrawnText& t = views.pointers.drawn();
  CHECK(has_text(t, "φ(m) = mθ = 2 rad"));
  CHECK(has_text(t, "φ(n) = nθ = 1 rad"));
  CHECK(has_text(
      t, "‖f(q, m)‖ = ‖q‖ = " + format_number(std::hypot(0.9, 0.5), NumberStyle::label, 4)));
  CHECK(has_text(
      t, "‖f(k, n)‖ = ‖k‖ = " + format_number(std::hypot(0.3, 1.0), NumberStyle::label, 4)));
  CHECK(has_text(t, "faint: q, k at position 0"));
  set(state.params, "polar", "false");
  run_frames(ui, state, views, 2);
  CHECK_FALSE(has_text(views.pointers.drawn(), "φ(m) = mθ"));
}

TEST_CASE("the heatmap's sentence pair: B reversed holds A's scores at the mirrored cells",
          "[app][heatmap]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set(state.params, "view", "heatmap");
  set(state.params, "content", "sentence");
  set(state.params, "encoding", "none");
  set(state.params, "sentence_pair", "true");
  set(state.params, "sentence_a", "Jane saw a film and then Jane walked home");
  set(state.params, "sentence_b", "home walked Jane then and film a saw Jane");
  run_frames(ui, state, views, 2);
  const auto& mats = views.heatmap.matrices();
  REQUIRE(mats.size() == 2u);
  REQUIRE(views.heatmap.panels().size() == 2u);
  const int n = mats[0].n;
  REQUIRE(n == 9);
  REQUIRE(mats[1].n == 9);
  for (int m = 0; m < n; ++m)
    for (int k = 0; k < n; ++k)
      CHECK(at(mats[0], m, k) == at(mats[1], n - 1 - m, n - 1 - k));
  // RoPE breaks it: "saw" (1) against "film" (3) is 2 apart in A and −2 apart in B
  CHECK(has_text(views.heatmap.drawn(), "sentence A"));
  CHECK(has_text(views.heatmap.drawn(), "sentence B"));
  set(state.params, "encoding", "rope");
  run_frames(ui, state, views, 2);
  REQUIRE(views.heatmap.matrices().size() == 2u);
  CHECK(at(views.heatmap.matrices()[0], 1, 3) != at(views.heatmap.matrices()[1], 7, 5));
  set(state.params, "sentence_pair", "false");
  run_frames(ui, state, views, 2);
  CHECK(views.heatmap.matrices().size() == 1u);
}

// Survive: no crash, no hang, and still a picture a lecturer can read: the view draws its text,
// every line inside its canvas, and none of its numbers is NaN.
TEST_CASE("chart views survive extreme parameters", "[app][headless]") {
  UiContext ui(false);
  for (const ViewId id : views_except({
           {ViewId::pointers,
            "test_headless.cpp, \"the pointers view survives extreme parameters\""},
           {ViewId::derivation, "tests/lessons/test_derivation_view.cpp (it draws a lesson)"},
       })) {
    const char* view = view_name(id);
    for (const char* dim : {"2", "4096"}) {
      AppState state;
      Views views;
      set(state.params, "view", view);
      set(state.params, "dim", dim);
      set_all(state.params, {{"base", "1.0000001"},
                             {"positions", "4096"},
                             {"content", "random"},
                             {"position", "-1e9"},
                             {"key_position", "1e9"},
                             {"max_distance", "100000"},
                             {"pe_dim", "4096"},
                             {"pe_positions", "1024"},
                             {"offset", "1e6"}});
      INFO(view << " dim " << dim);
      run_frames(ui, state, views, 2);
      views.visit(state.params.view, [&](const auto& v) {
        const DrawnText* d = drawn_text(v);
        REQUIRE(d != nullptr);
        REQUIRE_FALSE(d->boxes.empty());
        for (const TextBox& b : d->boxes) {
          INFO("'" << b.text << "'");
          CHECK(inside(b, *d));
          CHECK_FALSE(shows_nan(b.text));
        }
      });
      // Views is destroyed here: a running heatmap computation is cancelled, not waited for
    }
  }
}

TEST_CASE("a rendered heatmap cell has the colour map's colour for its score", "[app][gl]") {
  const auto owned = offscreen_app(1600, 900);
  OffscreenApp& app = *owned;
  AppState state;
  set_all(state.params,
          {{"view", "heatmap"}, {"content", "random"}, {"positions", "16"}, {"dim", "8"}});
  set(state.params, "key_position", "100");  // no frame over the cells
  const Image img = app.render(state, 2);
  const HeatmapView& h = app.views().heatmap;
  REQUIRE(h.panels().size() == 1);
  const auto& pn = h.panels().front();
  const HeatmapScores* s = h.scores(rope::Encoding::rope);
  REQUIRE(s);
  REQUIRE(s->hi > s->lo);
  const float cell = (pn.cells_max.x - pn.cells_min.x) / 16.0f;
  REQUIRE(cell > 10.0f);
  for (auto [m, n] : {std::pair{0, 0}, std::pair{3, 11}, std::pair{15, 2}, std::pair{9, 9}}) {
    const int x = static_cast<int>(pn.cells_min.x + (static_cast<float>(n) + 0.5f) * cell);
    const int y = static_cast<int>(pn.cells_min.y + (static_cast<float>(m) + 0.5f) * cell);
    const ImVec4 want =
        plot::colour_map(plot::colour_t(static_cast<double>(at(*s, m, n)), s->lo, s->hi));
    const Rgb got = pixel(img, x, y);
    INFO("cell m = " << m << ", n = " << n << " score " << at(*s, m, n));
    check_colour(got, rgb(want), 3);
  }
}

TEST_CASE("the axial view: scores from the core, the picture moves with a shifted query",
          "[app][axial]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set(state.params, "view", "axial");
  for (const auto& [k, v] : {std::pair{"dim", "16"},
                             {"base", "100"},
                             {"query", "random"},
                             {"key", "random"},
                             {"grid_size", "8"},
                             {"query_row", "2"},
                             {"query_column", "3"},
                             {"key_row", "5"},
                             {"key_column", "1"},
                             {"shift_row", "2"},
                             {"shift_column", "3"}})
    set(state.params, k, v);
  draw_alone(ui, state, views.axial, ImVec2(1400, 900));
  const AxialView& a = views.axial;
  REQUIRE(a.error().empty());
  REQUIRE(a.panels().size() == 2);
  const auto q = effective_vector(state.params.query, state.params, false);
  const auto k = effective_vector(state.params.key, state.params, true);
  const auto& left = a.panels()[0];
  const auto& right = a.panels()[1];
  CHECK(left.query.row == 2);
  CHECK(right.query.row == 4);
  CHECK(right.query.column == 6);
  CHECK(right.key.row == 7);
  CHECK(right.key.column == 4);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      const auto want =
          rope::axial_score(q, k, {2, 3}, {static_cast<double>(r), static_cast<double>(c)}, 100.0,
                            rope::Pairing::interleaved);
      REQUIRE(want.ok());
      CHECK(left.score[static_cast<std::size_t>(r * 8 + c)] == Approx(want.value()).margin(1e-12));
      // the right grid is the left one moved by (2, 3) where both are on the grid
      if (r + 2 < 8 && c + 3 < 8)
        CHECK(right.score[static_cast<std::size_t>((r + 2) * 8 + c + 3)] ==
              Approx(left.score[static_cast<std::size_t>(r * 8 + c)]).margin(1e-12));
    }
  CHECK(a.key_score() == Approx(a.shifted_key_score()).margin(1e-12));
  CHECK(a.key_score() == Approx(left.score[5 * 8 + 1]).margin(1e-12));
  // the read-out shows both scores; the text stays inside the canvas, no two lines overlap
  const std::string shown = format_number(a.key_score(), NumberStyle::label, 6);
  int readouts = 0;
  for (const TextBox& b : a.drawn().boxes)
    readouts += b.text.find(shown) != std::string::npos ? 1 : 0;
  CHECK(readouts >= 1);
  check_text_fits(a.drawn());
  // d not a multiple of 4: the core's message on screen, no grid
  set(state.params, "dim", "6");
  draw_alone(ui, state, views.axial, ImVec2(1400, 900));
  CHECK(views.axial.error() ==
        "dim: must be a multiple of 4 from 4 to 4096 for axial 2D RoPE, got 6");
  CHECK(views.axial.panels().empty());
  bool message = false;
  for (const TextBox& b : views.axial.drawn().boxes)
    message = message || b.text.find("multiple of 4") != std::string::npos;
  CHECK(message);
}

// Lesson 15: the first steps show one grid (the moved one is explained later), the corners step
// draws the rectangle of the query and key patches.
TEST_CASE("the axial view: the moved grid can be left out, the rectangle drawn", "[app][axial]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set(state.params, "view", "axial");
  for (const auto& [k, v] : {std::pair{"dim", "16"},
                             {"base", "100"},
                             {"query", "random"},
                             {"key", "random"},
                             {"axial_moved", "false"}})
    set(state.params, k, v);
  draw_alone(ui, state, views.axial, ImVec2(1400, 900));
  const AxialView& a = views.axial;
  REQUIRE(a.error().empty());
  REQUIRE(a.panels().size() == 1);
  const float one_side = a.panels()[0].cells_max.x - a.panels()[0].cells_min.x;
  for (const TextBox& b : a.drawn().boxes) {
    CHECK(b.text.find("moved") == std::string::npos);  // neither a title nor the read-out
  }
  check_text_fits(a.drawn());
  // the colour scale spans the grid drawn
  const auto& score = a.panels()[0].score;
  CHECK(a.lo() == *std::min_element(score.begin(), score.end()));
  CHECK(a.hi() == *std::max_element(score.begin(), score.end()));
  set(state.params, "axial_moved", "true");
  draw_alone(ui, state, views.axial, ImVec2(1400, 900));
  REQUIRE(a.panels().size() == 2);
  CHECK(a.panels()[0].cells_max.x - a.panels()[0].cells_min.x < one_side);  // one grid is larger
  // the rectangle: drawn lines at the centres of the query (2, 3) and key (5, 1) patches
  set(state.params, "axial_moved", "false");
  const auto lines_through = [&](bool rectangle) {
    set(state.params, "axial_rectangle", rectangle ? "true" : "false");
    draw_alone(ui, state, views.axial, ImVec2(1400, 900));
    return ImGui::GetDrawData() == nullptr ? 0 : ImGui::GetDrawData()->TotalVtxCount;
  };
  CHECK(lines_through(true) > lines_through(false));
}

TEST_CASE("a rendered axial patch has the colour map's colour for its score", "[app][gl][axial]") {
  const auto owned = offscreen_app(1600, 900);
  OffscreenApp& app = *owned;
  for (const char* theme : {"dark", "light"}) {
    AppState state;
    set(state.params, "view", "axial");
    set(state.params, "theme", theme);
    set(state.params, "query", "random");
    set(state.params, "key", "random");
    const Image img = app.render(state, 2);
    const AxialView& a = app.views().axial;
    REQUIRE(a.panels().size() == 2);
    REQUIRE(a.hi() > a.lo());
    const int n = a.grid_size();
    for (const auto& pn : a.panels()) {
      const float cell = (pn.cells_max.x - pn.cells_min.x) / static_cast<float>(n);
      REQUIRE(cell > 20.0f);
      // the query patch (sampled in its lower right quarter, clear of the outline and its
      // letter), and three other patches at their centres
      const auto r1 = static_cast<int>(pn.query.row), c1 = static_cast<int>(pn.query.column);
      for (const auto& [r, c, fx, fy] :
           {std::tuple{r1, c1, 0.7f, 0.75f}, std::tuple{0, 0, 0.5f, 0.5f},
            std::tuple{7, 6, 0.5f, 0.5f}, std::tuple{4, 7, 0.5f, 0.5f}}) {
        if (r < 0 || c < 0 || r >= n || c >= n) continue;
        if (r == static_cast<int>(pn.key.row) && c == static_cast<int>(pn.key.column)) continue;
        const double v = pn.score[static_cast<std::size_t>(r * n + c)];
        const int x = static_cast<int>(pn.cells_min.x + (static_cast<float>(c) + fx) * cell);
        const int y = static_cast<int>(pn.cells_min.y + (static_cast<float>(r) + fy) * cell);
        const ImVec4 want = plot::colour_map(plot::colour_t(v, a.lo(), a.hi()));
        const Rgb got = pixel(img, x, y);
        INFO(theme << " patch (" << r << ", " << c << ") score " << v);
        check_colour(got, rgb(want), 3);
      }
    }
  }
}

TEST_CASE("missing shader files give a clear message and no crash", "[app][gl]") {
  ::setenv("ROPE_LAB_SHADER_DIR", "/nonexistent/shaders", 1);
  auto created = OffscreenApp::create(800, 600, 1.0f);
  REQUIRE(created.ok());
  AppState state;
  set(state.params, "view", "heatmap");
  created.value()->render(state, 2);
  const std::string error = created.value()->views().heatmap.error();
  ::unsetenv("ROPE_LAB_SHADER_DIR");
  CHECK(error.find("/nonexistent/shaders/heatmap.vert") != std::string::npos);
  CHECK(error.find("not found") != std::string::npos);
}

// A label each view draws inside its canvas in the default state: its title or a line of its
// header, short enough not to wrap at 1280 x 720. Every view of state/view_list.h needs a line
// (a new view fails "renders offscreen with content" until it has one); nullptr for a view
// that records no text, with where its text is checked instead.
namespace {

struct ViewLabel {
  ViewId view;
  const char* label;
};
constexpr ViewLabel kViewLabels[] = {
    {ViewId::pointers, "n − m ="},
    {ViewId::sinusoidal, "Sinusoidal position encoding"},
    {ViewId::trajectory, "Adding a position"},
    {ViewId::sentence, "sentence A"},  // the title is left out at 1280 x 720
    {ViewId::heatmap, "Attention scores"},
    {ViewId::decay, "Long-range decay of RoPE"},
    {ViewId::spectrum, "Frequencies and wavelengths"},
    {ViewId::derivation, nullptr},  // tests/lessons/test_derivation_view.cpp checks its text
    {ViewId::precision, "RoPE in low precision"},
    {ViewId::extension, "Context extension"},
    {ViewId::code, "The same RoPE, three codes"},
    {ViewId::axial, "2D RoPE for images"},
    {ViewId::multimodal, "every token has three positions"},
};

}  // namespace

// Content, not only colour: the view's label drawn inside its canvas, every line of its text
// inside it and free of NaN, no error shown instead of the picture, and the canvas not left
// blank (samples right of the control panel that differ from the background).
TEST_CASE("every chart view renders offscreen with content in both themes", "[app][gl]") {
  const auto owned = offscreen_app(1280, 720);
  OffscreenApp& app = *owned;
  for (const ViewId id : all_views()) {
    const auto entry = std::find_if(std::begin(kViewLabels), std::end(kViewLabels),
                                    [&](const ViewLabel& l) { return l.view == id; });
    INFO(view_name(id) << " view");
    REQUIRE(entry != std::end(kViewLabels));  // add the view's label to kViewLabels
    for (const char* theme : {"dark", "light"}) {
      AppState state;
      state.params.view = id;
      set(state.params, "theme", theme);
      state.params.playing = true;
      const Image img = app.render(state, 3, 1.0 / 60.0);
      INFO(theme << " theme");
      app.views().visit(id, [&](const auto& view) {
        CHECK(view_error(view).empty());
        const DrawnText* d = drawn_text(view);
        if (entry->label == nullptr) return;
        REQUIRE(d != nullptr);
        REQUIRE_FALSE(d->boxes.empty());
        CHECK(has_text(*d, entry->label));
        for (const TextBox& b : d->boxes) {
          INFO("'" << b.text << "'");
          CHECK(inside(b, *d));
          CHECK_FALSE(shows_nan(b.text));
        }
      });
      // count canvas pixels (right of the control panel) that differ from the background
      const ImVec4 bg = clear_colour(state);
      const Rgb b = rgb(bg);
      int drawn = 0;
      for (int y = 40; y < img.height; y += 3)
        for (int x = 420; x < img.width; x += 3) {
          if (distance(pixel(img, x, y), b) > 30) ++drawn;
        }
      INFO(drawn << " drawn samples");
      CHECK(drawn > 1500);
    }
  }
}

// Not run by default (tag [.bench]): `app_tests "[.bench]"` prints the recompute times the
// heatmap needs for N = 2048, d = 128 on this machine.
TEST_CASE("heatmap recompute time, N = 2048, d = 128", "[.bench]") {
  const int threads = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  for (auto content : {Content::shared, Content::random}) {
    AppState state;
    set(state.params, "dim", "128");
    set(state.params, "positions", "2048");
    state.params.content = content;
    const HeatmapInputs in = heatmap_inputs(state.params, rope::Encoding::rope);
    std::vector<double> times;
    for (int rep = 0; rep < 7; ++rep) {
      auto r = compute_heatmap_scores(in, threads);
      REQUIRE(r.ok());
      times.push_back(r.value().seconds);
    }
    if (content == Content::shared) {  // the core kernel alone, for comparison
      const std::vector<float> ones(128, 1.0f);
      std::vector<double> core;
      for (int rep = 0; rep < 7; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = rope::score_matrix_shared(ones, ones, 2048, 128, 10000.0, rope::Encoding::rope,
                                           rope::Pairing::interleaved);
        core.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        REQUIRE(r.ok());
      }
      std::sort(core.begin(), core.end());
      std::printf("  of which rope::score_matrix_shared: median %.2f ms\n", 1e3 * core[3]);
    }
    std::sort(times.begin(), times.end());
    std::printf(
        "heatmap recompute, %s content, N 2048, d 128, %d threads: median %.2f ms, min %.2f ms\n",
        content == Content::shared ? "shared" : "random", threads, 1e3 * times[3], 1e3 * times[0]);
  }
}

// Not run by default: draw commands and vertices per view (a software rasteriser pays per draw
// call as well as per pixel).
TEST_CASE("draw calls per view", "[.bench]") {
  auto created = OffscreenApp::create(1920, 1080, 1.0f);
  REQUIRE(created.ok());
  for (ViewId v : all_views()) {
    AppState state;
    state.params.view = v;
    state.params.playing = true;
    created.value()->render(state, 3, 1.0 / 60.0);
    const ImDrawData* dd = ImGui::GetDrawData();
    int cmds = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i)
      cmds += dd->CmdLists[i]->CmdBuffer.Size;
    std::printf("%-12s %4d draw commands, %6d vertices\n", view_name(v), cmds, dd->TotalVtxCount);
  }
}

// Not run by default: frame times while a 4096 x 4096 matrix is computed in the background and
// when it arrives (upload and colouring pass on the UI thread).
TEST_CASE("heatmap frames while a large matrix is computed", "[.bench]") {
  const auto owned = offscreen_app(1920, 1080);
  OffscreenApp& app = *owned;
  AppState state;
  set_all(state.params, {{"view", "heatmap"}, {"content", "random"}, {"dim", "64"}});
  app.render(state, 3);
  set(state.params, "positions", "4096");
  double worst = 0.0, arrival = 0.0;
  int frames = 0;
  std::printf("frames (ms) while computing:");
  bool was_computing = true;
  while (frames < 2000) {
    const auto f = app.frame(state, 1.0 / 60.0);
    ++frames;
    worst = std::max(worst, f.total());
    std::printf(" %.1f", 1e3 * f.total());
    const bool computing = app.views().heatmap.computing();
    if (was_computing && !computing) break;
    was_computing = computing;
  }
  std::printf("\n");
  std::vector<double> after;  // the upload slices and the colouring pass
  for (int i = 0; i < 20; ++i)
    after.push_back(1e3 * app.frame(state, 1.0 / 60.0).total());
  for (double ms : after)
    arrival = std::max(arrival, ms);
  std::printf(
      "N 4096, d 64, random: %d frames while computing (worst %.1f ms); the 20 frames "
      "after it arrived: worst %.1f ms\n",
      frames, 1e3 * worst, arrival);
  for (double ms : after)
    std::printf(" %.1f", ms);
  std::printf("\n");
}

// [SECTION] the precision view

namespace {

PrecisionView& precision_of(Views& views) {
  return views.precision;
}

}  // namespace

// Window (the control panel takes 400 px) and presentation mode (no panel, the bar at the
// bottom, UI scale 1.5 at 1080 lines and 1 at 720) on 1920 x 1080 and 1280 x 720, and the step's
// half of the derivation view in presentation mode: every line of text inside the canvas and
// none on top of another, for the presets, positions and dimensions a lecture uses.
TEST_CASE("the precision view keeps its text inside the canvas and apart",
          "[app][layout][precision]") {
  UiContext ui(false);
  const char* settings[][3] = {{"bf16", "100000", "16"},    {"fix", "100000", "16"},
                               {"fp16", "1857", "32"},      {"fp16", "70000", "128"},
                               {"bf16", "257", "128"},      {"exact", "-5.5", "2"},
                               {"fp32", "10000000", "4096"}};
  int drawn = 0;
  Views views;
  for (const Area& c : kLectureCanvases) {
    for (const auto& [preset, position, dim] : settings) {
      AppState state;
      set(state.params, "view", "precision");
      set(state.params, "precision", preset);
      set(state.params, "position", position);
      set(state.params, "dim", dim);
      set(state.params, "query", "random");
      state.params.ui_scale = c.scale;
      state.params.theme = c.scale > 1.0 ? Theme::light : Theme::dark;
      INFO("canvas " << c.size.x << " x " << c.size.y << " at scale " << c.scale << ": " << preset
                     << ", m = " << position << ", d = " << dim);
      PrecisionView& view = precision_of(views);
      draw_alone(ui, state, view, c.size);
      check_text_fits(view.drawn());
      ++drawn;
    }
  }
  CHECK(drawn == 42);
}

TEST_CASE("the precision view shows the core's numbers", "[app][precision]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set_all(state.params, {{"view", "precision"},
                         {"precision", "bf16"},
                         {"position", "100000"},
                         {"key_position", "100004"},
                         {"query", "random"},
                         {"key", "random"}});
  PrecisionView& view = precision_of(views);
  draw_alone(ui, state, view, ImVec2(1520, 1050));
  const auto formats = state.params.precision.formats;

  // every dial: the exact pointer along m theta_i, the stored one along the emulated angle
  const auto angles = rope::emulate_angles(1e5, 16, 1e4, formats).value();
  REQUIRE(view.dials().size() == 8);
  for (const PrecisionView::Dial& d : view.dials()) {
    const auto& a = angles[static_cast<std::size_t>(d.pair)];
    const auto len = static_cast<double>(0.9f * d.radius);
    const auto cx = static_cast<double>(d.centre.x), cy = static_cast<double>(d.centre.y);
    INFO("pair " << d.pair);
    CHECK(d.exact_tip.x == Approx(cx + len * std::cos(a.exact_angle)).margin(0.01));
    CHECK(d.exact_tip.y == Approx(cy - len * std::sin(a.exact_angle)).margin(0.01));
    CHECK(d.stored_tip.x == Approx(cx + len * std::cos(a.angle)).margin(0.01));
    CHECK(d.stored_tip.y == Approx(cy - len * std::sin(a.angle)).margin(0.01));
  }
  // the sweep is the core's, and fp32 is drawn beside it
  const PrecisionView::Sweep* sw = view.sweep();
  REQUIRE(sw);
  const auto want = rope::sweep_angle_error(16, 1e4, formats, sw->positions).value();
  CHECK(sw->positions.front() == 1.0);
  CHECK(sw->positions.back() == 1e7);
  CHECK(sw->error == want.max_abs_error);
  CHECK(sw->reference.size() == sw->positions.size());
  // the strip: 24 integers around m as bf16 stores them (all 99 840 here: the spacing is 512)
  const PrecisionView::Now* now = view.now();
  REQUIRE(now);
  CHECK(now->strip_first == 100000.0 - 11.0);
  CHECK(now->stored == rope::collapsed_positions(99989, 24, rope::FloatFormat::bf16).value());
  CHECK(now->stored.front() == 99840.0);
  // the scores: exact as the pointers view computes it, emulated with the stored cos / sin
  const auto q = effective_vector(state.params.query, state.params, false);
  const auto k = effective_vector(state.params.key, state.params, true);
  const auto th = rope::frequencies(16, 1e4).value();
  std::vector<double> rq(16), rk(16);
  rope::apply_rope<double>(q, rq, 1e5, th, rope::Pairing::interleaved);
  rope::apply_rope<double>(k, rk, 100004, th, rope::Pairing::interleaved);
  double exact = 0.0, emulated = 0.0;
  const auto eq = rope::rotate_emulated(q, angles, rope::Pairing::interleaved).value();
  const auto ek = rope::rotate_emulated(k, rope::emulate_angles(100004, 16, 1e4, formats).value(),
                                        rope::Pairing::interleaved)
                      .value();
  for (std::size_t j = 0; j < 16; ++j) {
    exact += rq[j] * rk[j];
    emulated += eq[j] * ek[j];
  }
  CHECK(now->score_exact == exact);
  CHECK(now->score_emulated == emulated);
  CHECK(std::fabs(exact - emulated) > 1e-3);  // bf16 at 10^5 changes the score
  // the numbers are on screen: pair 1's stored angle 31 616 and the strip's 99 840
  const auto on_screen = [&](const std::string& s) {
    for (const TextBox& b : view.drawn().boxes)
      if (b.text.find(s) != std::string::npos || b.text.find(nobreak(s)) != std::string::npos)
        return true;
    return false;
  };
  CHECK(on_screen(format_number(31616.0, NumberStyle::tick)));
  CHECK(on_screen(format_number(99840.0, NumberStyle::tick)));
  CHECK(on_screen("RoPE in low precision"));
  // the sweep is computed once: a new position does not recompute it
  const PrecisionView::Sweep* before = view.sweep();
  REQUIRE(before != nullptr);
  std::vector<double> first_error;
  if (before) first_error = before->error;
  set(state.params, "position", "1857");
  draw_alone(ui, state, view, ImVec2(1520, 1050));
  CHECK(view.sweep() == before);
  CHECK(view.sweep()->error == first_error);
  CHECK(view.now()->angles[0].exact_angle == 1857.0);
}

TEST_CASE("the precision view survives extreme parameters", "[app][headless][precision]") {
  UiContext ui(false);
  for (const char* preset : {"bf16", "fp16", "exact"}) {
    for (const char* dim : {"2", "4096"}) {
      for (const char* position : {"-1e9", "1e9", "65519.5"}) {
        AppState state;
        Views views;
        set(state.params, "view", "precision");
        set(state.params, "precision", preset);
        set(state.params, "dim", dim);
        set(state.params, "base", "1.0000001");
        set(state.params, "position", position);
        set(state.params, "precision_pair", "2047");
        INFO(preset << " dim " << dim << " m " << position);
        run_frames(ui, state, views, 2);
        CHECK_FALSE(views.precision.drawn().boxes.empty());
        CHECK(views.precision.now()->pair == std::stoi(dim) / 2 - 1);
      }
    }
  }
}

// The stored pointer is drawn in the query colour and the exact one in the key colour, where
// the core puts them: bf16 at m = 100 000, d = 16, where most pairs are off by radians.
TEST_CASE("the precision view's pointers have their colours at their computed places",
          "[app][gl][precision]") {
  const auto owned = offscreen_app(1920, 1080);
  OffscreenApp& app = *owned;
  AppState state;
  set_all(state.params, {{"view", "precision"}, {"precision", "bf16"}, {"position", "100000"}});
  for (const char* theme : {"dark", "light"}) {
    set(state.params, "theme", theme);
    const Image img = app.render(state, 2);
    const Palette& pal = palette(state.params.theme);
    const auto angles = rope::emulate_angles(1e5, 16, 1e4, state.params.precision.formats).value();
    const auto& dials = app.views().precision.dials();
    REQUIRE(dials.size() == 8);
    int apart = 0;
    for (const PrecisionView::Dial& d : dials) {
      const auto& a = angles[static_cast<std::size_t>(d.pair)];
      if (std::fabs(a.wrapped_error) < 0.8) continue;  // the two pointers would overlap
      ++apart;
      // 70 % of the way along each shaft: away from the arrowhead, the ring and the error arc
      const auto along = [&](ImVec2 tip) {
        return ImVec2(d.centre.x + 0.7f * (tip.x - d.centre.x),
                      d.centre.y + 0.7f * (tip.y - d.centre.y));
      };
      const auto near = [&](ImVec2 p, ImU32 colour) {
        // the nearest of the 3 x 3 pixels around p (a 2-3 px line may fall between centres)
        int best = 1 << 30;
        const auto want = ImGui::ColorConvertU32ToFloat4(colour);
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const Rgb c = pixel(img, static_cast<int>(p.x) + dx, static_cast<int>(p.y) + dy);
            best = std::min(best, distance(c, rgb(want)));
          }
        return best;
      };
      INFO(theme << " pair " << d.pair << " error " << a.wrapped_error);
      CHECK(near(along(d.stored_tip), pal.query) <= 40);
      CHECK(near(along(d.exact_tip), pal.key) <= 40);
      CHECK(near(along(d.stored_tip), pal.key) > 120);  // not the exact pointer's colour there
    }
    CHECK(apart >= 2);
  }
}

TEST_CASE("lesson prose keeps numbers, equalities and short pairs on one line", "[app][text]") {
  const std::string nb = kNbsp;
  CHECK(glue_prose("base 500 000 here") == "base 500" + nb + "000 here");
  CHECK(glue_prose("1 000 000") == "1" + nb + "000" + nb + "000");
  CHECK(glue_prose("(L = 2048) and") == "(L" + nb + "=" + nb + "2048) and");
  CHECK(glue_prose("base · 2π") == "base" + nb + "·" + nb + "2π");
  CHECK(glue_prose("moved by (2, 3).") == "moved by (2," + nb + "3).");
  CHECK(glue_prose("offset (3, −2)") == "offset (3," + nb + "−2)");
  // ordinary spaces stay breaks: words, lists, numbers that are not thin groups
  CHECK(glue_prose("pairs 0 to 28, 35 to 63") == "pairs 0 to 28, 35 to 63");
  CHECK(glue_prose("the values 0, 2, 4, 6, 8, 10, 12, 14 here") ==
        "the values 0, 2, 4, 6, 8, 10, 12, 14 here");
  CHECK(glue_prose("at 2048 1234") == "at 2048 1234");
  CHECK(glue_prose("") == "");
  CHECK(glue_prose(" = ") == " = ");
}

TEST_CASE(
    "a heatmap computed a slice at a time (the browser build) is the one-go matrix, bit for "
    "bit",
    "[app][heatmap][web]") {
  std::vector<HeatmapInputs> panels;
  for (auto [content, mode, causal] : {std::tuple{Content::random, ScoreMode::softmax, true},
                                       std::tuple{Content::sentence, ScoreMode::scaled, false},
                                       std::tuple{Content::shared, ScoreMode::raw, false}}) {
    AppState state;
    set(state.params, "dim", "64");
    set(state.params, "positions", "700");
    state.params.content = content;
    state.params.score_mode = mode;
    state.params.causal = causal;
    panels.push_back(heatmap_inputs(state.params, rope::Encoding::rope));
  }
  HeatmapSlices slices(panels);
  int steps = 1;
  while (!slices.step(0.0))  // one chunk of rows per step: many steps
    ++steps;
  REQUIRE(slices.error().empty());
  CHECK(steps >= 8);  // 700 rows of the random panel in chunks of 93 (4 M multiply-adds)
  REQUIRE(slices.panels().size() == panels.size());
  for (std::size_t i = 0; i < panels.size(); ++i) {
    auto whole = compute_heatmap_scores(panels[i], 2);
    REQUIRE(whole.ok());
    const HeatmapScores& a = slices.panels()[i];
    const HeatmapScores& b = whole.value();
    CHECK(a.n == b.n);
    CHECK(a.lo == b.lo);
    CHECK(a.hi == b.hi);
    CHECK(a.words == b.words);
    REQUIRE(a.s.size() == b.s.size());
    CHECK(std::memcmp(a.s.data(), b.s.data(), a.s.size() * sizeof(float)) == 0);
  }
  HeatmapSlices bad({HeatmapInputs{}});  // 0 positions: refused with a reason, not a crash
  CHECK(bad.step(1.0));
  CHECK_FALSE(bad.error().empty());
}

// The read-out's and the hover's score is the exact one (classroom review D5): every cell equals
// the double-precision reference (rope::score_matrix, then transform_scores in double) for every
// content, encoding, score mode and mask, and the fp32 colour buffer stays within its rounding.
TEST_CASE("heatmap: the exact cell score is the double reference, not the fp32 colour",
          "[app][heatmap]") {
  constexpr int n = 12, d = 8;
  for (Content content : {Content::shared, Content::random})
    for (rope::Encoding e :
         {rope::Encoding::none, rope::Encoding::sinusoidal, rope::Encoding::rope})
      for (ScoreMode mode : {ScoreMode::raw, ScoreMode::scaled, ScoreMode::softmax})
        for (bool causal : {false, true}) {
          Params p;
          p.positions = n;
          p.dim = d;
          p.base = 100.0;
          p.seed = 7;
          p.content = content;
          p.score_mode = mode;
          p.causal = causal;
          p.pairing = rope::Pairing::half_split;
          REQUIRE(set_param(p, "query", "0.9,0.5,-0.25,1,0.3,-2,0.125,0.7").ok());
          REQUIRE(set_param(p, "key", "0.3,1,0.5,-0.5,2,0.1,-1,0.25").ok());
          const HeatmapInputs in = heatmap_inputs(p, e);
          // the reference: the content rows in double, score_matrix, transform_scores
          std::vector<double> q, k;
          if (content == Content::shared) {
            for (int m = 0; m < n; ++m) {
              const auto q1 = effective_vector(p.query, d, p.seed, false);
              const auto k1 = effective_vector(p.key, d, p.seed, true);
              q.insert(q.end(), q1.begin(), q1.end());
              k.insert(k.end(), k1.begin(), k1.end());
            }
          } else {
            q = rope::random_vectors(n, d, p.seed);
            k = rope::random_vectors(n, d, p.seed + 1);
          }
          auto ref = rope::score_matrix(q, k, n, d, p.base, e, p.pairing);
          REQUIRE(ref.ok());
          std::vector<double> s = ref.value();
          rope::transform_scores(s, n, d,
                                 {mode != ScoreMode::raw, mode == ScoreMode::softmax, causal});
          auto fast = compute_heatmap_scores(in, 1);
          REQUIRE(fast.ok());
          ExactScores exact;
          for (int m = 0; m < n; ++m)
            for (int c = 0; c < n; ++c) {
              INFO("content " << static_cast<int>(content) << " encoding " << rope::encoding_name(e)
                              << " mode " << static_cast<int>(mode) << " causal " << causal
                              << " cell " << m << ", " << c);
              const double want = s[static_cast<std::size_t>(m * n + c)];
              auto got = exact.at(in, m, c);
              REQUIRE(got.ok());
              if (std::isinf(want)) {  // masked, no softmax
                CHECK(std::isnan(got.value()));
                continue;
              }
              CHECK(got.value() == Approx(want).epsilon(1e-13).margin(1e-14));
              const double colour =
                  static_cast<double>(fast.value().s[static_cast<std::size_t>(m * n + c)]);
              CHECK(colour == Approx(want).epsilon(1e-5).margin(1e-5));
            }
        }
}

TEST_CASE("heatmap: the read-out shows 0.77 for q·k = 0.77, not fp32 noise", "[app][heatmap]") {
  Params p;
  p.dim = 2;
  p.encoding = rope::Encoding::none;
  REQUIRE(set_param(p, "query", "0.9,0.5").ok());
  REQUIRE(set_param(p, "key", "0.3,1").ok());
  ExactScores exact;
  auto v = exact.at(heatmap_inputs(p, rope::Encoding::none), 3, 9);
  REQUIRE(v.ok());
  CHECK(format_number(v.value(), NumberStyle::tooltip) == "0.77");
  // with a scaling on: a²·q·R(θ′, n − m)k, from the same θ′ and a as the matrix
  Params y;
  y.dim = 16;
  y.positions = 64;
  REQUIRE(set_param(y, "scaling", "yarn").ok());
  REQUIRE(set_param(y, "factor", "16").ok());
  const HeatmapInputs in = heatmap_inputs(y, rope::Encoding::rope);
  auto fast = compute_heatmap_scores(in, 1);
  REQUIRE(fast.ok());
  for (int c : {0, 5, 63}) {
    auto e = exact.at(in, 2, c);
    REQUIRE(e.ok());
    CHECK(e.value() ==
          Approx(static_cast<double>(fast.value().s[static_cast<std::size_t>(2 * 64 + c)]))
              .epsilon(1e-5));
  }
}

// The stride (review D8): row and column i at position i·s. The exact cell against the
// definition in double, the fp32 colours within their rounding, for RoPE at θ and with a scaling.
TEST_CASE("heatmap: a stride puts cell i at position i·s, exactly", "[app][heatmap]") {
  for (bool scaled : {false, true}) {
    Params p;
    p.positions = 16;
    p.dim = 8;
    p.stride = 5;
    p.content = Content::random;
    if (scaled) {
      REQUIRE(set_param(p, "scaling", "yarn").ok());
      REQUIRE(set_param(p, "factor", "4").ok());
    }
    const HeatmapInputs in = heatmap_inputs(p, rope::Encoding::rope);
    REQUIRE(in.stride == 5);
    auto fast = compute_heatmap_scores(in, 1);
    REQUIRE(fast.ok());
    const auto f = drawn_frequencies(p);
    REQUIRE(f.ok());
    const double a = f.value().attention_factor;
    const auto q = rope::random_vectors(16, 8, p.seed), k = rope::random_vectors(16, 8, p.seed + 1);
    ExactScores exact;
    for (int m = 0; m < 16; m += 3)
      for (int c = 0; c < 16; c += 2) {
        std::vector<double> qm(q.begin() + m * 8, q.begin() + m * 8 + 8),
            kn(k.begin() + c * 8, k.begin() + c * 8 + 8);
        std::vector<double> rq(8), rk(8);
        rope::apply_rope<double>(qm, rq, 5.0 * m, f.value().theta_drawn, p.pairing);
        rope::apply_rope<double>(kn, rk, 5.0 * c, f.value().theta_drawn, p.pairing);
        double want = 0.0;
        for (int j = 0; j < 8; ++j)
          want += a * a * rq[static_cast<std::size_t>(j)] * rk[static_cast<std::size_t>(j)];
        auto got = exact.at(in, m, c);
        REQUIRE(got.ok());
        INFO("scaled " << scaled << " cell " << m << ", " << c);
        CHECK(got.value() == Approx(want).epsilon(1e-13).margin(1e-14));
        CHECK(static_cast<double>(fast.value().s[static_cast<std::size_t>(m * 16 + c)]) ==
              Approx(want).epsilon(1e-5).margin(1e-5));
      }
  }
  // sentence content is its words: no stride
  Params w;
  w.content = Content::sentence;
  w.stride = 8;
  CHECK(heatmap_inputs(w, rope::Encoding::rope).stride == 1);
}

// The band and the cosine mode against a reference built here: the content rows in double with the
// other blocks zeroed by hand, rope::score_matrix, then 1 + S_mn / (|q'_m| |k'_n|) with the
// lengths of the encoded rows formed here too (RoPE: the content's own, a rotation keeps them;
// sinusoidal: of q_m + PE_m).
TEST_CASE("heatmap: pair bands and the cosine mode, fast and exact, against a reference",
          "[app][heatmap]") {
  constexpr int n = 10, d = 12;
  for (Content content : {Content::shared, Content::random})
    for (rope::Encoding e :
         {rope::Encoding::none, rope::Encoding::sinusoidal, rope::Encoding::rope})
      for (rope::PairBand band : {rope::PairBand::all, rope::PairBand::fast, rope::PairBand::slow})
        for (ScoreMode mode : {ScoreMode::raw, ScoreMode::cosine}) {
          Params p;
          p.positions = n;
          p.dim = d;
          p.base = 100.0;
          p.seed = 3;
          p.content = content;
          p.score_mode = mode;
          p.pair_band = band;
          p.pairing = rope::Pairing::interleaved;
          REQUIRE(set_param(p, "query", "random").ok());
          REQUIRE(set_param(p, "key", "random").ok());
          const HeatmapInputs in = heatmap_inputs(p, e);
          std::vector<double> q, k;
          if (content == Content::shared) {
            for (int m = 0; m < n; ++m) {
              const auto q1 = effective_vector(p.query, d, p.seed, false);
              const auto k1 = effective_vector(p.key, d, p.seed, true);
              q.insert(q.end(), q1.begin(), q1.end());
              k.insert(k.end(), k1.begin(), k1.end());
            }
          } else {
            q = rope::random_vectors(n, d, p.seed);
            k = rope::random_vectors(n, d, p.seed + 1);
          }
          // d = 12: 6 blocks; fast keeps blocks 0, 1 (coordinates 0 ... 3), slow blocks 4, 5
          for (int m = 0; m < n; ++m)
            for (int j = 0; j < d; ++j) {
              const bool kept =
                  band == rope::PairBand::all || (band == rope::PairBand::fast ? j < 4 : j >= 8);
              if (kept) continue;
              q[static_cast<std::size_t>(m * d + j)] = 0.0;
              k[static_cast<std::size_t>(m * d + j)] = 0.0;
            }
          auto ref = rope::score_matrix(q, k, n, d, p.base, e, p.pairing);
          REQUIRE(ref.ok());
          std::vector<double> s = ref.value();
          if (mode == ScoreMode::cosine) {
            const auto th = rope::frequencies(d, p.base).value();
            const auto length = [&](const std::vector<double>& x, int m) {
              double s2 = 0.0;
              const std::vector<double> pe = rope::sinusoidal_vector(m, th);
              for (int j = 0; j < d; ++j) {
                const double v =
                    x[static_cast<std::size_t>(m * d + j)] +
                    (e == rope::Encoding::sinusoidal ? pe[static_cast<std::size_t>(j)] : 0.0);
                s2 += v * v;
              }
              return std::sqrt(s2);
            };
            for (int m = 0; m < n; ++m)
              for (int c = 0; c < n; ++c) {
                const double l = length(q, m) * length(k, c);
                double& v = s[static_cast<std::size_t>(m * n + c)];
                v = 1.0 + (l > 0.0 ? v / l : 0.0);
              }
          }
          auto fast = compute_heatmap_scores(in, 1);
          REQUIRE(fast.ok());
          if (mode == ScoreMode::cosine) {
            CHECK(fast.value().lo == 0.0);
            CHECK(fast.value().hi == 2.0);
          }
          ExactScores exact;
          for (int m = 0; m < n; ++m)
            for (int c = 0; c < n; ++c) {
              INFO("content " << static_cast<int>(content) << " encoding " << rope::encoding_name(e)
                              << " band " << static_cast<int>(band) << " mode "
                              << static_cast<int>(mode) << " cell " << m << ", " << c);
              const double want = s[static_cast<std::size_t>(m * n + c)];
              auto got = exact.at(in, m, c);
              REQUIRE(got.ok());
              CHECK(got.value() == Approx(want).epsilon(1e-12).margin(1e-13));
              const double colour =
                  static_cast<double>(fast.value().s[static_cast<std::size_t>(m * n + c)]);
              CHECK(colour == Approx(want).epsilon(1e-5).margin(1e-5));
              if (mode == ScoreMode::cosine) {
                CHECK(want >= -1e-12);
                CHECK(want <= 2.0 + 1e-12);
              }
            }
        }
}

// Lesson 13's picture: q = k = (1, ..., 1), the fastest quarter draws a diagonal that is the
// largest score of every row; the slowest quarter the same score, within 0.1 %, everywhere.
TEST_CASE("heatmap: the fastest pairs draw a diagonal, the slowest a flat matrix",
          "[app][heatmap]") {
  AppState state;
  set_all(state.params, {{"view", "heatmap"},
                         {"dim", "128"},
                         {"content", "shared"},
                         {"query", "ones"},
                         {"key", "ones"},
                         {"positions", "64"},
                         {"pair_band", "fast"}});
  auto fast = compute_heatmap_scores(heatmap_inputs(state.params, rope::Encoding::rope), 1);
  set(state.params, "pair_band", "slow");
  auto slow = compute_heatmap_scores(heatmap_inputs(state.params, rope::Encoding::rope), 1);
  REQUIRE(fast.ok());
  REQUIRE(slow.ok());
  for (int m = 0; m < 64; ++m)
    for (int c = 0; c < 64; ++c) {
      if (c != m) CHECK(at(fast.value(), m, c) < at(fast.value(), m, m) - 1.0f);
      CHECK(at(slow.value(), m, c) == Approx(at(slow.value(), 0, 0)).epsilon(1e-3));
    }
  CHECK(at(fast.value(), 0, 0) == Approx(32.0));  // 16 pairs of (1, 1): 2 each
  CHECK(at(slow.value(), 0, 0) == Approx(32.0));
}

TEST_CASE("the sinusoidal view: a learned table ends at L, x + PE across the dimensions",
          "[app][sinusoidal]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set_all(state.params, {{"view", "sinusoidal"},
                         {"pe_dim", "16"},
                         {"pe_positions", "40"},
                         {"learned_positions", "24"},
                         {"position", "30"},
                         {"seed", "5"}});
  run_frames(ui, state, views, 2);
  const SinusoidalView& v = views.sinusoidal;
  REQUIRE(v.rows() == 40);
  const std::vector<double> learned = rope::random_vectors(24, 16, 5);
  for (std::size_t j = 0; j < 40u * 16u; ++j)
    CHECK(v.table()[j] == (j < learned.size() ? learned[j] : 0.0));
  CHECK(has_text(v.drawn(), "A learned position table"));
  CHECK(has_text(v.drawn(), "none for pos ≥ L = 24"));

  set_all(state.params, {{"learned_positions", "0"}, {"pe_add_ones", "true"}, {"offset", "1"}});
  run_frames(ui, state, views, 2);
  CHECK(has_text(v.drawn(), "Sinusoidal position encoding"));
  CHECK(v.table()[1] == 1.0);  // the formula again: cos(0) at pos 0, j = 1
}

// Lesson 7's picture: the panel's fit is core's, and the lesson quantity reads the same numbers.
TEST_CASE("the heatmap's diagonal fit panel: one diagonal's RoPE scores against q·k",
          "[app][heatmap]") {
  UiContext ui(false);
  AppState state;
  Views views;
  set_all(state.params, {{"view", "heatmap"},
                         {"diagonal_fit", "true"},
                         {"content", "random"},
                         {"dim", "8"},
                         {"positions", "32"},
                         {"position", "2"},
                         {"key_position", "9"},
                         {"seed", "4"}});
  run_frames(ui, state, views, 2);
  const DiagonalFitPanel& panel = views.heatmap.diagonal_fit();
  const auto& m = panel.model();
  REQUIRE(m.error.empty());
  REQUIRE(m.fit.plain.size() == 25u);  // cells (j, j + 7), j = 0 ... 24
  const auto q = rope::random_vectors(32, 8, 4), k = rope::random_vectors(32, 8, 5);
  const auto want = rope::diagonal_fit(q, k, 32, 8, state.params.base, state.params.pairing, 7);
  REQUIRE(want.ok());
  CHECK(m.fit.residual == want.value().residual);
  CHECK(m.fit.residual > 0.1);
  const auto lesson = rope::lessons::QuantityContext(state.params).evaluate("bias_residual");
  REQUIRE(lesson.ok());
  CHECK(lesson.value()[0] == Approx(m.fit.residual).epsilon(1e-12));
  CHECK(has_text(views.heatmap.drawn(), "One factor per distance?"));
  // no diagonal: n − m outside the matrix gives a message, not a crash
  set(state.params, "key_position", "200");
  run_frames(ui, state, views, 2);
  CHECK_FALSE(views.heatmap.diagonal_fit().model().error.empty());
}

// Classroom review D12: in lesson 8 step 5 (r = 5000 of 20 000) the "|n − m| = 5000" label sat on
// the curve at the foot of the plot. It goes where no curve passes under it (the plot's top
// here), and D(5000)'s label keeps clear of it and of the curve too.
TEST_CASE("the decay view's distance label stays off the curve (review D12)", "[app][decay]") {
  UiContext ui(false);
  for (const Area& area : kLectureCanvases) {
    INFO("canvas " << area.size.x << " x " << area.size.y << " at scale " << area.scale);
    DecayView view;
    AppState state;
    state.params.ui_scale = area.scale;
    set_all(state.params, {{"dim", "128"},
                           {"base", "10000"},
                           {"position", "0"},
                           {"key_position", "5000"},
                           {"max_distance", "20000"}});
    draw_alone(ui, state, view, area.size);
    check_text_fits(view.drawn());  // the two labels apart from each other and the rest
    const plot::Frame& fr = view.frame();
    REQUIRE(fr.area_max.x > fr.area_min.x);
    const float pad = std::round(5.0f * static_cast<float>(area.scale));  // label_box_padding
    for (const char* label : {"|n − m| = 5", "D(5"}) {                    // 5000, or 5 000 grouped
      const TextBox* box = nullptr;
      for (const TextBox& b : view.drawn().boxes)
        if (b.text.rfind(label, 0) == 0) box = &b;
      INFO(label);
      REQUIRE(box != nullptr);
      // every curve's points under the label's box (with its padding) pass above or below it
      const double r0 = std::max(0.0, std::floor(fr.x.from_px(box->min.x - pad)));
      const double r1 = std::ceil(fr.x.from_px(box->max.x + pad));
      int under = 0;
      for (const DecayView::Curve& c : view.curves())
        for (double r = r0; r <= r1 && r < static_cast<double>(c.values.size()); r += 1.0) {
          const float y = fr.y.to_px(c.values[static_cast<std::size_t>(r)] * c.scale);
          ++under;
          const bool clear = y < box->min.y - 0.5f * pad || y > box->max.y + 0.5f * pad;
          if (!clear) {
            INFO("r = " << r << " at y " << y << ", box y " << box->min.y << " … " << box->max.y);
            CHECK(clear);
            break;
          }
        }
      CHECK(under > 0);
    }
  }
}

// Classroom review D20: the sinusoidal view's title was bold 38 px in lesson 2 step 1 and regular
// 26 px in step 3 (a taller header there fell back to the regular font). On one canvas the title
// now has one font, bold, in both steps, or is left out (the lesson names the step).
TEST_CASE("the sinusoidal view's title keeps its font from step to step (review D20)",
          "[app][sinusoidal]") {
  UiContext ui(false);
  for (const Area& area : kLectureCanvases) {
    INFO("canvas " << area.size.x << " x " << area.size.y << " at scale " << area.scale);
    std::vector<float> heights;  // of the title's first line, one per step that shows it
    std::vector<TextBox> lines;  // that line
    for (const bool step3 : {false, true}) {
      SinusoidalView view;
      AppState state;
      state.params.ui_scale = area.scale;
      if (step3)  // lesson 2 step 3: x + PE across d = 64, the rows m and m + 1
        set_all(state.params, {{"dim", "64"},
                               {"pe_dim", "64"},
                               {"pe_positions", "64"},
                               {"pe_add_ones", "true"},
                               {"position", "20"},
                               {"offset", "1"}});
      else  // step 1
        set_all(state.params, {{"dim", "16"},
                               {"pe_dim", "16"},
                               {"pe_positions", "128"},
                               {"offset", "0"},
                               {"position", "10"}});
      draw_alone(ui, state, view, area.size);
      check_text_fits(view.drawn());
      for (const TextBox& b : view.drawn().boxes)
        if (b.text.rfind("Sinusoidal", 0) == 0) {
          heights.push_back(b.max.y - b.min.y);
          lines.push_back(b);
          break;
        }
    }
    if (heights.size() == 2) CHECK(heights[0] == heights[1]);
    // the title or the heading font, both bold, never the regular font of the same height: the
    // line is as wide as one of them sets it
    const Fonts& f = ui.fonts();
    for (const TextBox& b : lines) {
      INFO(b.text);
      const float w = b.max.x - b.min.x;
      CHECK((w == Approx(text_size(f.title, b.text).x) ||
             w == Approx(text_size(f.heading, b.text).x)));
      CHECK(w != Approx(text_size(f.large, b.text).x));
    }
  }
}
