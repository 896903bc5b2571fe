#include "shell/frame.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "export/screenshot_path.h"
#include "export/view_data.h"
#include "render/background.h"
#include "state/actions.h"
#include "state/params.h"
#include "state/session.h"
#include "state/settings.h"
#include "ui/canvas.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

constexpr float kPanelWidth = 400.0f;  // px at scale 1
constexpr float kLessonShare = 0.52f;  // derivation view: the lesson's share of the canvas

void set_view(AppState& state, ViewId v) {
  state.params.view = v;
}

// Writes the current view's numbers next to the screenshots and says where, and which
// `rope-lab export` command gives the same file.
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

// [SECTION] menu bar

void draw_menu_bar(AppState& state) {
  Params& p = state.params;
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open session…", "Ctrl+O"))
      state.session_dialog = AppState::SessionDialog::open;
    if (ImGui::BeginMenu("Open recent", !state.recent_sessions.empty())) {
      std::string chosen;
      for (const std::string& path : state.recent_sessions)
        if (ImGui::MenuItem(path.c_str())) chosen = path;
      ImGui::EndMenu();
      if (!chosen.empty()) open_session(state, chosen);
    }
    if (ImGui::MenuItem("Save session…", "Ctrl+S"))
      state.session_dialog = AppState::SessionDialog::save;
    ImGui::Separator();
    if (ImGui::MenuItem("Save screenshot", "F12")) state.request_screenshot = true;
    if (ImGui::MenuItem("Export picture…", "Ctrl+P"))
      state.export_dialog = AppState::ExportDialog::picture;
    if (ImGui::MenuItem("Export animation…", "Ctrl+M"))
      state.export_dialog = AppState::ExportDialog::animation;
    if (ImGui::MenuItem("Export data (CSV)", "Ctrl+E")) export_view_data(state);
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) state.request_quit = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    int number = 1;
    for (ViewId v : all_views()) {
      const std::string key = std::to_string(number++);
      if (ImGui::MenuItem(view_title(v), key.c_str(), p.view == v)) set_view(state, v);
    }
    ImGui::Separator();
    ImGui::MenuItem("Control panel", nullptr, &state.show_controls);
    if (ImGui::BeginMenu("Theme")) {
      if (ImGui::MenuItem("Dark", nullptr, p.theme == Theme::dark)) p.theme = Theme::dark;
      if (ImGui::MenuItem("Light (projector)", nullptr, p.theme == Theme::light))
        p.theme = Theme::light;
      ImGui::Separator();
      ImGui::TextDisabled("T switches");
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("UI scale")) {
      if (ImGui::MenuItem("Larger", "Ctrl+=")) p.ui_scale = std::min(4.0, p.ui_scale + 0.25);
      if (ImGui::MenuItem("Smaller", "Ctrl+−")) p.ui_scale = std::max(0.5, p.ui_scale - 0.25);
      ImGui::Separator();
      for (double sc : {0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0}) {
        const std::string label = format_number(sc, 3) + "×";
        if (ImGui::MenuItem(label.c_str(), nullptr, p.ui_scale == sc)) p.ui_scale = sc;
      }
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Presentation mode", "F5", p.presentation))
      p.presentation = !p.presentation;
    ImGui::MenuItem("Full screen", "F11", &state.fullscreen);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keyboard shortcuts", "F1")) state.show_shortcuts = true;
    if (ImGui::MenuItem("About RoPE Lab")) state.show_about = true;
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

// [SECTION] control panel

void section(const char* title, const ViewEnv& env) {
  ImGui::Spacing();
  ImGui::PushFont(env.fonts->bold);
  ImGui::TextUnformatted(title);
  ImGui::PopFont();
  ImGui::Separator();
}

// A position slider with an exact-entry field: the slider covers the usual range, the field
// takes any allowed value.
bool position_control(const char* label, const char* id, double& value) {
  ImGui::PushID(id);
  ImGui::TextUnformatted(label);
  bool changed = false;
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::SetNextItemWidth(w * 0.62f);
  float v = static_cast<float>(value);
  if (ImGui::SliderFloat("##slider", &v, 0.0f, 256.0f, "%.2f")) {
    value = static_cast<double>(v);
    changed = true;
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  double exact = value;
  if (ImGui::InputDouble("##exact", &exact, 0.0, 0.0, "%.6g",
                         ImGuiInputTextFlags_EnterReturnsTrue) &&
      std::isfinite(exact) && std::fabs(exact) <= 1e9) {
    value = exact;
    changed = true;
  }
  ImGui::PopID();
  return changed;
}

void draw_common_controls(AppState& state, const ViewEnv& env) {
  Params& p = state.params;
  const float s = env.scale;

  section("Position", env);
  const float bw = (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3;
  if (ImGui::Button("◀ −1", ImVec2(bw, 0))) step_position(p, -1.0);
  ImGui::SameLine();
  if (ImGui::Button(p.playing ? "‖ Pause" : "▶ Play", ImVec2(bw, 0))) p.playing = !p.playing;
  ImGui::SameLine();
  if (ImGui::Button("+1 ▶", ImVec2(bw, 0))) step_position(p, 1.0);
  float speed = static_cast<float>(p.speed);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##speed", &speed, 0.05f, 100.0f, "speed %.2f positions/s",
                         ImGuiSliderFlags_Logarithmic))
    p.speed = std::clamp(static_cast<double>(speed), 0.05, 100.0);
  position_control("query position m", "m", p.position);
  position_control("key position n", "n", p.key_position);
  ImGui::TextUnformatted("shift both");
  ImGui::SameLine();
  if (ImGui::Button("◀ −1##both")) shift_both(p, -1.0);
  ImGui::SameLine();
  if (ImGui::Button("+1 ▶##both")) shift_both(p, 1.0);
  ImGui::SameLine();
  ImGui::TextDisabled("n − m = %s", format_number(p.key_position - p.position, 6).c_str());

  section("RoPE", env);
  int dim = p.dim;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##dim", &dim, 2, 512, "d = %d"))
    p.dim = std::clamp(dim + (dim & 1), 2, 512);
  float base = static_cast<float>(p.base);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##base", &base, 10.0f, 1e7f, "base = %.0f", ImGuiSliderFlags_Logarithmic))
    p.base = std::clamp(std::round(static_cast<double>(base)), 10.0, 1e7);
  if (ImGui::Button("10 000")) p.base = 10000.0;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("RoFormer and Llama 2");
  ImGui::SameLine();
  if (ImGui::Button("500 000")) p.base = 500000.0;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Llama 3: slower low frequencies for long context");
  int pairing = p.pairing == Pairing::half_split ? 1 : 0;
  ImGui::TextUnformatted("pairing");
  ImGui::SameLine();
  if (ImGui::RadioButton("interleaved", &pairing, 0)) p.pairing = Pairing::interleaved;
  ImGui::SameLine();
  if (ImGui::RadioButton("half-split", &pairing, 1)) p.pairing = Pairing::half_split;
  (void)s;
}

void draw_control_panel(AppState& state, Views& views, const ViewEnv& env, float top,
                        float height) {
  const float s = env.scale;
  ImGui::SetNextWindowPos(ImVec2(0, top));
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth * s, height));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus |
                                 ImGuiWindowFlags_NoBackground;  // cleared by clear_frame
  if (ImGui::Begin("Controls", nullptr, flags)) {
    ImGui::PushFont(env.fonts->title);
    ImGui::TextUnformatted(view_title(state.params.view));
    ImGui::PopFont();
    draw_common_controls(state, env);
    section("View", env);
    views.visit(state.params.view, [&](auto& view) { view.DrawControls(state, env); });
  }
  ImGui::End();
}

