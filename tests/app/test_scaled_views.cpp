// Context extension in the other views (issue 11): with a scaling on, the pointers, heatmap,
// decay and spectrum views compute with θ′ and the attention factor a, and say so; with none,
// they are what they were. Values are checked against numbers worked out independently here
// (θ′ = θ/s for PI, YaRN's 0.1·ln s + 1, a score summed by hand over the pairs).
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "export/view_data.h"
#include "lessons/quantities.h"
#include "rope/decay.h"
#include "rope/frequencies.h"
#include "rope/random.h"
#include "rope/rotation.h"
#include "rope/scaling.h"
#include "state/params.h"
#include "state/scaling_params.h"
#include "ui/ui_context.h"
#include "view_harness.h"
#include "views/decay_view.h"
#include "views/heatmap_view.h"
#include "views/pointers_view.h"
#include "views/spectrum_view.h"
#include "views/view_scaling.h"

using namespace rope::app;
using namespace rope::app::view_test;

namespace {

// a²·(R′_m q)·(R′_n k) summed pair by pair in complex form, interleaved pairs:
// Σ_i a²·Re(conj(q_i e^{i m θ′_i}) · k_i e^{i n θ′_i}).
double score_by_hand(const std::vector<double>& q, const std::vector<double>& k, double m, double n,
                     const std::vector<double>& th, double a) {
  double s = 0.0;
  for (std::size_t i = 0; i < th.size(); ++i) {
    const double phi = (n - m) * th[i];
    const double re = q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1];
    const double im = q[2 * i] * k[2 * i + 1] - q[2 * i + 1] * k[2 * i];
    s += re * std::cos(phi) - im * std::sin(phi);
  }
  return a * a * s;
}

// File ▸ Export data of the view in `state`, read back: column name → its values.
std::map<std::string, std::vector<double>> exported_columns(const Params& p) {
  // one file per test process: ctest -j runs several cases of this file at once, and a shared
  // name let one read the other's export (a 201-row decay where 41 were asked)
  const auto path = std::filesystem::temp_directory_path() /
                    ("rope-lab-scaled-view-data-" + std::to_string(::getpid()) + ".csv");
  REQUIRE(write_view_export(p, path).ok());
  std::ifstream in(path);
  std::string line, cell;
  std::getline(in, line);
  std::vector<std::string> names;
  for (std::istringstream head(line); std::getline(head, cell, ',');)
    names.push_back(cell);
  std::map<std::string, std::vector<double>> columns;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    for (const std::string& name : names) {
      std::getline(row, cell, ',');
      columns[name].push_back(std::stod(cell));
    }
  }
  std::filesystem::remove(path);
  return columns;
}

}  // namespace

