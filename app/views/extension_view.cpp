#include "views/extension_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <tuple>
#include <utility>

#include "io/number_format.h"
#include "rope/extrapolation.h"
#include "rope/frequencies.h"
#include "state/models.h"
#include "state/params.h"
#include "ui/param_widgets.h"
#include "ui/theme.h"

namespace rope::app {
namespace {

// [SECTION] words

std::string num(double v, int digits = 4) {
  return format_number(v, NumberStyle::label, digits);
}

// Token counts and pair indices as the axes print them ("65 536").
std::string count(double v) {
  return format_number(v, NumberStyle::tick);
}

std::string pairs(int first, int last) {
  return first == last ? nobreak("i = " + std::to_string(first))
                       : nobreak("i = " + std::to_string(first) + " … " + std::to_string(last));
}

const char* band_name(ExtensionView::Band b) {
  switch (b) {
    case ExtensionView::Band::kept:
      return "kept: θ";
    case ExtensionView::Band::blended:
      return "blended";
    case ExtensionView::Band::interpolated:
      return "interpolated: θ/s";
  }
  return "?";
}

ImU32 band_fill(ExtensionView::Band b, const Palette& pal) {
  switch (b) {
    case ExtensionView::Band::kept:
      return 0;  // nothing: the canvas
    case ExtensionView::Band::blended:
      return with_alpha(pal.grid, 0.22f);
    case ExtensionView::Band::interpolated:
      return with_alpha(pal.grid, 0.45f);
  }
  return 0;
}

// The ratio θ′/θ of YaRN's paper: γ(r) = clamp((r − α)/(β − α), 0, 1) with α = beta_slow,
// β = beta_fast, θ′ = (1 − γ)·θ/s + γ·θ. A step at r = β when α = β.
std::vector<double> paper_ramp(const std::vector<double>& rotations, const ScalingParams& sp) {
  std::vector<double> out(rotations.size());
  const double a = sp.beta_slow, b = sp.beta_fast;
  for (std::size_t i = 0; i < rotations.size(); ++i) {
    const double r = rotations[i];
    const double g = b > a ? std::clamp((r - a) / (b - a), 0.0, 1.0) : (r >= b ? 1.0 : 0.0);
    out[i] = (1.0 - g) / sp.factor + g;
  }
  return out;
}

std::vector<double> ratios(const ScaledFrequencies& sf) {
  std::vector<double> r(sf.theta.size());
  for (std::size_t i = 0; i < r.size(); ++i)
    r[i] = sf.theta_scaled[i] / sf.theta[i];
  return r;
}

// A paragraph of the read-out.
struct Para {
  enum class Kind { heading, text, note, warning } kind;
  std::string text;
};

std::vector<Para> readout(const ExtensionView::Model& m, const Params& p) {
  using K = Para::Kind;
  const ScalingParams& sp = p.extension.scaling;
  std::vector<Para> out;
  const auto& sf = m.sf;
  out.push_back(
      {K::heading,
       std::string(scaling_method_names(sp.method).title) +
           (sp.method == ScalingMethod::none ? "" : ", " + nobreak("s = " + num(m.factor)))});
  if (!m.rotary_words.empty()) out.push_back({K::text, m.rotary_words});
  out.push_back({K::text, nobreak("L = " + count(m.context)) + " tokens → " +
                              nobreak("s·L = " + count(m.factor * m.context))});
  if (m.no_turn > 0)
    out.push_back(
        {K::text, "Never a full turn within L " + nobreak("(λᵢ > L):") + " " +
                      pairs(m.no_turn_first, m.half - 1) + ", " +
                      nobreak(std::to_string(m.no_turn) + " of " + std::to_string(m.half)) +
                      (m.half < m.head_pairs ? " rotating pairs" : " pairs")});
  else
    out.push_back({K::text, "Every pair turns at least once within L."});
  for (const auto& run : m.bands) {
    const std::string name = run.band == ExtensionView::Band::kept ? nobreak("Kept (θ′ = θ):")
                             : run.band == ExtensionView::Band::blended
                                 ? std::string("Blended:")
                                 : nobreak("Interpolated (θ′ = θ/s):");
    out.push_back({K::text, name + " " + pairs(run.first, run.last)});
  }
  switch (sp.method) {
    case ScalingMethod::yarn:
      out.push_back(
          {K::text, "Ramp ends (pair index): " +
                        nobreak("⌊c(" + num(sp.beta_fast) + ")⌋ = " + num(sf.ramp_low, 6)) + ", " +
                        nobreak("⌈c(" + num(sp.beta_slow) + ")⌉ = " + num(sf.ramp_high, 6)) + "; " +
                        nobreak("c(n):") + " the pair making n turns " + nobreak("in L.")});
      break;
    case ScalingMethod::llama3:
      out.push_back({K::text, "Kept where " +
                                  nobreak("λ < L/" + num(sp.high_freq_factor) + " = " +
                                          count(m.context / sp.high_freq_factor)) +
                                  ", θ/s where " +
                                  nobreak("λ > L/" + num(sp.low_freq_factor) + " = " +
                                          count(m.context / sp.low_freq_factor))});
      break;
    case ScalingMethod::ntk:
    case ScalingMethod::dynamic:
      out.push_back({K::text, "New base " + nobreak("b′ = " + num(sf.base_used, 6)) +
                                  "; no bands: pair i is divided by $(b'/b)^{2i/d}$."});
      if (sp.method == ScalingMethod::dynamic) {
        // Two definitions (review of issue 26, §4): transformers' code (drawn) scales by
        // s·ℓ/L − (s − 1) at length ℓ; the YaRN paper's Dynamic NTK (§3.3) by ℓ/L. At ℓ = s·L
        // the slowest pair is divided by s² − s + 1 in the first, by s in the second.
        const double L = static_cast<double>(sp.original_context);
        const double ell = std::max(static_cast<double>(sp.sequence_length), L);
        const double code = m.factor * ell / L - (m.factor - 1.0);
        out.push_back(
            {K::note, "Drawn: transformers' dynamic NTK, scale " +
                          nobreak("s·ℓ/L − (s − 1) = " + num(code, 5)) + " at " +
                          nobreak("ℓ = " + count(ell) + ";") + " the YaRN paper's (§3.3) uses " +
                          nobreak("ℓ/L = " + num(ell / L, 5) + ".") + " At " + nobreak("ℓ = s·L") +
                          " the slowest pair is divided by " +
                          nobreak("s² − s + 1 = " + num(m.factor * m.factor - m.factor + 1.0, 5)) +
                          " in the code, by " +
                          nobreak("s = " + num(m.factor) + " in the paper.")});
      }
      break;
    default:
      break;
  }
  const double a = sf.attention_factor;
  const bool default_yarn =
      sp.method == ScalingMethod::yarn && sp.attention_factor == 0.0 && sp.mscale == 0.0;
  out.push_back({K::text, "Attention factor " + nobreak(num(a, 5)) +
                              (default_yarn ? " " + nobreak("= 0.1 ln s + 1") : "") +
                              " on cos and sin: logits " + nobreak("q·k × " + num(a * a, 5)) +
                              " (its square)"});
  // DeepSeek's attention (V2, V3) also multiplies its softmax scale 1/√d by mscale² whenever
  // mscale_all_dim is set, where the factor on cos and sin is often 1: the two together are the
  // logits' scale lesson 13 step 5 computes (classroom review D9)
  if (sp.method == ScalingMethod::yarn && sp.mscale_all_dim > 0.0) {
    const double ms = yarn_mscale(m.factor, sp.mscale_all_dim);
    out.push_back({K::text,
                   "With mscale_all_dim set, DeepSeek's attention also multiplies its "
                   "softmax scale by " +
                       nobreak("mscale² = (0.1·" + num(sp.mscale_all_dim) + "·ln " + num(m.factor) +
                               " + 1)²") +
                       " " + nobreak("= " + num(ms * ms, 5)) + ": logits " +
                       nobreak("× " + num(a * a * ms * ms, 5)) + " in all"});
  }
  if (sp.method == ScalingMethod::yarn)
    out.push_back({K::note,
                   "transformers ramps linearly in the pair index (solid); the YaRN paper ramps "
                   "linearly in r between " +
                       nobreak("α = " + num(sp.beta_slow)) + " and " +
                       nobreak("β = " + num(sp.beta_fast)) + " (dashed)."});
  // how to choose a method is the lecturer's business: not on a lesson's slide or a projector,
  // where the panel it names is hidden (review D11)
  const bool class_sees = p.presentation || p.view == ViewId::derivation;
  if (sp.method == ScalingMethod::none && !class_sees)
    out.push_back({K::note, "Choose a method in the panel, or e.g. --scaling yarn --factor 16."});
  else if (sp.factor == 1.0)
    out.push_back({K::note, nobreak("s = 1:") + " every method leaves θ as it is."});
  return out;
}

}  // namespace

// [SECTION] colours, inputs, compute

ImU32 ExtensionView::method_colour(ScalingMethod method, Theme theme) {
  const Palette& pal = palette(theme);
  switch (method) {
    case ScalingMethod::linear:
      return pal.key;
    case ScalingMethod::ntk:
    case ScalingMethod::dynamic:
      return pal.good;
    case ScalingMethod::yarn:
      return pal.query;
    case ScalingMethod::llama3:
      return pal.accent;
    case ScalingMethod::longrope:
      return pal.bad;
    case ScalingMethod::proportional:
    case ScalingMethod::none:
      return pal.text_dim;
  }
  return pal.text;
}

ExtensionView::Inputs ExtensionView::inputs_of(const Params& p) {
  // the style only where a fraction below 1 gives it a meaning (one cache key for p = 1)
  const RotaryStyle style =
      p.extension.scaling.rotary_fraction < 1.0 ? p.extension.rotary_style : RotaryStyle::neox;
  return Inputs{p.dim, p.base, p.extension.scaling, style, p.extension.compare_methods};
}

ExtensionView::Model ExtensionView::compute(const Inputs& in) {
  Model m;
  // drawn_frequencies with the partial rotation, as every other view (classroom review D6: this
  // view used the whole head, "23 of 64 pairs" for Pythia where the spectrum said 16 rotate).
  // Under neox the method scales a head of int(d·p) dimensions, as transformers does: the plots
  // show its pairs, and the read-out says which pairs do not rotate. Under the proportional
  // meaning θ is the whole head's and the still pairs have θ′ = 0: θ′/θ = 0 is drawn.
  const auto with_rotation = [&in](const ScalingParams& sp) {
    ExtensionParams e;
    e.scaling = sp;
    e.rotary_style = in.rotary_style;
    return e;
  };
  auto f = drawn_frequencies(in.dim, in.base, with_rotation(in.scaling));
  if (!f || f.value().error) {
    m.error = f ? f.value().error->to_string() : f.error().to_string();
    return m;
  }
  const std::vector<double> theta_drawn = f.value().theta_drawn;
  m.sf = std::move(f.value().method);
  const ScalingParams& sp = in.scaling;
  m.head_pairs = static_cast<int>(m.sf.theta.size());
  m.half = m.head_pairs;
  const bool partial = sp.rotary_fraction < 1.0 && sp.method != ScalingMethod::proportional;
  if (partial) {
    const auto first_still = std::find(theta_drawn.begin(), theta_drawn.end(), 0.0);
    m.still_from =
        first_still == theta_drawn.end() ? -1 : static_cast<int>(first_still - theta_drawn.begin());
    const bool neox = in.rotary_style == RotaryStyle::neox;
    if (neox && m.still_from > 0) {  // the rotating head alone: θ = 0 has no wavelength
      m.half = m.still_from;
      const auto cut = [&](std::vector<double>& v) {
        if (v.size() > static_cast<std::size_t>(m.half)) v.resize(static_cast<std::size_t>(m.half));
      };
      cut(m.sf.theta);
      cut(m.sf.theta_scaled);
      cut(m.sf.ramp);
    }
    const int rotary_dim = 2 * m.half;
    m.rotary_words =
        nobreak("rotary p = " + num(sp.rotary_fraction) + " (" +
                rotary_style_name(in.rotary_style) + "):") +
        " " +
        (neox ? "$\\theta_i = \\mathrm{base}^{-2i/" + std::to_string(rotary_dim) + "}$, " +
                    nobreak(std::to_string(m.half) + " of " + std::to_string(m.head_pairs)) +
                    " pairs rotate; pairs " +
                    nobreak(std::to_string(m.half) + " … " + std::to_string(m.head_pairs - 1)) +
                    " never turn (not drawn)"
              : nobreak("pairs " + std::to_string(std::max(m.still_from, 0)) + " … " +
                        std::to_string(m.head_pairs - 1)) +
                    " do not rotate " + nobreak("(θ′ = 0)"));
  }
  m.ratio = ratios(m.sf);
  for (double& r : m.ratio)
    if (!std::isfinite(r)) r = 0.0;  // a still pair under the proportional meaning: θ′ = 0
  m.context = static_cast<double>(sp.original_context);
  m.factor = sp.factor;
  for (int i = 0; i < m.half; ++i) {
    const auto u = static_cast<std::size_t>(i);
    m.index.push_back(i);
    m.wavelength.push_back(wavelength(m.sf.theta[u]));
    m.wavelength_scaled.push_back(wavelength(m.sf.theta_scaled[u]));
    m.rotations.push_back(rotations_per_context(m.sf.theta[u], m.context));
    if (m.wavelength[u] > m.context) {
      if (m.no_turn_first < 0) m.no_turn_first = i;
      ++m.no_turn;
    }
  }
  // dynamic NTK dashed: beside NTK-aware (the same colour) it is the other curve
  m.curves.push_back({sp.method, scaling_method_names(sp.method).short_name, m.ratio,
                      sp.method == ScalingMethod::dynamic, true});
  if (sp.method == ScalingMethod::yarn)
    m.curves.push_back(
        {ScalingMethod::yarn, "YaRN paper: ramp linear in r", paper_ramp(m.rotations, sp), true});
  if (in.compare) {
    for (ScalingMethod other :
         {ScalingMethod::linear, ScalingMethod::ntk, ScalingMethod::dynamic, ScalingMethod::yarn,
          ScalingMethod::llama3, ScalingMethod::longrope}) {
      if (other == sp.method) continue;
      ScalingParams q = sp;
      q.method = other;
      std::string label = scaling_method_names(other).short_name;
      if (other == ScalingMethod::dynamic) {  // at the target length s·L
        q.sequence_length =
            std::clamp<std::int64_t>(std::llround(sp.factor * m.context), 0, kMaxContext);
        label += ", ℓ = s·L";
      }
      if (auto r = drawn_frequencies(in.dim, in.base, with_rotation(q)); r && !r.value().error) {
        std::vector<double> ratio = ratios(r.value().method);
        ratio.resize(static_cast<std::size_t>(m.half));
        for (double& v : ratio)
          if (!std::isfinite(v)) v = 0.0;
        m.curves.push_back(
            {other, label, std::move(ratio), other == ScalingMethod::dynamic, false});
      }
    }
  }
  // The bands: γ = 1 kept, 0 interpolated, between blended (yarn, llama3); PI divides all.
  const auto band_of = [&](std::size_t i) {
    if (m.sf.ramp.empty()) return Band::interpolated;
    return m.sf.ramp[i] >= 1.0 ? Band::kept
                               : (m.sf.ramp[i] <= 0.0 ? Band::interpolated : Band::blended);
  };
  if (!m.sf.ramp.empty() || (sp.method == ScalingMethod::linear && sp.factor != 1.0)) {
    for (int i = 0; i < m.half; ++i) {
      const Band b = band_of(static_cast<std::size_t>(i));
      if (m.bands.empty() || m.bands.back().band != b)
        m.bands.push_back({b, i, i});
      else
        m.bands.back().last = i;
    }
  }
  return m;
}

// [SECTION] layout

struct ExtensionView::Layout {
  int level = 0;
  float pad = 0, x0 = 0, width = 0, bottom = 0;
  ImFont* title_font = nullptr;
  ImFont* sub_font = nullptr;
  ImFont* read_font = nullptr;
  ImFont* band_font = nullptr;
  std::string title, sub;
  float plots_top = 0;  // below the header and the band strip
  float strip_top = 0;  // the band names' row(s)
  int strip_rows = 0;
  ImVec2 plots_max;                // bottom-right of the three plots
  float left = 0;                  // the plots' common left margin
  float area_x0 = 0, area_x1 = 0;  // data area of the plots, px
  enum class Readout { right, below, none } place = Readout::none;
  ImVec2 readout_min;
  float readout_w = 0;           // one column's width
  std::size_t column_break = 0;  // below in two columns: the first paragraph of the second; 0: one
  std::vector<Para> paras;
  std::vector<plot::LegendEntry> legend;
};

namespace {

// Where the band names go: centred on their band, nudged inside the area; the row of each
// (0 or 1: a second row when neighbours would touch). Returns the number of rows.
struct BandLabel {
  float x = 0;
  int row = 0;
  std::string text;
  ExtensionView::Band band = ExtensionView::Band::kept;
  int first = 0, last = 0;  // the band's pairs
  bool narrow = false;      // wider than its band: a bracket under it spans the band
};
// The room a bracket under a narrow band's label takes at the strip's foot, px at scale s.
float bracket_room(float s) {
  return std::round(10.0f * s);
}
std::vector<BandLabel> band_labels(const std::vector<ExtensionView::BandRun>& bands, ImFont* font,
                                   float x0, float x1, int half, float gap, int& rows) {
  std::vector<BandLabel> out;
  std::vector<float> w;
  const float per = (x1 - x0) / static_cast<float>(std::max(1, half));
  for (const auto& run : bands) {  // centred on the band, kept inside the area
    BandLabel l;
    l.text = band_name(run.band);
    l.band = run.band;
    l.first = run.first;
    l.last = run.last;
    // the name without its formula ("interpolated", not "interpolated: θ/s") when only that
    // fits the band; wider than the band even so: the short name, with a bracket
    const float band_w = per * static_cast<float>(run.last - run.first + 1) + 1.0f;
    if (text_size(font, l.text).x > band_w) {
      l.text = l.text.substr(0, l.text.find(':'));
      l.narrow = text_size(font, l.text).x > band_w;
    }
    w.push_back(text_size(font, l.text).x);
    const float c = x0 + per * (0.5f * static_cast<float>(run.first + run.last) + 0.5f);
    l.x = std::clamp(c - 0.5f * w.back(), x0, std::max(x0, x1 - w.back()));
    out.push_back(std::move(l));
  }
  // The labels of one row (every label, or every other one from `first`): each pushed right
  // past its left neighbour, then left before its right neighbour.
  const auto spread = [&](std::vector<BandLabel>& row, std::size_t first, std::size_t step) {
    for (std::size_t k = first + step; k < row.size(); k += step)
      row[k].x = std::max(row[k].x, row[k - step].x + w[k - step] + gap);
    for (std::size_t k = first + step * ((row.size() - 1 - first) / step);; k -= step) {
      const float limit = k + step < row.size() ? row[k + step].x - gap : x1;
      row[k].x = std::min(row[k].x, limit - w[k]);
      if (k < first + step) break;
    }
  };
  // one row, else every other label one row down, else one row each (at most three bands):
  // the first that leaves every label inside the area
  if (out.empty()) {
    rows = 0;
    return out;
  }
  for (std::size_t n = 1;; ++n) {
    std::vector<BandLabel> try_rows = out;
    for (std::size_t first = 0; first < std::min(n, try_rows.size()); ++first) {
      for (std::size_t k = first; k < try_rows.size(); k += n)
        try_rows[k].row = static_cast<int>(first);
      spread(try_rows, first, n);
    }
    bool inside = true;
    for (const BandLabel& l : try_rows)
      inside = inside && l.x >= x0 - 0.5f;
    if (inside || n >= try_rows.size()) {
      rows = static_cast<int>(std::min(n, try_rows.size()));
      for (BandLabel& l : try_rows)  // a label wider than the area starts at its left edge
        l.x = std::max(l.x, x0);
      return try_rows;
    }
  }
}

// A paragraph's height as `measure` (a measuring pen) sets it: rich text, formulas typeset.
float para_height(const Pen& measure, const Para& para, ImFont* font, ImFont* bold, float w,
                  float s) {
  return measure.rich_size(para.kind == Para::Kind::heading ? bold : font, w, para.text).y + 6 * s;
}

float paras_height(const Pen& measure, const std::vector<Para>& paras, ImFont* font, ImFont* bold,
                   float w, float s) {
  float h = 0;
  for (const Para& para : paras)
    h += para_height(measure, para, font, bold, w, s);
  return h;
}

// Two columns of paragraphs: the first paragraph of the second column (the one after which the
// first column holds at least half the height) and the taller column's height.
std::pair<std::size_t, float> two_columns(const Pen& measure, const std::vector<Para>& paras,
                                          ImFont* font, ImFont* bold, float w, float s) {
  const float total = paras_height(measure, paras, font, bold, w, s);
  float first = 0;
  std::size_t split = 0;
  while (split < paras.size() && first < 0.5f * total)
    first += para_height(measure, paras[split++], font, bold, w, s);
  return {split, std::max(first, total - first)};
}

}  // namespace

ExtensionView::Layout ExtensionView::layout(const Model& m, const Canvas& canvas,
                                            const ViewEnv& env, const Params& p) const {
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  Layout lay;
  lay.pad = std::round(16.0f * s);
  lay.x0 = canvas.origin.x + lay.pad;
  lay.width = std::max(1.0f, canvas.size.x - 2 * lay.pad);
  lay.bottom = canvas.origin.y + canvas.size.y - lay.pad;
  lay.title = "Context extension: which pairs a method changes";
  lay.sub =
      nobreak("d = " + std::to_string(p.dim)) + " " +
      nobreak("(" + std::to_string(m.head_pairs) + (m.head_pairs == 1 ? " pair)," : " pairs),")) +
      " " + nobreak("base " + count(p.base) + ",") + " " +
      nobreak("L = " + count(m.context) + ",") + " " + nobreak("s = " + num(m.factor)) + ";  " +
      nobreak("λᵢ = 2π/θᵢ,") + " " + nobreak("rᵢ = L/λᵢ") + " turns in L";
  lay.paras = readout(m, p);
  const Palette& pal = palette(p.theme);
  lay.legend.push_back({"λᵢ, rᵢ as trained", pal.text, false, false});
  for (const Curve& c : m.curves)
    lay.legend.push_back({c.label + (c.chosen ? ": θ′/θ, λ′" : ""),
                          method_colour(c.method, p.theme), c.dashed, false});

  const plot::Style st = plot::style(env, p.theme);
  plot::Axis ax, ay;  // the widest y tick labels decide the common left margin
  ay.lo = 1e-3;
  ay.hi = 1e6;
  ay.log = true;
  ay.label = "λᵢ";
  const plot::Margins mg = plot::margins(st, ax, ay);
  const Pen measure = canvas.pen.measuring();  // the read-out's formulas as they will be drawn
  const auto try_level = [&](int level) {
    Layout& l = lay;
    l.level = level;
    l.title_font =
        fit_font({level == 0 ? f.title : f.heading, f.heading, f.bold}, l.title, l.width, 1);
    l.sub_font = level <= 1 ? f.large : f.body;
    l.read_font = level == 0 ? f.large : f.body;
    l.band_font = level <= 1 ? f.large : f.body;
    // the read-out at the right, below, at the right with the plots as narrow as they may be,
    // below in two columns (a narrow canvas: a window beside the panel, presentation with F9;
    // classroom review D14), and only then none
    l.place = level <= 1 || level == 3
                  ? Layout::Readout::right
                  : (level == 2 || level == 4 ? Layout::Readout::below : Layout::Readout::none);
    const bool two = level == 4;
    const bool wide = level == 3;
    float y = canvas.origin.y + lay.pad;
    y += wrapped_size(l.title_font, l.title, l.width).y + 2 * s;
    y += wrapped_size(l.sub_font, l.sub, l.width).y + 8 * s;
    const float right_w = std::clamp(std::round(0.3f * l.width), 280.0f * s, 620.0f * s);
    l.readout_w = l.place == Layout::Readout::right
                      ? (wide ? std::max(right_w, l.width - 360.0f * s - 2 * l.pad) : right_w)
                      : (two ? std::floor(0.5f * (l.width - l.pad)) : l.width);
    const float plots_w =
        l.place == Layout::Readout::right ? l.width - l.readout_w - 2 * l.pad : l.width;
    l.left = mg.left;
    l.area_x0 = std::round(l.x0 + mg.left);
    l.area_x1 = std::round(l.x0 + plots_w - mg.right);
    int rows = 0;
    const std::vector<BandLabel> labels =
        band_labels(m.bands, l.band_font, l.area_x0, l.area_x1, m.half, 12 * s, rows);
    l.strip_top = y;
    l.strip_rows = rows;
    y += static_cast<float>(rows) * (l.band_font->FontSize + 4 * s) + (rows ? 6 * s : 0);
    if (std::any_of(labels.begin(), labels.end(), [](const BandLabel& b) { return b.narrow; }))
      y += bracket_room(s);
    l.plots_top = y;
    const float legend_w = two ? l.width : l.readout_w;
    const float legend_h = plot::legend_row(nullptr, st, ImVec2(0, 0), legend_w, l.legend);
    float paras_h = 0.0f;
    l.column_break = 0;
    if (two) {
      std::tie(l.column_break, paras_h) =
          two_columns(measure, l.paras, l.read_font, f.bold, l.readout_w, s);
    } else {
      paras_h = paras_height(measure, l.paras, l.read_font, f.bold, l.readout_w, s);
    }
    const float read_h = paras_h + 10 * s + legend_h;
    float plots_bottom = l.bottom;
    if (l.place == Layout::Readout::below) plots_bottom -= read_h + 10 * s;
    l.plots_max = ImVec2(l.x0 + plots_w, plots_bottom);
    l.readout_min = l.place == Layout::Readout::right ? ImVec2(l.x0 + plots_w + 2 * l.pad, y)
                                                      : ImVec2(l.x0, plots_bottom + 10 * s);
    const bool plots_fit = plots_bottom - y >= 3 * 125.0f * s && plots_w >= 360.0f * s;
    const bool read_fits =
        l.place != Layout::Readout::right || read_h <= l.bottom - l.readout_min.y;
    return plots_fit && read_fits;
  };
  try_level(first_fitting(6, try_level));  // the last try leaves `lay` as the chosen level
  return lay;
}

// [SECTION] paint

namespace {

// The axes of the three plots: pair index; λ (log, 1 … a decade above s·L and every λ′);
// r (log, a decade below 0.5 and the slowest pair … above 64 and the fastest); θ′/θ (linear).
struct PanelAxes {
  plot::Axis x, x_bottom, wave, turns, ratio;
};
PanelAxes panel_axes(const ExtensionView::Model& m) {
  PanelAxes a;
  a.x.lo = -0.5;
  a.x.hi = std::max(0.5, m.half - 0.5);
  a.x.ticks = 8;
  a.x_bottom = a.x;
  a.x_bottom.label = "pair i  (fast → slow)";
  a.x_bottom.short_label = "pair i";
  double lmax = std::max(m.context * m.factor, m.context);
  for (std::size_t i = 0; i < m.wavelength.size(); ++i) {
    lmax = std::max(lmax, m.wavelength[i]);
    if (std::isfinite(m.wavelength_scaled[i])) lmax = std::max(lmax, m.wavelength_scaled[i]);
  }
  a.wave.log = true;
  a.wave.lo = 1.0;
  a.wave.hi = std::pow(10.0, std::ceil(std::log10(lmax * 2.0)));
  a.wave.label = "λᵢ (tokens)";
  a.wave.short_label = "λᵢ";
  a.wave.ticks = 4;
  const double rmin = m.rotations.empty() ? 1.0 : std::min(m.rotations.back(), 0.5);
  const double rmax = m.rotations.empty() ? 64.0 : std::max(m.rotations.front(), 64.0);
  a.turns.log = true;
  a.turns.lo = std::pow(10.0, std::floor(std::log10(rmin)));
  a.turns.hi = std::pow(10.0, std::ceil(std::log10(rmax * 1.5)));
  a.turns.label = "rᵢ = L/λᵢ";
  a.turns.short_label = "rᵢ";
  a.turns.ticks = 4;
  double ratio_max = 1.0;
  for (const ExtensionView::Curve& c : m.curves)
    for (double v : c.ratio)
      if (std::isfinite(v)) ratio_max = std::max(ratio_max, v);
  a.ratio.lo = 0.0;
  a.ratio.hi = ratio_max * 1.08;
  a.ratio.label = "θ′ᵢ/θᵢ";
  a.ratio.ticks = 4;
  return a;
}

}  // namespace

void ExtensionView::paint(const Model& m, const Layout& lay, const Canvas& canvas,
                          const ViewEnv& env, const Params& p) {
  const float s = env.scale;
  const Palette& pal = palette(p.theme);
  const Pen& pen = canvas.pen;
  float y = canvas.origin.y + lay.pad;
  y += pen.wrapped(lay.title_font, ImVec2(lay.x0, y), lay.width, pal.text, lay.title) + 2 * s;
  pen.wrapped(lay.sub_font, ImVec2(lay.x0, y), lay.width, pal.text_dim, lay.sub);
  paint_plots(m, lay, canvas, env, p);
  if (lay.place == Layout::Readout::none) return;
  const plot::Style st = plot::style(env, p.theme, &drawn_);
  float ry = lay.readout_min.y, rx = lay.readout_min.x, lowest = ry;
  for (std::size_t i = 0; i < lay.paras.size(); ++i) {
    if (lay.column_break > 0 && i == lay.column_break) {  // the second column
      lowest = ry;
      ry = lay.readout_min.y;
      rx += lay.readout_w + lay.pad;
    }
    const Para& para = lay.paras[i];
    const bool heading = para.kind == Para::Kind::heading;
    const ImU32 colour = heading ? method_colour(p.extension.scaling.method, p.theme)
                                 : (para.kind == Para::Kind::note ? pal.text_dim : pal.text);
    ry += pen.rich_wrapped(heading ? env.fonts->bold : lay.read_font, ImVec2(rx, ry), lay.readout_w,
                           colour, para.text) +
          6 * s;
  }
  lowest = std::max(lowest, ry);
  plot::legend_row(canvas.draw_list, st, ImVec2(lay.readout_min.x, lowest + 10 * s),
                   lay.column_break > 0 ? lay.width : lay.readout_w, lay.legend);
}

// The three plots share the x axis (pair index) and the left margin: axes, bands, lines, curves.
void ExtensionView::paint_plots(const Model& m, const Layout& lay, const Canvas& canvas,
                                const ViewEnv& env, const Params& p) {
  const Fonts& f = *env.fonts;
  const float s = env.scale;
  const Palette& pal = palette(p.theme);
  const plot::Style st = plot::style(env, p.theme, &drawn_);
  ImDrawList* dl = canvas.draw_list;
  const ScalingParams& sp = p.extension.scaling;

  const float h = lay.plots_max.y - lay.plots_top;
  const float y1 = std::round(lay.plots_top + 0.3f * h), y2 = std::round(lay.plots_top + 0.6f * h);
  const PanelAxes a = panel_axes(m);
  const auto rect_x = [&](const plot::Axis& ay) {
    return lay.x0 + lay.left - plot::margins(st, a.x, ay).left;
  };
  frames_[0] = plot::axes(dl, st, ImVec2(rect_x(a.wave), lay.plots_top),
                          ImVec2(lay.plots_max.x, y1), a.x, a.wave);
  frames_[1] = plot::axes(dl, st, ImVec2(rect_x(a.turns), y1 + 6 * s), ImVec2(lay.plots_max.x, y2),
                          a.x, a.turns);
  frames_[2] =
      plot::axes(dl, st, ImVec2(rect_x(a.ratio), y2 + 6 * s), lay.plots_max, a.x_bottom, a.ratio);

  // bands: shaded behind the data, named above the plots
  // (shaded behind the names and in the θ′/θ plot only: a software rasteriser pays for every
  // filled pixel, and the dashed boundaries carry the bands through the other two plots)
  for (const plot::Frame& fr : frames_)
    for (const BandRun& run : m.bands) {
      const ImU32 fill = band_fill(run.band, pal);
      const float bx0 = fr.x.to_px(run.first - 0.5), bx1 = fr.x.to_px(run.last + 0.5);
      if (fill && &fr == &frames_[2])
        dl->AddRectFilled(ImVec2(bx0, fr.area_min.y), ImVec2(bx1, fr.area_max.y), fill);
      if (fill && &fr == &frames_[0] && lay.strip_rows > 0)
        dl->AddRectFilled(ImVec2(bx0, lay.strip_top - 2 * s), ImVec2(bx1, lay.plots_top - 4 * s),
                          fill);
      if (run.first > 0)
        plot::vline(dl, fr, run.first - 0.5, with_alpha(pal.text_dim, 0.8f),
                    std::max(1.0f, std::round(s)), true);
    }
  int rows = 0;
  band_marks_.clear();
  for (const BandLabel& l : band_labels(m.bands, lay.band_font, frames_[0].area_min.x,
                                        frames_[0].area_max.x, m.half, 12 * s, rows)) {
    const ImVec2 at(l.x,
                    lay.strip_top + static_cast<float>(l.row) * (lay.band_font->FontSize + 4 * s));
    const float w = text_size(lay.band_font, l.text).x;
    BandMark mark{l.band,
                  at,
                  ImVec2(at.x + w, at.y + lay.band_font->FontSize),
                  frames_[0].x.to_px(l.first - 0.5),
                  frames_[0].x.to_px(l.last + 0.5),
                  false};
    if (l.narrow) {
      // a label wider than its band (Llama 3.1's six blended pairs, 29 … 34) read as naming
      // its neighbours' pairs too (review D12): a bracket at the strip's foot spans the band
      // exactly, and a leader joins the label to its middle; the label on the plain canvas, on
      // no band's shade
      mark.bracket = true;
      const float line = std::max(1.0f, std::round(2.0f * s));
      const float by = lay.plots_top - 6 * s, tick = std::round(6 * s);
      const float bx0 = mark.band_x0 + line, bx1 = mark.band_x1 - line;
      const float mid = 0.5f * (bx0 + bx1);
      const ImVec2 bracket[] = {ImVec2(bx0, by - tick), ImVec2(bx0, by), ImVec2(bx1, by),
                                ImVec2(bx1, by - tick)};
      dl->AddPolyline(bracket, 4, pal.text, 0, line);
      const float lx = std::clamp(mid, at.x + 4 * s, at.x + w - 4 * s);
      dl->AddLine(ImVec2(lx, mark.label_max.y + 1 * s), ImVec2(mid, by), pal.text, line);
      dl->AddRectFilled(ImVec2(at.x - 6 * s, at.y - 1 * s),
                        ImVec2(at.x + w + 6 * s, mark.label_max.y), pal.canvas, 3 * s);
    } else if (const ImU32 fill = band_fill(l.band, pal); fill != 0) {
      // a chip in its band's shade: the label reads as that band's, over the strip's shading
      const ImVec2 c0(at.x - 6 * s, at.y - 1 * s);
      const ImVec2 c1(at.x + w + 6 * s, at.y + lay.band_font->FontSize + 1 * s);
      dl->AddRectFilled(c0, c1, pal.canvas, 3 * s);  // the shade over the canvas, not over shade
      dl->AddRectFilled(c0, c1, fill, 3 * s);
    }
    canvas.pen.text(lay.band_font, at, pal.text, l.text);
    band_marks_.push_back(mark);
  }

  const float thick = std::max(1.0f, std::round(3.0f * s));
  const float thin = std::max(1.0f, std::round(2.0f * s));
  const ImU32 chosen = method_colour(sp.method, p.theme);
  // (a) wavelengths and the lines L, s·L
  // a dashed line with its label in a box just above it (or below: two lines close together get
  // one label above the upper line and one below the lower), at the left or right end
  struct Pending {  // line labels, drawn after the curves so that no curve crosses them
    ImVec2 pos;
    ImU32 colour;
    std::string text;
  };
  std::vector<Pending> labels;
  // In a short plot (a lesson's half canvas) the side asked for may not fit: then the other
  // end, and last the label over its own line; never off the plot, never over another label.
  const auto line_label = [&](const plot::Frame& fr, double v, const std::string& text, bool right,
                              bool below, ImU32 colour) {
    plot::hline(dl, fr, v, colour, thin, true);
    const float w = text_size(f.body, text).x;
    const float th = f.body->FontSize;
    const ImVec2 lp = plot::label_box_padding(st);
    const float py = fr.y.to_px(v);
    if (py < fr.area_min.y || py > fr.area_max.y) return;
    const auto place = [&](bool at_right, int side) {  // side: 1 below, -1 above, 0 over the line
      return ImVec2(
          at_right ? fr.area_max.x - w - lp.x - 6 * s : fr.area_min.x + lp.x + 6 * s,
          side > 0   ? py + lp.y + 3 * s
          : side < 0 ? py - th - lp.y - 3 * s
                     : std::clamp(py - 0.5f * th, fr.area_min.y + lp.y, fr.area_max.y - th - lp.y));
    };
    const auto free = [&](ImVec2 at) {
      if (at.y - lp.y < fr.area_min.y || at.y + th + lp.y > fr.area_max.y) return false;
      for (const Pending& o : labels) {
        const float ow = text_size(f.body, o.text).x;
        if (at.x - lp.x < o.pos.x + ow + lp.x && o.pos.x - lp.x < at.x + w + lp.x &&
            at.y - lp.y < o.pos.y + th + lp.y && o.pos.y - lp.y < at.y + th + lp.y)
          return false;
      }
      return true;
    };
    const int side = below ? 1 : -1;
    // never the other side of the line: with two lines close together the label would sit
    // on the wrong one
    for (const auto& [at_right, sd] : {std::pair{right, side}, std::pair{!right, side},
                                       std::pair{right, 0}, std::pair{!right, 0}}) {
      const ImVec2 at = place(at_right, sd);
      if (free(at)) {
        labels.push_back({at, colour, text});
        return;
      }
    }
  };
  const bool wider = m.factor > 1.0;  // s·L above L
  // L's label at the right end: below the line there the wavelengths (past L) run above it, where
  // at the left it sat on the start of the scaled λ′ line (review D12, 11-4 and 12-1)
  line_label(frames_[0], m.context, "L = " + count(m.context), wider, wider, pal.text);
  if (m.factor != 1.0)
    line_label(frames_[0], m.factor * m.context, "s·L = " + count(m.factor * m.context), false,
               !wider, chosen);
  plot::line(dl, frames_[0], m.index, m.wavelength, pal.text, thick);
  if (sp.method != ScalingMethod::none)
    plot::line(dl, frames_[0], m.index, m.wavelength_scaled, chosen, thin);
  // (b) rotations per context and the ramp's lines
  const bool llama = sp.method == ScalingMethod::llama3;
  const double r_hi = llama ? sp.high_freq_factor : sp.beta_fast;
  const double r_lo = llama ? sp.low_freq_factor : sp.beta_slow;
  const std::string who = llama ? "Llama 3.1 " : "YaRN ";
  line_label(frames_[1], r_hi, "r = " + num(r_hi) + "  (" + who + (llama ? "high" : "β") + ")",
             true, false, pal.text_dim);
  if (r_lo != r_hi)
    line_label(frames_[1], r_lo, "r = " + num(r_lo) + "  (" + who + (llama ? "low" : "α") + ")",
               false, true, pal.text_dim);  // left, under its line: the curve is high there
  plot::line(dl, frames_[1], m.index, m.rotations, pal.text, thick);
  // (c) θ′/θ: 1/s marked; the overlays first, the chosen method on top
  if (m.factor != 1.0)
    line_label(frames_[2], 1.0 / m.factor, "1/s = " + num(1.0 / m.factor), false, m.factor < 1.0,
               pal.text_dim);
  for (auto it = m.curves.rbegin(); it != m.curves.rend(); ++it)
    plot::line(dl, frames_[2], m.index, it->ratio, method_colour(it->method, p.theme),
               it->chosen ? thick : thin, it->dashed);
  if (m.half <= 128) {
    const float r = std::clamp(
        0.25f * (frames_[2].area_max.x - frames_[2].area_min.x) / static_cast<float>(m.half),
        2.0f * s, 5.0f * s);
    // one dot per pair, a few px across: without the anti-aliased fringe and with 8 segments
    // they look the same, and llvmpipe pays per triangle (64 dots were about 3 000 vertices)
    const ImDrawListFlags flags = dl->Flags;
    dl->Flags &= ~ImDrawListFlags_AntiAliasedFill;
    for (int i = 0; i < m.half; ++i) {
      const auto u = static_cast<std::size_t>(i);
      const ImVec2 at(frames_[2].x.to_px(m.index[u]), frames_[2].y.to_px(m.ratio[u]));
      if (frames_[2].contains(at)) dl->AddCircleFilled(at, r, chosen, 8);
    }
    dl->Flags = flags;
  }

  for (const Pending& l : labels)
    plot::label_box(dl, st, f.body, l.pos, l.colour, l.text);
}

// [SECTION] hover: the pair under the mouse, exactly

void ExtensionView::hover(const Model& m, const Canvas& canvas, const ViewEnv& env,
                          const Params& p) const {
  const plot::Frame* fr = nullptr;
  for (const plot::Frame& f : frames_)
    if (f.contains(canvas.mouse)) fr = &f;
  if (!fr || m.half == 0) return;
  const double iv = std::round(fr->x.from_px(canvas.mouse.x));
  if (iv < 0.0 || iv >= m.half) return;
  const auto u = static_cast<std::size_t>(iv);
  const Palette& pal = palette(p.theme);
  for (const plot::Frame& f : frames_)
    plot::vline(canvas.draw_list, f, iv, pal.text, std::max(1.0f, std::round(env.scale)));
  ImGui::BeginTooltip();
  ImGui::Text("pair i = %d", static_cast<int>(u));
  ImGui::Text("θᵢ = %s rad/token,  λᵢ = %s tokens", full_number(m.sf.theta[u]).c_str(),
              full_number(m.wavelength[u]).c_str());
  ImGui::Text("rᵢ = L/λᵢ = %s turns in L = %.0f", full_number(m.rotations[u]).c_str(), m.context);
  ImGui::Text("θ′ᵢ = %s,  λ′ᵢ = %s", full_number(m.sf.theta_scaled[u]).c_str(),
              full_number(m.wavelength_scaled[u]).c_str());
  ImGui::Text("θ′ᵢ/θᵢ = %s", full_number(m.ratio[u]).c_str());
  if (!m.sf.ramp.empty()) ImGui::Text("γᵢ (1 = kept) = %s", full_number(m.sf.ramp[u]).c_str());
  for (const Curve& c : m.curves)
    if (!c.chosen)
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(method_colour(c.method, p.theme)),
                         "%s: θ′/θ = %s", c.label.c_str(), full_number(c.ratio[u]).c_str());
  ImGui::Text("attention factor %s (logits × %s)", full_number(m.sf.attention_factor).c_str(),
              full_number(m.sf.attention_factor * m.sf.attention_factor).c_str());
  ImGui::EndTooltip();
}