// [SECTION] canvas, notice and overlays

void draw_canvas(AppState& state, Views& views, const ViewEnv& env, ImVec2 pos, ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
      ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings |
      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
      ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoBackground;
  if (ImGui::Begin("Canvas", nullptr, flags)) {
    const ViewId shown =  // the derivation view shows its step's view here (draw_lesson_panel)
        state.params.view == ViewId::derivation ? state.params.show_view : state.params.view;
    if (shown != ViewId::derivation)  // (the parameter table never lets show_view be derivation)
      views.visit(shown, [&](auto& view) { view.Draw(state, env); });
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

// The derivation view's lesson panel, left of the canvas that shows the step's view.
void draw_lesson_panel(AppState& state, Views& views, const ViewEnv& env, ImVec2 pos, ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  const float pad = 20.0f * env.scale;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, palette(state.params.theme).canvas);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus |
                                 ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  if (ImGui::Begin("Lesson", nullptr, flags)) views.derivation.Draw(state, env);
  ImGui::End();
  ImGui::PopStyleColor();
  ImGui::PopStyleVar();
}

void draw_notice(AppState& state, const ViewEnv& env, ImVec2 canvas_pos, ImVec2 canvas_size) {
  const Notice& n = state.notice;
  if (n.shown_at < 0.0 || state.time - n.shown_at > kNoticeSeconds) return;
  const Palette& pal = palette(state.params.theme);
  const float s = env.scale;
  ImFont* font = env.fonts->body;
  const float wrap = canvas_size.x * 0.8f;
  const ImVec2 ts = font->CalcTextSizeA(font->FontSize, 1e9f, wrap, n.text.c_str());
  const ImVec2 box(ts.x + 32 * s, ts.y + 20 * s);
  const ImVec2 p0(canvas_pos.x + 0.5f * (canvas_size.x - box.x),
                  canvas_pos.y + canvas_size.y - box.y - 24 * s);
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + box.x, p0.y + box.y), pal.panel, 8 * s);
  dl->AddRect(p0, ImVec2(p0.x + box.x, p0.y + box.y), n.is_error ? pal.bad : pal.good, 8 * s, 0,
              2 * s);
  dl->AddText(font, font->FontSize, ImVec2(p0.x + 16 * s, p0.y + 10 * s),
              n.is_error ? pal.bad : pal.text, n.text.c_str(), nullptr, wrap);
}

