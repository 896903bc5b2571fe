// Tests for the Pen's rich lines (ui/canvas.h: text and $…$ math typeset by ui/math_text.h on
// one baseline) and the view texts that use them (classroom review D10: "θᵢ = base^(−2i/d)"
// was plain text on every pointers header, 12-2's "(b′/b)^(2i/d)", 15-x's "θⱼ = base^(−4j/d)").

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "state/params.h"
#include "ui/canvas.h"
#include "ui/math_text.h"
#include "ui/ui_context.h"
#include "view_harness.h"
#include "views/axial_view.h"
#include "views/extension_view.h"
#include "views/pointers_view.h"
#include "views/spectrum_view.h"

using namespace rope::app;
using namespace rope::app::view_test;

namespace {

// The glyphs of a rich line's math, sorted into those on the text's baseline at the formula's
// em, raised (superscripts) and lowered (subscripts), px.
struct Scripts {
  float em = 0;  // the largest glyph size: the formula's own
  int on_baseline = 0, raised = 0, lowered = 0;
  float smallest_script = 1e9f;
};
Scripts scripts_of(const std::vector<MathGlyph>& glyphs) {
  Scripts sc;
  for (const MathGlyph& g : glyphs)
    sc.em = std::max(sc.em, g.size_px);
  for (const MathGlyph& g : glyphs) {
    if (g.size_px >= sc.em && g.origin.y == g.line_baseline) {
      ++sc.on_baseline;
      continue;
    }
    if (g.size_px >= sc.em) continue;  // a full-size glyph off the baseline: neither
    sc.smallest_script = std::min(sc.smallest_script, g.size_px);
    if (g.origin.y < g.line_baseline - 0.2f * g.text_px) ++sc.raised;
    if (g.origin.y > g.line_baseline) ++sc.lowered;
  }
  return sc;
}

// One ImGui frame with a window to draw into, at scale 1.
struct Frame {
  explicit Frame(UiContext& ui) {
    ui.prepare(1.0f, Theme::dark);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1200, 800);
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1200, 800));
    ImGui::Begin("rich", nullptr, ImGuiWindowFlags_NoSavedSettings);
  }
  ~Frame() {
    ImGui::End();
    ImGui::Render();
  }
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;
};

}  // namespace

TEST_CASE("a rich line sets its math on the text's baseline, measured as drawn", "[app][text]") {
  UiContext ui(false);
  const Frame frame(ui);
  MathText math;
  math.begin_frame();
  REQUIRE(math.font() != nullptr);  // fonts-lmodern (scripts/deps.sh)
  DrawnText log;
  const Pen pen{ImGui::GetWindowDrawList(), &log, PenMath{&math, false, 1.0f}};
  ImFont* body = ui.fonts().body;
  const std::string s = "wavelength $\\lambda_i = 2\\pi/\\theta_i$ of pair i, $b^{2i/d}$, d = 8";

  // one line: measured by a measuring pen exactly as drawn, about as tall as the text (taller
  // only by what a subscript reaches below the text's descent)
  const ImVec2 measured = pen.measuring().rich(body, ImVec2(10, 20), IM_COL32_WHITE, s);
  CHECK(log.boxes.empty());  // measuring drew and recorded nothing
  const ImVec2 drawn = pen.rich(body, ImVec2(10, 20), IM_COL32_WHITE, s);
  CHECK(measured.x == drawn.x);
  CHECK(measured.y == drawn.y);
  CHECK(drawn.y >= body->FontSize);
  CHECK(drawn.y <= 1.25f * body->FontSize);
  REQUIRE(log.boxes.size() == 1);
  CHECK(log.boxes[0].text == s);  // tests find the line as written
  CHECK(log.boxes[0].max.x - log.boxes[0].min.x == Approx(drawn.x));
  // λ, =, 2, π, /, θ on the baseline; the two i subscripts below it; 2i/d raised
  const Scripts sc = scripts_of(log.math);
  CHECK(sc.on_baseline >= 7);
  CHECK(sc.lowered >= 2);
  CHECK(sc.raised >= 3);
  // the math's em between the text's x-height and capital matches: near the line's size
  CHECK(sc.em > 0.6f * body->FontSize);
  CHECK(sc.em < 1.1f * body->FontSize);
  CHECK(sc.smallest_script >= MathText::kMinScriptPx - 0.01f);  // the lessons' script rule
  // a space that is no break point inside math: nobreak() around a formula changes nothing
  log = DrawnText{};
  pen.rich(body, ImVec2(10, 60), IM_COL32_WHITE, nobreak("$b^{2i/d} + c$"));
  CHECK(scripts_of(log.math).on_baseline == 3);  // b, +, c

  // wrapped: breaks at spaces outside the math only, "$b^{2i/d}$," stays whole
  log = DrawnText{};
  const float width = drawn.x * 0.45f;
  const float h = pen.rich_wrapped(body, ImVec2(10, 100), width, IM_COL32_WHITE, s);
  CHECK(h == Approx(pen.rich_size(body, width, s).y));
  REQUIRE(log.boxes.size() >= 2);
  float lines_h = 0;
  bool whole = false;
  for (const TextBox& b : log.boxes) {
    lines_h += b.max.y - b.min.y;
    CHECK(b.max.x - b.min.x <= width + 0.5f);
    whole = whole || b.text.find("$b^{2i/d}$,") != std::string::npos;
  }
  CHECK(lines_h == Approx(h).margin(1));  // the lines follow each other, none overlapping the next
  CHECK(whole);
  math.end_frame(false);
}

