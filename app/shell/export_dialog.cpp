#include "shell/export_dialog.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <utility>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "export/screenshot_path.h"
#include "export/sweep.h"
#include "io/number_format.h"
#include "shell/platform.h"
#include "state/actions.h"
#include "state/params.h"
#include "state/session.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

int frame_count(const ExportSettings& s) {
  return sweep_frames(s.seconds, s.fps);
}

const char* extension_for(const ExportSettings& s) {
  return !s.animation ? ".png" : (s.mp4 ? ".mp4" : ".gif");
}

// The temporary session the child renders: unique per export within this process.
std::filesystem::path session_file_name() {
  static std::atomic<int> counter{0};  // NOLINT: a name counter, not application state
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = ".";
  return dir / ("rope-lab-export-" + std::to_string(static_cast<long>(::getpid())) + "-" +
                std::to_string(counter++) + ".json");
}

// The file field's first frame with the keyboard, when a key (Tab, Shift + Tab) and not a click
// gave it: ImGui 1.86 selects all of the text then, and the first letter typed would replace the
// whole path. The cursor goes before the extension instead: a name is edited, not retyped.
struct FileEntry {
  bool place = false;
  int cursor = 0;  // bytes
};
int place_cursor(ImGuiInputTextCallbackData* data) {
  const auto* entry = static_cast<const FileEntry*>(data->UserData);
  if (entry->place) {
    data->CursorPos = std::clamp(entry->cursor, 0, data->BufTextLen);
    data->SelectionStart = data->SelectionEnd = data->CursorPos;
  }
  return 0;
}

// The picture's logical size (the child's --size): the window's, within what screenshot takes.
std::pair<int, int> picture_size(ImVec2 window) {
  return {std::clamp(static_cast<int>(std::lround(window.x)), 64, 8192),
          std::clamp(static_cast<int>(std::lround(window.y)), 64, 8192)};
}

std::string size_text(ImVec2 window, int scale) {
  const int w = static_cast<int>(std::lround(window.x)) * scale;
  const int h = static_cast<int>(std::lround(window.y)) * scale;
  return std::to_string(w) + " × " + std::to_string(h) + " px";
}

}  // namespace

Result<std::vector<std::string>> ExportDialog::arguments(const ExportSettings& s,
                                                         const std::string& session_file,
                                                         ImVec2 window) {
  if (s.path.empty()) return Error{"file", "needs a file name"};
  const std::string ext = std::filesystem::path(s.path).extension().string();
  if (ext != extension_for(s))
    return Error{"file", "must end in " + std::string(extension_for(s)) +
                             " for this format, got '" + s.path + "'"};
  if (s.scale != 1 && s.scale != 2 && (s.scale != 4 || s.animation))
    return Error{"resolution",
                 s.animation ? "must be 1x or 2x for an animation" : "must be 1x, 2x or 4x"};
  const auto [w, h] = picture_size(window);
  std::vector<std::string> args = {s.animation ? "animate" : "screenshot",
                                   "-o",
                                   s.path,
                                   "--session",
                                   session_file,
                                   "--size",
                                   std::to_string(w) + "x" + std::to_string(h),
                                   "--scale",
                                   std::to_string(s.scale)};
  if (s.canvas_only) args.emplace_back("--canvas-only");
  if (!s.animation) {
    if (s.transparent) args.emplace_back("--transparent");
    return args;
  }
  for (const auto& [name, v] : {std::pair{"from", s.from}, std::pair{"to", s.to}})
    if (!std::isfinite(v) || std::fabs(v) > 1e9)
      return Error{name,
                   "must be a number from -1e9 to 1e9, got " + format_number(v, NumberStyle::csv)};
  if (!(s.fps >= kSweepMinFps && s.fps <= kSweepMaxFps))
    return Error{"frames per second", "must be from " +
                                          format_number(kSweepMinFps, NumberStyle::csv) + " to " +
                                          format_number(kSweepMaxFps, NumberStyle::csv) + ", got " +
                                          std::to_string(s.fps)};
  if (!(s.seconds >= kSweepMinSeconds && s.seconds <= kSweepMaxSeconds))
    return Error{"length", "must be from " + format_number(kSweepMinSeconds, NumberStyle::csv) +
                               " to " + format_number(kSweepMaxSeconds, NumberStyle::csv) +
                               " seconds, got " + format_number(s.seconds, NumberStyle::csv)};
  if (frame_count(s) > kSweepMaxFrames)
    return Error{"length x frames per second", "at most " + std::to_string(kSweepMaxFrames) +
                                                   " frames, asked for " +
                                                   std::to_string(frame_count(s))};
  for (const std::string& a :
       {std::string("--from"), format_number(s.from, NumberStyle::csv), std::string("--to"),
        format_number(s.to, NumberStyle::csv), std::string("--fps"), std::to_string(s.fps),
        std::string("--seconds"), format_number(s.seconds, NumberStyle::csv),
        std::string("--progress")})
    args.push_back(a);
  return args;
}

