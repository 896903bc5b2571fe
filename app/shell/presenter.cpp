#include "shell/presenter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <span>

#include "lessons/lesson.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

constexpr ImGuiWindowFlags kPage =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
    ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings |
    ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollbar |
    ImGuiWindowFlags_NoScrollWithMouse;

// The left column (the projector's copy, the next step) takes this share of the width; the copy
// at most this share of the body's height.
constexpr float kMirrorShare = 0.5f;
constexpr float kMirrorHeight = 0.58f;
// The next step's equations, px at scale 1: in proportion to its prose (the body font), as the
// lesson's are to theirs.
constexpr float kNextEquationPx = DerivationView::kEquationPx * 19.0f / 26.0f;

// "12:04", or "1:02:03" past an hour; negative times count as 0.
std::string clock_text(double seconds) {
  const long t = std::lround(std::floor(std::max(0.0, seconds)));
  char buf[32];
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
  return buf;
}

std::string time_of_day() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  if (localtime_r(&now, &local) == nullptr) return {};
  char buf[16];
  std::strftime(buf, sizeof buf, "%H:%M", &local);
  return buf;
}

// A small heading in capitals above a part of the page.
void label(const char* text, ImU32 colour, const Fonts& f) {
  ImGui::PushFont(f.bold);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(text);
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

// The words a DerivationView drew (its results' prose pieces), for the page's results.
void collect_words(const DerivationView& view, std::vector<std::string>& out) {
  for (const DerivationView::ProsePiece& p : view.results().prose)
    out.push_back(p.text);
}

const lessons::Step* current_step(lessons::Library& library, const Params& p) {
  if (p.view != ViewId::derivation) return nullptr;
  const lessons::LoadedLesson* l = library.current(p);
  if (l == nullptr || p.step < 1 || p.step > static_cast<int>(l->lesson.steps.size()))
    return nullptr;
  return &l->lesson.steps[static_cast<std::size_t>(p.step - 1)];
}

}  // namespace

// [SECTION] the page

double PresenterPage::seconds_to_tick(double now) const {
  const double t = std::max(0.0, now - clock_start_);
  return std::floor(t) + 1.0 - t;
}

void PresenterPage::Draw(AppState& state, Views& views, const ViewEnv& env,
                         const PresenterMirror& mirror, bool wall_clock) {
  results_ = Results{};
  const Palette& pal = palette(state.params.theme);
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(std::round(20.0f * s), 14.0f * s));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, pal.canvas);
  if (ImGui::Begin("Presenter", nullptr, kPage)) {
    draw_header(state, views, env, wall_clock);
    const float footer_h = f.large->FontSize + 2.0f * ImGui::GetStyle().FramePadding.y + 14.0f * s;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float body_h = std::max(1.0f, avail.y - footer_h);
    const float gap = std::round(24.0f * s);
    const float left_w = std::floor(kMirrorShare * (avail.x - gap));

    // left: the projector's copy, the next step below it
    ImGui::BeginChild("left", ImVec2(left_w, body_h), false, ImGuiWindowFlags_NoScrollbar);
    label("ON THE PROJECTOR", pal.text_dim, f);
    float w = left_w;
    const float aspect = mirror.width > 0 && mirror.height > 0
                             ? static_cast<float>(mirror.height) / static_cast<float>(mirror.width)
                             : 9.0f / 16.0f;
    float h = std::floor(w * aspect);
    if (h > kMirrorHeight * body_h) {
      h = std::floor(kMirrorHeight * body_h);
      w = std::floor(h / aspect);
    }
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (mirror.texture != 0) {  // GL's rows run bottom-up: v from 1 to 0
      dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(mirror.texture)), at,
                   ImVec2(at.x + w, at.y + h), ImVec2(0, 1), ImVec2(1, 0));
    } else {
      dl->AddRectFilled(at, ImVec2(at.x + w, at.y + h), pal.panel);
      const char* none = "the main window appears here";
      const ImVec2 ts = ImGui::CalcTextSize(none);
      dl->AddText(ImVec2(at.x + 0.5f * (w - ts.x), at.y + 0.5f * (h - ts.y)), pal.text_dim, none);
    }
    dl->AddRect(at, ImVec2(at.x + w, at.y + h), pal.grid, 0.0f, 0,
                std::max(1.0f, std::round(1.5f * s)));
    results_.mirror_min = at;
    results_.mirror_max = ImVec2(at.x + w, at.y + h);
    ImGui::Dummy(ImVec2(w, h));
    ImGui::Dummy(ImVec2(0, 10.0f * s));
    draw_next(state, views, env);
    ImGui::EndChild();

    // right: the lecturer's notes, and the answer the class has not seen yet
    ImGui::SameLine(0.0f, gap);
    ImGui::BeginChild("notes", ImVec2(0, body_h), false);
    draw_notes(state, views, env);
    ImGui::EndChild();

    draw_footer(state, views, env);
  }
  ImGui::End();
  ImGui::PopStyleColor();
  ImGui::PopStyleVar();
}