TEST_CASE("pointers: θ′ and a² with a scaling on, θ unchanged with none", "[app][scaled_views]") {
  UiContext ui(false);
  AppState state;
  Params& p = state.params;
  set_all(p, {{"dim", "16"},
              {"query", "random"},
              {"key", "random"},
              {"position", "5"},
              {"key_position", "12"}});
  PointersView plain;
  draw_alone(ui, state, plain, ImVec2(1540, 1000));
  const auto theta = rope::frequencies(16, 10000.0).value();
  REQUIRE(plain.thetas() == theta);
  CHECK(plain.attention_factor() == 1.0);
  CHECK_FALSE(has_text(plain.drawn(), "θ′"));
  const double unscaled = plain.score();

  // YaRN s = 16 at L = 4096 (Llama 2's context) on d = 16
  set_all(p, {{"scaling", "yarn"}, {"factor", "16"}, {"original_context", "4096"}});
  PointersView view;
  draw_alone(ui, state, view, ImVec2(1540, 1000));
  const auto sf = rope::scaled_frequencies(16, 10000.0, p.extension.scaling).value();
  REQUIRE(view.thetas() == sf.theta_scaled);
  CHECK(view.original_thetas() == theta);
  const double a = 0.1 * std::log(16.0) + 1.0;  // YaRN's default attention factor
  CHECK(view.attention_factor() == Approx(a).epsilon(1e-15));
  // the slowest pair turns 4096·θ_7/2π = 0.65 < 1 times in L: interpolated, θ/16
  CHECK(view.thetas().back() == Approx(theta.back() / 16.0).epsilon(1e-14));
  CHECK(view.thetas().front() == theta.front());  // the fastest kept
  const auto q = effective_vector(p.query, p, false);
  const auto k = effective_vector(p.key, p, true);
  const double expected = score_by_hand(q, k, 5.0, 12.0, sf.theta_scaled, a);
  CHECK(view.score() == Approx(expected).epsilon(1e-12));
  CHECK(view.relative() == Approx(expected).epsilon(1e-12));
  CHECK(std::fabs(view.score() - unscaled) > 1e-3 * std::fabs(unscaled));
  CHECK(has_text(view.drawn(), "YaRN"));
  // the dials' labels name θ and θ′: pair 3 turns r = 4096·0.0316/2π = 20.6 times in L, inside
  // YaRN's ramp at d = 16 (pairs 2 … 6), so it is blended
  CHECK(has_text(view.drawn(), "θ = 0.0316"));
  CHECK(has_text(view.drawn(), "θ′ = 0.0242"));
  CHECK(has_text(view.drawn(), "faint: q, k at the original θ"));
  check_text_fits(view.drawn());

  // back to none: the same picture as before
  set(p, "scaling", "none");
  PointersView again;
  draw_alone(ui, state, again, ImVec2(1540, 1000));
  CHECK(again.score() == unscaled);
  CHECK(again.thetas() == theta);
}

TEST_CASE("pointers at d = 128: θ′ᵢ/θᵢ readable by runs of pairs when the dials have no labels",
          "[app][scaled_views]") {
  UiContext ui(false);
  AppState state;
  REQUIRE(set_param(state.params, "model", "llama-3.1-8b").ok());
  PointersView view;
  draw_alone(ui, state, view, ImVec2(1920, 1000));
  // Llama 3.1 (s = 8, L = 8192, low 1, high 4, base 500 000): pairs with wavelength 2π/θᵢ under
  // 8192/4 keep θ, over 8192 get θ/8, between are blended; worked out here from those rules
  std::vector<std::string> runs;
  int last_kept = -1, first_scaled = -1;
  const double pi = std::acos(-1.0);
  for (int i = 0; i < 64; ++i) {
    const double wavelength = 2 * pi / std::pow(500000.0, -2.0 * i / 128.0);
    if (wavelength < 2048.0) last_kept = i;
    if (wavelength > 8192.0 && first_scaled < 0) first_scaled = i;
  }
  REQUIRE(last_kept == 28);
  REQUIRE(first_scaled == 35);
  CHECK(has_text(view.drawn(), "θ′ = θ for pairs 0–28"));
  CHECK(has_text(view.drawn(), "θ′ = θ/8 for pairs 35–63"));
  // the blended pairs' divisors from the view's own θ and θ′
  const double first = view.original_thetas()[29] / view.thetas()[29];
  const double last = view.original_thetas()[34] / view.thetas()[34];
  CHECK(first == Approx(1.2075).epsilon(1e-4));
  CHECK(last == Approx(5.257).epsilon(1e-4));
  CHECK(has_text(view.drawn(), "θ′ = θ/1.207 … θ/5.257 for pairs 29–34"));
  check_text_fits(view.drawn());
}