TEST_CASE("a rich line without a math font shows the TeX as written", "[app][text]") {
  UiContext ui(false);
  const Frame frame(ui);
  DrawnText log;
  const Pen pen{ImGui::GetWindowDrawList(), &log, PenMath{}};
  const ImVec2 size = pen.rich(ui.fonts().body, ImVec2(0, 0), IM_COL32_WHITE, "x $a^2$ y");
  REQUIRE(log.boxes.size() == 1);
  CHECK(log.boxes[0].text == "x $a^2$ y");
  CHECK(size.x == Approx(text_size(ui.fonts().body, "x $a^2$ y").x));
  CHECK(log.math.empty());
}

TEST_CASE("view texts typeset their formulas (review D10)", "[app][text]") {
  UiContext ui(false);
  for (const Area& area : kLectureCanvases) {
    AppState state;
    state.params.ui_scale = area.scale;
    INFO("canvas " << area.size.x << " x " << area.size.y << " at scale " << area.scale);
    const auto check_formula = [&](const DrawnText& t, const std::string& tex, int raised) {
      std::string lines;
      for (const TextBox& b : t.boxes)
        lines += "\n  " + b.text;
      INFO(tex << " among the lines" << lines);
      check_text_fits(t);  // measured with the math: inside the canvas, apart from the rest
      CHECK(has_text(t, tex));
      CHECK_FALSE(has_text(t, "^("));  // no plain-text powers left
      const Scripts sc = scripts_of(t.math);
      CHECK(sc.raised >= raised);  // the exponent above the baseline, smaller
      CHECK(sc.lowered >= 1);      // the subscript below it
      CHECK(sc.smallest_script >= MathText::kMinScriptPx * static_cast<float>(area.scale) - 0.01f);
    };
    {
      PointersView view;  // every pointers header (4-x, 5-x, 12-6 ...)
      draw_alone(ui, state, view, area.size);
      check_formula(view.drawn(), "$\\theta_i = \\mathrm{base}^{-2i/d}$", 5);
    }
    {
      AxialView view;  // 15-x
      draw_alone(ui, state, view, area.size);
      check_formula(view.drawn(), "$\\theta_j = \\mathrm{base}^{-4j/d}$", 5);
    }
    {
      SpectrumView view;
      draw_alone(ui, state, view, area.size);
      if (has_text(view.drawn(), "positions per turn"))  // a compact header leaves it out
        check_formula(view.drawn(), "$\\theta_i = \\mathrm{base}^{-2i/d}$", 5);
    }
    {
      ExtensionView view;  // 12-2: NTK's new base
      set_all(state.params, {{"scaling", "ntk"}, {"factor", "8"}, {"original_context", "4096"}});
      draw_alone(ui, state, view, area.size);
      const DrawnText& t = view.drawn();
      CHECK_FALSE(has_text(t, "^("));
      if (has_text(t, "no bands")) {  // the read-out is left out on the smallest canvases
        CHECK(has_text(t, "$(b'/b)^{2i/d}$."));
        CHECK(scripts_of(t.math).raised >= 4);
      }
    }
  }
}
