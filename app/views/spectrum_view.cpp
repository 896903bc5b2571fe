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
  const plot::Style st = plot::style(env, p.theme);
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

  const CanvasArea area = begin_canvas("spectrum_canvas");
  ImDrawList* dl = area.draw_list;
  const ImVec2 origin = area.origin;
  const ImVec2 size = area.size;
  const bool hovered = area.hovered;
  const ImVec2 mouse = area.mouse;

  // [SECTION] header
  const float pad = std::round(18.0f * s);
  float y = origin.y + pad;
  dl->AddText(f.title, f.title->FontSize, ImVec2(origin.x + pad, y), pal.text,
              "Frequencies and wavelengths of the blocks");
  y += f.title->FontSize + 2 * s;
  const int half = static_cast<int>(thetas.size());
  const std::string l1 = "θᵢ = base^(−2i/d),  wavelength λᵢ = 2π/θᵢ positions per turn;   d = " +
                         std::to_string(p.dim) + " (" + std::to_string(half) + " blocks),  base " +
                         plot::tick_label(p.base, false);
  dl->AddText(f.large, f.large->FontSize, ImVec2(origin.x + pad, y), pal.text, l1.c_str());
  y += f.large->FontSize + 2 * s;
  const std::string l2 =
      "context length " + plot::tick_label(ctx, false) + ":  " + std::to_string(incomplete) +
      " of " + std::to_string(half) + (incomplete == 1 ? " block does" : " blocks do") +
      " not complete one turn within it" +
      (first_incomplete >= 0 ? " (i ≥ " + std::to_string(first_incomplete) + ", hollow marks)"
                             : "");
  dl->AddText(f.large, f.large->FontSize, ImVec2(origin.x + pad, y), pal.accent, l2.c_str());
  y += f.large->FontSize + 10 * s;
  if (half == 0 || size.y - (y - origin.y) < 120 * s) {
    dl->PopClipRect();
    return;
  }

  // [SECTION] two panels: theta_i (top), wavelength with the context line (bottom); a note on
  // the right
  const float note_w = std::min(std::round(400.0f * s), 0.3f * size.x);
  const float plot_x1 = origin.x + size.x - pad - note_w - pad;
  const float bottom = origin.y + size.y - pad;
  const float mid = std::round(y + 0.45f * (bottom - y));
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
  plot::Axis ay2;
  ay2.lo = 1.0;
  ay2.hi = std::pow(10.0, std::ceil(std::log10(lmax * 1.5)));
  ay2.log = true;
  ay2.label = "λᵢ (positions)";
  plot::Axis ax_top = ax;
  ax_top.label.clear();
  // align the two data areas: the same left margin for both
  const plot::Margins m1 = plot::margins(st, ax_top, ay1);
  const plot::Margins m2 = plot::margins(st, ax, ay2);
  const float left = std::max(m1.left, m2.left);
  const plot::Frame top = plot::axes(dl, st, ImVec2(origin.x + pad + left - m1.left, y),
                                     ImVec2(plot_x1, mid), ax_top, ay1);
  const plot::Frame bot = plot::axes(dl, st, ImVec2(origin.x + pad + left - m2.left, mid + 8 * s),
                                     ImVec2(plot_x1, bottom), ax, ay2);

  const float thick = std::max(1.0f, std::round(2.0f * s));
  const bool dots = half <= 256;
  const float r = std::clamp(0.3f * (top.area_max.x - top.area_min.x) / static_cast<float>(half),
                             2.0f * s, 6.0f * s);
  if (!dots) {
    plot::line(dl, top, index, thetas, pal.query, thick);
    plot::line(dl, bot, index, wavelengths, pal.key, thick);
  }
  plot::hline(dl, bot, ctx, pal.accent, std::max(1.0f, std::round(2.0f * s)), true);
  plot::label_box(dl, st, f.body,
                  ImVec2(bot.area_min.x + 8 * s, bot.y.to_px(ctx) - f.body->FontSize - 8 * s),
                  pal.accent, "context length " + plot::tick_label(ctx, false));
  if (first_incomplete >= 0) {
    // a boundary, not a shaded area: blended fills are what a software rasteriser pays for
    for (const plot::Frame* fr : {&top, &bot})
      plot::vline(dl, *fr, first_incomplete - 0.5, pal.accent, thick, true);
    plot::label_box(
        dl, st, f.body,
        ImVec2(std::min(top.x.to_px(first_incomplete - 0.5) + 8 * s, top.area_max.x - 200 * s),
               top.area_min.y + 6 * s),
        pal.accent, "less than one turn →");
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
  {
    float ny = top.area_min.y;
    const float nx = plot_x1 + pad;
    const float wrap = note_w;
    const auto para = [&](ImFont* font, ImU32 col, const char* text) {
      dl->AddText(font, font->FontSize, ImVec2(nx, ny), col, text, nullptr, wrap);
      ny += font->CalcTextSizeA(font->FontSize, 1e9f, wrap, text).y + 10 * s;
    };
    para(f.bold, pal.text, "Fast blocks (small i, high θ)");
    para(f.body, pal.text_dim,
         "turn many times within the context. Their angles change a lot from one position to the "
         "next, so they separate nearby positions: local word order.");
    para(f.bold, pal.text, "Slow blocks (large i, low θ)");
    para(f.body, pal.text_dim,
         "turn less than once within the context (hollow marks, right of the dashed line). Their "
         "angle hardly "
         "changes between neighbours; they change slowly over long distances and can carry "
         "content that should not depend on position. These are the blocks that context-"
         "extension methods (position interpolation, NTK, YaRN) treat differently.");
    para(f.body, pal.text_dim,
         "A larger base (e.g. 500 000 in Llama 3) stretches every wavelength: more blocks stay "
         "below one turn.");
  }

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
