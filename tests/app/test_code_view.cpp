// The code view (views/code_view.h): its check marks and numbers against rope/three_codes.h,
// the hover link between a code line and its equation, its text inside the canvas at every
// size a lecture uses, and the colour of a check mark in an offscreen render.
#include <catch2/catch.hpp>

#include <iterator>
#include <string>
#include <vector>

#include "rope/frequencies.h"
#include "rope/three_codes.h"
#include "shell/frame.h"
#include "state/params.h"
#include "ui/theme.h"
#include "ui/ui_context.h"
#include "view_harness.h"

using namespace rope::app;
using namespace rope::app::view_test;

namespace {

const TextBox* find_text(const DrawnText& d, const std::string& s) {
  for (const TextBox& b : d.boxes)
    if (b.text.find(s) != std::string::npos) return &b;
  return nullptr;
}

// The view's results, or an empty set before the first Draw (so no pointer is dereferenced).
const CodeView::Results& results_of(const CodeView& v) {
  static const CodeView::Results kEmpty;
  const CodeView::Results* r = v.results();
  return r != nullptr ? *r : kEmpty;
}

// The first recorded line containing s, or "" when none does.
std::string line_with(const DrawnText& d, const std::string& s) {
  const TextBox* b = find_text(d, s);
  return b != nullptr ? b->text : std::string();
}

}  // namespace

TEST_CASE("the code view's check marks follow the core", "[app][code]") {
  UiContext ui(false);
  AppState state;
  CodeView view;
  set_all(state.params, {{"dim", "8"},
                         {"position", "3"},
                         {"key_position", "7"},
                         {"query", "random"},
                         {"key", "random"}});
  draw_alone(ui, state, view, ImVec2(1520, 1050));
  REQUIRE(view.results() != nullptr);
  const CodeView::Results& r = results_of(view);
  REQUIRE(r.problem.empty());
  const auto q = effective_vector(state.params.query, state.params, false);
  const auto k = effective_vector(state.params.key, state.params, true);
  const auto th = rope::frequencies(8, 10000.0).value();
  const auto want = rope::compare_codes(q, k, 3.0, 7.0, th).value();
  CHECK(r.codes.score_math == want.score_math);
  CHECK(r.codes.score_half_permuted == want.score_half_permuted);
  CHECK(r.codes.perm == std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7});
  CHECK(r.complex_ok);
  CHECK(r.permuted_ok);
  CHECK_FALSE(r.unpermuted_ok);  // the red cross
  CHECK(r.accident.empty());
  // the scores are on screen with 10 significant digits, with their marks; A, B and C agree
  // to 10⁻¹², so they read the same (review D19: 17 digits showed their rounding noise)
  const std::string shown = format_number(want.score_half_permuted, NumberStyle::label, 10);
  CHECK(line_with(view.drawn(), "C  with P  " + shown).starts_with("✓"));
  CHECK(find_text(view.drawn(), "A  math  " + shown) != nullptr);
  CHECK(line_with(view.drawn(), "B  Meta  " + shown).starts_with("✓"));
  CHECK(line_with(view.drawn(), "C  without P").starts_with("✗"));
  CHECK(find_text(view.drawn(), "differs from A by") != nullptr);
  CHECK(find_text(view.drawn(), "P = [0, 2, 4, 6 | 1, 3, 5, 7]") != nullptr);

  // q = k = ones: P leaves them alone, so the scores agree without P, and the view says why
  set(state.params, "query", "ones");
  set(state.params, "key", "ones");
  draw_alone(ui, state, view, ImVec2(1520, 1050));
  REQUIRE(view.results() != nullptr);
  CHECK(results_of(view).unpermuted_ok);
  CHECK(results_of(view).accident.find("P q = q") != std::string::npos);
  CHECK(line_with(view.drawn(), "equal here: P q = q").starts_with("   "));
  CHECK(line_with(view.drawn(), "C  without P").starts_with("="));  // no cross: they agree
  // d = 2: P is the identity
  set(state.params, "dim", "2");
  set(state.params, "query", "random");
  draw_alone(ui, state, view, ImVec2(1520, 1050));
  CHECK(results_of(view).accident.starts_with("d = 2"));
}

TEST_CASE("hovering a code line lights up its equation", "[app][code]") {
  UiContext ui(false);
  AppState state;
  CodeView view;
  set(state.params, "query", "random");
  set(state.params, "key", "random");
  draw_alone(ui, state, view, ImVec2(1520, 1050));
  CHECK(view.hot_equation() == 0);
  const TextBox* line = find_text(view.drawn(), "x = x[P]");
  REQUIRE(line != nullptr);
  const TextBox box = line != nullptr ? *line : TextBox{};
  const ImVec2 at((box.min.x + box.max.x) / 2, (box.min.y + box.max.y) / 2);
  draw_alone(ui, state, view, ImVec2(1520, 1050), at);
  CHECK(view.hot_equation() == 5);
  const TextBox* polar = find_text(view.drawn(), "w = polar(");
  REQUIRE(polar != nullptr);
  const TextBox pbox = polar != nullptr ? *polar : TextBox{};
  draw_alone(ui, state, view, ImVec2(1520, 1050),
             ImVec2(pbox.min.x + 5, (pbox.min.y + pbox.max.y) / 2));
  CHECK(view.hot_equation() == 3);
}

// Window and presentation canvases on 1920 x 1080 and 1280 x 720, and the step's half of the
// derivation view: every line inside the canvas, none on another.
TEST_CASE("the code view keeps its text inside the canvas and apart", "[app][layout][code]") {
  UiContext ui(false);
  // and a narrow window canvas
  std::vector<Area> canvases(std::begin(kLectureCanvases), std::end(kLectureCanvases));
  canvases.push_back({ImVec2(420, 690), 1.0});
  for (const Area& c : canvases) {
    for (const char* dim : {"2", "8", "128", "4096"}) {
      for (const char* vectors : {"random", "ones"}) {
        AppState state;
        CodeView view;
        set(state.params, "dim", dim);
        set(state.params, "query", vectors);
        set(state.params, "key", vectors);
        set(state.params, "position", "1000.5");
        set(state.params, "key_position", "-17");
        state.params.ui_scale = c.scale;
        state.params.theme = c.scale > 1.0 ? Theme::light : Theme::dark;
        INFO("canvas " << c.size.x << " x " << c.size.y << " at scale " << c.scale
                       << ", d = " << dim << ", " << vectors);
        draw_alone(ui, state, view, c.size);
        INFO("level " << view.level());
        check_text_fits(view.drawn());
      }
    }
  }
}
