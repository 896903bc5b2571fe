// views/derivation_view.h — the `derivation` view: a lesson (assets/lessons/) step by step,
// equation by equation, beside the view each step shows.
//
// The frame splits the canvas when view == derivation (shell/frame.cpp): this view's Draw fills
// the lesson panel (title, prose, typeset equations with live values, the check panel, previous
// / next with the step counter), and the step's `show_view` is drawn in the rest of the canvas.
// The lessons, the current step and moving between steps belong to the lesson library
// (lessons/library.h), which the frame has entered before this view draws: this view only draws
// the current step, with the live values and checks computed at the current parameters (the
// lecturer can move every slider after entering a step, and the values follow).
//
// Prose is laid out here, not by ImGui's wrapping: words and inline formulas ($...$, typeset in
// text style at the size of the prose font's letters) flow as units and share each line's
// baseline; a line holding a tall formula grows so that it never touches the lines around it.
//
// A step with `reveal:` hides what follows it (blocks and checks) behind a button until the
// lecturer presses V (AppState::reveal_requested, shell/shortcuts.cpp) or clicks it; entering
// another step hides it again; AppState::reveal_all (pictures) shows it.
//
// Equations are typeset with rope_typeset at font_px x env.scale into a GlyphAtlas whose GL
// texture this view owns (render/glyph_texture.h). Headless (env.has_gl == false) glyphs are
// drawn as boxes. Right-click an equation to copy its TeX. A broken lesson file shows its
// problems in place; a missing math font shows a message and the TeX source.
//
// Limits: the panel is ImGui layout (own prose layout, buttons, a child window), not a Canvas: an
// invisible button over the panel would take the clicks of its buttons and equations. A step
// taller than the panel is shrunk by a factor found over a frame or two from the height ImGui
// laid it out at (ShrinkToFit), not by first_fitting, which needs a layout it can measure
// without drawing.
//
// Usage: DerivationView view;  lesson panel: view.Draw(state, env, library);
//        controls: view.DrawControls(state, env, library).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "imgui.h"
#include "lessons/lesson.h"
#include "lessons/library.h"
#include "lessons/quantities.h"
#include "rope/typeset/display_list.h"
#include "state/app_state.h"
#include "ui/math_text.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct DerivationView {
  static constexpr float kEquationPx = 30.0f;  // display equations, px at scale 1
  static constexpr float kCheckPx = 24.0f;     // check panel formulas
  static constexpr float kMinFit = 0.7f;       // a step is drawn at least this large
  // ... and in the window, on the lecturer's own screen, this large: at 1280 x 720 with the
  // control panel beside it, 0.7 left 21 of 73 steps below a scroll bar. At 0.6 the prose is
  // still 13.4 px (em), checks 14.4 px and scripts kMinScriptPx.
  static constexpr float kMinFitWindow = 0.6f;
  // Sub- and superscripts are drawn at least this large, px at scale 1, whatever the shrink
  // factor: at kMinFit a check's second-level script (θ_i in e^{imθ_i}) would be 8 px on a
  // 1280 x 720 screen. 12 px there, 18 px on a 1080-line projector (scale 1.5).
  static constexpr float kMinScriptPx = MathText::kMinScriptPx;  // 12 px, as in view texts

  DerivationView();
  ~DerivationView();
  DerivationView(const DerivationView&) = delete;
  DerivationView& operator=(const DerivationView&) = delete;

  void Draw(AppState& state, const ViewEnv& env, lessons::Library& library);
  void DrawControls(AppState& state, const ViewEnv& env, lessons::Library& library);
  // Blocks of a step drawn at the cursor, `width` px wide, with the live values at
  // `params`: prose and questions in `prose_font` (inline math typeset), equations at
  // kEquationPx. The presenter window draws a step's notes, its hidden answer and the next
  // step's opening with it (shell/presenter.h). Results are those of these blocks.
  // prose_font: the font of prose and questions (null: the large one); equation_px: the
  // equations' size at scale 1 (0: kEquationPx).
  void DrawBlocks(const Params& params, const ViewEnv& env, std::span<const lessons::Block> blocks,
                  float width, ImFont* prose_font = nullptr, float equation_px = 0.0f);

  // Read-only results of the last Draw, for tests.
  struct Mark {
    ImVec2 centre;  // of the check mark, px
    bool passed;
  };
  // One piece of a prose paragraph as laid out: a run of words or an inline formula.
  struct ProsePiece {
    ImVec2 min{0, 0}, max{0, 0};  // screen box, px (text: the font's line box; math: ink box)
    float baseline = 0;           // screen y of the baseline of its line, px
    bool math = false;
    std::string text;                   // the words, or the TeX with its values
    std::vector<std::uint32_t> glyphs;  // math: the glyph ids of the typeset formula, in order
  };
  // The size text of the step is drawn at, for readability tests: the em of its smallest glyph
  // in px, after the shrink factor and after a formula too wide for the panel was made smaller.
  // Typeset math reports the typesetter's glyph size, so a subscript counts at its own (smaller)
  // size; ImGui text reports its font's line height / kTextLineEm.
  enum class TextKind : std::uint8_t {
    title,       // the step's title, the "This step assumes" line
    prose,       // the words of prose and questions, the reveal button
    prose_math,  // an inline formula
    equation,    // a display equation
    check,       // a check's formula, the check panel's heading and messages
  };
  struct DrawnSize {
    TextKind kind = TextKind::prose;
    float em_px = 0;        // px
    std::string text;       // the words (the first few of a paragraph) or the TeX
    float squeezed = 1.0f;  // a formula made smaller to fit the panel's width: drawn / asked size
  };
  // DejaVu Sans's line (ascent + descent, what an ImGui font size measures) in em.
  static constexpr float kTextLineEm = 1.164f;

  struct Results {
    int equations_drawn = 0;
    int equation_errors = 0;                          // TeX diagnostics in the drawn equations
    ImVec2 equations_min{0, 0}, equations_max{0, 0};  // screen box around the drawn equations
    std::vector<Mark> marks;                          // one per check of the step
    std::vector<lessons::CheckOutcome> checks;        // at the current values
    std::vector<ProsePiece> prose;                    // every prose piece of the step
    float panel_min_x = 0, panel_max_x = 0;           // the step's text column, screen px
    bool hiding = false;     // the step's part after `reveal:` is hidden (a button stands there)
    std::string assumption;  // the "This step assumes ..." line under the title ("" none)
    std::vector<DrawnSize> sizes;  // every piece of text drawn, with its size
  };
  const Results& results() const { return results_; }
  // The step's text and equations are drawn this much smaller to fit (kMinFit ... 1; in the
  // window kMinFitWindow ... 1).
  float fit() const { return shrink_.factor; }
  // The last frame changed the shrink factor: the next frame draws the step at another size, so a
  // picture taken now would still show a scroll bar (OffscreenApp::render waits for it).
  bool settling() const { return shrink_.settling; }
  // How far the step's content ran past its panel in the last frame, px (0: it fit).
  float overflow() const { return shrink_.overflow; }
  // Why no math font could be loaded; empty when one was.
  const std::string& font_error() const { return math_->error(); }

 private:
  // The live values of {{name}} and the checks: recomputed when any parameter changes.
  struct Inputs {
    std::string key;  // every parameter as text (the parameter table's order)
    Params params;
    bool operator==(const Inputs& o) const { return key == o.key; }
  };
  static Inputs inputs_of(const Params& p);
  ViewCache<Inputs, lessons::QuantityContext> values_;
  // shared by every context this view makes: fixed quantities and costly results (PI's fit in
  // lesson 11) are computed once, not again each time m moves
  std::shared_ptr<lessons::FixedValues> memo_ = std::make_shared<lessons::FixedValues>();

  // The shrink factor of a step that is taller than the panel: starts at 1 for each step, panel
  // size and scale (`key`), and is lowered from the height the step was laid out at, down to
  // `least` (kMinFit, in the window kMinFitWindow). In front of a class, often with only a
  // keyboard, nothing should hide below a scroll bar.
  struct ShrinkToFit {
    std::string key;
    float factor = 1.0f;
    float least = kMinFit;   // the smallest factor allowed
    float fits = kMinFit;    // the largest factor measured to fit (least: assumed)
    float overflows = 2.0f;  // the smallest measured to overflow (2: none yet)
    bool settling = false;   // the last measurement changed `factor`
    float overflow = 0.0f;   // drawn height minus room in the last measurement, px (>= 0)
    float factor_for(const std::string& layout_key, float smallest);
    void measured(float drawn_height, float room);
  };
  ShrinkToFit shrink_;

  // Typesetting: ViewEnv::math, or (drawn alone, in tests) a typesetter of its own.
  MathText own_math_;
  MathText* math_ = &own_math_;  // the one the last Draw used
  float min_script_px_ = 0.0f;   // kMinScriptPx at the last Draw's scale (not shrunk), px
  using Typeset = MathText::Formula;

  Results results_;

  // Predict, then reveal: whether the current step's hidden part is shown. Entering another
  // step (lesson#step differs from shown_step_) hides it again.
  std::string shown_step_;
  bool revealed_ = false;
  std::string reveal_applied_;  // the step whose revealed state was applied ("" none)

  struct Pass;  // what one Draw's helpers share: env, palette, the live values
  const Typeset& typeset_tex(const std::string& tex, const lessons::QuantityContext& values,
                             float px, ImU32 colour, bool inline_style = false);
  // Paints a typeset list with its baseline origin at `origin` (boxes when headless).
  void paint_list(const Pass& pass, const typeset::DisplayList& list, ImVec2 origin, ImU32 colour);
  // A prose paragraph with inline math, wrapped to `width` at the cursor.
  void draw_prose(const Pass& pass, const lessons::Block& block, float width);
  // Draws one formula at the cursor (centred in `width` if centre), returns its size.
  // kind: a display equation is counted in Results::equations_*; every kind in Results::sizes.
  ImVec2 draw_formula(const Pass& pass, const std::string& tex, float px, ImU32 colour, float width,
                      bool centre, const char* id, TextKind kind);
  // Records text drawn at the current ImGui font size (Results::sizes).
  void record_text(TextKind kind, const std::string& text);
  void draw_lesson_choice(AppState& state, const ViewEnv& env, lessons::Library& library);
  void draw_step(const Pass& pass, const lessons::Step& step);
  // The check panel with the step's first `count` checks.
  void draw_checks(const Pass& pass, const lessons::Step& step, std::size_t count);
  static void draw_navigation(AppState& state, const ViewEnv& env, lessons::Library& library);
};

}  // namespace rope::app
