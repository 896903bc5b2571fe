// views/derivation_view.h — the `derivation` view: steps through a lesson (assets/lessons/),
// equation by equation, beside the view each step shows.
//
// The frame splits the canvas when view == derivation (shell/frame.cpp): this view's Draw fills
// the lesson panel (title, step counter, prose, typeset equations with live values, the check
// panel, previous / next), and the step's `show_view` is drawn in the rest of the canvas. When
// a step is entered its state is applied to AppState (lessons::apply_step_state); the lecturer
// can move every slider afterwards, and the checks and live values follow.
//
// Equations are typeset with rope_typeset at font_px x env.scale into a GlyphAtlas whose GL
// texture this view owns (render/glyph_texture.h). Headless (env.has_gl == false) glyphs are
// drawn as boxes. Right-click an equation to copy its TeX. A broken lesson file shows its
// problems in place; a missing math font shows a message and the TeX source.
//
// Usage: DerivationView view;  lesson panel: view.Draw(state, env);  controls:
// view.DrawControls(state, env).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "imgui.h"
#include "lessons/lesson.h"
#include "lessons/quantities.h"
#include "render/glyph_texture.h"
#include "rope/typeset/display_list.h"
#include "rope/typeset/glyph_atlas.h"
#include "rope/typeset/math_font.h"
#include "state/app_state.h"
#include "ui/view_env.h"

namespace rope::app {

struct DerivationView {
  static constexpr float kEquationPx = 30.0f;  // display equations, px at scale 1
  static constexpr float kCheckPx = 24.0f;     // check panel formulas

  DerivationView();
  ~DerivationView();
  DerivationView(const DerivationView&) = delete;
  DerivationView& operator=(const DerivationView&) = delete;

  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // Re-reads every lesson file (the Reload button; lecturers edit lessons while the app runs).
  void reload();

  // read-only results of the last Draw (tests read them)
  int lesson_index = -1;  // into lessons(); -1 when the requested lesson does not exist
  int step_count = 0;
  std::string lesson_heading;  // "Lesson 3 · RoPE in two dimensions"; empty without a lesson
  float fit = 1.0f;            // the step's text and equations are drawn this much smaller to fit
  static constexpr float kMinFit = 0.7f;
  int equations_drawn = 0;
  int equation_errors = 0;                          // TeX diagnostics in the drawn equations
  ImVec2 equations_min{0, 0}, equations_max{0, 0};  // screen box around the drawn equations
  struct Mark {
    ImVec2 centre;  // of the check mark, px
    bool passed;
  };
  std::vector<Mark> marks;                           // one per check of the step
  std::vector<lessons::CheckOutcome> check_results;  // at the current values
  std::string font_error;                            // set when no math font could be loaded
  const std::vector<lessons::LoadedLesson>& lessons();

 private:
  // lessons, loaded on first use
  bool loaded_ = false;
  std::vector<lessons::LoadedLesson> lessons_;
  std::vector<std::string> ids_;

  std::string fit_key_;  // lesson, step, panel size and scale that `fit` was found for
  // typesetting
  bool font_tried_ = false;
  std::unique_ptr<typeset::MathFont> font_;
  std::unique_ptr<typeset::GlyphAtlas> atlas_;
  GlyphTexture texture_;
  struct Typeset {
    typeset::DisplayList list;
    int errors = 0;
  };
  std::map<std::string, Typeset> typeset_cache_;  // key: TeX, values, px, colour

  // live values: recomputed when a parameter changes
  std::string values_key_;
  std::unique_ptr<lessons::QuantityContext> context_;

  void ensure_loaded();
  void ensure_font();
  void enter_step(AppState& state);
  void move_step(AppState& state, int delta);  // AppState::step_request's meaning
  const lessons::QuantityContext& context(const Params& p);
  const Typeset& typeset_tex(const std::string& tex, float px, ImU32 colour);
  // Draws one formula at the cursor (centred in `width` if centre), returns its size.
  ImVec2 draw_formula(const std::string& tex, float px, ImU32 colour, float width, bool centre,
                      const ViewEnv& env, const char* id, bool record);
  void draw_step(AppState& state, const ViewEnv& env, const lessons::Lesson& lesson,
                 const lessons::Step& step, float content_height);
  void draw_checks(AppState& state, const ViewEnv& env, const lessons::Step& step);
  void draw_navigation(AppState& state, const ViewEnv& env);
};

}  // namespace rope::app
