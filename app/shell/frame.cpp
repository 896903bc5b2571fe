#include "shell/frame.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>

#include <imgui_internal.h>  // BringWindowToDisplayBack (ImGui 1.86 has no public call for it)

#include "render/background.h"
#include "shell/control_panel.h"
#include "shell/dialogs.h"
#include "shell/menu_bar.h"
#include "shell/shortcuts.h"
#include "state/params.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

constexpr float kLessonShare = 0.52f;  // derivation view: the lesson's share of the canvas

constexpr ImGuiWindowFlags kFixed =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
    ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings |
    ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollbar |
    ImGuiWindowFlags_NoScrollWithMouse;

// The current view, or the lesson step's view beside the lesson; no background of its own (the
// driver clears to the canvas colour).
void draw_canvas(AppState& state, Views& views, const ViewEnv& env, ImVec2 pos, ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  const bool open = ImGui::Begin("Canvas", nullptr, kFixed | ImGuiWindowFlags_NoBackground);
  // Begin has read the padding: popped here, the tooltips the views open keep the style's own
  // (pushed over the whole Draw they had none: classroom review D16)
  ImGui::PopStyleVar();
  if (open) {
    // below every other window whenever it was made: the ink layer and the dialogs go over it
    ImGui::BringWindowToDisplayBack(ImGui::GetCurrentWindow());
    const ViewId shown =
        state.params.view == ViewId::derivation ? state.params.show_view : state.params.view;
    if (shown != ViewId::derivation)  // (the parameter table never lets show_view be derivation)
      views.visit(shown, [&](auto& view) {
        if constexpr (requires { view.Draw(state, env); }) view.Draw(state, env);
      });
  }
  ImGui::End();
}