// Where the lecture is (lesson, step k of n, the step's title) and for how long it has run.
void PresenterPage::draw_header(AppState& state, Views& views, const ViewEnv& env,
                                bool wall_clock) {
  const Params& p = state.params;
  const Palette& pal = palette(p.theme);
  const Fonts& f = *env.fonts;
  lessons::Library& library = views.library;
  const lessons::Step* step = current_step(library, p);
  results_.in_lesson = step != nullptr;
  if (step) {
    results_.heading = library.heading(p) + "  ·  step " + std::to_string(p.step) + " of " +
                       std::to_string(library.step_count(p));
    results_.step = step->title;
  } else {
    results_.heading = "Not in a lesson";
    results_.step = view_title(p.view);
  }
  results_.timer = clock_text(state.time - clock_start_);

  // the timer and the time of day at the right, as wide as they need
  ImGui::PushFont(f.title);
  const float timer_w = ImGui::CalcTextSize(results_.timer.c_str()).x;
  ImGui::PopFont();
  const std::string day = wall_clock ? time_of_day() : std::string();
  ImGui::PushFont(f.large);
  const float day_w = day.empty() ? 0.0f : ImGui::CalcTextSize(day.c_str()).x;
  ImGui::PopFont();
  const float right_w = std::max(timer_w, day_w);
  const float x0 = ImGui::GetCursorPosX();
  const float room = std::max(1.0f, ImGui::GetContentRegionAvail().x - right_w - 24.0f * env.scale);
  const float y0 = ImGui::GetCursorPosY();

  ImGui::PushFont(f.large);
  ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
  ImGui::TextUnformatted(elide(results_.heading, room).c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::PushFont(f.title);
  ImGui::TextUnformatted(elide(results_.step, room).c_str());
  ImGui::PopFont();
  const float y1 = ImGui::GetCursorPosY();

  const float right_x = x0 + ImGui::GetContentRegionAvail().x - right_w;
  ImGui::SetCursorPos(ImVec2(right_x + right_w - timer_w, y0));
  ImGui::PushFont(f.title);
  ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
  ImGui::TextUnformatted(results_.timer.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
  if (!day.empty()) {
    ImGui::SetCursorPosX(right_x + right_w - day_w);
    ImGui::PushFont(f.large);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    ImGui::TextUnformatted(day.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
  }
  ImGui::SetCursorPosY(std::max(y1, ImGui::GetCursorPosY()));
  ImGui::Separator();
  ImGui::Dummy(ImVec2(0, 4.0f * env.scale));
}

void PresenterPage::draw_notes(AppState& state, Views& views, const ViewEnv& env) {
  const Params& p = state.params;
  const Palette& pal = palette(p.theme);
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  const float width = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
  lessons::Library& library = views.library;
  const lessons::Step* step = current_step(library, p);
  label("NOTES", pal.text_dim, f);
  ImGui::PushFont(f.large);
  if (step == nullptr) {
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(
        "Notes belong to lesson steps. Open a lesson to see them here: Ctrl + 1 … 9, or the "
        "Derivations view.");
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  } else if (step->notes.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    ImGui::TextUnformatted("No notes for this step.");
    ImGui::PopStyleColor();
  } else {
    notes_.DrawBlocks(p, env, step->notes, width);
    collect_words(notes_, results_.notes);
    results_.note_paragraphs = static_cast<int>(step->notes.size());
  }
  ImGui::PopFont();

  // The answer `reveal:` still hides from the class (the main window's lesson panel says so),
  // at the state its reveal brings.
  if (step != nullptr && step->hides() && views.derivation.results().hiding) {
    results_.answer_hidden = true;
    ImGui::Dummy(ImVec2(0, 14.0f * s));
    label("HIDDEN FROM THE CLASS  ·  V reveals it", pal.key, f);
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float bar = std::round(5.0f * s), indent = bar + std::round(12.0f * s);
    ImGui::Indent(indent);
    Params revealed = p;
    lessons::apply_reveal_state(*step, revealed);
    answer_.DrawBlocks(revealed, env,
                       std::span(step->blocks)
                           .subspan(static_cast<std::size_t>(std::clamp(
                               step->reveal_block, 0, static_cast<int>(step->blocks.size())))),
                       width - indent);
    collect_words(answer_, results_.answer);
    ImGui::Unindent(indent);
    ImGui::GetWindowDrawList()->AddRectFilled(
        top, ImVec2(top.x + bar, ImGui::GetCursorScreenPos().y - ImGui::GetStyle().ItemSpacing.y),
        pal.key);
  }
}

// The next step (its title and what it opens with, its hidden part left out), or the next
// lesson's first.
void PresenterPage::draw_next(AppState& state, Views& views, const ViewEnv& env) {
  const Params& p = state.params;
  const Palette& pal = palette(p.theme);
  const Fonts& f = *env.fonts;
  lessons::Library& library = views.library;
  if (current_step(library, p) == nullptr) return;  // a view: no steps to come
  label("NEXT", pal.text_dim, f);
  const bool last = p.step >= library.step_count(p) && !library.next_is_new_lesson(p);
  if (last) {
    ImGui::PushFont(f.large);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    ImGui::TextUnformatted("This is the last step of the last lesson.");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    return;
  }
  Params next = p;
  const bool new_lesson = library.next_is_new_lesson(p);
  library.next(next);
  const lessons::LoadedLesson* l = library.current(next);
  if (l == nullptr || next.step < 1 || next.step > static_cast<int>(l->lesson.steps.size())) return;
  const lessons::Step& step = l->lesson.steps[static_cast<std::size_t>(next.step - 1)];
  lessons::apply_step_state(l->lesson, next.step - 1, next);
  results_.next = (new_lesson ? "Next lesson: " + library.heading(next) + ", " : "") +
                  std::to_string(next.step) + " · " + step.title;
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::PushFont(f.large);
  if (new_lesson) {
    ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
    ImGui::TextUnformatted(elide("Next lesson: " + library.heading(next), width).c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopFont();
  ImGui::PushFont(f.large);  // the whole title, wrapped: it names what comes
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted((std::to_string(next.step) + " · " + step.title).c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  ImGui::Dummy(ImVec2(0, 2.0f * env.scale));
  // what the step opens with, up to its hidden part, clipped to the room left
  ImGui::BeginChild("next", ImVec2(width, std::max(1.0f, ImGui::GetContentRegionAvail().y)), false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const std::size_t shown =
      step.hides() ? static_cast<std::size_t>(step.reveal_block) : step.blocks.size();
  ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
  next_.DrawBlocks(next, env, std::span(step.blocks).first(std::min(shown, step.blocks.size())),
                   width, f.body, kNextEquationPx);
  ImGui::PopStyleColor();
  // what does not fit fades out instead of ending in half a line
  const ImVec2 wmin = ImGui::GetWindowPos();
  const ImVec2 wsize = ImGui::GetWindowSize();
  const float fade = std::min(wsize.y, std::round(48.0f * env.scale));
  const ImU32 clear = pal.canvas & ~IM_COL32_A_MASK;
  ImGui::GetWindowDrawList()->AddRectFilledMultiColor(ImVec2(wmin.x, wmin.y + wsize.y - fade),
                                                      ImVec2(wmin.x + wsize.x, wmin.y + wsize.y),
                                                      clear, clear, pal.canvas, pal.canvas);
  ImGui::EndChild();
}

// Buttons that move through the lesson (as ← → and V do), the timer's restart, and a hint.
void PresenterPage::draw_footer(AppState& state, Views& views, const ViewEnv& env) {
  Params& p = state.params;
  const Palette& pal = palette(p.theme);
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  lessons::Library& library = views.library;
  const bool lesson = current_step(library, p) != nullptr;
  ImGui::Dummy(ImVec2(0, 4.0f * s));
  ImGui::PushFont(f.large);
  const float bw = std::round(190.0f * s);
  ImGui::BeginDisabled(!lesson || (p.step <= 1 && library.current_index(p) <= 0));
  if (ImGui::Button("◀ Previous", ImVec2(bw, 0))) library.previous(p);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!results_.answer_hidden);
  if (ImGui::Button("Reveal (V)", ImVec2(bw, 0))) state.reveal_requested = true;
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!lesson || results_.next.empty());
  if (ImGui::Button("Next ▶", ImVec2(bw, 0))) library.next(p);
  ImGui::EndDisabled();
  ImGui::SameLine(0.0f, std::round(28.0f * s));
  if (ImGui::Button("Restart timer")) restart_clock(state.time);
  ImGui::PopFont();
  ImGui::SameLine(0.0f, std::round(28.0f * s));
  ImGui::AlignTextToFramePadding();
  ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
  ImGui::TextUnformatted(
      elide("Keys work here too  ·  F6 closes", ImGui::GetContentRegionAvail().x).c_str());
  ImGui::PopStyleColor();
}

// [SECTION] the presenter: its ImGui context and the mirror

Presenter::Presenter(bool with_gl) : ui_(with_gl) {}

Presenter::~Presenter() = default;

void Presenter::draw(AppState& state, Views& views, float scale, bool wall_clock) {
  ImGui::SetCurrentContext(ui_.context());
  ImGui::NewFrame();
  views.math.begin_frame();
  const ViewEnv env{&ui_.fonts(), ui_.with_gl(), scale, &views.math};
  page_.Draw(state, views, env, PresenterMirror{mirror_.id(), mirror_.width(), mirror_.height()},
             wall_clock);
  views.math.end_frame(ui_.with_gl());
  ImGui::Render();
}

}  // namespace rope::app
