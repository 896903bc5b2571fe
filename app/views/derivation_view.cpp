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
#include <span>
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
#include "views/vector_editor.h"

namespace rope::app {
namespace {

// [SECTION] helpers: colours, live values in prose and TeX, marks

// A value for prose: plain text with 5 significant digits (or the digits the placeholder asks
// for) and a proper minus sign.
std::string prose_value(const lessons::QuantityContext& ctx, const std::string& name,
                        Digits digits) {
  if (name == "pairing")
    return ctx.params().pairing == Pairing::interleaved ? "interleaved" : "half-split";
  auto v = ctx.evaluate(name);
  if (!v) return "(" + name + "?)";
  const auto& x = v.value();
  std::string s = x.size() > 1 ? "(" : "";
  for (std::size_t j = 0; j < x.size() && j < 4; ++j) {
    if (j) s += ", ";
    s += digits.kind == Digits::Kind::style ? format_number(x[j], NumberStyle::label, 5)
                                            : format_number(x[j], NumberStyle::label, digits);
  }
  if (x.size() > 4) s += ", …";
  return x.size() > 1 ? s + ")" : s;
}

// Replaces every {{name}} of a known quantity with its value as text (io/placeholders.h).
std::string expand_prose(std::string_view text, const lessons::QuantityContext& ctx) {
  return expand_placeholders(text, [&](const Placeholder& p) -> std::optional<std::string> {
    if (lessons::find_quantity(p.name) == nullptr) return std::nullopt;
    return prose_value(ctx, std::string(p.name), placeholder_digits(p).digits);
  });
}

// Values for every {{name}} (and {{name:digits}}) of a known quantity in a TeX string, by key.
typeset::Values tex_values(const std::string& tex, const lessons::QuantityContext& ctx) {
  typeset::Values v;
  for (const Placeholder& p : find_placeholders(tex))
    if (lessons::find_quantity(p.name) != nullptr)
      v[std::string(p.key())] = ctx.tex_value(p.name, placeholder_digits(p).digits);
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
// How the line "This step assumes ..." names a parameter: the symbol the lessons use for it
// ("d = ", "m = ") or its name ("base ", "precision ").
std::string assumed_name(const std::string& key) {
  static const std::pair<const char*, const char*> kSymbols[] = {
      {"dim", "d = "},    {"position", "m = "},         {"key_position", "n = "},
      {"factor", "s = "}, {"original_context", "L = "}, {"rotary_fraction", "p = "}};
  for (const auto& [name, symbol] : kSymbols)
    if (key == name) return symbol;
  std::string words = key;
  std::replace(words.begin(), words.end(), '_', ' ');
  return words + " ";
}

// A parameter's value as the parameter table prints it, numbers grouped as axis ticks (10 000).
std::string assumed_value(const std::string& value) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(v)) return value;
  return format_number(v, NumberStyle::tick);
}

std::string tex_with_values(const std::string& tex, const lessons::QuantityContext& ctx) {
  const typeset::Values values = tex_values(tex, ctx);
  return expand_placeholders(tex, [&](const Placeholder& p) -> std::optional<std::string> {
    const auto v = values.find(p.key());
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

// The em size of the smallest glyph of a typeset formula, px (0: no glyphs, only rules).
float smallest_glyph_px(const typeset::DisplayList& list) {
  float px = 0.0f;
  for (const typeset::PlacedGlyph& g : list.glyphs)
    if (px == 0.0f || g.size_px < px) px = g.size_px;
  return px;
}

// The first words of a paragraph, to name it in a test's message.
std::string opening(const std::string& text) {
  constexpr std::size_t kShown = 48;
  if (text.size() <= kShown) return text;
  std::size_t end = kShown;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;  // not inside a UTF-8 character
  return text.substr(0, end) + "…";
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
  bool revealed;  // the step's hidden part is shown
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

float DerivationView::ShrinkToFit::factor_for(const std::string& layout_key, float smallest) {
  if (layout_key != key || smallest != least) {
    key = layout_key;
    least = smallest;
    factor = 1.0f;
    fits = least;
    overflows = 2.0f;  // none yet
  }
  return factor;
}

// A bisection over frames: each frame measures the step at `factor`. Text rewraps and equations
// hit their own width limits, so height is not proportional to the factor; the first guess
// (room / drawn) often lands far below what fits (0.70 where 0.78 fits). Between the largest
// factor known to fit and the smallest known to overflow, try the middle until they are 2 %
// apart, then stay on the one that fits. (`overflows` only falls, so this ends.)
void DerivationView::ShrinkToFit::measured(float drawn_height, float room) {
  const float before = factor;
  overflow = std::max(0.0f, drawn_height - room);
  if (drawn_height > room + 1.0f) {
    // A factor that fitted before can overflow now: a scroll bar that appeared took width and
    // the text rewrapped. What was known to fit is then stale.
    if (factor <= fits) fits = least;
    overflows = std::min(overflows, factor);
    if (factor > least) {
      const float guess = factor * std::min(0.97f, room / drawn_height);
      factor = std::max({least, fits, std::min(guess, 0.5f * (fits + overflows))});
      if (factor >= overflows) factor = fits;  // nothing between: the last that fit
    }
  } else {
    fits = std::max(fits, factor);
    if (overflows <= 1.0f && overflows - fits > 0.02f) factor = 0.5f * (fits + overflows);
  }
  settling = factor != before;
}

// [SECTION] the math font and typesetting

const DerivationView::Typeset& DerivationView::typeset_tex(const std::string& tex,
                                                           const lessons::QuantityContext& ctx,
                                                           float px, ImU32 colour,
                                                           bool inline_style) {
  return math_->typeset(tex, tex_values(tex, ctx), px, colour, inline_style, min_script_px_);
}

void DerivationView::paint_list(const Pass& pass, const typeset::DisplayList& list, ImVec2 origin,
                                ImU32 colour) {
  math_->paint(ImGui::GetWindowDrawList(), list, origin, colour, pass.env.has_gl);
}

void DerivationView::record_text(TextKind kind, const std::string& text) {
  results_.sizes.push_back({kind, ImGui::GetFontSize() / kTextLineEm, opening(text)});
}

// [SECTION] prose: words and inline math flowing on shared baselines

namespace {

// Byte length of the longest prefix of `s` (whole UTF-8 characters, at least one) no wider than
// `room` px.
std::size_t fitting_prefix(std::string_view s, float room) {
  std::size_t end = 0;
  while (end < s.size()) {
    std::size_t next = end + 1;
    while (next < s.size() && (static_cast<unsigned char>(s[next]) & 0xC0) == 0x80)
      ++next;
    const float w = ImGui::CalcTextSize(s.data(), s.data() + next).x;
    if (w > room && end > 0) break;
    end = next;
  }
  return end;
}

}  // namespace

void DerivationView::draw_prose(const Pass& pass, const lessons::Block& block, float width) {
  struct Piece {
    bool math = false;
    std::string text;  // words (math: the TeX with values, for tests and tooltips)
    typeset::DisplayList list;
    float w = 0;
    float squeezed = 1.0f;  // math wider than the column: drawn / asked size
  };
  using Unit = std::vector<Piece>;  // pieces with no space between them: wrapped as one
  const float size = ImGui::GetFontSize();
  const float space_w = ImGui::CalcTextSize(" ").x;
  const float text_ascent =
      std::round(ImGui::GetFont()->Ascent) * size / std::max(1.0f, ImGui::GetFont()->FontSize);
  const float text_descent = size - text_ascent;
  const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
  const float math_px = math_->font() ? math_->inline_px(ImGui::GetFont(), size) : size;
  record_text(TextKind::prose, block.text);

  // the units: words and formulas, glued where no space separates them ("$x$," stays whole)
  std::vector<Unit> units;
  bool space = true;  // a space before the next piece: it starts a new unit
  const auto add = [&](Piece p) {
    if (space || units.empty()) units.emplace_back();
    units.back().push_back(std::move(p));
    space = false;
  };
  for (const lessons::ProseSpan& span : lessons::split_inline_math(block.text).spans) {
    if (span.kind == lessons::ProseSpan::Kind::math) {
      Piece p;
      p.math = true;
      p.text = tex_with_values(span.text, pass.values);
      if (math_->font()) {
        const Typeset* t = &typeset_tex(span.text, pass.values, math_px, colour, true);
        if (t->list.width > width && width > 0.0f) {  // wider than the column: smaller
          p.squeezed = std::max(0.55f, width / t->list.width);
          t = &typeset_tex(span.text, pass.values, math_px * p.squeezed, colour, true);
        }
        p.list = t->list;  // a copy: the cache may be cleared by the next typeset
        p.w = p.list.width;
      } else {  // no math font: the TeX source as words
        p.math = false;
        p.text = "$" + span.text + "$";
        p.w = ImGui::CalcTextSize(p.text.c_str()).x;
      }
      add(std::move(p));
      continue;
    }
    const std::string text = glue_prose(expand_prose(span.text, pass.values));
    std::size_t i = 0;
    while (i < text.size()) {
      if (text[i] == ' ') {
        space = true;
        ++i;
        continue;
      }
      const std::size_t end = std::min(text.find(' ', i), text.size());
      Piece p;
      p.text = text.substr(i, end - i);
      p.w = ImGui::CalcTextSize(p.text.c_str()).x;
      add(std::move(p));
      i = end;
    }
  }

  // lines: units placed left to right, a new line when the next one does not fit; a unit wider
  // than the column by itself is cut between characters (a long word)
  struct Placed {
    const Piece* piece;
    std::string cut;  // the part of a cut word (empty: the whole piece)
    float x, w;
  };
  std::vector<std::vector<Placed>> lines(1);
  float x = 0;
  for (const Unit& u : units) {
    float uw = 0;
    for (const Piece& p : u)
      uw += p.w;
    if (x > 0 && x + space_w + uw > width) {
      lines.emplace_back();
      x = 0;
    } else if (x > 0) {
      x += space_w;
    }
    for (const Piece& p : u) {
      if (!p.math && x + p.w > width && width > 0.0f) {
        std::string_view rest = p.text;
        while (!rest.empty()) {
          if (x > 0 && ImGui::CalcTextSize(rest.data(), rest.data() + fitting_prefix(rest, 0)).x >
                           width - x) {
            lines.emplace_back();
            x = 0;
          }
          const std::size_t n = fitting_prefix(rest, width - x);
          const float w = ImGui::CalcTextSize(rest.data(), rest.data() + n).x;
          lines.back().push_back({&p, std::string(rest.substr(0, n)), x, w});
          x += w;
          rest.remove_prefix(n);
          if (!rest.empty()) {
            lines.emplace_back();
            x = 0;
          }
        }
        continue;
      }
      lines.back().push_back({&p, {}, x, p.w});
      x += p.w;
    }
  }

  // paint: each line as tall as its tallest piece, text and formulas on one baseline
  const ImVec2 top = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float gap = std::round(2.0f * pass.env.scale);  // between a formula and the next line
  float y = top.y;
  for (const auto& line : lines) {
    float ascent = text_ascent, descent = text_descent;
    for (const Placed& pl : line)
      if (pl.piece->math) {
        ascent = std::max(ascent, pl.piece->list.height + gap);
        descent = std::max(descent, pl.piece->list.depth + gap);
      }
    const float baseline = std::round(y + ascent);
    for (const Placed& pl : line) {
      const Piece& p = *pl.piece;
      const float px = top.x + pl.x;
      ProsePiece rec;
      rec.baseline = baseline;
      rec.math = p.math;
      if (p.math) {
        const ImVec2 origin(std::round(px), baseline);
        paint_list(pass, p.list, origin, colour);
        rec.min = ImVec2(origin.x, baseline - p.list.height);
        rec.max = ImVec2(origin.x + p.list.width, baseline + p.list.depth);
        rec.text = p.text;
        for (const typeset::PlacedGlyph& g : p.list.glyphs)
          rec.glyphs.push_back(g.glyph);
        results_.sizes.push_back(
            {TextKind::prose_math, smallest_glyph_px(p.list), p.text, p.squeezed});
      } else {
        const std::string& words = pl.cut.empty() ? p.text : pl.cut;
        const ImVec2 at(px, baseline - text_ascent);
        dl->AddText(ImGui::GetFont(), size, at, colour, words.data(), words.data() + words.size());
        rec.min = at;
        rec.max = ImVec2(px + pl.w, at.y + size);
        rec.text = words;
      }
      results_.prose.push_back(std::move(rec));
    }
    y = baseline + descent;
  }
  ImGui::Dummy(ImVec2(std::max(1.0f, width), std::max(1.0f, y - top.y)));
}

ImVec2 DerivationView::draw_formula(const Pass& pass, const std::string& tex, float px,
                                    ImU32 colour, float width, bool centre, const char* id,
                                    TextKind kind) {
  if (!math_->font()) {  // no math font: the TeX source, wrapped
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextUnformatted(tex.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    return ImGui::GetItemRectSize();
  }
  // shrink to fit the panel, down to 55 %: a long matrix stays legible rather than clipped
  // (scripts at their floor do not shrink with the rest: a second try when the first is short)
  const Typeset* t = &typeset_tex(tex, pass.values, px, colour);
  float fitted = px;
  for (int attempt = 0; attempt < 2 && t->list.width > width && width > 0.0f; ++attempt) {
    const float smaller =
        std::max(0.55f * px, std::floor(fitted * width / t->list.width * 4.0f) / 4.0f);
    if (smaller >= fitted) break;
    fitted = smaller;
    t = &typeset_tex(tex, pass.values, fitted, colour);
  }
  const float squeezed = fitted / px;
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
  paint_list(pass, list, ImVec2(x, cursor.y + list.height), colour);
  results_.sizes.push_back({kind, smallest_glyph_px(list), tex, squeezed});
  if (kind == TextKind::equation) {
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
  math_ = env.math ? env.math : &own_math_;
  min_script_px_ = kMinScriptPx * env.scale;  // the step's shrink factor is not applied to it
  if (!env.math) own_math_.begin_frame();     // the shared one is begun by draw_frame
  report_problem(state, math_->error());
  const Params& p = state.params;
  const lessons::LoadedLesson* loaded = library.current(p);
  if (library.lessons().empty())
    report_problem(state, "no lessons were found in " + library.directory() +
                              " (set ROPE_LAB_LESSONS to the folder holding the .lesson files)");
  if (loaded == nullptr) return draw_lesson_choice(state, env, library);
  const Palette& pal = palette(p.theme);
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  const lessons::QuantityContext& values = values_.get(inputs_of(p), [this](const Inputs& in) {
    return lessons::QuantityContext(in.params, memo_);
  });

  // heading and problems; the step counter is at the bottom with the buttons (in presentation
  // mode both are in the presentation bar instead, larger: shell/presentation_bar.h)
  const bool navigation = !p.presentation;
  const float nav_h = navigation ? navigation_height(f, s) : 0.0f;
  if (navigation) draw_heading(library.heading(p), f, pal);
  draw_problems(loaded->problems, f, pal);
  const auto& steps = loaded->lesson.steps;
  if (steps.empty()) return;
  const int step = std::clamp(p.step, 1, static_cast<int>(steps.size()));  // as entered
  if (const std::string shown = p.lesson + "#" + std::to_string(step); shown != shown_step_) {
    shown_step_ = shown;
    revealed_ = false;
  }
  if (state.reveal_requested) revealed_ = true;
  state.reveal_requested = false;
  // the state the answer brings (show: lines after reveal:), once per reveal; entering the step
  // again applies the step's own state and hides the answer
  if (revealed_ || state.reveal_all) {
    if (reveal_applied_ != shown_step_) {
      reveal_applied_ = shown_step_;
      lessons::apply_reveal_state(steps[static_cast<std::size_t>(step - 1)], state.params);
    }
  } else {
    reveal_applied_.clear();
  }

  // layout: the room above the navigation, and the shrink factor for this step in it
  const float content_h = std::max(1.0f, ImGui::GetContentRegionAvail().y - nav_h);
  const std::string layout_key = p.lesson + "#" + std::to_string(step) + "#" +
                                 std::to_string(std::lround(content_h)) + "x" +
                                 std::to_string(std::lround(ImGui::GetContentRegionAvail().x)) +
                                 "@" + std::to_string(std::lround(100.0f * s));
  const float fit = shrink_.factor_for(layout_key, p.presentation ? kMinFit : kMinFitWindow);

  // paint: the step in a child window at the shrink factor, measured as it is laid out
  ViewEnv fitted = env;
  fitted.scale = s * fit;
  // At a factor measured to fit, no scroll bar: ImGui decides it from the last frame's height,
  // which may be a larger factor the search tried and found too tall, and on a projector a bar
  // beside a step that fits looks as if something were cut off. A step that does not fit even
  // at kMinFit keeps its bar.
  const bool known_to_fit =
      fit <= shrink_.fits && (shrink_.fits > shrink_.least || shrink_.overflow <= 1.0f);
  ImGui::BeginChild("step", ImVec2(0, content_h), false,
                    known_to_fit ? ImGuiWindowFlags_NoScrollbar : ImGuiWindowFlags_None);
  ImGui::SetWindowFontScale(fit);
  draw_step(Pass{fitted, pal, f, values, revealed_ || state.reveal_all},
            steps[static_cast<std::size_t>(step - 1)]);
  const float drawn_h = ImGui::GetCursorPosY();  // the content's height, scrolled or not
  ImGui::SetWindowFontScale(1.0f);
  ImGui::EndChild();
  shrink_.measured(drawn_h, content_h);
  if (navigation) draw_navigation(state, env, library);

  if (!env.math) own_math_.end_frame(env.has_gl);
}

void DerivationView::DrawBlocks(const Params& params, const ViewEnv& env,
                                std::span<const lessons::Block> blocks, float width,
                                ImFont* prose_font, float equation_px) {
  results_ = Results{};
  math_ = env.math ? env.math : &own_math_;
  min_script_px_ = kMinScriptPx * env.scale;
  if (!env.math) own_math_.begin_frame();
  const Palette& pal = palette(params.theme);
  const lessons::QuantityContext& values = values_.get(inputs_of(params), [this](const Inputs& in) {
    return lessons::QuantityContext(in.params, memo_);
  });
  const Pass pass{env, pal, *env.fonts, values, true};
  const float s = env.scale;
  int eq = 0;
  for (const lessons::Block& b : blocks) {
    if (b.kind == lessons::Block::Kind::equation) {
      const std::string id = "##blockeq" + std::to_string(eq++);
      const float px = (equation_px > 0.0f ? equation_px : kEquationPx) * s;
      draw_formula(pass, b.text, px, pal.text, width, true, id.c_str(), TextKind::equation);
    } else {
      ImGui::PushFont(prose_font ? prose_font : env.fonts->large);
      if (b.kind == lessons::Block::Kind::question) ImGui::PushStyleColor(ImGuiCol_Text, pal.key);
      draw_prose(pass, b, width);
      if (b.kind == lessons::Block::Kind::question) ImGui::PopStyleColor();
      ImGui::PopFont();
    }
    ImGui::Dummy(ImVec2(0, 6.0f * s));
  }
  if (!env.math) own_math_.end_frame(env.has_gl);
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
      const std::string label = (l.title.empty() ? l.id : l.title) + (all[i].own ? " (yours)" : "");
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
  results_.panel_min_x = ImGui::GetCursorScreenPos().x;
  results_.panel_max_x = results_.panel_min_x + width;

  ImGui::PushFont(f.title);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(step.title.c_str());
  record_text(TextKind::title, step.title);
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  // The prose holds only at the values the step assumes (a model's facts, a documented case):
  // once the lecturer has changed one, the slide says so rather than contradict the equations.
  if (const auto changed = lessons::assumption_changes(step, pass.values.params());
      !changed.empty()) {
    std::string line = "This step assumes ";
    for (std::size_t i = 0; i < changed.size(); ++i) {
      const auto& c = changed[i];
      line += (i > 0 ? ", " : "") + assumed_name(c.key) + assumed_value(c.assumed) + " (now " +
              assumed_value(c.now) + ")";
    }
    line += ".";
    ImGui::PushFont(f.large);
    ImGui::PushStyleColor(ImGuiCol_Text, pass.pal.bad);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(line.c_str());
    record_text(TextKind::title, line);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
    results_.assumption = line;
  }
  ImGui::Dummy(ImVec2(0, 6.0f * s));

  const bool hiding = step.hides() && !pass.revealed;
  int eq = 0;
  for (std::size_t i = 0; i < step.blocks.size(); ++i) {
    const lessons::Block& b = step.blocks[i];
    if (hiding && static_cast<int>(i) >= step.reveal_block) break;
    if (b.kind == lessons::Block::Kind::question) {
      // the question to the class: in the key colour, behind a bar
      ImGui::PushFont(f.large);
      ImGui::PushStyleColor(ImGuiCol_Text, pass.pal.key);
      const float bar = std::round(6.0f * s), indent = bar + std::round(10.0f * s);
      const ImVec2 top = ImGui::GetCursorScreenPos();
      ImGui::Indent(indent);
      draw_prose(pass, b, width - indent);
      ImGui::Unindent(indent);
      ImGui::GetWindowDrawList()->AddRectFilled(
          top, ImVec2(top.x + bar, ImGui::GetCursorScreenPos().y - ImGui::GetStyle().ItemSpacing.y),
          pass.pal.key);
      ImGui::PopStyleColor();
      ImGui::PopFont();
      ImGui::Dummy(ImVec2(0, 8.0f * s));
    } else if (b.kind == lessons::Block::Kind::prose) {
      ImGui::PushFont(f.large);
      draw_prose(pass, b, width);
      ImGui::PopFont();
      ImGui::Dummy(ImVec2(0, 8.0f * s));
    } else {
      ImGui::Dummy(ImVec2(0, 4.0f * s));
      const std::string id = "##eq" + std::to_string(eq++);
      draw_formula(pass, b.text, kEquationPx * s, pass.pal.text, width, true, id.c_str(),
                   TextKind::equation);
      ImGui::Dummy(ImVec2(0, 12.0f * s));
    }
  }
  const std::size_t checks =
      hiding ? static_cast<std::size_t>(step.reveal_check) : step.checks.size();
  if (hiding) {
    // what the class is to predict: a button where the answer will be
    results_.hiding = true;
    ImGui::PushFont(f.large);
    ImGui::PushStyleColor(ImGuiCol_Button, with_alpha(pass.pal.key, 0.18f));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, with_alpha(pass.pal.key, 0.30f));
    if (ImGui::Button("Press V to reveal the answer##reveal",
                      ImVec2(width, std::round(2.5f * ImGui::GetFontSize()))))
      revealed_ = true;
    record_text(TextKind::prose, "Press V to reveal the answer");
    ImGui::PopStyleColor(2);
    ImGui::PopFont();
    ImGui::Dummy(ImVec2(0, 8.0f * s));
  }
  if (checks > 0) draw_checks(pass, step, checks);
}

// The check panel: each check's two sides typeset with their values, and a mark.
void DerivationView::draw_checks(const Pass& pass, const lessons::Step& step, std::size_t count) {
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
  // the heading font (26 px), not the UI's bold (19 px): shrunk with the step to 70 % on a
  // 1280 x 720 screen, 19 px would leave letters of 11 px
  ImGui::PushFont(f.heading);
  ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
  ImGui::TextUnformatted("Check with the current values");
  record_text(TextKind::check, "Check with the current values");
  ImGui::PopStyleColor();
  ImGui::PopFont();

  const float mark_w = 44.0f * s;
  const float inner_w = box_w - 2.0f * pad - mark_w;
  int i = 0;
  for (const lessons::Check& c :
       std::span(step.checks).first(std::min(count, step.checks.size()))) {
    const lessons::CheckOutcome o = lessons::run_check(pass.values, c.left, c.right, c.relation);
    results_.checks.push_back(o);
    const float y0 = ImGui::GetCursorScreenPos().y;
    if (!o.computed) {
      ImGui::PushFont(f.large);
      ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + inner_w);
      ImGui::TextUnformatted(("cannot compute: " + o.error).c_str());
      record_text(TextKind::check, "cannot compute: " + o.error);
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
      ImGui::PopFont();
    } else {
      // A side that is a number written in the lesson shows only that number ("r = 0.075 ≤
      // 1"), "expected 1" beside an equality; any other side its label and value.
      const bool equal = c.relation == lessons::Relation::equal;
      // a side as its label ("q e^{imθ} =") and its value ("{{name}}"): stacked, a side too
      // wide for the box puts its value under its label rather than shrinking it past reading
      // (review D20 of the last round: 6-2's vector was set small and then cut off at 720p)
      struct Side {
        std::string label, value;
        std::string whole() const { return label + value; }
      };
      const auto side = [&](const std::string& name) {
        if (name.starts_with("number."))
          return Side{equal ? "\\text{expected}\\ " : "", "{{" + name + "}}"};
        return Side{lessons::quantity_label(name) + " = ", "{{" + name + "}}"};
      };
      const Side left_side = side(c.left);
      Side right_side = side(c.right);
      if (!equal) right_side.label = "\\le\\ " + right_side.label;
      const std::string left = left_side.whole();
      const std::string right = right_side.whole();
      const std::string id = "##check" + std::to_string(i);
      const ImVec2 at(ImGui::GetCursorScreenPos().x + mark_w, ImGui::GetCursorScreenPos().y);
      // One row when both sides fit it ("a = 1,  b = 1" or "a = 32  ≤ b = 36.7"), baselines
      // aligned; else the right side under the left. Five checks stacked took 40 % of a
      // 1280 x 720 presentation panel and pushed the last ones below a scroll bar.
      const float px = kCheckPx * s, gap = 0.9f * px;
      const std::string left_row = left + (c.relation == lessons::Relation::equal ? "," : "");
      // sizes copied out: typeset_tex may empty its cache when full, which frees earlier entries
      struct Extent {
        float w = 0, h = 0, d = 0;  // px: width, height above and depth below the baseline
      };
      const auto extent = [&](const std::string& tex, ImU32 colour) {
        const typeset::DisplayList& l = typeset_tex(tex, pass.values, px, colour).list;
        return Extent{l.width, l.height, l.depth};
      };
      const Extent el = math_->font() ? extent(left_row, pal.query) : Extent{};
      const Extent er = math_->font() ? extent(right, pal.key) : Extent{};
      if (math_->font() && el.w + gap + er.w <= inner_w) {
        const float above = std::max(el.h, er.h);
        const float below = std::max(el.d, er.d);
        ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + above - el.h));
        draw_formula(pass, left_row, px, pal.query, el.w, false, (id + "l").c_str(),
                     TextKind::check);
        ImGui::SetCursorScreenPos(ImVec2(at.x + el.w + gap, at.y + above - er.h));
        draw_formula(pass, right, px, pal.key, er.w, false, (id + "r").c_str(), TextKind::check);
        ImGui::SetCursorScreenPos(ImVec2(at.x - mark_w, at.y + std::ceil(above + below)));
        ImGui::Dummy(ImVec2(0, 0));
      } else {
        // one side per line; a side wider than the box, its value on a line of its own
        const auto draw_side = [&](const Side& sd, float width, ImU32 colour,
                                   const std::string& sid) {
          if (sd.label.empty() || !math_->font() || extent(sd.whole(), colour).w <= width) {
            draw_formula(pass, sd.whole(), px, colour, width, false, sid.c_str(), TextKind::check);
            return;
          }
          draw_formula(pass, sd.label, px, colour, width, false, (sid + "a").c_str(),
                       TextKind::check);
          ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x + mark_w,
                                           ImGui::GetCursorScreenPos().y + 1.0f * s));
          draw_formula(pass, "\\quad " + sd.value, px, colour, width, false, (sid + "b").c_str(),
                       TextKind::check);
        };
        ImGui::SetCursorScreenPos(at);
        draw_side(left_side, inner_w, pal.query, id + "l");
        ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x + mark_w,
                                         ImGui::GetCursorScreenPos().y + 2.0f * s));
        draw_side(right_side, inner_w, pal.key, id + "r");
      }
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
    return std::to_string(i + 1) + ". " + (l.title.empty() ? l.id : l.title) +
           (all[i].own ? " (yours)" : "");
  };
  const std::string preview =
      current >= 0 ? title_of(static_cast<std::size_t>(current)) : std::string("(none)");
  if (ImGui::BeginCombo("##lesson", preview.c_str())) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      const bool selected = static_cast<int>(i) == current;
      if (!all[i].problems.empty()) ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
      if (ImGui::Selectable((title_of(i) + "##" + all[i].lesson.id).c_str(), selected))
        library.go_to(p, static_cast<int>(i), 1);
      if (!all[i].problems.empty()) {
        ImGui::PopStyleColor();
        // a broken lesson stays in the list, with what is wrong with it first
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s", all[i].problems.front().to_string().c_str());
      }
    }
    ImGui::EndCombo();
  }
  if (current >= 0 && all[static_cast<std::size_t>(current)].own) {
    const lessons::LoadedLesson& l = all[static_cast<std::size_t>(current)];
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s %s", l.replaces ? "Yours, in place of the shipped lesson:" : "Yours:",
                        l.lesson.file.c_str());
    ImGui::PopTextWrapPos();
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
  // q and k here too: a step's prose may ask for another vector (lesson 14: all ones)
  ImGui::Spacing();
  ImGui::TextUnformatted("Query q");
  vector_editor("query", p.query, false, p);
  ImGui::TextUnformatted("Key k");
  vector_editor("key", p.key, true, p);
}

}  // namespace rope::app
