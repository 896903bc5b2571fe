#include "views/spectrum_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rope/frequencies.h"
#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/theme.h"

namespace rope::app {

void SpectrumView::update(const Params& p) {
  if (p.dim == cached_dim && p.base == cached_base) return;
  auto th = frequencies(p.dim, p.base);
  if (!th) return;
  cached_dim = p.dim;
  cached_base = p.base;
  thetas = std::move(th).value();
  wavelengths.resize(thetas.size());
  index.resize(thetas.size());
  for (std::size_t i = 0; i < thetas.size(); ++i) {
    wavelengths[i] = wavelength(thetas[i]);
    index[i] = static_cast<double>(i);
  }
}

void SpectrumView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  update(p);
  const Palette& pal = palette(p.theme);
  const plot::Style st = plot::style(env, p.theme, &drawn);
  const float s = env.scale;
  const Fonts& f = *env.fonts;
  const auto ctx = static_cast<double>(p.context_length);
  incomplete = 0;
  first_incomplete = -1;
  for (std::size_t i = 0; i < wavelengths.size(); ++i)
    if (wavelengths[i] > ctx) {
      if (first_incomplete < 0) first_incomplete = static_cast<int>(i);
      ++incomplete;
    }

  const CanvasArea area = begin_canvas("spectrum_canvas", &drawn);
  ImDrawList* dl = area.draw_list;
  const Pen& pen = area.pen;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] layout. The header, the two plots, and a note on what fast and slow blocks do:
  // right of the plots when the canvas is wide, else under them, else (short canvases) left out
  // with a smaller header. The first arrangement that leaves the plots enough room wins.
  const float pad = std::round(18.0f * s);
  const float x0 = origin.x + pad;
  const float width = std::max(1.0f, size.x - 2 * pad);
  const float bottom = origin.y + size.y - pad;
  const int half = static_cast<int>(thetas.size());
  const std::string title = "Frequencies and wavelengths of the blocks";
  const std::string l1 = nobreak("θᵢ = base^(−2i/d),") + "  " + "wavelength " +
                         nobreak("λᵢ = 2π/θᵢ") + " positions per turn;   " +
                         nobreak("d = " + std::to_string(p.dim)) + " " +
                         nobreak("(" + std::to_string(half) + " blocks),") + "  " +
                         nobreak("base " + plot::tick_label(p.base, false));
  const std::string l1_short = nobreak("d = " + std::to_string(p.dim)) + " " +
                               nobreak("(" + std::to_string(half) + " blocks),") + "  " +
                               nobreak("base " + plot::tick_label(p.base, false));
  const std::string l2 =
      "context length " + nobreak(plot::tick_label(ctx, false) + ":") + "  " +
      nobreak(std::to_string(incomplete) + " of " + std::to_string(half)) +
      (incomplete == 1 ? " block does" : " blocks do") + " not complete one turn within it" +
      (first_incomplete >= 0
           ? " " + nobreak("(i ≥ " + std::to_string(first_incomplete) + ",") + " hollow marks)"
           : "");
  struct Para {
    bool heading;
    const char* text;
  };
  const Para notes[] = {
      {true, "Fast blocks (small i, high θ)"},
      {false,
       "turn many times within the context. Their angles change a lot from one position to the "
       "next, so they separate nearby positions: local word order."},
      {true, "Slow blocks (large i, low θ)"},
      {false,
       "turn less than once within the context (hollow marks, right of the dashed line). Their "
       "angle hardly changes between neighbours; they change slowly over long distances and can "
       "carry content that should not depend on position. These are the blocks that context-"
       "extension methods (position interpolation, NTK, YaRN) treat differently."},
      {false,
       "A larger base (e.g. 500 000 in Llama 3) stretches every wavelength: more blocks stay "
       "below one turn."}};
  // the note in a column `w` wide from (nx, ny); returns its height (measures without a draw
  // list)
  const auto draw_note = [&](const Pen& pn, float nx, float ny, float w) {
    const float y0 = ny;
    for (const Para& para : notes)
      ny += pn.wrapped(para.heading ? f.bold : f.body, ImVec2(nx, ny), w,
                       para.heading ? pal.text : pal.text_dim, para.text) +
            (para.heading ? 4 * s : 10 * s);
    return ny - y0;
  };
  const auto header = [&](const Pen& pn, bool compact) {
    float y = origin.y + pad;
    y += pn.wrapped(fit_font({compact ? f.large : f.title, f.large}, title, width, 2),
                    ImVec2(x0, y), width, pal.text, title) +
         2 * s;
    y += pn.wrapped(compact ? f.body : f.large, ImVec2(x0, y), width, pal.text,
                    compact ? l1_short : l1) +
         2 * s;
    y += pn.wrapped(compact ? f.body : f.large, ImVec2(x0, y), width, pal.accent, l2);
    return y + 10 * s;
  };
  enum class NotePlace { right, below, none };
  NotePlace place = NotePlace::none;
  bool compact = true;
  float note_w = 0.0f;
  {
    const float min_plots_h = 380.0f * s;
    const float right_w = std::min(std::round(400.0f * s), 0.3f * size.x);
    const float top = header(Pen{}, false);
    if (right_w >= 220.0f * s && width - right_w - pad >= 380.0f * s &&
        draw_note(Pen{}, 0, 0, right_w) <= bottom - top) {
      place = NotePlace::right;
      compact = false;
      note_w = right_w;
    } else if (bottom - top - draw_note(Pen{}, 0, 0, width) - 10 * s >= min_plots_h) {
      place = NotePlace::below;
      compact = false;
      note_w = width;
    } else if (bottom - top >= min_plots_h) {
      compact = false;
    }
  }
  float y = header(pen, compact);
  if (half == 0 || bottom - y < 120 * s) {
    dl->PopClipRect();
    return;
  }
  const float note_h = place == NotePlace::below ? draw_note(Pen{}, 0, 0, width) + 10 * s : 0.0f;

  // [SECTION] two panels: theta_i (top), wavelength with the context line (bottom)
  const float plot_x1 =
      place == NotePlace::right ? origin.x + size.x - pad - note_w - pad : origin.x + size.x - pad;
  const float plots_bottom = bottom - note_h;
  const float mid = std::round(y + 0.45f * (plots_bottom - y));
  const double last = std::max(1.0, static_cast<double>(half - 1));
  plot::Axis ax;
  ax.lo = -0.5;
  ax.hi = last + 0.5;
  ax.label = "block i";
  ax.ticks = 8;
  const double tmin = thetas.back();
  const double lmax = std::max(wavelengths.back(), ctx);
  plot::Axis ay1;
  ay1.lo = std::pow(10.0, std::floor(std::log10(tmin)));
  ay1.hi = 2.0;
  ay1.log = true;
  ay1.label = "θᵢ (rad/position)";
  ay1.short_label = "θᵢ";
  plot::Axis ay2;
  ay2.lo = 1.0;
  ay2.hi = std::pow(10.0, std::ceil(std::log10(lmax * 1.5)));
  ay2.log = true;
  ay2.label = "λᵢ (positions)";
  ay2.short_label = "λᵢ";
  plot::Axis ax_top = ax;
  ax_top.label.clear();
  // align the two data areas: the same left margin for both
  const plot::Margins m1 = plot::margins(st, ax_top, ay1);
  const plot::Margins m2 = plot::margins(st, ax, ay2);
  const float left = std::max(m1.left, m2.left);
  const plot::Frame top =
      plot::axes(dl, st, ImVec2(x0 + left - m1.left, y), ImVec2(plot_x1, mid), ax_top, ay1);
  const plot::Frame bot = plot::axes(dl, st, ImVec2(x0 + left - m2.left, mid + 8 * s),
                                     ImVec2(plot_x1, plots_bottom), ax, ay2);

  const float thick = std::max(1.0f, std::round(2.0f * s));
  const bool dots = half <= 256;
  const float r = std::clamp(0.3f * (top.area_max.x - top.area_min.x) / static_cast<float>(half),
                             2.0f * s, 6.0f * s);
  if (!dots) {
    plot::line(dl, top, index, thetas, pal.query, thick);
    plot::line(dl, bot, index, wavelengths, pal.key, thick);
  }
  const ImVec2 lp = plot::label_box_padding(st);
  plot::hline(dl, bot, ctx, pal.accent, std::max(1.0f, std::round(2.0f * s)), true);
  plot::label_box(dl, st, f.body,
                  ImVec2(bot.area_min.x + 8 * s, bot.y.to_px(ctx) - f.body->FontSize - 8 * s),
                  pal.accent, "context length " + plot::tick_label(ctx, false));
  if (first_incomplete >= 0) {
    // a boundary, not a shaded area: blended fills are what a software rasteriser pays for
    for (const plot::Frame* fr : {&top, &bot})
      plot::vline(dl, *fr, first_incomplete - 0.5, pal.accent, thick, true);
    // right of the boundary, else left of it, inside the plot
    const std::string label = "less than one turn →";
    const float w = text_size(f.body, label).x;
    const float bx = top.x.to_px(first_incomplete - 0.5);
    const float lx = bx + 8 * s + w + lp.x <= top.area_max.x
                         ? bx + 8 * s
                         : std::max(top.area_min.x + lp.x, bx - 8 * s - w);
    plot::label_box(dl, st, f.body, ImVec2(lx, top.area_min.y + 6 * s), pal.accent, label);
  }
  if (dots) {
    for (int i = 0; i < half; ++i) {
      const auto u = static_cast<std::size_t>(i);
      const bool inc = wavelengths[u] > ctx;
      const ImU32 c = frequency_colour(i, half, p.theme);
      plot::marker(dl, top, index[u], thetas[u], c, r, !inc);
      plot::marker(dl, bot, index[u], wavelengths[u], c, r, !inc);
    }
  }

  // [SECTION] note on the roles of high and low frequencies
  if (place == NotePlace::right) draw_note(pen, plot_x1 + pad, top.area_min.y, note_w);
  if (place == NotePlace::below) draw_note(pen, x0, plots_bottom + 10 * s, width);

  // [SECTION] hover: the block under the mouse
  const plot::Frame* hf = top.contains(mouse) ? &top : (bot.contains(mouse) ? &bot : nullptr);
  if (hovered && hf) {
    const double iv = std::round(hf->x.from_px(mouse.x));
    if (iv >= 0.0 && iv < half) {
      const auto u = static_cast<std::size_t>(iv);
      plot::vline(dl, *hf, iv, pal.text, std::max(1.0f, std::round(s)));
      ImGui::BeginTooltip();
      ImGui::Text("block i = %d", static_cast<int>(u));
      ImGui::Text("θᵢ = %.17g rad per position", thetas[u]);
      ImGui::Text("λᵢ = 2π/θᵢ = %.17g positions", wavelengths[u]);
      ImGui::Text("turns within the context: %.6g", ctx / wavelengths[u]);
      ImGui::EndTooltip();
    }
  }
  dl->PopClipRect();
}

void SpectrumView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  int c = p.context_length;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##context", &c, 16, 10000000, "context length %d",
                       ImGuiSliderFlags_Logarithmic))
    p.context_length = std::clamp(c, 1, 10000000);
  for (int preset : {2048, 4096, 8192, 131072}) {
    if (preset != 2048) ImGui::SameLine();
    const std::string label = std::to_string(preset);
    if (ImGui::Button(label.c_str())) p.context_length = preset;
  }
}

}  // namespace rope::app
