// views/derivation_view.cpp — the lesson panel (derivation_view.h).
//
// [SECTION] helpers: colours, live values in prose and TeX, marks
// [SECTION] inputs and compute: the live values; the shrink factor
// [SECTION] the math font and typesetting
// [SECTION] Draw: heading, problems, the step (prose, equations, checks), navigation
// [SECTION] controls: lesson list and steps
#include "views/derivation_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "io/number_format.h"
#include "io/placeholders.h"
#include "rope/typeset/imgui_draw.h"
#include "rope/typeset/layout.h"
#include "rope/typeset/parser.h"
#include "state/actions.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

// [SECTION] helpers: colours, live values in prose and TeX, marks

constexpr const char* kFallbackFonts[] = {
    typeset::MathFont::kDefaultPath,
    "/usr/share/fonts/opentype/stix-word/STIXMath-Regular.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf",
};

typeset::Rgba to_rgba(ImU32 c) {
  return {static_cast<std::uint8_t>(c & 0xFF), static_cast<std::uint8_t>((c >> 8) & 0xFF),
          static_cast<std::uint8_t>((c >> 16) & 0xFF), static_cast<std::uint8_t>((c >> 24) & 0xFF)};
}

// A value for prose: plain text with 4 significant digits and a proper minus sign.
std::string prose_value(const lessons::QuantityContext& ctx, const std::string& name) {
  if (name == "pairing")
    return ctx.params().pairing == Pairing::interleaved ? "interleaved" : "half-split";
  auto v = ctx.evaluate(name);
  if (!v) return "(" + name + "?)";
  const auto& x = v.value();
  std::string s = x.size() > 1 ? "(" : "";
  for (std::size_t j = 0; j < x.size() && j < 4; ++j) {
    if (j) s += ", ";
    s += format_number(x[j], NumberStyle::label, 5);
  }
  if (x.size() > 4) s += ", …";
  return x.size() > 1 ? s + ")" : s;
}

// Replaces every {{name}} of a known quantity with its value as text (io/placeholders.h).
std::string expand_prose(const std::string& text, const lessons::QuantityContext& ctx) {
  return expand_placeholders(text, [&](std::string_view name) -> std::optional<std::string> {
    if (lessons::find_quantity(name) == nullptr) return std::nullopt;
    return prose_value(ctx, std::string(name));
  });
}

// Values for every {{name}} of a known quantity in a TeX string.
typeset::Values tex_values(const std::string& tex, const lessons::QuantityContext& ctx) {
  typeset::Values v;
  for (const Placeholder& p : find_placeholders(tex))
    if (lessons::find_quantity(p.name) != nullptr) v[std::string(p.name)] = ctx.tex_value(p.name);
  return v;
}

void draw_mark(ImDrawList* dl, ImVec2 c, float size, bool passed, const Palette& pal, float s) {
  const float t = std::max(2.0f, std::round(3.5f * s));
  if (passed) {
    const ImVec2 pts[3] = {ImVec2(c.x - 0.45f * size, c.y + 0.02f * size),
                           ImVec2(c.x - 0.12f * size, c.y + 0.35f * size),
                           ImVec2(c.x + 0.48f * size, c.y - 0.38f * size)};
    dl->AddPolyline(pts, 3, pal.good, 0, t);
  } else {
    const float h = 0.38f * size;
    dl->AddLine(ImVec2(c.x - h, c.y - h), ImVec2(c.x + h, c.y + h), pal.bad, t);
    dl->AddLine(ImVec2(c.x - h, c.y + h), ImVec2(c.x + h, c.y - h), pal.bad, t);
  }
}

// `tex` with each {{name}} replaced by its value in braces (Copy TeX with the current values).
std::string tex_with_values(const std::string& tex, const lessons::QuantityContext& ctx) {
  const typeset::Values values = tex_values(tex, ctx);
  return expand_placeholders(tex, [&](std::string_view name) -> std::optional<std::string> {
    const auto v = values.find(name);
    if (v == values.end()) return std::nullopt;
    return "{" + v->second + "}";
  });
}

