// Context extension in the app (issue 11): the scaling fields through the parameter table, the
// command-line flags and sessions; drawn_frequencies; the extension view's model against
// numbers worked out by hand, its text inside the canvas at lecture sizes, and the colour of its
// θ′/θ curve read back from an offscreen render at the pixel of a pair.
#include <catch2/catch.hpp>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/state_flags.h"
#include "export/view_data.h"
#include "rope/frequencies.h"
#include "shell/offscreen_app.h"
#include "state/params.h"
#include "state/scaling_params.h"
#include "state/session.h"
#include "ui/theme.h"
#include "ui/ui_context.h"
#include "view_harness.h"
#include "views/extension_view.h"

using namespace rope::app;
using rope::ScalingMethod;
using rope::Status;
using namespace rope::app::view_test;

namespace {

// argv for CLI11: "prog" then the flags.
Status apply_flags(Params& p, std::vector<std::string> args) {
  CLI::App app;
  StateFlags flags;
  add_state_flags(app, flags);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them reversed
  app.parse(reversed);
  return apply_state_flags(flags, p);
}

std::string extension_text(const Params& p) {
  std::string s;
  for (const char* name : kExtensionParamNames)
    s += std::string(name) + "=" + find_param(name)->get(p) + "\n";
  return s;
}

// The two presets the issue judges.
void llama2_yarn(Params& p) {
  REQUIRE(apply_flags(p, {"--dim", "128", "--base", "10000", "--scaling", "yarn", "--factor", "16",
                          "--original-context", "4096", "--view", "extension"})
              .ok());
}
void llama3(Params& p) {
  REQUIRE(apply_flags(p, {"--dim", "128", "--base", "500000", "--scaling", "llama3", "--factor",
                          "8", "--original-context", "8192", "--view", "extension"})
              .ok());
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

// [SECTION] parameters

TEST_CASE("the scaling fields round-trip through flags and a session", "[app][extension]") {
  const auto dir = std::filesystem::temp_directory_path() / "rope-lab-extension-test";
  std::filesystem::create_directories(dir);
  const auto file = dir / "long.txt";
  {
    std::ofstream out(file);
    out << "1.5\n2.25, 3\n4e0\n";  // by line and by comma
  }
  Params p;
  REQUIRE(apply_flags(p, {"--dim", "8", "--scaling", "longrope", "--factor", "32.5",
                          "--original-context", "4096", "--beta-fast", "16", "--beta-slow", "0.5",
                          "--no-truncate", "--low-freq-factor", "0.5", "--high-freq-factor", "6",
                          "--sequence-length", "9000", "--attention-factor", "1.25", "--mscale",
                          "0.707", "--mscale-all-dim", "1", "--rotary-fraction", "0.25",
                          // one fraction for partial rotary too: the proportional meaning keeps
                          // the head's d for longrope's d/2 lists (neox would give it int(8/4))
                          "--rotary-style", "proportional", "--long-factor-file", file.string(),
                          "--short-factor", "1,1.01,1.1,1.2", "--extension-mode", "extrapolation",
                          "--compare-methods"})
              .ok());
  const rope::ScalingParams& sp = p.extension.scaling;
  CHECK(sp.method == ScalingMethod::longrope);
  CHECK(sp.factor == 32.5);
  CHECK(sp.original_context == 4096);
  CHECK(sp.beta_fast == 16.0);
  CHECK(sp.beta_slow == 0.5);
  CHECK_FALSE(sp.truncate);
  CHECK(sp.low_freq_factor == 0.5);
  CHECK(sp.high_freq_factor == 6.0);
  CHECK(sp.sequence_length == 9000);
  CHECK(sp.attention_factor == 1.25);
  CHECK(sp.mscale == 0.707);
  CHECK(sp.mscale_all_dim == 1.0);
  CHECK(sp.rotary_fraction == 0.25);
  CHECK(sp.long_factor == std::vector<double>{1.5, 2.25, 3.0, 4.0});
  CHECK(sp.short_factor == std::vector<double>{1.0, 1.01, 1.1, 1.2});
  CHECK(p.extension.mode == ExtensionMode::extrapolation);
  CHECK(p.extension.compare_methods);

  // the session keeps the lists inline, and reads back every field bit for bit
  const std::string json = session_to_json(p);
  CHECK(json.find("\"long_factor\": \"1.5,2.25,3,4\"") != std::string::npos);
  Params loaded;
  REQUIRE(session_from_json(json, loaded).ok());
  CHECK(loaded.extension == p.extension);
  CHECK(extension_text(loaded) == extension_text(p));

  // and a lesson step's key=value goes through the same table
  Params stepped;
  for (const char* name : kExtensionParamNames)
    REQUIRE(set_param(stepped, name, find_param(name)->get(p)).ok());
  CHECK(stepped.extension == p.extension);
  std::filesystem::remove_all(dir);
}

TEST_CASE("bad scaling flags name the flag and the rule", "[app][extension]") {
  struct Case {
    std::vector<std::string> args;
    const char* parameter;
    const char* message;
  };
  const Case cases[] = {
      {{"--scaling", "linear", "--factor", "0"},
       "--factor",
       "must be a finite number greater than 0, got 0"},
      {{"--factor", "-2"}, "--factor", "must be a finite number greater than 0, got -2"},
      {{"--scaling", "llama3", "--factor", "8", "--low-freq-factor", "5", "--high-freq-factor",
        "4"},
       "--low-freq-factor",
       "must be at most high_freq_factor (4), got 5"},
      {{"--original-context", "-5"},
       "--original-context",
       "must be an integer from 1 to 1073741824, got -5"},
      {{"--dim", "8", "--scaling", "longrope", "--factor", "4", "--long-factor", "1,2",
        "--short-factor", "1,1,1,1"},
       "--long-factor",
       "must have d/2 = 4 entries, got 2"},
      {{"--scaling", "yarn", "--beta-fast", "0.5"},
       "--beta-fast",
       "must be at least beta_slow (1), got 0.5"},
      {{"--scaling", "ntk2"}, "--scaling", "got 'ntk2'"},
      {{"--extension-mode", "both"}, "--extension-mode", "frequencies or extrapolation"},
      {{"--long-factor-file", "/nonexistent/f.txt"},
       "--long-factor-file",
       "cannot be read: No such file"},
      {{"--long-factor-file", ""}, "--long-factor-file", "needs a file name, got ''"},
      {{"--long-factor-file", "/dev/zero"}, "--long-factor-file", "is a character device"},
      // read as inf: before, "must be a finite number greater than 0, got inf"
      {{"--long-factor", std::string(400, '9')}, "--long-factor", "beyond the range of a double"},
  };
  for (const Case& c : cases) {
    Params p;
    const Params before = p;
    const Status s = apply_flags(p, c.args);
    INFO(c.args.front() << " ...");
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().parameter == c.parameter);
    CHECK_THAT(s.error().message, Catch::Contains(c.message));
    CHECK(p.extension == before.extension);  // nothing applied
  }
}

TEST_CASE("drawn_frequencies: θ′ = θ without scaling, θ/s with PI, the core's for YaRN",
          "[app][extension]") {
  Params p;
  REQUIRE(set_param(p, "dim", "4").ok());
  REQUIRE(set_param(p, "base", "100").ok());
  auto none = drawn_frequencies(p);
  REQUIRE(none.ok());
  // θ = 100^(−2i/4): 1 and 0.1, exactly as rope::frequencies gives them
  CHECK(none.value().theta == rope::frequencies(4, 100.0).value());
  CHECK(none.value().theta_drawn == none.value().theta);
  CHECK_FALSE(none.value().scaled);
  CHECK(none.value().attention_factor == 1.0);

  REQUIRE(set_param(p, "scaling", "linear").ok());
  REQUIRE(set_param(p, "factor", "4").ok());
  auto pi = drawn_frequencies(p);
  REQUIRE(pi.ok());
  CHECK(pi.value().theta_drawn[0] == 0.25);
  CHECK(pi.value().theta_drawn[1] == Approx(0.025).epsilon(1e-15));
  CHECK(pi.value().theta == rope::frequencies(4, 100.0).value());

  Params q;
  llama2_yarn(q);
  auto yarn = drawn_frequencies(q);
  REQUIRE(yarn.ok());
  // 0.1 ln 16 + 1
  CHECK(yarn.value().attention_factor == Approx(1.2772588722239781).epsilon(1e-15));
  CHECK(yarn.value().method.ramp_low == 20.0);
  CHECK(yarn.value().method.ramp_high == 46.0);
  // a later key press that makes the lists the wrong length reports, never throws: the whole
  // head's θ, unscaled, and the error
  REQUIRE(set_param(q, "scaling", "longrope").ok());
  auto lists = drawn_frequencies(q);
  REQUIRE(lists.ok());
  REQUIRE(lists.value().error.has_value());
  CHECK_FALSE(lists.value().scaled);
  CHECK(lists.value().theta_drawn == rope::frequencies(q.dim, q.base).value());
}

// [SECTION] the view's model

TEST_CASE("the extension view's bands and read-out for the two judged presets",
          "[app][extension]") {
  UiContext ui(false);
  ExtensionView view;
  AppState state;
  llama2_yarn(state.params);
  draw_alone(ui, state, view, ImVec2(1500, 1000));
  const ExtensionView::Model* m = view.model();
  REQUIRE(m);
  REQUIRE(m->error.empty());
  REQUIRE(m->half == 64);
  // λ_i > 4096 ⇔ 10000^(i/64) > 4096/2π ⇔ i > 64·ln(651.9)/ln(10000) = 45.03
  CHECK(m->no_turn_first == 46);
  CHECK(m->no_turn == 18);
  // γ = 1 up to ⌊c(32)⌋ = 20, 0 from ⌈c(1)⌉ = 46
  REQUIRE(m->bands.size() == 3);
  CHECK(m->bands[0].band == ExtensionView::Band::kept);
  CHECK(m->bands[0].last == 20);
  CHECK(m->bands[1].band == ExtensionView::Band::blended);
  CHECK(m->bands[1].first == 21);
  CHECK(m->bands[1].last == 45);
  CHECK(m->bands[2].band == ExtensionView::Band::interpolated);
  CHECK(m->bands[2].first == 46);
  // the paper's ramp keeps fewer pairs than the code's inside the band (r falls exponentially)
  REQUIRE(m->curves.size() == 2);
  CHECK(m->curves[1].dashed);
  CHECK(m->curves[1].ratio[33] < m->curves[0].ratio[33]);
  CHECK(m->ratio[0] == 1.0);
  CHECK(m->ratio[63] == Approx(1.0 / 16).epsilon(1e-14));
  for (const char* part : {"kept: θ", "blended", "interpolated: θ/s", "Never a full turn",
                           "Attention factor", "square"}) {
    INFO(part);
    CHECK(has_exact_text(view.drawn(), part));
  }

  llama3(state.params);
  draw_alone(ui, state, view, ImVec2(1500, 1000));
  m = view.model();
  REQUIRE(m->bands.size() == 3);
  // λ < 8192/4 ⇔ 500000^(i/64) < 2048/2π ⇔ i < 64·ln(325.95)/ln(500000) = 28.25
  CHECK(m->bands[0].last == 28);
  // λ > 8192 ⇔ i > 64·ln(1303.8)/ln(500000) = 34.99
  CHECK(m->bands[2].first == 35);
  CHECK(m->sf.attention_factor == 1.0);
  CHECK(m->curves.size() == 1);

  // every method at the same s; dynamic NTK dashed beside NTK-aware (one colour)
  REQUIRE(set_param(state.params, "compare_methods", "true").ok());
  draw_alone(ui, state, view, ImVec2(1500, 1000));
  m = view.model();
  REQUIRE(m);
  REQUIRE(m->curves.size() == 5);  // llama3, linear, ntk, dynamic, yarn
  for (const auto& c : m->curves)
    CHECK(c.dashed == (c.method == ScalingMethod::dynamic));

  // hovering a pair in each plot (the tooltip's values come from the model drawn)
  for (int panel = 0; panel < 3; ++panel) {
    const plot::Frame& fr = view.frame(panel);
    const ImVec2 at(0.5f * (fr.area_min.x + fr.area_max.x), 0.5f * (fr.area_min.y + fr.area_max.y));
    draw_alone(ui, state, view, ImVec2(1500, 1000), at);
    CHECK(view.model()->half == 64);
  }
}

// Classroom review D6: the view followed the whole head under a partial rotation ("23 of 64 pairs"
// for Pythia, where the spectrum says 16 rotate). Under neox it shows the rotating head of
// int(d·p) dimensions, θᵢ = base^(−2i/32) for Pythia, and says which pairs never turn.
TEST_CASE("the extension view honours a partial rotation (review D6)", "[app][extension]") {
  UiContext ui(false);
  ExtensionView view;
  AppState state;
  REQUIRE(set_param(state.params, "model", "pythia-6.9b").ok());
  draw_alone(ui, state, view, ImVec2(1500, 1000));
  const ExtensionView::Model* m = view.model();
  REQUIRE(m);
  REQUIRE(m->error.empty());
  CHECK(m->head_pairs == 64);
  REQUIRE(m->half == 16);
  CHECK(m->still_from == 16);
  for (int i = 0; i < 16; ++i)  // θ over the rotary dimensions: base^(−2i/32)
    CHECK(m->sf.theta[static_cast<std::size_t>(i)] ==
          Approx(std::pow(10000.0, -2.0 * i / 32.0)).epsilon(1e-14));
  // λ_i > 2048 ⇔ 10000^(i/16) > 2048/2π ⇔ i > 16·ln(325.95)/ln(10000) = 10.06
  CHECK(m->no_turn_first == 11);
  CHECK(m->no_turn == 5);
  for (const char* part : {"rotary", "never", "rotating"}) {  // words: the lines wrap
    INFO(part);
    CHECK(has_exact_text(view.drawn(), part));
  }
  // the proportional meaning keeps the whole head: the still pairs have θ′/θ = 0
  REQUIRE(set_param(state.params, "rotary_style", "proportional").ok());
  draw_alone(ui, state, view, ImVec2(1500, 1000));
  m = view.model();
  REQUIRE(m);
  CHECK(m->half == 64);
  CHECK(m->still_from == 16);
  CHECK(m->ratio[15] == 1.0);
  CHECK(m->ratio[16] == 0.0);
}

// Classroom review D9: DeepSeek-V3's mscale² = 1.8739 was printed nowhere while lesson 13 step 5
// scales by it; the read-out now says the softmax scale's factor beside the one on cos and sin.
TEST_CASE("the extension view names DeepSeek's softmax mscale² (review D9)", "[app][extension]") {
  UiContext ui(false);
  ExtensionView view;
  AppState state;
  REQUIRE(set_param(state.params, "model", "deepseek-v3").ok());
  draw_alone(ui, state, view, ImVec2(1500, 1000));
  REQUIRE(view.model());
  CHECK(view.model()->sf.attention_factor == 1.0);
  const double ms = rope::yarn_mscale(40.0, 1.0);
  CHECK(ms * ms == Approx(1.8739).epsilon(1e-4));
  CHECK(has_exact_text(view.drawn(), "1.8739"));
  CHECK(has_exact_text(view.drawn(), "mscale_all_dim"));
}

TEST_CASE("the extension view's text stays inside the canvas without overlaps",
          "[app][extension]") {
  UiContext ui(false);
  struct Size {
    ImVec2 size;
    double scale;
  };
  // a 1920x1080 and a 1280x720 projector in presentation mode (scale 1.5 and 1), the window's
  // canvas beside the control panel, and a narrow one
  const Size sizes[] = {{{1900, 1010}, 1.5},
                        {{1270, 660}, 1.0},
                        {{1540, 1000}, 1.0},
                        {{900, 640}, 1.0},
                        {{640, 480}, 1.0}};
  for (int preset = 0; preset < 2; ++preset)
    for (const Size& sz : sizes)
      for (const char* mode : {"frequencies", "extrapolation"})
        for (const char* compare : {"false", "true"}) {
          AppState state;
          if (preset == 0) {
            llama2_yarn(state.params);
          } else {
            llama3(state.params);
            REQUIRE(set_param(state.params, "theme", "light").ok());
          }
          REQUIRE(set_param(state.params, "extension_mode", mode).ok());
          REQUIRE(set_param(state.params, "compare_methods", compare).ok());
          state.params.ui_scale = sz.scale;
          ExtensionView view;
          INFO("preset " << preset << ", " << sz.size.x << "x" << sz.size.y << " at " << sz.scale
                         << ", " << mode << ", compare " << compare);
          draw_alone(ui, state, view, sz.size);
          const bool fit = std::string(mode) == "extrapolation";
          check_text_fits(fit ? view.extrapolation().drawn() : view.drawn());
          if (fit) {
            CHECK(has_exact_text(view.extrapolation().drawn(), "Rank tolerance"));
            CHECK(view.extrapolation().model()->context == 8192 - 4096 * (1 - preset));
          }
        }
}

TEST_CASE("PI's Fig. 2 in the extension view: small inside L, large beyond it",
          "[app][extension]") {
  UiContext ui(false);
  AppState state;
  for (const auto& [k, v] : {std::pair{"dim", "128"},
                             {"base", "10000"},
                             {"original_context", "2048"},
                             {"seed", "1"},
                             {"extension_mode", "extrapolation"}})
    REQUIRE(set_param(state.params, k, v).ok());
  ExtensionView view;
  draw_alone(ui, state, view, ImVec2(1500, 1000));
  const auto* m = view.extrapolation().model();
  REQUIRE(m);
  REQUIRE(m->error.empty());
  // rope/extrapolation.h measured 0.84 inside and 3.7e4 beyond at tolerance 1e-6 for this seed
  CHECK(m->max_inside < 1.5);
  CHECK(m->max_beyond > 1e3);
  CHECK(m->a_between.size() == 400);
  CHECK(m->b_over_d.size() == 4096);
  CHECK(m->b_over_d[0] == Approx((64.0 + 1.0) / 4.0));
  // between the integers the fit passes through its own values at the integers
  CHECK(m->a_between[8] == Approx(m->a_inside[26]).margin(1e-9));
}

// [SECTION] pixels

TEST_CASE("the θ′/θ curve has the method's colour at the pixel of each pair", "[app][gl]") {
  const auto owned = offscreen_app(1600, 900);
  OffscreenApp& app = *owned;
  AppState state;
  state.show_controls = state.show_menu = false;
  llama2_yarn(state.params);
  const Image img = app.render(state, 3);
  const ExtensionView& view = app.views().extension;
  const plot::Frame& fr = view.frame(2);
  REQUIRE(fr.area_max.x > fr.area_min.x + 100);
  const ImU32 want = ExtensionView::method_colour(ScalingMethod::yarn, state.params.theme);
  const auto at = [&](double x, double y) {
    return pixel(img, static_cast<int>(std::floor(x)), static_cast<int>(std::floor(y)));
  };
  const ExtensionView::Model& m = *view.model();
  for (int i : {5, 25, 30, 33, 40, 55}) {
    const auto u = static_cast<std::size_t>(i);
    const double x = fr.x.to_px(i), y = fr.y.to_px(m.ratio[u]);
    INFO("pair " << i << ", ratio " << m.ratio[u] << " at (" << x << ", " << y << ")");
    CHECK(near_colour(at(x, y), rgb(want), 12));
    // 40 % of the plot's height away from the value (up or down, whichever stays inside), the
    // curve is not there: the position came from θ′/θ, not from anywhere on the line
    const double off = 0.4 * static_cast<double>(fr.area_max.y - fr.area_min.y);
    const double y2 = y - off > static_cast<double>(fr.area_min.y) ? y - off : y + off;
    CHECK_FALSE(near_colour(at(x, y2), rgb(want), 12));
  }
}

// [SECTION] File ▸ Export data

TEST_CASE("Export data of the extension view equals rope-lab export with the same flags",
          "[app][extension][export]") {
  const auto dir = std::filesystem::temp_directory_path() / "rope-lab-extension-data-test";
  std::filesystem::create_directories(dir);
  for (const char* mode : {"frequencies", "extrapolation"}) {
    Params p;
    llama2_yarn(p);
    REQUIRE(set_param(p, "extension_mode", mode).ok());
    REQUIRE(set_param(p, "original_context", "512").ok());
    INFO(mode);
    auto exp = view_export(p);
    REQUIRE(exp.ok());
    CHECK(exp.value().dataset == mode);
    const auto from_app = dir / (std::string(mode) + "-app.csv");
    const auto from_cli = dir / (std::string(mode) + "-cli.csv");
    REQUIRE(write_view_export(p, from_app).ok());
    const std::string cmd = std::string(ROPE_LAB_BINARY) +
                            exp.value().command().substr(std::string("rope-lab").size()) + " -o " +
                            from_cli.string();
    REQUIRE(std::system(cmd.c_str()) == 0);
    const std::string ta = read_file(from_app), tb = read_file(from_cli);
    CHECK(ta.size() > 100);
    CHECK(ta == tb);
    if (std::string(mode) == "frequencies") CHECK(ta.find("theta_scaled") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

// [SECTION] cost (not run by default)

// Frames while PI's fit is recomputed on the worker (a new seed: R or Re-roll), at 1920x1080 in
// presentation mode: the steady frame, the slowest frame until the new fit shows, and how long
// that took.
TEST_CASE("extension: frame times when PI's fit is recomputed", "[.bench]") {
  const auto owned = offscreen_app(1920, 1080);
  OffscreenApp& app = *owned;
  for (const char* context : {"2048", "4096"}) {
    AppState state;
    llama2_yarn(state.params);
    REQUIRE(set_param(state.params, "extension_mode", "extrapolation").ok());
    REQUIRE(set_param(state.params, "original_context", context).ok());
    REQUIRE(set_param(state.params, "presentation", "true").ok());
    app.render(state, 3);
    std::vector<double> steady, worst, wait, fit;
    for (int k = 0; k < 7; ++k) {
      steady.push_back(1e3 * app.frame(state, 1.0 / 60).total());
      state.params.seed += 1;
      const auto start = std::chrono::steady_clock::now();
      double slowest = 0.0;
      do {
        slowest = std::max(slowest, 1e3 * app.frame(state, 1.0 / 60).total());
      } while (app.views().extension.extrapolation().computing());
      wait.push_back(
          1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      worst.push_back(slowest);
      const auto* m = app.views().extension.extrapolation().model();
      REQUIRE(m);
      CHECK(m->seed == state.params.seed);
      fit.push_back(1e3 * m->seconds);
    }
    for (auto* v : {&steady, &worst, &wait, &fit})
      std::sort(v->begin(), v->end());
    std::printf(
        "d 128, L %s: steady frame median %.2f ms; after a re-roll the slowest frame median %.2f "
        "ms (max %.2f), the new fit shows after %.0f ms (median), the fit itself %.1f ms\n",
        context, steady[3], worst[3], worst[6], wait[3], fit[3]);
  }
}

// Classroom review D12: in lesson 12 step 5 (Llama 3.1) the band name "blended" was wider than
// its band, pairs 29 … 34, and so seemed to name its neighbours' pairs too. A name that fits
// lies inside its band; one that does not points at it with a bracket spanning the band.
TEST_CASE("the extension view's band names lie in their bands or point at them (review D12)",
          "[app][extension]") {
  UiContext ui(false);
  for (const Area& area : kLectureCanvases) {
    INFO("canvas " << area.size.x << " x " << area.size.y << " at scale " << area.scale);
    ExtensionView view;
    AppState state;
    state.params.ui_scale = area.scale;
    set_all(state.params, {{"dim", "128"},
                           {"base", "500000"},
                           {"original_context", "8192"},
                           {"extension_mode", "frequencies"},
                           {"scaling", "llama3"},
                           {"factor", "8"}});
    draw_alone(ui, state, view, area.size);
    check_text_fits(view.drawn());
    const ExtensionView::Model* m = view.model();
    REQUIRE(m);
    REQUIRE(m->bands.size() == 3);
    CHECK(m->bands[1].first == 29);
    CHECK(m->bands[1].last == 34);
    const auto& marks = view.band_marks();
    REQUIRE(marks.size() == 3);
    const plot::Frame& fr = view.frame(0);
    for (std::size_t i = 0; i < marks.size(); ++i) {
      const ExtensionView::BandMark& mk = marks[i];
      INFO("band " << i << ": label x " << mk.label_min.x << " … " << mk.label_max.x << ", band x "
                   << mk.band_x0 << " … " << mk.band_x1);
      CHECK(mk.band == m->bands[i].band);
      CHECK(mk.band_x0 == Approx(fr.x.to_px(m->bands[i].first - 0.5)));
      CHECK(mk.band_x1 == Approx(fr.x.to_px(m->bands[i].last + 0.5)));
      const bool inside = mk.label_min.x >= mk.band_x0 - 1 && mk.label_max.x <= mk.band_x1 + 1;
      CHECK(inside != mk.bracket);  // inside its band, or pointing at it: never over neighbours
      CHECK(mk.label_max.y < fr.area_min.y);  // above the plots, off the data
    }
    // six of 64 pairs are narrower than "blended" on every lecture canvas
    CHECK(marks[1].bracket);
  }
}