void draw_shortcuts(AppState& state, const ViewEnv& env) {
  if (!state.show_shortcuts) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.5f * io.DisplaySize.y),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.97f);
  if (ImGui::Begin("Keyboard shortcuts", &state.show_shortcuts,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings)) {
    static const char* kRows[][2] = {
        {"Space", "play / pause the position"},
        {"← / →",
         "position m − 1 / + 1 (Derivations: previous / next step, on into the "
         "next lesson)"},
        {"Page Up / Down, Home / End", "Derivations: previous / next, first / last step"},
        {"Shift + ← / →", "position m − 10 / + 10"},
        {"Ctrl + ← / →", "shift m and n together by − 1 / + 1"},
        {"↑ / ↓", "key position n + 1 / − 1"},
        {"+ / −", "animation faster / slower"},
        {"1 … 8", "switch view (in the View menu's order)"},
        {"T", "dark / light (projector) theme"},
        {"B", "base 10 000 ↔ 500 000 (RoFormer / Llama 3)"},
        {"R", "new random vectors (the next seed)"},
        {"Ctrl + = / Ctrl + −", "UI larger / smaller"},
        {"F5", "presentation mode (F5 or Esc leaves)"},
        {"Esc", "close a dialog or this list; then leave presentation mode"},
        {"F11", "full screen"},
        {"Ctrl + S / Ctrl + O", "save / open a session"},
        {"F12", "save a screenshot"},
        {"Ctrl + E", "export the view's numbers as CSV"},
        {"Ctrl + P / Ctrl + M", "export a picture (PNG) / an animation (GIF, MP4)"},
        {"F1 or ?", "this list"},
        {"Ctrl + Q", "quit"},
    };
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
      for (const auto& row : kRows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushFont(env.fonts->bold);
        ImGui::TextUnformatted(row[0]);
        ImGui::PopFont();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row[1]);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

// A small path dialog: ImGui has no file chooser, and a typed path is what a lecturer who keeps
// one session per lecture needs. Failures show the reason and leave the state as it was.
void draw_session_dialog(AppState& state, const ViewEnv& env) {
  using D = AppState::SessionDialog;
  if (state.session_dialog == D::none) return;
  const bool saving = state.session_dialog == D::save;
  const char* title = saving ? "Save session" : "Open session";
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.4f * io.DisplaySize.y),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(760.0f * env.scale, io.DisplaySize.x * 0.9f), 0));
  bool open = true;
  if (ImGui::Begin(title, &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    if (state.session_path.empty()) {
      const char* home = std::getenv("HOME");
      state.session_path = std::string(home ? home : ".") + "/rope-lab-session.json";
    }
    char buf[1024];
    std::snprintf(buf, sizeof buf, "%s", state.session_path.c_str());
    ImGui::TextUnformatted(saving ? "Save the complete state (view, parameters, lesson, theme) to"
                                  : "Open a session file (.json)");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter =
        ImGui::InputText("##path", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue);
    state.session_path = buf;
    if (ImGui::Button(saving ? "Save" : "Open", ImVec2(140 * env.scale, 0)) || enter) {
      if (saving) {
        if (auto s = save_session(state.session_path, session_params(state)); !s) {
          show_notice(state, "Session not saved: " + s.error().to_string(), true);
        } else {
          show_notice(state, "Session saved: " + state.session_path, false);
          remember_session(state.recent_sessions, state.session_path);
          open = false;
        }
      } else {
        if (open_session(state, state.session_path)) open = false;
      }
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(140 * env.scale, 0))) open = false;
  }
  ImGui::End();
  if (!open) state.session_dialog = D::none;
}