Status ExportDialog::start(const AppState& state, ImVec2 window, double ui_scale) {
  if (job && !job->finished()) return Error{"export", "another export is still running"};
  const std::filesystem::path session = session_file_name();
  auto args = arguments(settings, session.string(), window);
  if (!args) return args.error();
  Params snapshot = state.params;
  snapshot.playing = false;  // the picture is of this instant
  if (!settings.ink) snapshot.ink.clear();
  if (ui_scale > 0.0) snapshot.ui_scale = std::clamp(ui_scale, 0.5, 4.0);
  if (in_browser()) {
    if (settings.animation)
      return Error{"export", "animations (GIF, MP4) are exported by the desktop app"};
    const auto [w, h] = picture_size(window);
    page_picture = PagePicture{snapshot, settings, w, h};
    return {};
  }
  if (auto s = save_session(session, snapshot); !s)
    return Error{"export", "cannot write the temporary session: " + s.error().to_string()};
  auto started = ExportJob::start(program, args.value(), settings.path, session);
  if (!started) {
    std::error_code ec;
    std::filesystem::remove(session, ec);
    return started.error();
  }
  job = std::move(started).value();
  return {};
}

void ExportDialog::choose_scale(int scale) {
  if (scale == 1 || scale == 2 || (scale == 4 && !settings.animation)) settings.scale = scale;
}

void ExportDialog::toggle_canvas_only() {
  settings.canvas_only = !settings.canvas_only;
}

void ExportDialog::toggle_transparent() {
  if (!settings.animation) settings.transparent = !settings.transparent;
}

void ExportDialog::choose_format(bool mp4) {
  if (!settings.animation) return;
  settings.mp4 = mp4;
  std::filesystem::path p(settings.path);
  p.replace_extension(extension_for(settings));
  settings.path = p.string();
}

void ExportDialog::defaults_for(const AppState& state) {
  if (job && !job->finished()) return;  // keep what the running export was started with
  settings.animation = state.export_dialog == AppState::ExportDialog::animation;
  if (settings.animation) {
    settings.scale = std::min(settings.scale, 2);
    settings.from = std::round(state.params.position);
    settings.to = settings.from + 16.0;
  }
  // a browser downloads the file: a name, no folder
  std::filesystem::path path = in_browser() ? std::filesystem::path(screenshot_name(state.params))
                                            : screenshot_folder() / screenshot_name(state.params);
  path.replace_extension(extension_for(settings));
  settings.path = path.string();
  error.clear();
  export_requested = false;
}

void ExportDialog::export_now(AppState& state, int scale) {
  state.export_dialog = AppState::ExportDialog::picture;
  defaults_for(state);
  shown_ = state.export_dialog;
  choose_scale(scale);
  export_requested = true;
}

void ExportDialog::poll(AppState& state) {
  if (!job || job->poll() == ExportJob::Status::running) return;
  switch (job->status()) {
    case ExportJob::Status::done:
      show_notice(state, "Exported: " + job->output().string(), false);
      if (state.export_dialog != AppState::ExportDialog::none)
        state.export_dialog = AppState::ExportDialog::none;
      break;
    case ExportJob::Status::failed:
      error = job->message();
      show_notice(state, "Export failed: " + job->message(), true);
      break;
    case ExportJob::Status::cancelled:
      show_notice(state, job->message(), false);
      break;
    case ExportJob::Status::running:
      break;
  }
  job.reset();
}