TEST_CASE("θ′ᵢ/θᵢ in words: constant runs, varying runs, pairs that do not rotate",
          "[app][scaled_views]") {
  // the words with their no-break spaces as spaces
  const auto words = [](const std::vector<double>& scaled, const std::vector<double>& original) {
    std::string t = frequency_ratio_words(scaled, original);
    for (std::size_t at; (at = t.find("\u00a0")) != std::string::npos;)
      t.replace(at, 2, " ");
    return t;
  };
  // linear s = 4: one run
  CHECK(words({0.25, 0.025, 0.0025}, {1.0, 0.1, 0.01}) == "θ′ = θ/4 for pairs 0–2");
  // dynamic-like: pair 0 kept, every other pair its own divisor
  CHECK(words({1.0, 0.05, 0.002, 0.00005}, {1.0, 0.1, 0.01, 0.001}) ==
        "θ′ = θ for pair 0 · θ′ = θ/2 … θ/20 for pairs 1–3");
  // partial rotation: the last pairs have θ = 0
  CHECK(words({1.0, 0.1, 0.0, 0.0}, {1.0, 0.1, 0.0, 0.0}) ==
        "θ′ = θ for pairs 0–1 · pairs 2–3 not rotated");
  // LongRoPE-like: many short runs become the kept pair and one range
  CHECK(words({1.0, 0.05, 0.05, 0.004, 0.0003, 0.0003, 0.00002},
              {1.0, 0.1, 0.1, 0.01, 0.001, 0.001, 0.0001}) ==
        "θ′ = θ for pair 0 · θ′ = θ/2 … θ/5 for pairs 1–6");
  CHECK(frequency_ratio_words({}, {}).empty());
  CHECK(frequency_ratio_words({1.0}, {1.0, 2.0}).empty());
}

TEST_CASE("heatmap: a scaled RoPE score is the core's at θ′ times a², beyond L shaded",
          "[app][scaled_views]") {
  UiContext ui(false);
  for (const char* content : {"shared", "random"}) {
    AppState state;
    Params& p = state.params;
    set(p, "dim", "32");
    set(p, "positions", "96");
    set(p, "content", content);
    set_all(p, {{"query", "random"},
                {"key", "random"},
                {"scaling", "yarn"},
                {"factor", "8"},
                {"original_context", "64"}});
    HeatmapView view;
    draw_alone(ui, state, view, ImVec2(1540, 1000));
    REQUIRE(view.wait_for_results());
    draw_alone(ui, state, view, ImVec2(1540, 1000));
    const HeatmapScores* sc = view.scores(rope::Encoding::rope);
    REQUIRE(sc != nullptr);
    REQUIRE(sc->n == 96);
    const auto sf = rope::scaled_frequencies(32, 10000.0, p.extension.scaling).value();
    const double a = 0.1 * std::log(8.0) + 1.0;
    CHECK(sc->attention_factor == Approx(a).epsilon(1e-15));
    INFO(content);
    // (m, n) = (3, 70) and (90, 17): inside L, and both beyond it
    for (const auto& [m, n] : {std::pair{3, 70}, std::pair{90, 17}, std::pair{40, 40}}) {
      std::vector<double> q, k;
      if (std::string(content) == "shared") {
        q = effective_vector(p.query, p, false);
        k = effective_vector(p.key, p, true);
      } else {  // row m of the seeded random q, row n of k (heatmap_scores.h)
        const auto all_q = rope::random_vectors(96, 32, p.seed);
        const auto all_k = rope::random_vectors(96, 32, p.seed + 1);
        q.assign(all_q.begin() + m * 32, all_q.begin() + (m + 1) * 32);
        k.assign(all_k.begin() + n * 32, all_k.begin() + (n + 1) * 32);
        for (double& x : q)  // the heatmap starts from float vectors
          x = static_cast<double>(static_cast<float>(x));
        for (double& x : k)
          x = static_cast<double>(static_cast<float>(x));
      }
      const double expected = score_by_hand(q, k, m, n, sf.theta_scaled, a);
      const float got = sc->s[static_cast<std::size_t>(m * 96 + n)];
      INFO("m " << m << " n " << n);
      CHECK(static_cast<double>(got) == Approx(expected).epsilon(1e-5).margin(1e-4));
    }
    CHECK(has_text(view.drawn(), "YaRN"));
    CHECK(has_text(view.drawn(), "S × a² = 1.4591"));
    CHECK(has_text(view.drawn(), "beyond the original context"));
    check_text_fits(view.drawn());
  }
}