void draw_about(AppState& state) {
  if (!state.show_about) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.5f * io.DisplaySize.y),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  if (ImGui::Begin("About RoPE Lab", &state.show_about,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::Text("RoPE Lab %s", ROPE_LAB_VERSION);
    ImGui::TextUnformatted("An interactive lab for Rotary Position Embedding.");
    ImGui::TextUnformatted("Every number on screen is computed with the exact formulas.");
    ImGui::Text("Dear ImGui %s", ImGui::GetVersion());
  }
  ImGui::End();
}

}  // namespace

ImVec4 clear_colour(const AppState& state) {
  // Transparent: all zero, so what ImGui blends on top comes out premultiplied by its alpha
  // (undone by export/png.h unpremultiply when the picture is saved).
  if (state.transparent_background) return ImVec4(0, 0, 0, 0);
  return ImGui::ColorConvertU32ToFloat4(palette(state.params.theme).canvas);
}

void handle_shortcuts(AppState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  Params& p = state.params;
  const bool ctrl = io.KeyCtrl;
  const bool shift = io.KeyShift;
  const auto pressed = [](int key, bool repeat = false) {
    return ImGui::IsKeyPressed(key, repeat);
  };

  if (pressed(GLFW_KEY_SPACE)) p.playing = !p.playing;
  // derivation view: plain arrows and the page keys step the lesson (the view clamps the step
  // to the lesson's length); Shift / Ctrl + arrows keep moving the positions
  const bool lesson_keys = p.view == ViewId::derivation && !ctrl && !shift;
  if (p.view == ViewId::derivation) {
    // past a lesson's last step the next lesson begins (AppState::step_request)
    if ((lesson_keys && pressed(GLFW_KEY_RIGHT, true)) || pressed(GLFW_KEY_PAGE_DOWN, true))
      state.step_request = 1;
    if ((lesson_keys && pressed(GLFW_KEY_LEFT, true)) || pressed(GLFW_KEY_PAGE_UP, true))
      state.step_request = -1;
    if (pressed(GLFW_KEY_HOME)) p.step = 1;
    if (pressed(GLFW_KEY_END)) p.step = 1000;
  }
  if (!lesson_keys && pressed(GLFW_KEY_RIGHT, true)) {
    if (ctrl) {
      shift_both(p, 1.0);
    } else {
      step_position(p, shift ? 10.0 : 1.0);
    }
  }
  if (!lesson_keys && pressed(GLFW_KEY_LEFT, true)) {
    if (ctrl) {
      shift_both(p, -1.0);
    } else {
      step_position(p, shift ? -10.0 : -1.0);
    }
  }
  if (pressed(GLFW_KEY_UP, true)) p.key_position = std::min(std::round(p.key_position) + 1, 1e9);
  if (pressed(GLFW_KEY_DOWN, true)) p.key_position = std::max(std::round(p.key_position) - 1, -1e9);
  if (ctrl && (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD)))
    p.ui_scale = std::min(4.0, p.ui_scale + 0.25);
  else if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD))
    p.speed = std::min(100.0, p.speed * 1.5);
  if (ctrl && (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT)))
    p.ui_scale = std::max(0.5, p.ui_scale - 0.25);
  else if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT))
    p.speed = std::max(0.05, p.speed / 1.5);
  if (!ctrl) {
    int number = 1;
    for (ViewId v : all_views()) {
      if (number <= 9 && pressed(GLFW_KEY_1 + number - 1)) set_view(state, v);
      ++number;
    }
  }
  if (pressed(GLFW_KEY_T) && !ctrl) p.theme = p.theme == Theme::dark ? Theme::light : Theme::dark;
  // the two bases lessons compare, and new random vectors: in presentation mode the control
  // panel is hidden, and lessons ask for both
  if (pressed(GLFW_KEY_B) && !ctrl) p.base = p.base == 10000.0 ? 500000.0 : 10000.0;
  if (pressed(GLFW_KEY_R) && !ctrl)
    p.seed = p.seed >= static_cast<std::uint64_t>(kMaxSeed) ? 0 : p.seed + 1;
  if (pressed(GLFW_KEY_F12)) state.request_screenshot = true;
  if (ctrl && pressed(GLFW_KEY_S)) state.session_dialog = AppState::SessionDialog::save;
  if (ctrl && pressed(GLFW_KEY_E)) export_view_data(state);
  if (ctrl && pressed(GLFW_KEY_P)) state.export_dialog = AppState::ExportDialog::picture;
  if (ctrl && pressed(GLFW_KEY_M)) state.export_dialog = AppState::ExportDialog::animation;
  if (ctrl && pressed(GLFW_KEY_O)) state.session_dialog = AppState::SessionDialog::open;
  if (pressed(GLFW_KEY_F1) || (shift && pressed(GLFW_KEY_SLASH)))
    state.show_shortcuts = !state.show_shortcuts;
  if (pressed(GLFW_KEY_F5)) p.presentation = !p.presentation;
  if (pressed(GLFW_KEY_F11)) state.fullscreen = !state.fullscreen;
  if (pressed(GLFW_KEY_ESCAPE)) {
    if (!state.show_shortcuts && !state.show_about &&
        state.session_dialog == AppState::SessionDialog::none &&
        state.export_dialog == AppState::ExportDialog::none)
      p.presentation = false;  // Esc first closes an overlay, then leaves presentation mode
    state.show_shortcuts = state.show_about = false;
    state.session_dialog = AppState::SessionDialog::none;
    state.export_dialog = AppState::ExportDialog::none;  // a running export goes on
  }
  if (ctrl && pressed(GLFW_KEY_Q)) state.request_quit = true;
}

