// shell/presenter.h — the presenter window's page: what the lecturer reads on the laptop while
// the projector shows the app (View ▸ Presenter window, F6, `rope-lab --presenter`).
//
// The page shows, for the current lesson step: a live copy of the main window (what the class
// sees), the step's notes (`note:` lines, assets/lessons/FORMAT.md), the step's hidden answer
// while `reveal:` still hides it, the next step's title and opening, and the time since the
// lecture started. Its buttons move through the lesson like the keys; keys typed in the
// presenter window reach the main window's shortcuts (shell/window.cpp).
//
// The page is drawn in an ImGui context of its own (ImGui 1.86 has no multi-viewport, so a
// second OS window needs a second context): the Presenter owns it, the page and the mirror
// texture. The window (a second GLFW window sharing the main one's GL objects) and the picture
// command (`rope-lab screenshot --presenter`, the same GL context) drive it alike.
//
// Usage, each frame the main window drew:
//   presenter.capture_mirror(fb_w, fb_h);     // main context current, its frame just drawn
//   presenter.ui().prepare(scale, theme);      // the presenter's GL context current from here
//   <platform NewFrame, or io.DisplaySize>;  presenter.ui().backend_new_frame();
//   presenter.draw(state, views, scale, /*wall_clock=*/true);
//   <clear>;  presenter.ui().render_draw_data();
#pragma once

#include <string>
#include <vector>

#include "render/mirror_texture.h"
#include "shell/frame.h"
#include "state/app_state.h"
#include "ui/ui_context.h"
#include "ui/view_env.h"
#include "views/derivation_view.h"

namespace rope::app {

// The main window's last frame as a texture the presenter page shows scaled down.
struct PresenterMirror {
  GLuint texture = 0;         // 0: nothing captured yet (headless, or before the first frame)
  int width = 0, height = 0;  // px
};

class PresenterPage {
 public:
  // Draws the page over the whole of ImGui's display (one full-size window).
  // wall_clock: the time of day beside the lecture timer (pictures leave it out, so the same
  // state gives the same picture).
  void Draw(AppState& state, Views& views, const ViewEnv& env, const PresenterMirror& mirror,
            bool wall_clock);
  // The lecture timer counts from `now` (state.time, s).
  void restart_clock(double now) { clock_start_ = now; }
  // Seconds from `now` until the timer shows its next second.
  double seconds_to_tick(double now) const;

  // Read-only results of the last Draw, for tests.
  struct Results {
    bool in_lesson = false;
    std::string heading;  // "Lesson 3 · RoPE in two dimensions · step 2 of 3"
    std::string step;     // the current step's title
    std::string next;     // "Next: 3 · Python is love", "Next lesson: …", or "" (the last)
    std::string timer;    // "12:04"
    std::vector<std::string> notes;  // the words drawn in the notes column, in order
    int note_paragraphs = 0;
    bool answer_hidden = false;  // the step's hidden answer is shown here, not yet to the class
    std::vector<std::string> answer;            // its words, in order
    ImVec2 mirror_min{0, 0}, mirror_max{0, 0};  // where the main window's copy is drawn, px
  };
  const Results& results() const { return results_; }

 private:
  void draw_header(AppState& state, Views& views, const ViewEnv& env, bool wall_clock);
  void draw_notes(AppState& state, Views& views, const ViewEnv& env);
  void draw_next(AppState& state, Views& views, const ViewEnv& env);
  void draw_footer(AppState& state, Views& views, const ViewEnv& env);

  DerivationView notes_, answer_, next_;  // each keeps the live values of its own state
  double clock_start_ = 0.0;
  Results results_;
};

class Presenter {
 public:
  // Makes its ImGui context (and, with_gl, its GL backend objects in the current GL context).
  explicit Presenter(bool with_gl);
  ~Presenter();
  Presenter(const Presenter&) = delete;
  Presenter& operator=(const Presenter&) = delete;

  UiContext& ui() { return ui_; }
  PresenterPage& page() { return page_; }
  const PresenterPage& page() const { return page_; }

  // Copies the bound read framebuffer's fb_w x fb_h pixels (the main frame just drawn) into the
  // copy the page shows (render/mirror_texture.h); nothing without GL.
  void capture_mirror(int fb_w, int fb_h) {
    if (ui_.with_gl()) mirror_.capture(fb_w, fb_h);
  }
  // One frame of the page between the presenter context's NewFrame and Render (does both).
  void draw(AppState& state, Views& views, float scale, bool wall_clock);

 private:
  UiContext ui_;
  PresenterPage page_;
  MirrorTexture mirror_;
};

}  // namespace rope::app
