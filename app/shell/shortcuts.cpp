#include "shell/shortcuts.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <utility>

#include "export/screenshot_path.h"
#include "export/view_data.h"
#include "imgui.h"
#include "shell/export_dialog.h"
#include "shell/platform.h"
#include "state/actions.h"
#include "state/params.h"

namespace rope::app {

// What the actions reach: the state, the lessons, and this frame's lesson move, carried out
// after every row has run (so Home and → in one frame go to step 2, and ← wins over →).
struct ShortcutContext {
  AppState& state;
  lessons::Library& library;
  History& history;
  ExportDialog* export_dialog;  // null: the export dialog's rows do nothing
  bool next_step = false;
  bool previous_step = false;
};

namespace {

// [SECTION] actions

void play_pause(ShortcutContext& c, int) {
  c.state.params.playing = !c.state.params.playing;
}
void move_m(ShortcutContext& c, int by) {
  step_position(c.state.params, by);
}
void move_both(ShortcutContext& c, int by) {
  shift_both(c.state.params, by);
}
void move_n(ShortcutContext& c, int by) {
  double& n = c.state.params.key_position;
  n = param_range("key_position").clamp(std::round(n) + (by > 0 ? 1.0 : -1.0));
}
void next_step(ShortcutContext& c, int) {
  c.next_step = true;
}
void previous_step(ShortcutContext& c, int) {
  c.previous_step = true;
}
void first_step(ShortcutContext& c, int) {
  c.library.first(c.state.params);
}
void last_step(ShortcutContext& c, int) {
  c.library.last(c.state.params);
}
void reveal(ShortcutContext& c, int) {
  c.state.reveal_requested = true;
}
// speed in ratios of 1.5, the UI scale in steps of 1/4, within the table's ranges
void faster(ShortcutContext& c, int) {
  c.state.params.speed = param_range("speed").clamp(c.state.params.speed * 1.5);
}
void slower(ShortcutContext& c, int) {
  c.state.params.speed = param_range("speed").clamp(c.state.params.speed / 1.5);
}
void larger(ShortcutContext& c, int) {
  c.state.params.ui_scale = param_range("ui_scale").clamp(c.state.params.ui_scale + 0.25);
}
void smaller(ShortcutContext& c, int) {
  c.state.params.ui_scale = param_range("ui_scale").clamp(c.state.params.ui_scale - 0.25);
}
void show_view(ShortcutContext& c, int index) {
  c.state.params.view = all_views()[static_cast<std::size_t>(index)];
}
void switch_theme(ShortcutContext& c, int) {
  Theme& t = c.state.params.theme;
  t = t == Theme::dark ? Theme::light : Theme::dark;
}
// the two bases lessons compare, and new random vectors: in presentation mode the control
// panel is hidden, and lessons ask for both
void switch_base(ShortcutContext& c, int) {
  double& base = c.state.params.base;
  base = base == 10000.0 ? 500000.0 : 10000.0;
}
void next_seed(ShortcutContext& c, int) {
  std::uint64_t& seed = c.state.params.seed;
  seed = seed >= static_cast<std::uint64_t>(kMaxSeed) ? 0 : seed + 1;
}
// Doubling and halving, kept inside what the parameter table accepts (state/params.h): a
// lecture walks d through 16, 32, ..., 512 and N through 64 ... 4096 in a few presses.
int doubled(std::string_view param, int v, int by) {
  const ParamRange& r = param_range(param);
  const double next = by > 0 ? v * 2.0 : std::floor(v / 2.0);
  return static_cast<int>(std::clamp(next, r.min, r.max));
}
void double_dim(ShortcutContext& c, int by) {
  Params& p = c.state.params;
  const int next = doubled("dim", p.dim, by);
  // halving 2 stays at 2; every d of the table is even. Through the table's setter, so typed q
  // and k follow the new d (fit_vectors_to_dim)
  if (next % 2 == 0) (void)set_param_value(p, "dim", next);
}
void double_positions(ShortcutContext& c, int by) {
  int& n = c.state.params.positions;
  n = doubled("positions", n, by);
}
void double_distance(ShortcutContext& c, int by) {
  int& r = c.state.params.max_distance;
  r = doubled("max_distance", r, by);
}
void next_encoding(ShortcutContext& c, int) {
  Encoding& e = c.state.params.encoding;
  e = e == Encoding::none         ? Encoding::sinusoidal
      : e == Encoding::sinusoidal ? Encoding::rope
                                  : Encoding::none;
}
void switch_pairing(ShortcutContext& c, int) {
  Pairing& p = c.state.params.pairing;
  p = p == Pairing::interleaved ? Pairing::half_split : Pairing::interleaved;
}
void next_content(ShortcutContext& c, int) {
  Content& k = c.state.params.content;
  k = k == Content::shared   ? Content::random
      : k == Content::random ? Content::sentence
                             : Content::shared;
}
// Lesson K of the library (counted from 1, as in the Lessons list), at its first step.
void go_to_lesson(ShortcutContext& c, int k) {
  if (k < 1 || k > static_cast<int>(c.library.lessons().size())) return;
  c.state.params.view = ViewId::derivation;
  c.library.go_to(c.state.params, k - 1, 1);
}
void restart_step(ShortcutContext& c, int) {
  lessons::Library::restart(c.state);
}
// The pen, highlighter, laser and eraser (shell/ink_layer.h): a tool's key takes it in hand and,
// pressed again, puts it down.
void ink_tool(ShortcutContext& c, int tool) {
  const auto t = static_cast<AppState::InkTool>(tool);
  c.state.ink_tool = c.state.ink_tool == t ? AppState::InkTool::none : t;
}
void ink_next_colour(ShortcutContext& c, int) {
  const int n = static_cast<int>(InkColour::count);
  if (c.state.ink_tool == AppState::InkTool::pen)  // the first Shift + W takes the pen as it is
    c.state.ink_colour = static_cast<InkColour>((static_cast<int>(c.state.ink_colour) + 1) % n);
  c.state.ink_tool = AppState::InkTool::pen;
}
void ink_clear_page(ShortcutContext& c, int) {
  c.state.params.ink.clear_page(
      ink_page(c.state.params));  // one undo step: Ctrl + Z brings it back
}
void screenshot(ShortcutContext& c, int) {
  c.state.request_screenshot = true;
}
void save_session(ShortcutContext& c, int) {
  save_session_action(c.state);
}
void open_session_dialog(ShortcutContext& c, int) {
  open_session_action(c.state);
}
void export_data(ShortcutContext& c, int) {
  export_data_action(c.state);
}
// What the browser build cannot do says so (shell/platform.h).
bool desktop_only(AppState& state, const char* what) {
  if (!in_browser()) return false;
  show_notice(state, std::string(what) + " is a feature of the desktop app", true);
  return true;
}
void export_picture(ShortcutContext& c, int) {
  c.state.export_dialog = AppState::ExportDialog::picture;
}
void export_animation(ShortcutContext& c, int) {
  if (desktop_only(c.state, "Exporting an animation (GIF, MP4)")) return;
  c.state.export_dialog = AppState::ExportDialog::animation;
}
void command_palette(ShortcutContext& c, int) {
  c.state.show_palette = !c.state.show_palette;
}
void shortcut_list(ShortcutContext& c, int) {
  c.state.show_shortcuts = !c.state.show_shortcuts;
}
void presentation(ShortcutContext& c, int) {
  c.state.params.presentation = !c.state.params.presentation;
}
void presenter_window(ShortcutContext& c, int) {
  if (desktop_only(c.state, "The presenter window")) return;
  c.state.show_presenter = !c.state.show_presenter;
}
void control_panel(ShortcutContext& c, int) {
  c.state.show_controls = !c.state.show_controls;
}
void full_screen(ShortcutContext& c, int) {
  c.state.fullscreen = !c.state.fullscreen;
}
// Esc first closes an overlay, then puts down the pen (or another ink tool), then leaves
// presentation mode; a running export goes on.
void escape(ShortcutContext& c, int) {
  AppState& s = c.state;
  if (!s.show_shortcuts && !s.show_about && !s.show_palette &&
      s.session_dialog == AppState::SessionDialog::none &&
      s.export_dialog == AppState::ExportDialog::none && !s.confirm_quit) {
    if (s.ink_tool != AppState::InkTool::none)
      s.ink_tool = AppState::InkTool::none;
    else
      s.params.presentation = false;
  }
  s.show_shortcuts = s.show_about = s.show_palette = false;
  s.session_dialog = AppState::SessionDialog::none;
  s.export_dialog = AppState::ExportDialog::none;
  s.confirm_quit = s.quit_after_save = false;
}
void undo(ShortcutContext& c, int) {
  if (auto p = c.history.undo(c.state.params)) restore_params(c.state, *p);
}
void redo(ShortcutContext& c, int) {
  if (auto p = c.history.redo(c.state.params)) restore_params(c.state, *p);
}
void quit(ShortcutContext& c, int) {
  if (in_browser()) {  // a page cannot close its tab, and Ctrl + Q is the browser's there
    show_notice(c.state, "Quitting is for the desktop app: in a browser, close the tab", true);
    return;
  }
  ask_to_quit(c.state);
}
// the export dialog's own keys: what its radio buttons and check box set
void export_scale(ShortcutContext& c, int scale) {
  if (c.export_dialog) c.export_dialog->choose_scale(scale);
}
void export_area(ShortcutContext& c, int) {
  if (c.export_dialog) c.export_dialog->toggle_canvas_only();
}
void export_background(ShortcutContext& c, int) {
  if (c.export_dialog) c.export_dialog->toggle_transparent();
}
void export_format(ShortcutContext& c, int mp4) {
  if (c.export_dialog) c.export_dialog->choose_format(mp4 != 0);
}
void export_start(ShortcutContext& c, int) {
  if (c.export_dialog) c.export_dialog->export_requested = true;  // Draw knows the window
}
// ImGui's own tab focus moves between the dialog's text fields (it works without keyboard
// navigation, ui/ui_context.cpp); the row is here for the list and to keep Tab from anything else.
void next_field(ShortcutContext&, int) {}

// [SECTION] the table

std::vector<Shortcut> make_table() {
  std::vector<Shortcut> t;
  // One line of the list: its rows are added by the calls that follow.
  std::string label, text;
  const auto line = [&](std::string l, std::string d) {
    label = std::move(l);
    text = std::move(d);
  };
  const auto row = [&](int key, Modifiers m, ShortcutAction a, int arg = 0, bool repeat = false,
                       InView in = InView::any) {
    t.push_back(Shortcut{key, m, label, text, a, arg, repeat, in, Scope::main, {}, {}});
  };
  // the row just added as a command of the palette, with this title
  const auto named = [&](std::string title) { t.back().command = std::move(title); };
  // the row just added also fires over an export dialog / only there
  const auto everywhere = [&] { t.back().scope = Scope::always; };
  const auto in_export_dialog = [&] { t.back().scope = Scope::export_dialog; };
  // the line's words in the browser build, for the rows of the line just begun
  const auto in_browser_says = [&](std::string d) {
    for (auto it = t.rbegin(); it != t.rend() && it->label == label; ++it)
      it->in_browser = d;
  };
  constexpr bool kRepeat = true;
  line("Space", "play / pause the position");
  row(GLFW_KEY_SPACE, kAnyModifiers, play_pause);
  named("Play / pause the position m");
  line("← / →",
       "position m − 1 / + 1 (Derivations: previous / next step, on into the next lesson)");
  row(GLFW_KEY_RIGHT, kNoModifiers, move_m, +1, kRepeat, InView::not_derivation);
  row(GLFW_KEY_LEFT, kNoModifiers, move_m, -1, kRepeat, InView::not_derivation);
  row(GLFW_KEY_RIGHT, kNoModifiers, next_step, 0, kRepeat, InView::derivation);
  row(GLFW_KEY_LEFT, kNoModifiers, previous_step, 0, kRepeat, InView::derivation);
  line("Page Up / Down", "Derivations: previous / next step");
  row(GLFW_KEY_PAGE_DOWN, kAnyModifiers, next_step, 0, kRepeat, InView::derivation);
  named("Lesson: next step");
  row(GLFW_KEY_PAGE_UP, kAnyModifiers, previous_step, 0, kRepeat, InView::derivation);
  named("Lesson: previous step");
  line("Home / End", "Derivations: first / last step of the lesson");
  row(GLFW_KEY_HOME, kAnyModifiers, first_step, 0, false, InView::derivation);
  named("Lesson: first step");
  row(GLFW_KEY_END, kAnyModifiers, last_step, 0, false, InView::derivation);
  named("Lesson: last step");
  line("V", "Derivations: reveal what the step hides until asked (its answer)");
  row(GLFW_KEY_V, kWithoutCtrl, reveal, 0, false, InView::derivation);
  named("Lesson: reveal the step's answer");
  line("Shift + ← / →", "position m − 10 / + 10");
  row(GLFW_KEY_RIGHT, kShiftWithoutCtrl, move_m, +10, kRepeat);
  row(GLFW_KEY_LEFT, kShiftWithoutCtrl, move_m, -10, kRepeat);
  line("Ctrl + ← / →", "shift m and n together (every angle difference and the score stay put)");
  row(GLFW_KEY_RIGHT, kWithCtrl, move_both, +1, kRepeat);
  row(GLFW_KEY_LEFT, kWithCtrl, move_both, -1, kRepeat);
  line("↑ / ↓", "key position n + 1 / − 1");
  row(GLFW_KEY_UP, kAnyModifiers, move_n, +1, kRepeat);
  row(GLFW_KEY_DOWN, kAnyModifiers, move_n, -1, kRepeat);
  line("+ / −", "animation faster / slower");
  row(GLFW_KEY_EQUAL, kWithoutCtrl, faster);  // '+' is Shift + '=' on a US keyboard
  named("Animation faster");
  row(GLFW_KEY_KP_ADD, kWithoutCtrl, faster);
  row(GLFW_KEY_MINUS, kWithoutCtrl, slower);
  named("Animation slower");
  row(GLFW_KEY_KP_SUBTRACT, kWithoutCtrl, slower);
  line("Ctrl + = / Ctrl + −", "everything larger / smaller (the UI scale)");
  row(GLFW_KEY_EQUAL, kWithCtrl, larger);
  named("Everything larger (UI scale)");
  row(GLFW_KEY_KP_ADD, kWithCtrl, larger);
  row(GLFW_KEY_MINUS, kWithCtrl, smaller);
  named("Everything smaller (UI scale)");
  row(GLFW_KEY_KP_SUBTRACT, kWithCtrl, smaller);
  // views 1 ... 9 on their digit, the 10th ... on Shift + 1 ...: every view has a key (D4)
  const int views = static_cast<int>(all_views().size());
  const int numbered = std::min(views, 9);
  line("1 … " + std::to_string(numbered) +
           (views > 9 ? " / Shift + 1 … " + std::to_string(views - 9) : std::string()),
       views > 9 ? "switch view (in the View menu's order; Shift + 1 is the 10th)"
                 : "switch view (in the View menu's order)");
  for (int i = 0; i < views; ++i)
    row(GLFW_KEY_1 + i % 9, i < 9 ? kNoModifiers : kShiftWithoutCtrl, show_view, i);
  line("T", "dark / light (projector) theme");
  row(GLFW_KEY_T, kWithoutCtrl, switch_theme);
  named("Theme: dark ↔ light (projector)");
  line("B", "base 10 000 ↔ 500 000 (RoFormer / Llama 3)");
  row(GLFW_KEY_B, kWithoutCtrl, switch_base);
  named("Base 10 000 ↔ 500 000");
  line("R", "new random vectors (the next seed)");
  row(GLFW_KEY_R, kWithoutCtrl, next_seed);
  named("New random vectors (next seed)");
  line("D / Shift + D", "head dimension d × 2 / ÷ 2");
  row(GLFW_KEY_D, kNoModifiers, double_dim, +1);
  named("Head dimension d × 2");
  row(GLFW_KEY_D, kShiftWithoutCtrl, double_dim, -1);
  named("Head dimension d ÷ 2");
  line("P", "pairing: interleaved ↔ half-split");
  row(GLFW_KEY_P, kWithoutCtrl, switch_pairing);
  named("Pairing: interleaved ↔ half-split");
  line("N / Shift + N", "heatmap: positions N × 2 / ÷ 2");
  row(GLFW_KEY_N, kNoModifiers, double_positions, +1);
  named("Heatmap: positions N × 2");
  row(GLFW_KEY_N, kShiftWithoutCtrl, double_positions, -1);
  named("Heatmap: positions N ÷ 2");
  line("E", "heatmap: encoding none → sinusoidal → RoPE");
  row(GLFW_KEY_E, kWithoutCtrl, next_encoding);
  named("Heatmap: next encoding (none → sinusoidal → RoPE)");
  line("C", "heatmap: content shared → random → sentence");
  row(GLFW_KEY_C, kWithoutCtrl, next_content);
  named("Heatmap: next content (shared → random → sentence)");
  line("] / [", "decay: largest distance R × 2 / ÷ 2");
  row(GLFW_KEY_RIGHT_BRACKET, kWithoutCtrl, double_distance, +1);
  named("Decay: largest distance R × 2");
  row(GLFW_KEY_LEFT_BRACKET, kWithoutCtrl, double_distance, -1);
  named("Decay: largest distance R ÷ 2");
  // the library's size is known only at run time: Ctrl + Shift + 1 ... 9 are lessons 10 ... 18,
  // a key beyond the last lesson does nothing
  line("Ctrl + 1 … 9 / Ctrl + Shift + 1 … 9", "lesson 1 … 9 / lesson 10 … 18, from its first step");
  for (int k = 1; k <= 18; ++k)
    row(GLFW_KEY_0 + (k - 1) % 9 + 1, k <= 9 ? kCtrlWithoutShift : kCtrlShift, go_to_lesson, k);
  line("Backspace", "Derivations: restart the step (its values back)");
  row(GLFW_KEY_BACKSPACE, kAnyModifiers, restart_step, 0, false, InView::derivation);
  named("Lesson: restart the step (its values back)");
  using Tool = AppState::InkTool;
  line("W / Shift + W", "pen on / off; Shift + W: the pen's next colour (red, blue, green, text)");
  row(GLFW_KEY_W, kNoModifiers, ink_tool, static_cast<int>(Tool::pen));
  named("Ink: pen on / off");
  row(GLFW_KEY_W, kShiftWithoutCtrl, ink_next_colour);
  named("Ink: the pen's next colour");
  line("H / L / X", "highlighter / laser pointer / eraser on / off (drag over a stroke to erase)");
  row(GLFW_KEY_H, kWithoutCtrl, ink_tool, static_cast<int>(Tool::highlighter));
  named("Ink: highlighter on / off");
  row(GLFW_KEY_L, kWithoutCtrl, ink_tool, static_cast<int>(Tool::laser));
  named("Ink: laser pointer on / off");
  row(GLFW_KEY_X, kWithoutCtrl, ink_tool, static_cast<int>(Tool::eraser));
  named("Ink: eraser on / off");
  line("Delete", "erase every pen stroke of this view or lesson step (Ctrl + Z brings them back)");
  row(GLFW_KEY_DELETE, kAnyModifiers, ink_clear_page);
  named("Ink: erase this page's strokes");
  line("F12", "save a screenshot");
  row(GLFW_KEY_F12, kAnyModifiers, screenshot);
  named("Save a screenshot");
  everywhere();
  in_browser_says("download a screenshot (the page as it is)");
  line("Ctrl + S / Ctrl + O", "save / open a session");
  row(GLFW_KEY_S, kWithCtrl, save_session);
  named("Save session…");
  row(GLFW_KEY_O, kWithCtrl, open_session_dialog);
  named("Open session…");
  line("Ctrl + E", "export the view's numbers as CSV (the file rope-lab export writes)");
  row(GLFW_KEY_E, kWithCtrl, export_data);
  named("Export data (CSV)");
  line("Ctrl + P / Ctrl + M", "export a picture (PNG at 1×, 2×, 4×) / an animation (GIF or MP4)");
  row(GLFW_KEY_P, kWithCtrl, export_picture);
  named("Export picture…");
  everywhere();  // and from one export dialog to the other
  row(GLFW_KEY_M, kWithCtrl, export_animation);
  named("Export animation…");
  everywhere();
  in_browser_says(
      "export a picture (PNG at 1×, 2×, 4×, downloaded) / an animation (desktop app "
      "only)");
  // While an export dialog is open, its keys instead of the views' and the parameters'
  line("1 / 2 / 4", "Export dialog: resolution 1×, 2×, 4× (an animation: 1× or 2×)");
  for (int scale : {1, 2, 4}) {
    row(GLFW_KEY_0 + scale, kWithoutCtrl, export_scale, scale);
    in_export_dialog();
  }
  line("A / B", "Export dialog: whole window ↔ canvas only / transparent background (a picture)");
  row(GLFW_KEY_A, kWithoutCtrl, export_area);
  in_export_dialog();
  row(GLFW_KEY_B, kWithoutCtrl, export_background);
  in_export_dialog();
  line("G / M", "Export dialog: an animation as GIF / as MP4");
  row(GLFW_KEY_G, kWithoutCtrl, export_format, 0);
  in_export_dialog();
  row(GLFW_KEY_M, kWithoutCtrl, export_format, 1);
  in_export_dialog();
  line("Tab / Shift + Tab",
       "Export dialog: next / previous text field (in the file name, the cursor before its "
       "extension)");
  row(GLFW_KEY_TAB, kAnyModifiers, next_field);
  in_export_dialog();
  line("Enter", "Export dialog: export (also from a text field)");
  row(GLFW_KEY_ENTER, kAnyModifiers, export_start);
  in_export_dialog();
  row(GLFW_KEY_KP_ENTER, kAnyModifiers, export_start);
  in_export_dialog();
  line("Ctrl + K", "command palette: type a few letters of any command, preset, lesson or value");
  row(GLFW_KEY_K, kWithCtrl, command_palette);
  line("F1 or ?", "show / hide the shortcut list");
  row(GLFW_KEY_F1, kAnyModifiers, shortcut_list);
  named("Keyboard shortcuts");
  everywhere();
  row(GLFW_KEY_SLASH, kWithShift, shortcut_list);
  everywhere();
  line("F5", "presentation mode (F5 or Esc leaves)");
  row(GLFW_KEY_F5, kAnyModifiers, presentation);
  named("Presentation mode on / off");
  line("F6", "the presenter window: the step's notes, its hidden answer, the next step");
  row(GLFW_KEY_F6, kAnyModifiers, presenter_window);
  named("Presenter window");
  everywhere();
  in_browser_says("the presenter window (desktop app only)");
  line("F9", "show / hide the control panel (a lesson then takes the whole width)");
  row(GLFW_KEY_F9, kAnyModifiers, control_panel);
  named("Control panel show / hide");
  line("F11", "full screen");
  row(GLFW_KEY_F11, kAnyModifiers, full_screen);
  named("Full screen");
  everywhere();
  line("Esc",
       "close a dialog or the shortcut list; then put the pen down; then leave presentation");
  row(GLFW_KEY_ESCAPE, kAnyModifiers, escape);
  everywhere();
  line("Ctrl + Z / Ctrl + Shift + Z", "undo / redo a change of the parameters (also Ctrl + Y)");
  row(GLFW_KEY_Z, kCtrlWithoutShift, undo, 0, kRepeat);
  named("Undo");
  row(GLFW_KEY_Z, kCtrlShift, redo, 0, kRepeat);
  named("Redo");
  row(GLFW_KEY_Y, kCtrlWithoutShift, redo, 0, kRepeat);
  line("Ctrl + Q", "quit (asks first when changes are not saved; Ctrl + Q again quits)");
  row(GLFW_KEY_Q, kWithCtrl, quit);
  named("Quit");
  everywhere();
  in_browser_says("quit (desktop app; in a browser, close the tab)");
  return t;
}

bool matches(Need need, bool down) {
  return need == Need::any || (need == Need::down) == down;
}

}  // namespace

std::span<const Shortcut> shortcut_table() {
  static const std::vector<Shortcut> table = make_table();
  return table;
}

std::string key_name(const Shortcut& row) {
  std::string name;
  if (row.modifiers.ctrl == Need::down) name += "Ctrl + ";
  if (row.modifiers.shift == Need::down) name += "Shift + ";
  const int k = row.key;
  if (k >= GLFW_KEY_0 && k <= GLFW_KEY_9) return name + static_cast<char>('0' + k - GLFW_KEY_0);
  if (k >= GLFW_KEY_A && k <= GLFW_KEY_Z) return name + static_cast<char>('A' + k - GLFW_KEY_A);
  if (k >= GLFW_KEY_F1 && k <= GLFW_KEY_F25)
    return name + "F" + std::to_string(k - GLFW_KEY_F1 + 1);
  switch (k) {
    case GLFW_KEY_SPACE:
      return name + "Space";
    case GLFW_KEY_RIGHT:
      return name + "→";
    case GLFW_KEY_LEFT:
      return name + "←";
    case GLFW_KEY_UP:
      return name + "↑";
    case GLFW_KEY_DOWN:
      return name + "↓";
    case GLFW_KEY_PAGE_UP:
      return name + "Page Up";
    case GLFW_KEY_PAGE_DOWN:
      return name + "Page Down";
    case GLFW_KEY_HOME:
      return name + "Home";
    case GLFW_KEY_END:
      return name + "End";
    case GLFW_KEY_EQUAL:
      return name + (row.modifiers.ctrl == Need::down ? "=" : "+");
    case GLFW_KEY_MINUS:
      return name + "−";
    case GLFW_KEY_KP_ADD:
      return name + "+ (keypad)";
    case GLFW_KEY_KP_SUBTRACT:
      return name + "− (keypad)";
    case GLFW_KEY_RIGHT_BRACKET:
      return name + "]";
    case GLFW_KEY_LEFT_BRACKET:
      return name + "[";
    case GLFW_KEY_SLASH:
      return name + "/";
    case GLFW_KEY_BACKSPACE:
      return name + "Backspace";
    case GLFW_KEY_DELETE:
      return name + "Delete";
    case GLFW_KEY_ESCAPE:
      return name + "Esc";
    case GLFW_KEY_TAB:
      return name + "Tab";
    case GLFW_KEY_ENTER:
      return name + "Enter";
    case GLFW_KEY_KP_ENTER:
      return name + "Enter (keypad)";
    default:
      return name + "key " + std::to_string(k);
  }
}

namespace {
std::string key_of(ShortcutAction action, int arg) {
  for (const Shortcut& s : shortcut_table())
    if (s.action == action && s.arg == arg) return key_name(s);
  return {};
}
}  // namespace

std::string view_key(ViewId v) {
  const auto views = all_views();
  const auto it = std::find(views.begin(), views.end(), v);
  return it == views.end() ? std::string()
                           : key_of(show_view, static_cast<int>(it - views.begin()));
}

std::string lesson_key(int k) {
  return key_of(go_to_lesson, k);
}

void run_shortcut(const Shortcut& row, AppState& state, lessons::Library& library, History& history,
                  ExportDialog* export_dialog) {
  ShortcutContext c{state, library, history, export_dialog};
  row.action(c, row.arg);
  if (c.previous_step) {
    library.previous(state.params);
  } else if (c.next_step) {
    library.next(state.params);
  }
}

std::vector<ShortcutLine> shortcut_lines(bool browser) {
  std::vector<ShortcutLine> lines;
  for (const Shortcut& s : shortcut_table()) {
    ShortcutLine l{s.label, browser && !s.in_browser.empty() ? s.in_browser : s.description};
    if (lines.empty() || !(lines.back() == l)) lines.push_back(std::move(l));
  }
  return lines;
}

std::vector<ClaimedKey> browser_claimed_keys() {
  std::vector<ClaimedKey> keys;
  for (const Shortcut& s : shortcut_table()) {
    ClaimedKey k;
    if (s.key >= GLFW_KEY_F1 && s.key <= GLFW_KEY_F25)
      k = ClaimedKey{s.key, false};
    else if (s.modifiers.ctrl == Need::down)
      k = ClaimedKey{s.key, true};
    else
      continue;
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  }
  return keys;
}

const char* const kBrowserKeysNote =
    "In a browser, RoPE Lab takes its function keys and its Ctrl keys below from the browser "
    "while its page has the keyboard (click the page first). Ctrl + W, Ctrl + T, Ctrl + N, "
    "Ctrl + Tab and Ctrl + Q stay the browser's: RoPE Lab needs none of them here.";

void handle_shortcuts(AppState& state, lessons::Library& library, History& history,
                      ExportDialog* export_dialog) {
  const ImGuiIO& io = ImGui::GetIO();
  ShortcutContext c{state, library, history, export_dialog};
  const bool any_dialog = state.export_dialog != AppState::ExportDialog::none ||
                          state.confirm_quit ||
                          state.session_dialog != AppState::SessionDialog::none ||
                          state.show_about || state.show_palette;
  if (io.WantTextInput) return;
  // the view and the dialog as the frame began: a digit pressed with → still lets → act in the
  // old view, and Enter pressed with Ctrl + P does not export at once
  const bool derivation = state.params.view == ViewId::derivation;
  const bool dialog = state.export_dialog != AppState::ExportDialog::none;
  // the quit question, the session dialog and About are modal too: only the rows that act
  // everywhere (Esc, Ctrl+Q) reach them, whether or not a text field has the keyboard (after a
  // failed save the path field had lost it, and the name typed next switched the view behind
  // the dialog: classroom review D3)
  const bool main_rows_off = any_dialog;
  std::vector<std::pair<ShortcutAction, int>> done;  // each action once a frame
  for (const Shortcut& s : shortcut_table()) {
    if ((s.in == InView::derivation && !derivation) ||
        (s.in == InView::not_derivation && derivation))
      continue;
    if ((s.scope == Scope::main && main_rows_off) || (s.scope == Scope::export_dialog && !dialog))
      continue;
    if (!matches(s.modifiers.ctrl, io.KeyCtrl) || !matches(s.modifiers.shift, io.KeyShift))
      continue;
    if (!ImGui::IsKeyPressed(s.key, s.repeat)) continue;
    const std::pair<ShortcutAction, int> id{s.action, s.arg};
    if (std::find(done.begin(), done.end(), id) != done.end()) continue;
    done.push_back(id);
    s.action(c, s.arg);
  }
  if (c.previous_step) {
    library.previous(state.params);
  } else if (c.next_step) {
    library.next(state.params);
  }
}

void export_view_data(AppState& state) {
  auto e = view_export(state.params);
  if (!e) {
    show_notice(state, "No data export here: " + e.error().message, true);
    return;
  }
  std::filesystem::path path = screenshot_folder() / screenshot_name(state.params);
  path.replace_extension(".csv");
  if (auto s = write_view_export(state.params, path); !s) {
    show_notice(state, "Data not saved: " + s.error().to_string(), true);
  } else {
    show_notice(state, "Data saved: " + path.string() + "\nsame as: " + e.value().command(), false);
  }
}

}  // namespace rope::app