FrameLayout draw_frame(AppState& state, Views& views, const ViewEnv& env) {
  const ImGuiIO& io = ImGui::GetIO();
  handle_shortcuts(state);
  float top = 0.0f;
  if (state.show_menu) {
    draw_menu_bar(state);
    top = ImGui::GetFrameHeight();  // the main menu bar's height
  }
  const float bar_h = PresentationBar::shown(state) ? PresentationBar::height(env) : 0.0f;
  const float height = std::max(1.0f, io.DisplaySize.y - top - bar_h);
  float panel_w = 0.0f;
  if (state.show_controls) {
    panel_w = std::min(kPanelWidth * env.scale, io.DisplaySize.x * 0.5f);
    draw_control_panel(state, views, env, top, height);
  }
  ImVec2 canvas_pos(panel_w, top);
  ImVec2 canvas_size(std::max(1.0f, io.DisplaySize.x - panel_w), height);
  if (state.params.view == ViewId::derivation) {  // lesson left, the step's view right
    const float lesson_w = std::floor(canvas_size.x * kLessonShare);
    draw_lesson_panel(state, views, env, canvas_pos, ImVec2(lesson_w, height));
    canvas_pos.x += lesson_w;
    canvas_size.x = std::max(1.0f, canvas_size.x - lesson_w);
  }
  draw_canvas(state, views, env, canvas_pos, canvas_size);
  if (bar_h > 0.0f)  // after the canvas: the lesson's heading is the one just drawn
    views.bar.Draw(state, views, env, ImVec2(0.0f, top + height), ImVec2(io.DisplaySize.x, bar_h));
  draw_notice(state, env, canvas_pos, canvas_size);
  draw_shortcuts(state, env);
  draw_about(state);
  draw_session_dialog(state, env);
  views.export_dialog.Draw(state, env);
  return FrameLayout{panel_w, top};
}

void clear_frame(const AppState& state, const FrameLayout& layout, int fb_w, int fb_h) {
  const ImVec2 fb_scale = ImGui::GetIO().DisplayFramebufferScale;
  const BackgroundRect panel{0.0f, layout.top * fb_scale.y, layout.panel_width * fb_scale.x,
                             static_cast<float>(fb_h), ImGui::GetStyle().Colors[ImGuiCol_WindowBg]};
  clear_background(clear_colour(state), &panel, layout.panel_width > 0.0f ? 1 : 0, fb_w, fb_h);
}

}  // namespace rope::app