TEST_CASE("heatmap: no scaling gives the unscaled matrix, other encodings ignore it",
          "[app][scaled_views]") {
  UiContext ui(false);
  AppState state;
  Params& p = state.params;
  set(p, "positions", "48");
  set(p, "compare", "true");
  HeatmapView plain;
  draw_alone(ui, state, plain, ImVec2(1540, 1000));
  REQUIRE(plain.wait_for_results());
  draw_alone(ui, state, plain, ImVec2(1540, 1000));
  set(p, "scaling", "linear");
  set(p, "factor", "4");
  HeatmapView scaled;
  draw_alone(ui, state, scaled, ImVec2(1540, 1000));
  REQUIRE(scaled.wait_for_results());
  draw_alone(ui, state, scaled, ImVec2(1540, 1000));
  for (auto e : {rope::Encoding::none, rope::Encoding::sinusoidal, rope::Encoding::rope}) {
    REQUIRE(plain.scores(e) != nullptr);
    REQUIRE(scaled.scores(e) != nullptr);
    INFO(rope::encoding_name(e));
    if (e == rope::Encoding::rope)
      CHECK(plain.scores(e)->s != scaled.scores(e)->s);  // PI: θ/4, a = 1
    else
      CHECK(plain.scores(e)->s == scaled.scores(e)->s);
  }
  CHECK_FALSE(has_text(plain.drawn(), "θ′"));
  CHECK(has_text(scaled.drawn(), "PI (linear)"));
}

TEST_CASE("decay: D(r) at θ′ beside the original, the mean score times a²", "[app][scaled_views]") {
  UiContext ui(false);
  AppState state;
  Params& p = state.params;
  set_all(p, {{"dim", "128"}, {"max_distance", "300"}, {"mean_score", "true"}});
  set(p, "compare_base", "0");  // no overlays of another base or d: the curves are the current
  set(p, "compare_dim", "0");   // one, (with a scaling) the original, and the mean score
  DecayView plain;
  draw_alone(ui, state, plain, ImVec2(1540, 1000));
  REQUIRE(plain.curves().size() == 2);
  const auto d_theta = rope::decay_curve(128, 10000.0, 300).value();
  CHECK(plain.curves()[0].values == d_theta);

  set(p, "scaling", "linear");
  set(p, "factor", "4");
  DecayView view;
  draw_alone(ui, state, view, ImVec2(1540, 1000));
  REQUIRE(view.curves().size() == 3);  // θ′, the original dashed, the mean score
  // PI: θ′ = θ/4, so D at r with θ′ is D at r/4 with θ: D′(4r) = D(r), worked out by hand
  const auto& scaled = view.curves()[0].values;
  for (std::size_t r : {0u, 10u, 37u, 75u})
    CHECK(scaled[4 * r] == Approx(d_theta[r]).epsilon(1e-12));
  CHECK(view.curves()[1].values == d_theta);
  CHECK(view.curves()[1].dashed);
  CHECK(has_text(view.drawn(), "PI (linear)"));
  // the heading's formula is typeset (its TeX is what the log holds for it), not ASCII
  CHECK(has_text(view.drawn(), "\\frac{2}{d}\\sum_{j=1}^{d/2}"));
  CHECK_FALSE(has_text(view.drawn(), "(2/d) Σⱼ"));

  // YaRN s = 16: the mean score at θ′ times a² = (0.1 ln 16 + 1)²
  set(p, "scaling", "yarn");
  set(p, "factor", "16");
  DecayView yarn;
  draw_alone(ui, state, yarn, ImVec2(1540, 1000));
  const auto sf = rope::scaled_frequencies(128, 10000.0, p.extension.scaling).value();
  const double a = 0.1 * std::log(16.0) + 1.0;
  const auto mean = rope::mean_random_score_thetas(sf.theta_scaled, 300, 256, p.seed).value();
  REQUIRE(yarn.curves().size() == 3);
  CHECK(yarn.curves()[2].values[100] == Approx(a * a * mean[100]).epsilon(1e-12));
  // D(r) at θ′ summed by hand at r = 200: (2/d) Σ_j |Σ_{i<j} e^{i r θ′_i}|
  double re = 0.0, im = 0.0, total = 0.0;
  for (double t : sf.theta_scaled) {
    re += std::cos(200.0 * t);
    im += std::sin(200.0 * t);
    total += std::hypot(re, im);
  }
  CHECK(yarn.curves()[0].values[200] == Approx(total / 64.0).epsilon(1e-12));
  CHECK(yarn.curves()[0].values[200] != Approx(d_theta[200]).epsilon(1e-3));
  check_text_fits(yarn.drawn());
}