// The lesson's heading above the step, dim (in presentation mode the bar shows it instead).
void draw_heading(const std::string& heading, const Fonts& f, const Palette& pal) {
  ImGui::PushFont(f.bold);
  ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
  ImGui::TextUnformatted(heading.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

// A broken lesson file's problems, in place; the usable part is still shown below them.
void draw_problems(const std::vector<lessons::Problem>& problems, const Fonts& f,
                   const Palette& pal) {
  if (problems.empty()) return;
  ImGui::PushFont(f.body);
  ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
  constexpr std::size_t kShown = 6;
  for (std::size_t i = 0; i < problems.size() && i < kShown; ++i)
    ImGui::TextWrapped("%s", problems[i].to_string().c_str());
  if (problems.size() > kShown)
    ImGui::Text("… and %zu more (rope-lab lessons --check lists them all)",
                problems.size() - kShown);
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

// The height the navigation row below the step takes, px.
float navigation_height(const Fonts& f, float s) {
  return f.large->FontSize + 2.0f * ImGui::GetStyle().FramePadding.y + 16.0f * s;
}

}  // namespace

struct DerivationView::Pass {
  const ViewEnv& env;  // inside the step: env.scale includes the shrink factor
  const Palette& pal;
  const Fonts& fonts;
  const lessons::QuantityContext& values;
};

DerivationView::DerivationView() = default;
DerivationView::~DerivationView() = default;

// [SECTION] inputs and compute

DerivationView::Inputs DerivationView::inputs_of(const Params& p) {
  Inputs in;
  for (const ParamSpec& s : param_specs()) {
    in.key += s.get(p);
    in.key += '\x1f';
  }
  in.params = p;
  return in;
}

lessons::QuantityContext DerivationView::compute(const Inputs& in) {
  return lessons::QuantityContext(in.params);
}

float DerivationView::ShrinkToFit::factor_for(const std::string& layout_key) {
  if (layout_key != key) {
    key = layout_key;
    factor = 1.0f;
  }
  return factor;
}

void DerivationView::ShrinkToFit::measured(float drawn_height, float room) {
  if (drawn_height > room + 1.0f && factor > kMinFit)
    factor = std::max(kMinFit, factor * std::min(0.97f, room / drawn_height));
}

// [SECTION] the math font and typesetting

void DerivationView::ensure_font() {
  if (font_tried_) return;
  font_tried_ = true;
  std::vector<std::string> paths;
  if (const char* env = std::getenv("ROPE_LAB_MATH_FONT"); env != nullptr && *env != '\0') {
    paths.emplace_back(env);  // an explicit choice: no silent fallback
  } else {
    paths.assign(std::begin(kFallbackFonts), std::end(kFallbackFonts));
  }
  for (const std::string& path : paths) {
    typeset::FontLoad fl = typeset::MathFont::load(path);
    if (fl.font) {
      font_ = std::move(fl.font);
      atlas_ = std::make_unique<typeset::GlyphAtlas>(*font_, 2048, 2048);
      font_error_.clear();
      return;
    }
    if (font_error_.empty()) font_error_ = fl.error;
  }
  font_error_ = "No math font could be loaded (" + font_error_ +
                "). Install fonts-lmodern; equations are shown as TeX source.";
}

const DerivationView::Typeset& DerivationView::typeset_tex(const std::string& tex,
                                                           const lessons::QuantityContext& ctx,
                                                           float px, ImU32 colour) {
  const typeset::Values values = tex_values(tex, ctx);
  std::string key = tex;
  for (const auto& [k, v] : values) {
    key += '\x1f';
    key += k;
    key += '=';
    key += v;
  }
  char tail[48];
  std::snprintf(tail, sizeof tail, "\x1f%.2f\x1f%08x", static_cast<double>(px), colour);
  key += tail;
  auto it = typeset_cache_.find(key);
  if (it != typeset_cache_.end()) return it->second;
  constexpr std::size_t kMaxCached = 512;  // a slider sweep makes new strings every frame
  if (typeset_cache_.size() >= kMaxCached) typeset_cache_.clear();
  typeset::LayoutOptions options;
  options.font_px = px;
  options.ink = to_rgba(colour);
  typeset::Typeset t = typeset::typeset(tex, values, *font_, options);
  return typeset_cache_
      .emplace(std::move(key), Typeset{std::move(t.list), static_cast<int>(t.diagnostics.size())})
      .first->second;
}

ImVec2 DerivationView::draw_formula(const Pass& pass, const std::string& tex, float px,
                                    ImU32 colour, float width, bool centre, const char* id,
                                    bool record) {
  if (!font_) {  // no math font: the TeX source, wrapped
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextUnformatted(tex.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    return ImGui::GetItemRectSize();
  }
  // shrink to fit the panel, down to 55 %: a long matrix stays legible rather than clipped
  const Typeset* t = &typeset_tex(tex, pass.values, px, colour);
  if (t->list.width > width && width > 0.0f) {
    const float fitted = std::max(0.55f * px, std::floor(px * width / t->list.width * 4.0f) / 4.0f);
    t = &typeset_tex(tex, pass.values, fitted, colour);
  }
  const typeset::DisplayList& list = t->list;
  const float h = std::ceil(list.height + list.depth);
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  const float x = centre ? cursor.x + std::max(0.0f, 0.5f * (width - list.width)) : cursor.x;
  ImGui::InvisibleButton(id, ImVec2(std::max(width, 1.0f), std::max(h, 1.0f)));
  if (ImGui::BeginPopupContextItem()) {
    if (ImGui::MenuItem("Copy TeX")) ImGui::SetClipboardText(tex.c_str());
    if (ImGui::MenuItem("Copy TeX with the current values"))
      ImGui::SetClipboardText(tex_with_values(tex, pass.values).c_str());
    ImGui::EndPopup();
  } else if (ImGui::IsItemHovered() && ImGui::GetIO().MouseDelta.x == 0.0f) {
    ImGui::SetTooltip("Right-click to copy the TeX");
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin(x, cursor.y + list.height);
  if (pass.env.has_gl) {
    if (!typeset::draw_display_list(dl, list, origin, *atlas_, texture_.id()))
      atlas_->reset();  // page full: start afresh (glyphs come back next frame)
  } else {              // headless: a box per glyph and the rules, no texture
    for (const typeset::PlacedGlyph& g : list.glyphs) {
      const ImVec2 a(origin.x + g.x, origin.y + g.y - 0.6f * g.size_px);
      dl->AddRectFilled(a, ImVec2(a.x + 0.45f * g.size_px, a.y + 0.6f * g.size_px),
                        with_alpha(colour, 0.5f));
    }
    for (const typeset::FilledRect& r : list.rects)
      dl->AddRectFilled(ImVec2(origin.x + r.x, origin.y + r.y),
                        ImVec2(origin.x + r.x + r.w, origin.y + r.y + r.h), colour);
  }
  if (record) {
    Results& r = results_;
    ++r.equations_drawn;
    r.equation_errors += t->errors;
    const ImVec2 a(x, cursor.y), b(x + list.width, cursor.y + h);
    if (r.equations_drawn == 1) {
      r.equations_min = a;
      r.equations_max = b;
    } else {
      r.equations_min = ImVec2(std::min(r.equations_min.x, a.x), std::min(r.equations_min.y, a.y));
      r.equations_max = ImVec2(std::max(r.equations_max.x, b.x), std::max(r.equations_max.y, b.y));
    }
  }
  return ImVec2(list.width, h);
}

// [SECTION] Draw

void DerivationView::Draw(AppState& state, const ViewEnv& env, lessons::Library& library) {
  results_ = Results{};
  ensure_font();
  report_problem(state, font_error_);
  if (atlas_ && atlas_->full()) atlas_->reset();
  const Params& p = state.params;
  const lessons::LoadedLesson* loaded = library.current(p);
  if (library.lessons().empty())
    report_problem(state, "no lessons were found in " + library.directory() +
                              " (set ROPE_LAB_LESSONS to the folder holding the .lesson files)");
  if (loaded == nullptr) return draw_lesson_choice(state, env, library);
  const Palette& pal = palette(p.theme);
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  const lessons::QuantityContext& values = values_.get(inputs_of(p), compute);

  // heading and problems; the step counter is at the bottom with the buttons (in presentation
  // mode both are in the presentation bar instead, larger: shell/presentation_bar.h)
  const bool navigation = !p.presentation;
  const float nav_h = navigation ? navigation_height(f, s) : 0.0f;
  if (navigation) draw_heading(library.heading(p), f, pal);
  draw_problems(loaded->problems, f, pal);
  const auto& steps = loaded->lesson.steps;
  if (steps.empty()) return;
  const int step = std::clamp(p.step, 1, static_cast<int>(steps.size()));  // as entered

  // layout: the room above the navigation, and the shrink factor for this step in it
  const float content_h = std::max(1.0f, ImGui::GetContentRegionAvail().y - nav_h);
  const std::string layout_key = p.lesson + "#" + std::to_string(step) + "#" +
                                 std::to_string(std::lround(content_h)) + "x" +
                                 std::to_string(std::lround(ImGui::GetContentRegionAvail().x)) +
                                 "@" + std::to_string(std::lround(100.0f * s));
  const float fit = shrink_.factor_for(layout_key);

  // paint: the step in a child window at the shrink factor, measured as it is laid out
  ViewEnv fitted = env;
  fitted.scale = s * fit;
  ImGui::BeginChild("step", ImVec2(0, content_h), false);
  ImGui::SetWindowFontScale(fit);
  draw_step(Pass{fitted, pal, f, values}, steps[static_cast<std::size_t>(step - 1)]);
  const float drawn_h = ImGui::GetCursorPosY();  // the content's height, scrolled or not
  ImGui::SetWindowFontScale(1.0f);
  ImGui::EndChild();
  shrink_.measured(drawn_h, content_h);
  if (navigation) draw_navigation(state, env, library);

  if (env.has_gl && atlas_) texture_.sync(*atlas_);
}

// No lesson of the name Params::lesson gives: say so, and list the lessons there are.
void DerivationView::draw_lesson_choice(AppState& state, const ViewEnv& env,
                                        lessons::Library& library) {
  const Fonts& f = *env.fonts;
  ImGui::PushFont(f.title);
  ImGui::TextUnformatted("Derivations");
  ImGui::PopFont();
  ImGui::PushFont(f.large);
  const auto& all = library.lessons();
  if (all.empty()) {
    ImGui::TextWrapped("No lessons were found in %s.", library.directory().c_str());
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, palette(state.params.theme).bad);
    ImGui::TextWrapped("There is no lesson named '%s'.", state.params.lesson.c_str());
    ImGui::PopStyleColor();
    ImGui::TextUnformatted("Choose one:");
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto& l = all[i].lesson;
      const std::string label = l.title.empty() ? l.id : l.title;
      if (ImGui::Selectable((label + "##" + l.id).c_str()))
        library.go_to(state.params, static_cast<int>(i), state.params.step);
    }
  }
  ImGui::PopFont();
}

void DerivationView::draw_step(const Pass& pass, const lessons::Step& step) {
  const Fonts& f = pass.fonts;
  const float s = pass.env.scale;
  const float width = ImGui::GetContentRegionAvail().x;

  ImGui::PushFont(f.title);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(step.title.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  ImGui::Dummy(ImVec2(0, 6.0f * s));

  int eq = 0;
  for (const lessons::Block& b : step.blocks) {
    if (b.kind == lessons::Block::Kind::prose) {
      ImGui::PushFont(f.large);
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(expand_prose(b.text, pass.values).c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopFont();
      ImGui::Dummy(ImVec2(0, 8.0f * s));
    } else {
      ImGui::Dummy(ImVec2(0, 4.0f * s));
      const std::string id = "##eq" + std::to_string(eq++);
      draw_formula(pass, b.text, kEquationPx * s, pass.pal.text, width, true, id.c_str(), true);
      ImGui::Dummy(ImVec2(0, 12.0f * s));
    }
  }
  if (!step.checks.empty()) draw_checks(pass, step);
}

// The check panel: each check's two sides typeset with their values, and a mark.
void DerivationView::draw_checks(const Pass& pass, const lessons::Step& step) {
  const Palette& pal = pass.pal;
  const Fonts& f = pass.fonts;
  const float s = pass.env.scale;
  ImDrawList* dl = ImGui::GetWindowDrawList();

  ImGui::Dummy(ImVec2(0, 6.0f * s));
  const float box_x0 = ImGui::GetCursorScreenPos().x;
  const float box_w = ImGui::GetContentRegionAvail().x;
  const float box_y0 = ImGui::GetCursorScreenPos().y;
  dl->ChannelsSplit(2);  // the box behind, drawn once its height is known
  dl->ChannelsSetCurrent(1);
  const float pad = 12.0f * s;
  ImGui::Indent(pad);
  ImGui::Dummy(ImVec2(0, 4.0f * s));
  ImGui::PushFont(f.bold);
  ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
  ImGui::TextUnformatted("Check with the current values");
  ImGui::PopStyleColor();
  ImGui::PopFont();

  const float mark_w = 44.0f * s;
  const float inner_w = box_w - 2.0f * pad - mark_w;
  int i = 0;
  for (const lessons::Check& c : step.checks) {
    const lessons::CheckOutcome o = lessons::run_check(pass.values, c.left, c.right, c.relation);
    results_.checks.push_back(o);
    const float y0 = ImGui::GetCursorScreenPos().y;
    if (!o.computed) {
      ImGui::PushFont(f.large);
      ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + inner_w);
      ImGui::TextUnformatted(("cannot compute: " + o.error).c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
      ImGui::PopFont();
    } else {
      const std::string lv = "{{" + c.left + "}}";
      const std::string rv = "{{" + c.right + "}}";
      const std::string left = lessons::quantity_label(c.left) + " = " + lv;
      const std::string right = c.relation == lessons::Relation::equal
                                    ? lessons::quantity_label(c.right) + " = " + rv
                                    : "\\le\\ " + lessons::quantity_label(c.right) + " = " + rv;
      const std::string id = "##check" + std::to_string(i);
      ImGui::SetCursorScreenPos(
          ImVec2(ImGui::GetCursorScreenPos().x + mark_w, ImGui::GetCursorScreenPos().y));
      draw_formula(pass, left, kCheckPx * s, pal.query, inner_w, false, (id + "l").c_str(), false);
      ImGui::SetCursorScreenPos(
          ImVec2(ImGui::GetCursorScreenPos().x + mark_w, ImGui::GetCursorScreenPos().y + 2.0f * s));
      draw_formula(pass, right, kCheckPx * s, pal.key, inner_w, false, (id + "r").c_str(), false);
    }
    const float y1 = ImGui::GetCursorScreenPos().y;
    const ImVec2 centre(box_x0 + pad + 0.5f * mark_w - 4.0f * s, 0.5f * (y0 + y1));
    if (o.computed) {
      draw_mark(dl, centre, 30.0f * s, o.passed, pal, s);
      results_.marks.push_back({centre, o.passed});
    }
    ImGui::Dummy(ImVec2(0, 6.0f * s));
    ++i;
  }
  ImGui::Unindent(pad);
  const float box_y1 = ImGui::GetCursorScreenPos().y;
  dl->ChannelsSetCurrent(0);
  dl->AddRectFilled(ImVec2(box_x0, box_y0), ImVec2(box_x0 + box_w, box_y1), pal.panel, 8.0f * s);
  dl->AddRect(ImVec2(box_x0, box_y0), ImVec2(box_x0 + box_w, box_y1), pal.grid, 8.0f * s, 0,
              std::max(1.0f, std::round(1.5f * s)));
  dl->ChannelsMerge();
  ImGui::Dummy(ImVec2(0, 4.0f * s));
}

// Previous / the step counter / Next below the step (the window's own; presentation mode has
// them in its bar).
void DerivationView::draw_navigation(AppState& state, const ViewEnv& env,
                                     lessons::Library& library) {
  Params& p = state.params;
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  ImGui::Separator();
  ImGui::Dummy(ImVec2(0, 2.0f * s));
  ImGui::PushFont(f.large);
  const float w = ImGui::GetContentRegionAvail().x;
  const bool next_lesson = library.next_is_new_lesson(p);
  // The buttons are as wide as the wider label needs ("Next lesson ▶" on a last step), up to a
  // third of the row; a label that still does not fit is shortened, never clipped.
  const float pad = 2.0f * ImGui::GetStyle().FramePadding.x;
  const char* next_label = next_lesson ? "Next lesson ▶" : "Next ▶";
  const float need =
      std::max(ImGui::CalcTextSize("◀ Previous").x, ImGui::CalcTextSize(next_label).x);
  const float bw = std::min(std::max(240.0f * s, need + pad), 0.32f * w);
  if (need + pad > bw) next_label = "Next ▶";
  ImGui::BeginDisabled(p.step <= 1);
  if (ImGui::Button("◀ Previous", ImVec2(bw, 0))) library.previous(p);
  ImGui::EndDisabled();
  ImGui::SameLine();
  const int steps = library.step_count(p);
  char counter[64];
  std::snprintf(counter, sizeof counter, "step %d / %d", p.step, steps);
  const float cw = ImGui::CalcTextSize(counter).x;
  ImGui::SetCursorPosX(
      ImGui::GetCursorPosX() +
      std::max(0.0f, 0.5f * (w - 2.0f * bw) - 0.5f * cw - ImGui::GetStyle().ItemSpacing.x));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(counter);
  ImGui::SameLine(std::max(0.0f, w - bw + ImGui::GetStyle().WindowPadding.x));
  const bool last = p.step >= steps;
  ImGui::BeginDisabled(last && !next_lesson);
  if (ImGui::Button(next_label, ImVec2(bw, 0))) library.next(p);
  ImGui::EndDisabled();
  ImGui::PopFont();
}

// [SECTION] controls

void DerivationView::DrawControls(AppState& state, const ViewEnv& env, lessons::Library& library) {
  Params& p = state.params;
  const Palette& pal = palette(p.theme);
  (void)env;
  const auto& all = library.lessons();
  ImGui::TextUnformatted("Lesson");
  ImGui::SetNextItemWidth(-1);
  const int current = library.current_index(p);
  const auto title_of = [&](std::size_t i) {
    const auto& l = all[i].lesson;
    return std::to_string(i + 1) + ". " + (l.title.empty() ? l.id : l.title);
  };
  const std::string preview =
      current >= 0 ? title_of(static_cast<std::size_t>(current)) : std::string("(none)");
  if (ImGui::BeginCombo("##lesson", preview.c_str())) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      const bool selected = static_cast<int>(i) == current;
      if (!all[i].problems.empty()) ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
      if (ImGui::Selectable((title_of(i) + "##" + all[i].lesson.id).c_str(), selected))
        library.go_to(p, static_cast<int>(i), 1);
      if (!all[i].problems.empty()) ImGui::PopStyleColor();
    }
    ImGui::EndCombo();
  }
  if (current >= 0) {
    const auto& steps = all[static_cast<std::size_t>(current)].lesson.steps;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const std::string label = std::to_string(i + 1) + ". " + steps[i].title;
      if (ImGui::Selectable(label.c_str(), static_cast<int>(i) + 1 == p.step))
        p.step = static_cast<int>(i) + 1;
    }
  }
  if (ImGui::Button("Reload lessons")) library.reload();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Read the lesson files again after editing them");
  ImGui::SameLine();
  if (ImGui::Button("Restart step")) lessons::Library::restart(state);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Put every value back to what this step shows");
  ImGui::TextDisabled("← / →, Page Up / Down: step   Home / End");
}

}  // namespace rope::app
