// views/spectrum_view.cpp — the frequency spectrum θᵢ and λᵢ on log axes (spectrum_view.h).
//
// [SECTION] helpers: the note on fast and slow blocks, the header, the two axes
// [SECTION] the Layout record; inputs and compute: θ, λ, θ′ and both partial meanings
// [SECTION] paint, partial rotary: one curve per meaning of the fraction
// [SECTION] layout: where the note goes, the compact header
// [SECTION] paint: header, the θ and λ plots, the context line, the note
// [SECTION] hover: the block under the mouse
// [SECTION] Draw and the control panel's part
#include "views/spectrum_view.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "imgui.h"
#include "rope/frequencies.h"
#include "rope/partial_rotary.h"
#include "ui/page.h"
#include "ui/param_widgets.h"
#include "ui/theme.h"
#include "views/view_scaling.h"

namespace rope::app {
namespace {

// [SECTION] helpers: the note on fast and slow blocks, the header, the two axes

// Where the note on fast and slow blocks goes, fullest first: right of the plots, under them,
// left out, left out with a compact header (what first_fitting chooses from).
enum class NotePlace { right, below, none, none_compact };
constexpr int kPlaces = 4;

struct Para {
  bool heading;
  const char* text;
};
constexpr Para kNote[] = {
    {true, "Fast blocks (small i, high θ)"},
    {false,
     "turn many times within the context. Their angles change a lot from one position to the "
     "next, so they separate nearby positions: local word order."},
    {true, "Slow blocks (large i, low θ)"},
    {false,
     "turn less than once within the context (hollow marks, right of the dashed line). Their "
     "angle hardly changes between neighbours; they change slowly over long distances and can "
     "carry content that should not depend on position. Position interpolation divides every θ "
     "by s alike; NTK-aware scaling, YaRN and Llama 3.1 keep the fast blocks (nearly) as they "
     "are and slow down mainly these."},
    {false,
     "A larger base (e.g. 500 000 in Llama 3) stretches every wavelength: more blocks stay below "
     "one turn."}};

// The note in a column `w` wide from (x, y); returns its height. A Pen{} only measures.
float note(const Pen& pen, const Page& pg, float x, float y, float w) {
  const float y0 = y;
  for (const Para& para : kNote)
    y += pen.wrapped(para.heading ? pg.f.bold : pg.f.body, ImVec2(x, y), w,
                     para.heading ? pg.pal.text : pg.pal.text_dim, para.text) +
         (para.heading ? 4 * pg.s : 10 * pg.s);
  return y - y0;
}

// The header's lines: the title, the formula with d and base (compact: d and base only), and
// how many blocks do not complete a turn within the context.
struct Header {
  std::string title = "Frequencies and wavelengths of the blocks";
  std::string formula, d_base, context;
  std::string partial;  // rotary fraction < 1: both meanings in words (empty otherwise)
  std::string scaling;  // with a scaling on: the method, and what the lines show
};

// `rotating`: the pairs that turn under a rotary fraction below 1 (the count is of those, and
// their marks are all filled: the boundary is the dashed line), or -1 for the whole head.
Header header_text(const Params& p, int half, int incomplete, int first_incomplete, int rotating) {
  Header h;
  h.d_base = nobreak("d = " + std::to_string(p.dim)) + " " +
             nobreak("(" + std::to_string(half) + (half == 1 ? " block)," : " blocks),")) + "  " +
             nobreak("base " + format_number(p.base, NumberStyle::tick));
  h.formula =
      "$\\theta_i = \\mathrm{base}^{-2i/d}$,  wavelength $\\lambda_i = 2\\pi/\\theta_i$"
      " positions per turn;   " +
      h.d_base;
  h.context =
      "context length " +
      nobreak(format_number(static_cast<double>(p.context_length), NumberStyle::tick) + ":") +
      "  " +
      nobreak(std::to_string(incomplete) + " of " +
              (rotating >= 0 ? "the " + std::to_string(rotating) + " rotating"
                             : std::to_string(half))) +
      (incomplete == 1 ? " block does" : " blocks do") + " not complete one turn within it" +
      (first_incomplete >= 0 ? " " + nobreak("(i ≥ " + std::to_string(first_incomplete) + ",") +
                                   (rotating >= 0 ? " right of the dashed line)" : " hollow marks)")
                             : "");
  return h;
}

// The header from the top of the canvas; returns the y under it. A measuring() pen only
// measures.
float header(const Pen& pen, const Page& pg, const Header& h, bool compact) {
  float y = pg.y0;
  const Fonts& f = pg.f;
  ImFont* font = compact ? f.body : f.large;
  y += pen.wrapped(fit_font({compact ? f.heading : f.title, f.heading}, h.title, pg.width, 2),
                   ImVec2(pg.x0, y), pg.width, pg.pal.text, h.title) +
       2 * pg.s;
  y += pen.rich_wrapped(font, ImVec2(pg.x0, y), pg.width, pg.pal.text,
                        compact ? h.d_base : h.formula) +
       2 * pg.s;
  y += pen.wrapped(font, ImVec2(pg.x0, y), pg.width, pg.pal.accent, h.context);
  if (!h.partial.empty())
    y += 2 * pg.s + pen.wrapped(pg.f.body, ImVec2(pg.x0, y), pg.width, pg.pal.text, h.partial);
  if (!h.scaling.empty())
    y += 2 * pg.s + pen.wrapped(f.bold, ImVec2(pg.x0, y), pg.width, pg.pal.text, h.scaling);
  return y + 10 * pg.s;
}

// The axes of the two plots, the left margins equal so that their data areas align: theta_i
// over [last theta's decade, 2] (top), wavelengths over [1, a decade above 1.5 x the larger of
// the longest wavelength and the context] (bottom), both logarithmic.
std::array<plot::Frame, 2> axes(ImDrawList* dl, const Page& pg, ImVec2 from, ImVec2 to, float mid,
                                double tmin, double lmax, int half) {
  plot::Axis ax;
  ax.lo = -0.5;
  ax.hi = std::max(1.0, static_cast<double>(half - 1)) + 0.5;
  ax.label = "block i";
  ax.ticks = 8;
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
  const plot::Margins m1 = plot::margins(pg.st, ax_top, ay1);
  const plot::Margins m2 = plot::margins(pg.st, ax, ay2);
  const float left = std::max(m1.left, m2.left);
  return {plot::axes(dl, pg.st, ImVec2(from.x + left - m1.left, from.y), ImVec2(to.x, mid), ax_top,
                     ay1),
          plot::axes(dl, pg.st, ImVec2(from.x + left - m2.left, mid + 8 * pg.s), to, ax, ay2)};
}

// The dashed line at the first block slower than the context, on both plots, and its label at
// the top plot's top: right of the line, else left of it.
void mark_boundary(ImDrawList* dl, const Page& pg, const std::array<plot::Frame, 2>& frames,
                   int first_incomplete) {
  const float s = pg.s;
  const float thick = std::max(1.0f, std::round(2.0f * s));
  // a boundary, not a shaded area: blended fills are what a software rasteriser pays for
  for (const plot::Frame& fr : frames)
    plot::vline(dl, fr, first_incomplete - 0.5, pg.pal.accent, thick, true);
  const plot::Frame& top = frames[0];
  const ImVec2 lp = plot::label_box_padding(pg.st);
  const std::string label = "less than one turn →";
  const float w = text_size(pg.f.body, label).x;
  const float bx = top.x.to_px(first_incomplete - 0.5);
  const float lx = bx + 8 * s + w + lp.x <= top.area_max.x
                       ? bx + 8 * s
                       : std::max(top.area_min.x + lp.x, bx - 8 * s - w);
  plot::label_box(dl, pg.st, pg.f.body, ImVec2(lx, top.area_min.y + 6 * s), pg.pal.accent, label);
}

}  // namespace

// [SECTION] the Layout record; inputs and compute: θ, λ, θ′ and both partial meanings

// Where the parts go: the header's lines and size, the note's place, the plots' top.
struct SpectrumView::Layout : Page {
  using Page::Page;
  Header text;
  NotePlace place = NotePlace::none;
  float note_w = 0;  // the note's column, right of the plots or under them
  float note_h = 0;  // under the plots: its height and the gap above it
  float top = 0;     // under the header
};

SpectrumView::Inputs SpectrumView::inputs_of(const Params& p) {
  return {p.dim,
          p.base,
          p.context_length,
          p.extension.scaling.rotary_fraction,
          p.extension.rotary_style,
          view_scaling(p)};
}

namespace {

// θ per pair under `style` at fraction p, or empty when p leaves nothing to rotate.
std::vector<double> meaning(int dim, double base, double p, RotaryStyle style, int& pairs) {
  auto th = partial_frequencies(dim, base, p, style);
  pairs = th ? rotated_pairs(dim, p, style) : 0;
  return th ? std::move(th).value() : std::vector<double>{};
}

}  // namespace

SpectrumView::Model SpectrumView::compute(const Inputs& in) {
  Model m;
  auto th = frequencies(in.dim, in.base);
  if (!th) return m;  // Params holds a valid d and base; nothing to plot otherwise
  m.thetas = std::move(th).value();
  for (std::size_t i = 0; i < m.thetas.size(); ++i) {
    m.index.push_back(static_cast<double>(i));
    m.wavelengths.push_back(wavelength(m.thetas[i]));
    if (m.wavelengths[i] > static_cast<double>(in.context_length)) {
      if (m.first_incomplete < 0) m.first_incomplete = static_cast<int>(i);
      ++m.incomplete;
    }
  }
  if (in.rotary_fraction < 1.0 && in.rotary_fraction > 0.0) {
    m.partial = true;
    Partial& b = m.both;
    b.fraction = in.rotary_fraction;
    // p-RoPE (method proportional) always takes p in the proportional meaning
    b.style = in.scaling.method == ScalingMethod::proportional ? RotaryStyle::proportional
                                                               : in.rotary_style;
    b.neox = meaning(in.dim, in.base, b.fraction, RotaryStyle::neox, b.neox_pairs);
    b.proportional =
        meaning(in.dim, in.base, b.fraction, RotaryStyle::proportional, b.proportional_pairs);
    // the count in the header: the pairs that rotate under the meaning in use
    const std::vector<double>& used = b.style == RotaryStyle::neox ? b.neox : b.proportional;
    m.incomplete = 0;
    m.first_incomplete = -1;
    for (std::size_t i = 0; i < used.size(); ++i)
      if (used[i] > 0.0 && wavelength(used[i]) > static_cast<double>(in.context_length)) {
        if (m.first_incomplete < 0) m.first_incomplete = static_cast<int>(i);
        ++m.incomplete;
      }
  }
  if (scaling_on(in.scaling)) {  // validated with the params; an error is shown, θ stays
    // the partial rotation first, then the method on what rotates (state/scaling_params.h)
    auto f = drawn_frequencies(in.dim, in.base,
                               drawn_extension(in.scaling, in.rotary_fraction, in.rotary_style));
    if (!f || f.value().error) {
      m.scaling_error = f ? f.value().error->to_string() : f.error().to_string();
      return m;
    }
    m.thetas_scaled = f.value().theta_drawn;
    for (std::size_t i = 0; i < m.thetas_scaled.size(); ++i)
      if (m.thetas_scaled[i] > 0.0) {  // a still pair has no place on a log axis
        m.index_scaled.push_back(static_cast<double>(i));
        m.wavelengths_scaled.push_back(wavelength(m.thetas_scaled[i]));
      }
  }
  return m;
}

// [SECTION] paint, partial rotary: one curve per meaning of the fraction

// Both meanings of the rotary fraction: one curve each over the pairs that rotate, on both
// plots, with a label at its slowest pair; the meaning in use drawn thicker. Without `compare`
// (partial_compare off) the meaning in use alone.
void SpectrumView::paint_partial(const Model& m, const Layout& lay, const Canvas& canvas,
                                 const std::array<plot::Frame, 2>& frames, double context,
                                 bool compare) {
  ImDrawList* dl = canvas.draw_list;
  const Partial& b = m.both;
  const float s = lay.s;
  struct Curve {
    const std::vector<double>* theta;
    int pairs;
    RotaryStyle style;
    ImU32 colour;
    std::array<std::string, 3> label;  // long, shorter, shortest: the legend takes what fits
  };
  const std::string p = format_number(b.fraction, NumberStyle::label, 4);
  const std::string rd = std::to_string(2 * b.neox_pairs);
  const std::string kp = std::to_string(b.proportional_pairs);
  const Curve curves[2] = {
      {&b.neox,
       b.neox_pairs,
       RotaryStyle::neox,
       lay.pal.query,
       {"neox p = " + p + ": θ over " + rd + " dims", "neox: θ over " + rd + " dims", "neox"}},
      {&b.proportional,
       b.proportional_pairs,
       RotaryStyle::proportional,
       lay.pal.key,
       {"proportional p = " + p + ": full-head θ, " + kp + " pairs", "proportional: full-head θ",
        "proportional"}}};
  const ImVec2 pad = plot::label_box_padding(lay.st);
  const float line_h = lay.f.body->FontSize + 2 * pad.y + 6 * s;
  // One legend line, right-aligned at y in frame fr: the longest of `texts` that fits (none
  // when even the shortest does not).
  const auto legend = [&](const plot::Frame& fr, float y, ImU32 colour,
                          std::initializer_list<std::string> texts) {
    const float room = fr.area_max.x - fr.area_min.x - 16 * s;
    // a short plot has the context and turn labels in the same corner: no legend there
    if (fr.area_max.y - fr.area_min.y < 8 * line_h) return;
    for (const std::string& t : texts) {
      const float w = text_size(lay.f.body, t).x + 2 * pad.x;
      if (w > room) continue;
      plot::label_box(dl, lay.st, lay.f.body, ImVec2(fr.area_max.x - 8 * s - w, y), colour, t);
      return;
    }
  };
  // the pairs past the rotating ones (in the meaning in use) pass through: a dashed line, and a
  // third line of the θ plot's legend says so
  const int pairs = b.style == RotaryStyle::neox ? b.neox_pairs : b.proportional_pairs;
  const int half = static_cast<int>(m.thetas.size());
  const bool still = pairs > 0 && pairs < half;
  // the legends stack up from each plot's bottom right (the curves start at the left, and the
  // wavelengths rise to the left half's top)
  float label_y[2] = {frames[0].area_max.y - (still ? 3.0f : 2.0f) * line_h - 4 * s,
                      frames[1].area_max.y - 2 * line_h - 4 * s};
  for (const Curve& c : curves) {
    const bool used = c.style == b.style;
    if (c.theta->empty() || c.pairs < 1 || (!used && !compare)) continue;
    const float thick = std::max(1.0f, std::round((used ? 3.0f : 1.5f) * s));
    std::vector<double> xs, th, wl;
    for (int i = 0; i < c.pairs; ++i) {
      xs.push_back(static_cast<double>(i));
      th.push_back((*c.theta)[static_cast<std::size_t>(i)]);
      wl.push_back(wavelength(th.back()));
    }
    const float r = std::max(2.0f * s, thick * 1.2f);
    const std::string mark = used ? "● " : "○ ";
    const std::string lambda = format_number(wl.back(), NumberStyle::label, 5);
    for (int k = 0; k < 2; ++k) {
      const plot::Frame& fr = frames[static_cast<std::size_t>(k)];
      const std::vector<double>& ys = k == 0 ? th : wl;
      plot::line(dl, fr, xs, ys, c.colour, thick);
      for (std::size_t i = 0; i < xs.size() && xs.size() <= 256; ++i)
        plot::marker(dl, fr, xs[i], ys[i], c.colour, r, used);
      const std::string style = rotary_style_name(c.style);
      if (k == 0)
        legend(fr, label_y[k], c.colour, {mark + c.label[0], mark + c.label[1], mark + c.label[2]});
      else
        legend(fr, label_y[k], c.colour,
               {mark + style + ": slowest λ = " + lambda + " positions",
                mark + style + ": slowest λ = " + lambda, mark + style + " " + lambda});
      label_y[k] += line_h;
    }
  }
  if (still) {
    // The still pairs have no θ on a log axis and no wavelength: their part of each plot is
    // empty, and says why in its middle (a legend line when the part is too narrow for that).
    const std::string first = "i ≥ " + std::to_string(pairs);
    const std::array<std::string, 2> words = {first + ": not rotated (θᵢ = 0)",
                                              first + ": not rotated (no turn at all)"};
    bool said = false;
    for (std::size_t k = 0; k < 2; ++k) {
      const plot::Frame& fr = frames[k];
      plot::vline(dl, fr, pairs - 0.5, lay.pal.text_dim, std::max(1.0f, std::round(s)), true);
      const float x0 = fr.x.to_px(pairs - 0.5), x1 = fr.area_max.x;
      const ImVec2 size = text_size(lay.f.body, words[k]);
      if (x1 - x0 < size.x + 2 * pad.x + 16 * s) continue;
      // the middle of the plot; in the wavelength plot, clear of the context line and its
      // label: halfway between them and the plot's farther edge
      float y = 0.5f * (fr.area_min.y + fr.area_max.y - size.y);
      if (k == 1) {
        const float line = fr.y.to_px(context);
        const float clear = size.y + 2 * pad.y + 8 * s;
        if (y + size.y + pad.y + 4 * s > line - clear && y - pad.y - 4 * s < line + 4 * s)
          y = line - fr.area_min.y > fr.area_max.y - line
                  ? 0.5f * (fr.area_min.y + line - clear - size.y)
                  : 0.5f * (line + fr.area_max.y - size.y);
      }
      plot::label_box(dl, lay.st, lay.f.body,
                      ImVec2(std::round(0.5f * (x0 + x1 - size.x) - pad.x), std::round(y)),
                      lay.pal.text_dim, words[k]);
      said = true;
    }
    if (!said)
      legend(frames[0], label_y[0], lay.pal.text_dim,
             {"dashed: " + first + " not rotated", first + ": still"});
  }
}

// [SECTION] layout: where the note goes, the compact header

const SpectrumView::Model& SpectrumView::model() const {
  return model_.model_or_empty();
}

// The first arrangement that leaves the plots 380 px (at scale 1): the note right of the plots
// (the canvas wide enough), under them, left out, then left out under a compact header.
SpectrumView::Layout SpectrumView::layout(const Model& m, const Params& p, const Canvas& canvas,
                                          const ViewEnv& env) {
  const float s = env.scale;
  Layout lay(canvas, env, p.theme);
  const int rotating = !m.partial ? -1
                                  : (m.both.style == RotaryStyle::neox ? m.both.neox_pairs
                                                                       : m.both.proportional_pairs);
  lay.text =
      header_text(p, static_cast<int>(m.thetas.size()), m.incomplete, m.first_incomplete, rotating);
  if (m.partial) {  // the two curves in words: filled marks for the meaning in use
    const Partial& b = m.both;
    const auto part = [&](RotaryStyle st, const std::vector<double>& th, int pairs,
                          const std::string& what) {
      const std::string mark = st == b.style ? "● " : "○ ";
      if (th.empty() || pairs < 1) return mark + rotary_style_name(st) + ": nothing rotates";
      return mark + nobreak(std::string(rotary_style_name(st)) + ":") + " " + what + ", " +
             nobreak("slowest λ = " +
                     format_number(wavelength(th[static_cast<std::size_t>(pairs - 1)]),
                                   NumberStyle::label, 5));
    };
    const std::string neox = part(RotaryStyle::neox, b.neox, b.neox_pairs,
                                  nobreak("θ over " + std::to_string(2 * b.neox_pairs) + " dims"));
    const std::string proportional =
        part(RotaryStyle::proportional, b.proportional, b.proportional_pairs,
             nobreak("full-head θ, " + std::to_string(b.proportional_pairs) + " pairs"));
    const std::string p_words =
        nobreak("rotary fraction p = " + format_number(b.fraction, NumberStyle::label, 4) + ",");
    lay.text.partial = !p.partial_compare
                           ? p_words + "  " + (b.style == RotaryStyle::neox ? neox : proportional)
                           : p_words + " two meanings:  " + neox + ";  " + proportional;
  }
  if (!m.thetas_scaled.empty() && m.partial)
    lay.text.scaling = scaling_words(view_scaling(p)) + ":  the plain lines are " +
                       nobreak("θ′ᵢ and λ′ᵢ = 2π/θ′ᵢ") + " of the meaning in use, the coloured " +
                       "curves the original " + nobreak("θᵢ and λᵢ");
  else if (!m.thetas_scaled.empty())
    lay.text.scaling = scaling_words(view_scaling(p)) + ":  the lines are " +
                       nobreak("θ′ᵢ and λ′ᵢ = 2π/θ′ᵢ,") + " the marks the original " +
                       nobreak("θᵢ and λᵢ");
  else if (!m.scaling_error.empty())
    lay.text.scaling = "scaling not applied: " + m.scaling_error;
  const float min_plots_h = 380.0f * s;
  const float right_w = std::min(std::round(400.0f * s), 0.3f * canvas.size.x);
  const Pen measure = canvas.pen.measuring();  // the formula as it will be drawn
  const float room = lay.bottom - header(measure, lay, lay.text, false);
  const auto fits = [&](int level) {
    switch (static_cast<NotePlace>(level)) {
      case NotePlace::right:
        return right_w >= 220.0f * s && lay.width - right_w - lay.pad >= 380.0f * s &&
               note(Pen{}, lay, 0, 0, right_w) <= room;
      case NotePlace::below:
        return room - note(Pen{}, lay, 0, 0, lay.width) - 10 * s >= min_plots_h;
      default:
        return room >= min_plots_h;
    }
  };
  lay.place = static_cast<NotePlace>(first_fitting(kPlaces, fits));
  if (lay.place == NotePlace::right) lay.note_w = right_w;
  if (lay.place == NotePlace::below) {
    lay.note_w = lay.width;
    lay.note_h = note(Pen{}, lay, 0, 0, lay.width) + 10 * s;
  }
  lay.top = header(measure, lay, lay.text, lay.place == NotePlace::none_compact);
  if (!lay.text.partial.empty() && lay.bottom - lay.note_h - lay.top < 380.0f * s) {
    lay.text.partial.clear();  // short canvases: the plots first (their legends still say it)
    lay.top = header(measure, lay, lay.text, lay.place == NotePlace::none_compact);
  }
  return lay;
}

// [SECTION] paint: header, the θ and λ plots, the context line, the note

// theta_i (top) and the wavelengths with the context line (bottom): a mark per block (hollow
// for the blocks slower than the context), or lines above 256 blocks; then the note.
std::array<plot::Frame, 2> SpectrumView::paint(const Model& m, const Layout& lay,
                                               const Canvas& canvas, const Params& p) {
  ImDrawList* dl = canvas.draw_list;
  const Fonts& f = lay.f;
  const float s = lay.s;
  const int half = static_cast<int>(m.thetas.size());
  const auto ctx = static_cast<double>(p.context_length);
  const float plot_x1 = lay.place == NotePlace::right
                            ? canvas.max().x - lay.pad - lay.note_w - lay.pad
                            : canvas.max().x - lay.pad;
  const float plots_bottom = lay.bottom - lay.note_h;
  const float mid = std::round(lay.top + 0.45f * (plots_bottom - lay.top));
  double tmin = m.thetas.back();
  double lmax = std::max(m.wavelengths.back(), ctx);
  if (m.partial)  // neox's slowest θ can be below the full head's
    for (const std::vector<double>* v : {&m.both.neox, &m.both.proportional})
      for (double t : *v)
        if (t > 0.0) {
          tmin = std::min(tmin, t);
          lmax = std::max(lmax, wavelength(t));
        }
  std::vector<double> scaled_pos;  // θ′ of the pairs with θ′ > 0, in index_scaled's order
  for (std::size_t k = 0; k < m.index_scaled.size(); ++k) {
    scaled_pos.push_back(m.thetas_scaled[static_cast<std::size_t>(m.index_scaled[k])]);
    tmin = std::min(tmin, scaled_pos.back());
    lmax = std::max(lmax, m.wavelengths_scaled[k]);
  }
  const auto frames =
      axes(dl, lay, ImVec2(lay.x0, lay.top), ImVec2(plot_x1, plots_bottom), mid, tmin, lmax, half);
  const plot::Frame &top = frames[0], &bot = frames[1];
  const float thick = std::max(1.0f, std::round(2.0f * s));
  const bool dots = half <= 256 && !m.partial;
  if (!dots && !m.partial) {
    plot::line(dl, top, m.index, m.thetas, lay.pal.query, thick);
    plot::line(dl, bot, m.index, m.wavelengths, lay.pal.key, thick);
  }
  plot::hline(dl, bot, ctx, lay.pal.accent, std::max(1.0f, std::round(2.0f * s)), true);
  {
    // above the line at the left, unless the wavelengths cross it in the left half or a rotary
    // fraction leaves the right half still: then at the right end
    const std::string words = "context length " + format_number(ctx, NumberStyle::tick);
    const float y = bot.y.to_px(ctx) - f.body->FontSize - 8 * s;
    const int rotating = std::max(m.both.neox_pairs, m.both.proportional_pairs);
    const bool right = (m.first_incomplete >= 0 && 2 * m.first_incomplete < half) ||
                       (m.partial && 2 * rotating <= half);
    const float w = text_size(f.body, words).x + 2 * plot::label_box_padding(lay.st).x;
    plot::label_box(dl, lay.st, f.body,
                    ImVec2(right ? bot.area_max.x - 8 * s - w : bot.area_min.x + 8 * s, y),
                    lay.pal.accent, words);
  }
  if (m.first_incomplete >= 0) mark_boundary(dl, lay, frames, m.first_incomplete);
  const float r = std::clamp(0.3f * (top.area_max.x - top.area_min.x) / static_cast<float>(half),
                             2.0f * s, 6.0f * s);
  if (dots) {
    for (int i = 0; i < half; ++i) {
      const auto u = static_cast<std::size_t>(i);
      const bool inc = m.wavelengths[u] > ctx;
      const ImU32 c = frequency_colour(i, half, p.theme);
      plot::marker(dl, top, m.index[u], m.thetas[u], c, r, !inc);
      plot::marker(dl, bot, m.index[u], m.wavelengths[u], c, r, !inc);
    }
  }
  if (m.partial) paint_partial(m, lay, canvas, frames, ctx, p.partial_compare);
  if (!scaled_pos.empty()) {  // θ′ and λ′ as lines over the marks, named inside the plots
    const ImU32 c = lay.pal.text;
    plot::line(dl, top, m.index_scaled, scaled_pos, c, thick);
    plot::line(dl, bot, m.index_scaled, m.wavelengths_scaled, c, thick);
    const ImVec2 lp = plot::label_box_padding(lay.st);
    const std::string what =
        std::string(scaling_method_names(p.extension.scaling.method).words) + " " +
        nobreak("s = " + format_number(p.extension.scaling.factor, NumberStyle::label, 6));
    for (int k = 0; k < 2; ++k) {
      const plot::Frame& fr = frames[static_cast<std::size_t>(k)];
      const std::string label = (k == 0 ? "line: θ′ᵢ, " : "line: λ′ᵢ, ") + what;
      // in the empty corner of each plot: θ falls to the right, λ rises to the right, so the
      // bottom left of the top plot and the bottom right of the bottom one
      const float lw = text_size(f.body, label).x;
      float ly = fr.area_max.y - f.body->FontSize - lp.y - 6 * s;
      // partial rotary: the bottom plot's corner holds the two meanings' legends (paint_partial),
      // so this one goes above them
      if (m.partial && k == 1) ly -= 2.0f * (f.body->FontSize + 2 * lp.y + 6 * s);
      const float lx = k == 0 ? fr.area_min.x + lp.x + 8 * s : fr.area_max.x - lw - lp.x - 8 * s;
      plot::label_box(dl, lay.st, f.body, ImVec2(lx, ly), c, label);
    }
  }
  if (lay.place == NotePlace::right)
    note(canvas.pen, lay, plot_x1 + lay.pad, top.area_min.y, lay.note_w);
  if (lay.place == NotePlace::below)
    note(canvas.pen, lay, lay.x0, plots_bottom + 10 * s, lay.width);
  return frames;
}

// [SECTION] hover: the block under the mouse

// The block under the mouse: a line and a tooltip with theta, the wavelength and the turns.
void SpectrumView::hover(const Model& m, const Layout& lay, const plot::Frame& fr,
                         const Canvas& canvas, double context) {
  const double iv = std::round(fr.x.from_px(canvas.mouse.x));
  if (!(iv >= 0.0 && iv < static_cast<double>(m.thetas.size()))) return;
  const auto u = static_cast<std::size_t>(iv);
  plot::vline(canvas.draw_list, fr, iv, lay.pal.text, std::max(1.0f, std::round(lay.s)));
  ImGui::BeginTooltip();
  ImGui::Text("block i = %d", static_cast<int>(u));
  ImGui::Text("θᵢ = %s rad per position", full_number(m.thetas[u]).c_str());
  ImGui::Text("λᵢ = 2π/θᵢ = %s positions", full_number(m.wavelengths[u]).c_str());
  ImGui::Text("turns within the context: %.6g", context / m.wavelengths[u]);
  if (m.partial)
    for (const auto& [name, v] :
         {std::pair{"neox", &m.both.neox}, std::pair{"proportional", &m.both.proportional}})
      if (u < v->size()) {
        if ((*v)[u] > 0.0)
          ImGui::Text("%s: θᵢ = %s, λᵢ = %s", name, full_number((*v)[u]).c_str(),
                      full_number(wavelength((*v)[u])).c_str());
        else
          ImGui::Text("%s: not rotated", name);
      }
  if (u < m.thetas_scaled.size()) {
    // θ before the method: the full head's, or under partial rotary the meaning in use's
    const std::vector<double>& used =
        m.both.style == RotaryStyle::neox ? m.both.neox : m.both.proportional;
    const double th0 = !m.partial ? m.thetas[u] : u < used.size() ? used[u] : 0.0;
    if (th0 > 0.0)
      ImGui::Text("θ′ᵢ = %s rad per position (θ′/θ = %.9g)",
                  full_number(m.thetas_scaled[u]).c_str(), m.thetas_scaled[u] / th0);
    else
      ImGui::Text("θ′ᵢ = %s rad per position", full_number(m.thetas_scaled[u]).c_str());
    if (m.thetas_scaled[u] > 0.0)
      ImGui::Text("λ′ᵢ = 2π/θ′ᵢ = %s positions",
                  full_number(wavelength(m.thetas_scaled[u])).c_str());
  }
  ImGui::EndTooltip();
}

// [SECTION] Draw and the control panel's part

void SpectrumView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Model& m = model_.get(inputs_of(p), compute);
  const MathScope math(env, own_math_);
  const Canvas canvas("spectrum_canvas", &drawn_, math.pen());  // clip popped at every return
  const Layout lay = layout(m, p, canvas, env);
  header(canvas.pen, lay, lay.text, lay.place == NotePlace::none_compact);
  if (m.thetas.empty() || lay.bottom - lay.top < 120 * lay.s) return;
  const auto frames = paint(m, lay, canvas, p);
  for (const plot::Frame& fr : frames)
    if (canvas.hovered && fr.contains(canvas.mouse)) {
      hover(m, lay, fr, canvas, static_cast<double>(p.context_length));
      break;
    }
}

void SpectrumView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "context_length");
  for (int preset : {2048, 4096, 8192, 131072}) {
    if (preset != 2048) ImGui::SameLine();
    const std::string label = std::to_string(preset);
    if (ImGui::Button(label.c_str())) p.context_length = preset;
  }
}

}  // namespace rope::app