void ExportDialog::Draw(AppState& state, const ViewEnv& env) {
  poll(state);
  using D = AppState::ExportDialog;
  if (state.export_dialog != shown_ && state.export_dialog != D::none) defaults_for(state);
  shown_ = state.export_dialog;
  if (state.export_dialog == D::none) return;

  const ImGuiIO& io = ImGui::GetIO();
  const float s = env.scale;
  const Palette& pal = palette(state.params.theme);
  const bool running = job && !job->finished();
  ExportSettings& e = settings;
  // Enter and Esc from inside a text field, where the shortcut table does not look
  // (io.WantTextInput): ImGui ends the editing, and the dialog exports or closes all the same.
  bool close = false;
  if (io.WantTextInput) {
    if (ImGui::IsKeyPressed(GLFW_KEY_ENTER, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_ENTER, false))
      export_requested = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) close = true;
  }
  ImGui::SetNextWindowPos(ImVec2(0.5f * io.DisplaySize.x, 0.45f * io.DisplaySize.y),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(720.0f * s, io.DisplaySize.x * 0.9f), 0));
  bool open = true;
  const char* title = e.animation ? "Export animation###export" : "Export picture###export";
  if (ImGui::Begin(title, &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::BeginDisabled(running);
    ImGui::TextUnformatted(
        e.animation ? "A sweep of the query position m; everything else stays as it is now."
                    : "A PNG drawn at the chosen resolution (not upscaled).");
    ImGui::Spacing();
    // a form: labels in the first column, controls in the second
    if (ImGui::BeginTable("form", 2)) {
      ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, 170.0f * s);
      ImGui::TableSetupColumn("control", ImGuiTableColumnFlags_WidthStretch);
      const auto row = [](const char* label) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(label);
        ImGui::TableNextColumn();
      };
      const float field = 150.0f * s;
      if (e.animation) {
        row("position m");
        ImGui::SetNextItemWidth(field);
        ImGui::InputDouble("##from", &e.from, 0.0, 0.0, "%.6g");
        ImGui::SameLine();
        ImGui::TextUnformatted("to");
        ImGui::SameLine();
        ImGui::SetNextItemWidth(field);
        ImGui::InputDouble("##to", &e.to, 0.0, 0.0, "%.6g");
        row("length");
        ImGui::SetNextItemWidth(field);
        ImGui::InputDouble("##seconds", &e.seconds, 0.5, 1.0, "%.3g s");
        ImGui::SameLine();
        ImGui::SetNextItemWidth(field);
        ImGui::SliderInt("##fps", &e.fps, static_cast<int>(kSweepMinFps),
                         static_cast<int>(kSweepMaxFps), "%d frames/s");
        ImGui::SameLine();
        ImGui::TextDisabled("%d frames", frame_count(e));
        row("format");
        // the keys in brackets: rows of the shortcut table (the labels' ids stay the same)
        if (ImGui::RadioButton("[G] GIF (loops)###gif", !e.mp4)) choose_format(false);
        ImGui::SameLine();
        if (ImGui::RadioButton("[M] MP4 video (H.264)###mp4", e.mp4)) choose_format(true);
      }
      row("area  [A]");
      if (ImGui::RadioButton("whole window", !e.canvas_only)) e.canvas_only = false;
      ImGui::SameLine();
      if (ImGui::RadioButton("canvas only", e.canvas_only)) e.canvas_only = true;
      row("resolution");
      for (int sc : {1, 2, 4}) {
        if (e.animation && sc == 4) continue;
        const std::string label =
            "[" + std::to_string(sc) + "] " + std::to_string(sc) + "×###scale" + std::to_string(sc);
        if (ImGui::RadioButton(label.c_str(), e.scale == sc)) e.scale = sc;
        ImGui::SameLine();
      }
      ImGui::TextDisabled("%s", size_text(io.DisplaySize, e.scale).c_str());
      if (!e.animation) {
        row("background");
        ImGui::Checkbox("[B] transparent###transparent", &e.transparent);
      }
      if (!state.params.ink.empty()) {
        row("ink");
        ImGui::Checkbox("pen strokes", &e.ink);
      }
      row("file  [Tab]");
      char buf[1024];
      std::snprintf(buf, sizeof buf, "%s", e.path.c_str());
      ImGui::SetNextItemWidth(-1);
      // A click puts the cursor where it clicked, as before; a key that gives the field the
      // keyboard puts it before the extension (place_cursor above).
      FileEntry entry;
      entry.place = !file_active_ && !io.MouseClicked[0];
      entry.cursor = static_cast<int>(e.path.size() -
                                      std::filesystem::path(e.path).extension().string().size());
      if (ImGui::InputText("##file", buf, sizeof buf, ImGuiInputTextFlags_CallbackAlways,
                           place_cursor, &entry))
        e.path = buf;
      file_active_ = ImGui::IsItemActive();
      ImGui::EndTable();
    }
    ImGui::EndDisabled();

    if (running) {
      const int total = job->frames_total();
      const float fraction =
          total > 0 ? static_cast<float>(job->frames_done()) / static_cast<float>(total) : 0.0f;
      char overlay[64];
      if (total > 0 && job->frames_done() >= total) {
        std::snprintf(overlay, sizeof overlay, "%d frames drawn; encoding…", total);
      } else if (total > 0) {
        std::snprintf(overlay, sizeof overlay, "frame %d / %d", job->frames_done(), total);
      } else {
        std::snprintf(overlay, sizeof overlay, "rendering…");
      }
      ImGui::ProgressBar(fraction, ImVec2(-1, 0), overlay);
      if (ImGui::Button("Cancel export", ImVec2(200 * s, 0))) job->cancel();
    } else {
      if (ImGui::Button("Export  [Enter]###Export", ImVec2(180 * s, 0)) || export_requested) {
        if (auto st = start(state, io.DisplaySize, static_cast<double>(env.scale)); !st)
          error = st.error().to_string();
        else
          error.clear();
      }
      ImGui::SameLine();
      if (ImGui::Button("Close  [Esc]###Close", ImVec2(180 * s, 0))) open = false;
      // on a line of its own: beside the buttons it is cut off in a 720 px wide dialog
      ImGui::TextDisabled("Tab / Shift + Tab: the next / previous field");
    }
    export_requested = false;  // a press while an export runs is not kept for later
    if (!error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
      ImGui::TextWrapped("%s", error.c_str());
      ImGui::PopStyleColor();
    }
  }
  ImGui::End();
  if (!open || close)
    state.export_dialog = D::none;  // a running export goes on; its notice follows
}

}  // namespace rope::app