// [SECTION] Draw

void ExtensionView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  if (p.extension.mode == ExtensionMode::extrapolation) {
    for (plot::Frame& f : frames_)
      f = plot::Frame{};
    extrapolation_.Draw(state, env);
    return;
  }
  const Model& m = model_.get(inputs_of(p), compute);
  const MathScope math(env, own_math_);
  const Canvas canvas("extension_canvas", &drawn_, math.pen());
  if (!m.error.empty()) {
    const float pad = std::round(16.0f * env.scale);
    canvas.pen.wrapped(env.fonts->large, ImVec2(canvas.origin.x + pad, canvas.origin.y + pad),
                       std::max(1.0f, canvas.size.x - 2 * pad), palette(p.theme).bad, m.error);
    return;
  }
  const Layout lay = layout(m, canvas, env, p);
  paint(m, lay, canvas, env, p);
  if (canvas.hovered) hover(m, canvas, env, p);
}

// [SECTION] controls

void ExtensionView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  ExtensionParams& ext = p.extension;
  ScalingParams& sp = ext.scaling;
  int mode = ext.mode == ExtensionMode::frequencies ? 0 : 1;
  if (ImGui::RadioButton("θ′ per pair", mode == 0)) mode = 0;
  ImGui::SameLine();
  if (ImGui::RadioButton("why extrapolation fails", mode == 1)) mode = 1;
  ext.mode = mode == 0 ? ExtensionMode::frequencies : ExtensionMode::extrapolation;

  // The presets are models of assets/models.json (state/models.h), set through the table; a
  // button whose model the file lacks is not drawn.
  const ModelLibrary& lib = model_library();
  const auto set_all = [&p](std::initializer_list<std::pair<const char*, std::string>> values) {
    Params trial = p;
    for (const auto& [name, value] : values)
      if (!set_param(trial, name, value).ok()) return;
    if (validate_params(trial).ok()) p = std::move(trial);
  };
  const auto text = [](double v) { return format_number(v, NumberStyle::csv); };
  if (const ModelPreset* llama2 = lib.find("llama-2-7b")) {
    // YaRN's own runs on Llama 2 (Peng et al. 2023): s = 16 over the model's L, the paper's
    // β_fast, β_slow (the defaults of rope::ScalingParams); not a model the file ships
    constexpr double kYarnPaperFactor = 16.0;
    const std::string label =
        "YaRN on " + llama2->name + ", " + nobreak("s = " + text(kYarnPaperFactor));
    if (ImGui::Button(label.c_str())) {
      const ScalingParams paper{};
      set_all({{"model", llama2->id},
               {"scaling", "yarn"},
               {"factor", text(kYarnPaperFactor)},
               {"beta_fast", text(paper.beta_fast)},
               {"beta_slow", text(paper.beta_slow)},
               {"extension_mode", "frequencies"}});
    }
  }
  if (const ModelPreset* llama31 = lib.find("llama-3.1-8b")) {
    std::string factor;
    for (const auto& [name, value] : llama31->scaling)
      if (name == "factor") factor = value;
    const std::string label =
        llama31->name + " (" + llama31->scaling_method + "), " + nobreak("s = " + factor);
    if (ImGui::Button(label.c_str()))
      set_all({{"model", llama31->id}, {"extension_mode", "frequencies"}});
  }
  if (ext.mode == ExtensionMode::extrapolation) {
    // PI's Fig. 2 fits LLaMA 7B's d and base over its pre-training context L = 2048
    if (const ModelPreset* llama1 = lib.find("llama-1-7b")) {
      const std::string label =
          "PI Fig. 2: " + llama1->name + ", " + nobreak("L = " + std::to_string(llama1->context));
      if (ImGui::Button(label.c_str()))
        set_all({{"dim", std::to_string(llama1->head_dim)},
                 {"base", text(llama1->base)},
                 {"original_context", std::to_string(llama1->context)}});
    }
    if (ImGui::Button("Re-roll the targets (R)"))
      p.seed = p.seed >= static_cast<std::uint64_t>(kMaxSeed) ? 0 : p.seed + 1;
    // The fit's own limits (rope/extrapolation.h: L from 2 to kMaxFitContext, one least-squares
    // system of L rows): ends the mode sets, inside the table's range.
    ImGui::SetNextItemWidth(-1);
    param_slider(p, "original_context", SliderEnds{2.0, static_cast<double>(kMaxFitContext)});
    return;
  }

  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##scaling", scaling_method_names(sp.method).words)) {
    for (const ScalingMethodNames& n : all_scaling_method_names()) {
      // a method this state cannot take (LongRoPE without its two lists) is shown, greyed, with
      // the reason: choosing it would leave a state no session or export takes
      Params trial = p;
      const Status can = change_param(trial, "scaling", scaling_name(n.method));
      ImGui::BeginDisabled(!can.ok());
      if (ImGui::Selectable(n.words, n.method == sp.method)) p = std::move(trial);
      ImGui::EndDisabled();
      if (!can.ok() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip(
            "%s%s",
            n.method == ScalingMethod::longrope
                ? "LongRoPE needs its two lists of d/2 factors: choose a LongRoPE model "
                  "(Phi-3-mini-128k) or give --long-factor-file and --short-factor-file.\n"
                : "Not with these values: ",
            can.error().to_string().c_str());
    }
    ImGui::EndCombo();
  }
  bool edited = false;
  const auto slider = [&](const char* param) {
    ImGui::SetNextItemWidth(-1);
    edited |= param_slider(p, param);
  };
  slider("factor");
  slider("original_context");
  ImGui::Checkbox("overlay every method at this s", &ext.compare_methods);
  switch (sp.method) {
    case ScalingMethod::yarn:
      slider("beta_fast");
      slider("beta_slow");
      ImGui::Checkbox("truncate (floor/ceil)", &sp.truncate);
      break;
    case ScalingMethod::llama3:
      slider("low_freq_factor");
      slider("high_freq_factor");
      break;
    case ScalingMethod::dynamic:
    case ScalingMethod::longrope: {
      slider("sequence_length");
      if (sp.method == ScalingMethod::longrope)
        ImGui::TextWrapped("lists: %zu long, %zu short entries (--long-factor-file)",
                           sp.long_factor.size(), sp.short_factor.size());
      break;
    }
    case ScalingMethod::proportional:
      slider("rotary_fraction");
      break;
    default:
      break;
  }
  if (edited) normalise_extension(ext);  // one slider moved: the other field follows
}

}  // namespace rope::app