TEST_CASE("spectrum: θ′ with a scaling on, named; nothing added without", "[app][scaled_views]") {
  UiContext ui(false);
  AppState state;
  Params& p = state.params;
  set(p, "dim", "128");
  set(p, "base", "500000");
  SpectrumView plain;
  draw_alone(ui, state, plain, ImVec2(1540, 1000));
  CHECK(plain.scaled_thetas().empty());
  CHECK_FALSE(has_text(plain.drawn(), "θ′"));
  set_all(p, {{"scaling", "llama3"}, {"factor", "8"}, {"original_context", "8192"}});
  SpectrumView view;
  draw_alone(ui, state, view, ImVec2(1540, 1000));
  REQUIRE(view.scaled_thetas().size() == 64);
  // Llama 3.1: λ_28 = 1956 < 2048 kept, λ_35 = 8219 > 8192 divided by 8
  CHECK(view.scaled_thetas()[28] == view.thetas()[28]);
  CHECK(view.scaled_thetas()[35] == Approx(view.thetas()[35] / 8.0).epsilon(1e-14));
  CHECK(has_text(view.drawn(), "Llama 3.1"));
  check_text_fits(view.drawn());
}

TEST_CASE("a scaled view's data export holds the numbers it draws", "[app][scaled_views][export]") {
  UiContext ui(false);
  AppState state;
  Params& p = state.params;
  set_all(p, {{"dim", "32"},
              {"query", "random"},
              {"key", "random"},
              {"position", "7"},
              {"positions", "48"},
              {"max_distance", "200"},
              {"scaling", "yarn"},
              {"factor", "8"},
              {"original_context", "64"}});
  const double a = 0.1 * std::log(8.0) + 1.0;

  SECTION("heatmap: score_scaled is the drawn S = a² q′·k′ at θ′") {
    set(p, "view", "heatmap");
    HeatmapView view;
    draw_alone(ui, state, view, ImVec2(1540, 1000));
    REQUIRE(view.wait_for_results());
    draw_alone(ui, state, view, ImVec2(1540, 1000));
    const HeatmapScores* sc = view.scores(rope::Encoding::rope);
    REQUIRE(sc != nullptr);
    auto cols = exported_columns(p);
    REQUIRE(cols["score_scaled"].size() == 48u * 48u);
    for (std::size_t cell : {0u, 3u * 48u + 40u, 47u * 48u + 2u, 48u * 48u - 1u}) {
      INFO("cell " << cell);
      CHECK(static_cast<double>(sc->s[cell]) ==
            Approx(cols["score_scaled"][cell]).epsilon(1e-5).margin(1e-5));
    }
    // and it is not the unscaled score: YaRN changed it
    CHECK(std::fabs(cols["score_scaled"][47] - cols["score"][47]) > 1e-3);
  }
  SECTION("decay: value_scaled is the drawn D(r) at θ′, value the dashed original") {
    set(p, "view", "decay");
    set(p, "mean_score", "false");
    set(p, "compare_base", "0");
    set(p, "compare_dim", "0");
    DecayView view;
    draw_alone(ui, state, view, ImVec2(1540, 1000));
    REQUIRE(view.curves().size() == 2);
    auto cols = exported_columns(p);
    CHECK(cols["value_scaled"] == view.curves()[0].values);
    CHECK(cols["value"] == view.curves()[1].values);
  }
  SECTION("pointers: value_scaled is q rotated at the drawn θ′, with the attention factor") {
    set(p, "view", "pointers");
    PointersView view;
    draw_alone(ui, state, view, ImVec2(1540, 1000));
    const auto q = effective_vector(p.query, p, false);
    std::vector<double> turned(q.size()), plain(q.size());
    rope::apply_rope<double>(q, turned, 7.0, view.thetas(), rope::Pairing::interleaved);
    rope::apply_rope<double>(q, plain, 7.0, view.original_thetas(), rope::Pairing::interleaved);
    auto cols = exported_columns(p);
    CHECK(cols["value_scaled"] == turned);
    CHECK(cols["value"] == plain);
    CHECK(cols["attention_factor"][0] == Approx(a).epsilon(1e-15));
    CHECK(view.attention_factor() == cols["attention_factor"][0]);
  }
}

