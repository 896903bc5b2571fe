// Model presets and partial rotary where the state meets the command line and the views:
// --model applied before the flags beside it, lesson flags that choose the view, the pointers
// view's unrotated pairs and the spectrum's two meanings of one fraction. The presets themselves
// are tested in test_models.cpp (state_tests).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "cli/state_flags.h"
#include "shell/frame.h"
#include "state/models.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/ui_context.h"

#include <CLI/CLI.hpp>

using namespace rope::app;
using rope::Status;

namespace {

Status apply_flags(Params& p, std::vector<std::string> args) {
  CLI::App app;
  StateFlags flags;
  add_state_flags(app, flags);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  app.parse(reversed);
  return apply_state_flags(flags, p);
}

// Two headless frames at 1600 x 900 (a new window draws nothing on its first).
void draw_frames(UiContext& ui, AppState& state, Views& views) {
  for (int f = 0; f < 2; ++f) {
    ui.prepare(1.0f, state.params.theme);
    ImGui::GetIO().DisplaySize = ImVec2(1600, 900);
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw_frame(state, views, ViewEnv{&ui.fonts(), false, 1.0f});
    ImGui::Render();
  }
}

}  // namespace

TEST_CASE("the model flag applies first: the flags beside it win, wherever they are typed",
          "[app][models]") {
  Params p;
  REQUIRE(apply_flags(p, {"--base", "123", "--model", "llama-2-7b", "--dim", "8"}).ok());
  CHECK(p.dim == 8);
  CHECK(p.base == 123.0);
  CHECK(p.model == "llama-2-7b");
  CHECK(changed_since_model(p) == std::vector<std::string>{"dim", "base"});
  Params q;
  const Status bad = apply_flags(q, {"--model", "llama-9"});
  REQUIRE(!bad.ok());
  CHECK(bad.error().parameter == "--model");
  CHECK(bad.error().message.find("must be one of llama-1-7b, ") == 0);
}

TEST_CASE("the pointers view marks the pairs that do not rotate", "[app][models][pointers]") {
  UiContext ui(false);
  AppState state;
  Views views;
  REQUIRE(set_param(state.params, "view", "pointers").ok());
  REQUIRE(set_param(state.params, "dim", "8").ok());
  REQUIRE(set_param(state.params, "rotary_fraction", "0.5").ok());  // neox: 2 of 4 pairs
  draw_frames(ui, state, views);
  int not_rotated = 0;
  std::string all;  // the read-out may wrap: every line, joined at the spaces it broke
  for (const auto& box : views.pointers.drawn().boxes) {
    not_rotated += box.text == "not rotated";
    all += box.text + " ";
  }
  for (std::size_t at = all.find(kNbsp); at != std::string::npos; at = all.find(kNbsp))
    all.replace(at, std::string_view(kNbsp).size(), " ");
  INFO(all);
  const bool said = all.find("2 of 4 pairs rotate") != std::string::npos;
  CHECK(not_rotated == 2);
  CHECK(said);
  // and without partial rotary, no dial says so
  REQUIRE(set_param(state.params, "rotary_fraction", "1").ok());
  for (int f = 0; f < 2; ++f) {
    ui.prepare(1.0f, state.params.theme);
    ImGui::NewFrame();
    draw_frame(state, views, ViewEnv{&ui.fonts(), false, 1.0f});
    ImGui::Render();
  }
  for (const auto& box : views.pointers.drawn().boxes)
    CHECK(box.text != "not rotated");
}

TEST_CASE("the spectrum draws both meanings at the same fraction", "[app][models][spectrum]") {
  UiContext ui(false);
  AppState state;
  Views views;
  REQUIRE(set_param(state.params, "view", "spectrum").ok());
  REQUIRE(set_param(state.params, "model", "pythia-6.9b").ok());
  draw_frames(ui, state, views);
  const SpectrumView& v = views.spectrum;
  REQUIRE(v.partial());
  CHECK(v.both_meanings().neox_pairs == 16);
  CHECK(v.both_meanings().proportional_pairs == 16);
  CHECK(v.both_meanings().neox[15] == Approx(std::pow(10000.0, -30.0 / 32.0)).epsilon(1e-14));
  CHECK(v.both_meanings().proportional[15] ==
        Approx(std::pow(10000.0, -30.0 / 128.0)).epsilon(1e-14));
}

// partial_compare off (lesson 13 step 2): the meaning in use alone, in the legends and in words
TEST_CASE("the spectrum draws the meaning in use alone without partial_compare",
          "[app][models][spectrum]") {
  UiContext ui(false);
  AppState state;
  Views views;
  REQUIRE(set_param(state.params, "view", "spectrum").ok());
  REQUIRE(set_param(state.params, "model", "pythia-6.9b").ok());
  const auto names = [&](const char* word) {
    int n = 0;
    for (const auto& box : views.spectrum.drawn().boxes)
      n += box.text.find(word) != std::string::npos ? 1 : 0;
    return n;
  };
  draw_frames(ui, state, views);
  CHECK(names("neox") > 0);
  CHECK(names("proportional") > 0);
  REQUIRE(set_param(state.params, "partial_compare", "false").ok());
  draw_frames(ui, state, views);
  CHECK(names("neox") > 0);
  CHECK(names("proportional") == 0);
  REQUIRE(set_param(state.params, "rotary_style", "proportional").ok());
  draw_frames(ui, state, views);
  CHECK(names("neox") == 0);
  CHECK(names("proportional") > 0);
}

TEST_CASE("flags: a lesson or step asked for without --view opens the lesson, --view wins",
          "[app][cli]") {
  Params p;
  REQUIRE(p.view == ViewId::pointers);
  REQUIRE(apply_flags(p, {"--lesson", "13", "--step", "2"}));
  CHECK(p.view == ViewId::derivation);
  CHECK(p.lesson == "13");
  CHECK(p.step == 2);

  Params q;
  REQUIRE(apply_flags(q, {"--step", "3"}));
  CHECK(q.view == ViewId::derivation);

  Params r;
  REQUIRE(apply_flags(r, {"--view", "heatmap", "--lesson", "3"}));
  CHECK(r.view == ViewId::heatmap);

  Params s;  // no lesson asked for: the view is left alone
  REQUIRE(apply_flags(s, {"--dim", "32"}));
  CHECK(s.view == ViewId::pointers);
}