// The derivation view's lesson panel, left of the canvas that shows the step's view.
void draw_lesson_panel(AppState& state, Views& views, const ViewEnv& env, ImVec2 pos, ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  const float pad = 20.0f * env.scale;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
  // no background: the frame is cleared to the canvas colour already (render/background.h);
  // drawn, the panel's background was half the frame's area blended again
  if (ImGui::Begin("Lesson", nullptr, kFixed | ImGuiWindowFlags_NoBackground)) {
    ImGui::BringWindowToDisplayBack(ImGui::GetCurrentWindow());  // as the canvas: under the ink
    views.derivation.Draw(state, env, views.library);
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

// Typed q and k as a frame begins (fit_typed_vectors).
struct TypedBefore {
  int dim;
  bool query, key;  // typed (custom)
  std::string lesson;
  int step;  // the lesson step applied last
};

TypedBefore typed_before(const AppState& state) {
  const Params& p = state.params;
  return {p.dim, p.query.preset == VectorPreset::custom, p.key.preset == VectorPreset::custom,
          state.applied_lesson, state.applied_step};
}

// Typed q and k hold exactly d values after every frame, whatever changed d (a key, a slider, a
// preset button; fit_vectors_to_dim in state/params.h): one that does not goes back to all
// ones. When a d change sent a typed vector back (here or in the dim setter), the notice says
// so, unless a lesson step was entered: the step sets its own vectors.
void fit_typed_vectors(AppState& state, const TypedBefore& before) {
  fit_vectors_to_dim(state.params);
  const Params& p = state.params;
  if (p.dim == before.dim || state.applied_lesson != before.lesson ||
      state.applied_step != before.step)
    return;
  const bool q = before.query && p.query.preset != VectorPreset::custom;
  const bool k = before.key && p.key.preset != VectorPreset::custom;
  if (!q && !k) return;
  const std::string which = q && k ? "q and k were" : q ? "q was" : "k was";
  show_notice(state,
              which + " typed for d = " + std::to_string(before.dim) +
                  "; at d = " + std::to_string(p.dim) + (q && k ? " both are" : " it is") +
                  " all ones again (typed values need exactly d numbers: type new ones in the "
                  "panel)",
              false);
}

// Whatever this frame changed, the state still holds together (validate_params): the slider
// and key paths refuse values that break a rule between parameters (change_param), and this
// catches any other way in (a radio button that writes a field directly). A state that does not
// validate goes back to the last one that did, and the notice says what was refused. A state
// that never validated (a session or lesson of an older rule) is left as it is.
void keep_state_valid(AppState& state, std::optional<Params>& valid) {
  if (valid && state.params == *valid) return;
  const Status now = validate_params(state.params);
  if (now.ok()) {
    valid = state.params;
  } else if (valid) {
    state.params = *valid;
    show_notice(state, "Not applied: " + now.error().to_string(), true);
  }
}

}  // namespace

ImVec4 clear_colour(const AppState& state) {
  // Transparent: all zero, so what ImGui blends on top comes out premultiplied by its alpha
  // (undone by export/png.h unpremultiply when the picture is saved).
  if (state.transparent_background) return ImVec4(0, 0, 0, 0);
  return ImGui::ColorConvertU32ToFloat4(palette(state.params.theme).canvas);
}

FrameLayout draw_frame(AppState& state, Views& views, const ViewEnv& outer) {
  ViewEnv env = outer;
  env.math = &views.math;
  views.math.begin_frame();
  const ImGuiIO& io = ImGui::GetIO();
  const TypedBefore before = typed_before(state);
  handle_shortcuts(state, views.library, views.history, &views.export_dialog);
  FrameLayout layout;
  const auto background = [&](float x0, float y0, float x1, float y1, ImU32 colour) {
    layout.backgrounds.push_back(
        BackgroundRect{x0, y0, x1, y1, ImGui::ColorConvertU32ToFloat4(colour)});
  };
  float top = 0.0f;
  if (state.show_menu) {
    draw_menu_bar(state, views.history);
    top = ImGui::GetFrameHeight();  // the main menu bar's height
    background(0.0f, 0.0f, io.DisplaySize.x, top, ImGui::GetColorU32(ImGuiCol_MenuBarBg));
  }
  const float bar_h = PresentationBar::shown(state) ? PresentationBar::height(env) : 0.0f;
  const float height = std::max(1.0f, io.DisplaySize.y - top - bar_h);
  float panel_w = 0.0f;
  if (state.show_controls) {
    panel_w = control_panel_width(env, io.DisplaySize.x);
    draw_control_panel(state, views, env, top, height);
    background(0.0f, top, panel_w, top + height, ImGui::GetColorU32(ImGuiCol_WindowBg));
  }
  ImVec2 canvas_pos(panel_w, top);
  ImVec2 canvas_size(std::max(1.0f, io.DisplaySize.x - panel_w), height);
  const ImVec2 ink_pos = canvas_pos, ink_size = canvas_size;  // the lesson and its view together
  std::optional<InkPanels> ink_panels;                        // a lesson step's two parts
  if (state.params.view == ViewId::derivation) {              // lesson left, the step's view right
    // entered after the keys, the menu and the control panel, which may move it, before what
    // shows it: the lesson panel, the step's view and the presentation bar
    views.library.enter(state);
    const float lesson_w = std::floor(canvas_size.x * kLessonShare);
    draw_lesson_panel(state, views, env, canvas_pos, ImVec2(lesson_w, height));
    canvas_pos.x += lesson_w;
    canvas_size.x = std::max(1.0f, canvas_size.x - lesson_w);
    ink_panels = InkPanels{ink_pos, ImVec2(lesson_w, height), canvas_pos, canvas_size};
  }
  {
    ImGuiIO& mouse_io = ImGui::GetIO();
    const ViewId shown =
        state.params.view == ViewId::derivation ? state.params.show_view : state.params.view;
    // moved: another position than last frame's (ImGui's MouseDelta is 0 on the frame the mouse
    // enters the window), or a button pressed
    const ImVec2 mouse = mouse_io.MousePos;
    const bool moved =
        mouse.x != views.hover_mouse.x || mouse.y != views.hover_mouse.y || ImGui::IsAnyMouseDown();
    views.hover_mouse = mouse;
    if (views.hover_view != shown) {
      views.hover_wait = true;
    } else if (moved) {
      views.hover_wait = false;
    }
    views.hover_view = shown;
    // while waiting, the canvas sees no mouse (ImGui reads the position when an item is added)
    if (views.hover_wait) mouse_io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    draw_canvas(state, views, env, canvas_pos, canvas_size);
    mouse_io.MousePos = mouse;
  }
  views.ink.Draw(state, env, ink_pos, ink_size, ink_panels ? &*ink_panels : nullptr);
  if (bar_h > 0.0f) {
    views.bar.Draw(state, views.library, env, ImVec2(0.0f, top + height),
                   ImVec2(io.DisplaySize.x, bar_h));
    background(0.0f, top + height, io.DisplaySize.x, top + height + bar_h,
               palette(state.params.theme).panel);
  }
  draw_notice(state, env, canvas_pos, canvas_size, ImVec2(0.0f, top + height),
              ImVec2(io.DisplaySize.x, bar_h));
  draw_shortcut_list(state, env);
  draw_about(state);
  draw_session_dialog(state, env);
  draw_quit_dialog(state, env);
  views.palette.Draw(state,
                     CommandTarget{state, views.library, views.history, &views.export_dialog}, env);
  views.export_dialog.Draw(state, env);
  fit_typed_vectors(state, before);
  keep_state_valid(state, views.valid_params);
  // every change of this frame, once no slider or field is held (a drag is one undo step)
  views.history.observe(state.params, !ImGui::IsAnyItemActive());
  views.math.end_frame(env.has_gl);  // the glyphs this frame drew, uploaded before rendering
  layout.panel_width = panel_w;
  layout.top = top;
  return layout;
}

void clear_frame(const AppState& state, const FrameLayout& layout, int fb_w, int fb_h) {
  const ImVec2 fb_scale = ImGui::GetIO().DisplayFramebufferScale;
  std::vector<BackgroundRect> rects = layout.backgrounds;
  for (BackgroundRect& r : rects) {
    r.x0 *= fb_scale.x;
    r.x1 *= fb_scale.x;
    r.y0 *= fb_scale.y;
    r.y1 *= fb_scale.y;
  }
  clear_background(clear_colour(state), rects.data(), static_cast<int>(rects.size()), fb_w, fb_h);
}

}  // namespace rope::app