// [SECTION] one θ′

namespace {

std::vector<double> rotated_by(const std::vector<double>& x, double m,
                               const std::vector<double>& th, rope::Pairing pairing) {
  std::vector<double> y(x.size());
  rope::apply_rope<double>(x, y, m, th, pairing);
  return y;
}

void check_same(const std::vector<double>& got, const std::vector<double>& want, double rel) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("entry " << i);
    CHECK(got[i] == Approx(want[i]).epsilon(rel).margin(rel));
  }
}

}  // namespace

// For seeded random settings (method, factor, rotary fraction and style, d, base, pairing),
// the pointers, spectrum, decay and heatmap views, their exports and the lesson quantities all
// compute with drawn_frequencies' θ and θ′ (state/scaling_params.h), including a NeoX partial
// rotation in the decay and heatmap views.
TEST_CASE("one θ′: every view, export and lesson quantity takes drawn_frequencies'",
          "[app][scaled_views][theta]") {
  UiContext ui(false);
  std::mt19937 rng(20261127);
  const auto pick = [&](const auto& list) { return list[rng() % std::size(list)]; };
  const char* methods[] = {"none", "linear", "ntk", "yarn", "llama3", "proportional"};
  const char* factors[] = {"2", "4", "16"};
  const char* fractions[] = {"1", "0.5", "0.25"};
  const char* styles[] = {"neox", "proportional"};
  const char* dims[] = {"16", "32", "64"};
  const char* bases[] = {"100", "10000", "500000"};
  const char* pairings[] = {"interleaved", "half"};
  int checked = 0, partial_neox = 0;
  for (int attempt = 0; attempt < 40 && checked < 10; ++attempt) {
    AppState state;
    Params& p = state.params;
    const std::vector<std::pair<std::string, std::string>> settings{
        {"dim", pick(dims)},
        {"base", pick(bases)},
        {"pairing", pick(pairings)},
        {"scaling", pick(methods)},
        {"factor", pick(factors)},
        {"original_context", "64"},
        {"rotary_fraction", pick(fractions)},
        {"rotary_style", pick(styles)},
        {"query", "random"},
        {"key", "random"},
        {"position", "5"},
        {"key_position", "12"},
        {"positions", "24"},
        {"max_distance", "40"},
        {"seed", std::to_string(rng() % 1000)}};
    std::string said;
    for (const auto& [name, value] : settings) {
      set(p, name, value);
      said += name + "=" + value + " ";
    }
    if (!validate_params(p).ok()) continue;  // e.g. a fraction that rotates nothing
    INFO(said);
    ++checked;
    const DrawnFrequencies f = drawn_frequencies(p).value();
    REQUIRE_FALSE(f.error.has_value());
    const bool scaled = p.extension.scaling.method != rope::ScalingMethod::none;
    if (p.extension.scaling.rotary_fraction < 1.0 && !scaled &&
        p.extension.rotary_style == rope::RotaryStyle::neox)
      ++partial_neox;
    const auto q = effective_vector(p.query, p, false);
    const auto k = effective_vector(p.key, p, true);
    const double a2 = f.attention_factor * f.attention_factor;
    const auto score_at = [&](const std::vector<double>& th, double m, double n) {
      return rope::dot(rotated_by(q, m, th, p.pairing), rotated_by(k, n, th, p.pairing));
    };

    // pointers: the view and its export (rotate)
    PointersView pointers;
    draw_alone(ui, state, pointers, ImVec2(1280, 680));
    CHECK(pointers.thetas() == f.theta_drawn);
    CHECK(pointers.original_thetas() == f.theta);
    CHECK(pointers.attention_factor() == f.attention_factor);
    set(p, "view", "pointers");
    auto rotate = exported_columns(p);
    check_same(rotate["value"], rotated_by(q, 5.0, f.theta, p.pairing), 1e-15);
    if (scaled)
      check_same(rotate["value_scaled"], rotated_by(q, 5.0, f.theta_drawn, p.pairing), 1e-15);

    // spectrum: the view's θ′ and its export (frequencies)
    SpectrumView spectrum;
    draw_alone(ui, state, spectrum, ImVec2(1280, 680));
    if (scaled) CHECK(spectrum.scaled_thetas() == f.theta_drawn);
    set(p, "view", "spectrum");
    auto freq = exported_columns(p);
    check_same(freq["theta"], scaled ? f.theta : f.theta_drawn, 1e-15);
    if (scaled) check_same(freq["theta_scaled"], f.theta_drawn, 1e-15);

    // decay: the view's first curve and its export, at θ′ (θ after the partial rotation)
    DecayView decay;
    draw_alone(ui, state, decay, ImVec2(1280, 680));
    REQUIRE(!decay.curves().empty());
    const auto d_drawn = rope::decay_curve_thetas(f.theta_drawn, 40).value();
    check_same(decay.curves().front().values, d_drawn, 1e-15);
    set(p, "view", "decay");
    auto dec = exported_columns(p);
    check_same(dec["value"], rope::decay_curve_thetas(f.theta, 40).value(), 1e-15);
    if (scaled) check_same(dec["value_scaled"], d_drawn, 1e-15);

    // heatmap (shared content): the view's matrix and its export (scores)
    HeatmapView heatmap;
    draw_alone(ui, state, heatmap, ImVec2(1280, 680));
    REQUIRE(heatmap.wait_for_results());
    draw_alone(ui, state, heatmap, ImVec2(1280, 680));
    const HeatmapScores* sc = heatmap.scores(rope::Encoding::rope);
    REQUIRE(sc != nullptr);
    CHECK(sc->attention_factor == f.attention_factor);
    for (const auto& [m, n] : {std::pair{3, 17}, std::pair{20, 2}}) {
      const double want = a2 * score_at(f.theta_drawn, m, n);
      CHECK(static_cast<double>(sc->s[static_cast<std::size_t>(m * 24 + n)]) ==
            Approx(want).epsilon(1e-5).margin(1e-4));
    }
    set(p, "view", "heatmap");
    auto scores = exported_columns(p);
    REQUIRE(scores["score"].size() == 24 * 24);
    CHECK(scores["score"][3 * 24 + 17] == Approx(score_at(f.theta, 3, 17)).epsilon(1e-12));
    if (scaled)
      CHECK(scores["score_scaled"][3 * 24 + 17] ==
            Approx(a2 * score_at(f.theta_drawn, 3, 17)).epsilon(1e-12));

    // lesson quantities: rope_score at θ, scaled_score at θ′ × a², effective_score at θ′
    const rope::lessons::QuantityContext ctx(p);
    CHECK(ctx.evaluate("rope_score").value().front() ==
          Approx(score_at(f.theta, 5, 12)).epsilon(1e-13));
    CHECK(ctx.evaluate("scaled_score").value().front() ==
          Approx(a2 * score_at(f.theta_drawn, 5, 12)).epsilon(1e-13));
    CHECK(ctx.evaluate("effective_score").value().front() ==
          Approx(score_at(f.theta_drawn, 5, 12)).epsilon(1e-13));
  }
  CHECK(checked >= 8);
  CHECK(partial_neox >= 1);  // a NeoX partial rotation alone was among them
}
