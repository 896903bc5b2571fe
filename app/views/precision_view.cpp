// views/precision_view.cpp — RoPE in low precision (precision_view.h).
//
// [SECTION] compute: the sweep and the numbers at m, both through ViewCache
// [SECTION] text: numbers and the header's lines
// [SECTION] layout: the fullest arrangement that fits (first_fitting)
// [SECTION] paint: dials, error plot, strip
// [SECTION] hover: exact values under the mouse
// [SECTION] Draw and DrawControls
#include "views/precision_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>

#include "io/number_format.h"
#include "rope/frequencies.h"
#include "rope/rotation.h"
#include "state/params.h"
#include "ui/param_widgets.h"
#include "ui/plot.h"
#include "ui/theme.h"
#include "views/view_precision.h"

namespace rope::app {
namespace {

using Sweep = PrecisionView::Sweep;
using Now = PrecisionView::Now;

constexpr double kErrorFloor = 1e-9;  // rad: the plot's bottom; an exact (zero) error sits on it
constexpr double kErrorTop = 4.0;     // rad: just above pi, the largest wrapped error
constexpr double kMarks[] = {256.0, 2048.0, 65504.0};
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// [SECTION] compute

// Samples of the error curve: 2000 up to d = 256, then fewer so that a change of d costs at
// most about 2^18 rounded angles (d = 4096: 400 samples).
int sweep_count(int dim) {
  return std::clamp(262144 / std::max(1, dim / 2), 400, 2000);
}

Sweep compute_sweep(const PrecisionView::SweepInputs& in) {
  Sweep out;
  auto positions = log_spaced_positions(sweep_count(in.dim), PrecisionView::kMaxPosition);
  if (!positions) {
    out.problem = positions.error().to_string();
    return out;
  }
  auto chosen = sweep_angle_error(in.dim, in.base, in.formats, positions.value());
  if (!chosen) {
    out.problem = chosen.error().to_string();
    return out;
  }
  out.positions = std::move(chosen.value().positions);
  out.error = std::move(chosen.value().max_abs_error);
  out.worst_pair = std::move(chosen.value().worst_pair);
  const PrecisionFormats fp32{};  // every cast point in fp32
  if (!(in.formats == fp32)) {
    auto ref = sweep_angle_error(in.dim, in.base, fp32, out.positions);
    if (ref) out.reference = std::move(ref.value().max_abs_error);
  }
  return out;
}

Now compute_now(const PrecisionView::NowInputs& in) {
  Now out;
  auto at_m = emulate_angles(in.m, in.dim, in.base, in.formats);
  auto at_n = emulate_angles(in.n, in.dim, in.base, in.formats);
  auto thetas = frequencies(in.dim, in.base);
  if (!at_m || !at_n || !thetas) {
    out.problem = (!at_m ? at_m.error() : !at_n ? at_n.error() : thetas.error()).to_string();
    return out;
  }
  out.angles = std::move(at_m).value();
  out.thetas = thetas.value();
  for (std::size_t i = 0; i < out.angles.size(); ++i) {
    const double e = std::fabs(out.angles[i].wrapped_error);
    if (std::isnan(e)) {  // an angle overflowed: there is no error to speak of
      out.max_error = kNaN;
      out.worst_pair = static_cast<int>(i);
      break;
    }
    if (e > out.max_error) {
      out.max_error = e;
      out.worst_pair = static_cast<int>(i);
    }
  }
  std::vector<double> qm(in.q.size()), kn(in.k.size());
  apply_rope<double>(in.q, qm, in.m, thetas.value(), in.pairing);
  apply_rope<double>(in.k, kn, in.n, thetas.value(), in.pairing);
  out.score_exact = dot(qm, kn);
  auto eq = rotate_emulated(in.q, out.angles, in.pairing);
  auto ek = rotate_emulated(in.k, at_n.value(), in.pairing);
  out.score_emulated = eq && ek ? dot(eq.value(), ek.value()) : kNaN;
  out.strip_first = std::round(in.m) - (PrecisionView::kStripCells / 2 - 1);
  if (auto c =
          collapsed_positions(out.strip_first, PrecisionView::kStripCells, in.formats.position))
    out.stored = std::move(c).value();
  out.pair = std::clamp(in.pair, 0, std::max(0, in.dim / 2 - 1));
  return out;
}

PrecisionView::SweepInputs sweep_inputs(const Params& p) {
  return {p.dim, p.base, p.precision.formats};
}

PrecisionView::NowInputs now_inputs(const Params& p) {
  return {p.dim,
          p.base,
          p.precision.formats,
          p.position,
          p.key_position,
          p.pairing,
          effective_vector(p.query, p, false),
          effective_vector(p.key, p, true),
          p.precision.pair};
}

// [SECTION] text

// "₁₂" for 12: the pair index as a subscript.
std::string subscript(int i) {
  static const char* kSub[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
  std::string s;
  for (char c : std::to_string(i))
    s += kSub[c - '0'];
  return s;
}

// A number with up to `digits` significant digits and the integer part grouped as the tick
// style
// ("8 659 643.23", "1045", "0.5625"); exponents for very large or small values.
std::string value_text(double v, int digits = 9) {
  if (!std::isfinite(v) || (v != 0.0 && (std::fabs(v) >= 1e12 || std::fabs(v) < 1e-4)))
    return format_number(v, NumberStyle::label, digits);
  if (v == std::round(v))
    return (v < 0 ? "−" : "") + format_number(std::fabs(v), NumberStyle::tick);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, std::fabs(v));
  std::string s = buf;
  if (s.find('e') != std::string::npos) return format_number(v, NumberStyle::label, digits);
  const auto point = s.find('.');
  const double whole = std::floor(std::fabs(v));
  std::string grouped = format_number(whole, NumberStyle::tick);
  if (point != std::string::npos) grouped += s.substr(point);
  return (v < 0 ? "−" : "") + grouped;
}

// A position as the strip and the header print it: integers grouped, others with 2 decimals.
std::string position_text(double v) {
  if (v == std::round(v)) return value_text(v);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.2f", std::fabs(v));
  return (v < 0 ? "−" : "") + std::string(buf);
}

// An angle error in rad with its sign ("+0.7322", "−5.2·10⁻³"); "∞" when the angle overflowed.
std::string error_text(double e, int digits = 4) {
  if (std::isnan(e)) return "∞";
  return (e > 0 ? "+" : "") + format_number(e, NumberStyle::label, digits);
}

// The four lines above the pictures.
struct Header {
  std::string title = "RoPE in low precision";
  std::string config, pair, score;
};

Header header_of(const Params& p, const Now& now) {
  Header h;
  h.config = nobreak("m = " + position_text(p.position)) + "   " +
             nobreak("n = " + position_text(p.key_position)) + "   " +
             nobreak("d = " + std::to_string(p.dim)) + "   " +
             nobreak("base " + value_text(p.base)) + "   " + precision_words(p.precision.formats);
  if (!now.problem.empty()) {
    h.pair = now.problem;
    return h;
  }
  const EmulatedAngle& a = now.angles[static_cast<std::size_t>(now.pair)];
  const std::string i = subscript(now.pair);
  h.pair = nobreak("pair " + std::to_string(now.pair) + ":") + " " +
           nobreak("m·θ" + i + " = " + value_text(a.exact_angle, 10) + " rad") + " ";
  h.pair += std::isfinite(a.angle)
                // the same digits as the exact angle: an equal value reads equal (review D10)
                ? nobreak("stored as " + value_text(a.angle, 10) + ",") + " " +
                      nobreak("error " + error_text(a.wrapped_error) + " rad") +
                      // the error is of the direction: whole turns between the two do not count
                      (std::fabs((a.angle - a.exact_angle) - a.wrapped_error) > 1e-9
                           ? " " + nobreak("(mod 2π)")
                           : std::string())
                : nobreak("stored as ∞:") + " " + nobreak("the angle overflowed");
  h.score =
      nobreak("score (Rₘq)·(Rₙk):") + " " +
      nobreak("exact " + format_number(now.score_exact, NumberStyle::label, 7) + ",") + " " +
      nobreak("with stored cos/sin " + format_number(now.score_emulated, NumberStyle::label, 7));
  if (std::isnan(now.score_emulated)) {
    h.score += " " + nobreak("(an angle overflowed)");
  } else {
    h.score +=
        " " + nobreak("(difference " + error_text(now.score_emulated - now.score_exact, 3) + ")");
  }
  return h;
}

// [SECTION] layout

struct Box {
  ImVec2 min{0, 0}, max{0, 0};
  bool shown() const { return max.x > min.x && max.y > min.y; }
  float w() const { return max.x - min.x; }
  float h() const { return max.y - min.y; }
};

struct Layout {
  ImFont* title_font = nullptr;
  ImFont* read_font = nullptr;
  float x0 = 0, width = 0;
  float title_y = 0, config_y = 0, pair_y = 0, score_y = 0;
  Box dials, plot, strip;
  bool mark_notes = false;  // the plot's caption explains the dashed marks
};

// Levels, fullest first: 0 large title; 1 smaller title; 2 body-size read-out; 3 bold title and
// smaller pictures; 4 two pictures, the plot and the strip when positions collapse near m (else
// the dials); 5 the plot alone; 6 the header alone.
constexpr int kLevels = 7;

std::string strip_caption(int count, int distinct, FloatFormat format) {
  return nobreak(std::to_string(count) + " consecutive positions") + " " +
         nobreak(std::string("stored in ") + format_name(format) + ":") + " " +
         nobreak(std::to_string(distinct) + (distinct == 1 ? " value" : " values"));
}

// The strip's height: its caption (as long as it can get, wrapped to `width`), the row of
// integers, the brackets and the stored values.
float strip_height(const Fonts& f, float s, float width, FloatFormat format) {
  const float caption =
      wrapped_size(f.bold,
                   strip_caption(PrecisionView::kStripCells, PrecisionView::kStripCells, format),
                   width)
          .y;
  return caption + f.body->FontSize * 2.0f + 26.0f * s;
}

Layout layout_at(int level, bool prefer_strip, FloatFormat format, const Header& h, const Canvas& c,
                 const Fonts& f, float s, bool* fits) {
  Layout l;
  const float pad = std::round(16.0f * s);
  l.x0 = c.origin.x + pad;
  l.width = std::max(1.0f, c.size.x - 2 * pad);
  l.title_font = level == 0 ? f.title : level <= 2 ? f.heading : f.bold;
  l.read_font = level <= 1 ? f.large : f.body;
  float y = c.origin.y + pad;
  l.title_y = y;
  y += wrapped_size(l.title_font, h.title, l.width).y + 2 * s;
  l.config_y = y;
  y += wrapped_size(f.body, h.config, l.width).y + 6 * s;
  l.pair_y = y;
  y += wrapped_size(l.read_font, h.pair, l.width).y;
  l.score_y = y;
  y += (h.score.empty() ? 0.0f : wrapped_size(l.read_font, h.score, l.width).y) + 12 * s;
  const float bottom = c.origin.y + c.size.y - pad;
  const float gap = std::round(18.0f * s);
  l.mark_notes = level <= 1;
  *fits = true;
  if (level >= 6) return l;
  const bool strip = level <= 3 || (level == 4 && prefer_strip);
  const bool dials = level <= 3 || (level == 4 && !prefer_strip);
  if (strip) {
    const float sh = strip_height(f, s, l.width, format);
    l.strip = {ImVec2(l.x0, bottom - sh), ImVec2(l.x0 + l.width, bottom)};
  }
  const float mid_bottom = strip ? l.strip.min.y - gap : bottom;
  const float mid_h = mid_bottom - y;
  // the plot's own caption, legend, marks and tick labels take about 150 px of these
  const float plot_min_h = (level <= 2 ? 300.0f : 260.0f) * s;
  const float dials_min_h = (level <= 2 ? 150.0f : 110.0f) * s;
  if (!dials) {
    l.plot = {ImVec2(l.x0, y), ImVec2(l.x0 + l.width, mid_bottom)};
    *fits = mid_h >= plot_min_h;
  } else if (l.width >= 820.0f * s) {  // side by side
    const float dw = std::round(0.4f * l.width);
    l.dials = {ImVec2(l.x0, y), ImVec2(l.x0 + dw, mid_bottom)};
    l.plot = {ImVec2(l.x0 + dw + gap, y), ImVec2(l.x0 + l.width, mid_bottom)};
    *fits = mid_h >= plot_min_h;
  } else {
    const float dh = std::round(0.42f * (mid_h - gap));
    l.dials = {ImVec2(l.x0, y), ImVec2(l.x0 + l.width, y + dh)};
    l.plot = {ImVec2(l.x0, y + dh + gap), ImVec2(l.x0 + l.width, mid_bottom)};
    *fits = dh >= dials_min_h && l.plot.h() >= plot_min_h;
  }
  return l;
}

Layout layout(bool prefer_strip, FloatFormat format, const Header& h, const Canvas& c,
              const Fonts& f, float s) {
  bool fits = false;
  const int level = first_fitting(kLevels, [&](int lv) {
    layout_at(lv, prefer_strip, format, h, c, f, s, &fits);
    return fits;
  });
  return layout_at(level, prefer_strip, format, h, c, f, s, &fits);
}

// Whether neighbouring integers around m are stored as one value (the strip's point).
bool collapsing(const Now& now) {
  for (std::size_t k = 1; k < now.stored.size(); ++k)
    if (now.stored[k] == now.stored[k - 1]) return true;
  return false;
}

// [SECTION] paint

struct Paint {
  const Canvas& c;
  const Fonts& f;
  const Palette& pal;
  const plot::Style& st;
  float s;
};

// The dials' grid: columns and radius for n dials in a w x h box, label_h px of labels per row.
struct Grid {
  int cols = 1, rows = 1;
  float cell_w = 0, cell_h = 0, r = 0;
};

Grid grid_for(int n, float w, float h, float label_h, float min_cell_w, float s) {
  Grid best;
  for (int cols = 1; cols <= n; ++cols) {
    const int rows = (n + cols - 1) / cols;
    const float cw = w / static_cast<float>(cols);
    const float ch = h / static_cast<float>(rows);
    const float r = std::min(0.5f * cw, 0.5f * (ch - label_h)) - 6.0f * s;
    if (cw >= min_cell_w && r > best.r) best = {cols, rows, cw, ch, r};
  }
  best.r = std::min(best.r, 110.0f * s);
  return best;
}

void paint_dials(const Paint& pt, const Box& box, const Now& now, int half,
                 std::vector<PrecisionView::Dial>& out) {
  out.clear();
  if (!box.shown() || now.angles.empty()) return;
  const float s = pt.s;
  const Fonts& f = pt.f;
  const Pen& pen = pt.c.pen;
  ImDrawList* dl = pt.c.draw_list;
  float y = box.min.y;
  const int n = std::min(half, PrecisionView::kMaxDials);
  const std::string caption =
      "Each pair’s angle m·θᵢ" +
      (half > n ? " (pairs 0 … " + std::to_string(n - 1) + " of " + std::to_string(half) + ")"
                : std::string()) +
      "; error in rad";
  y += pen.wrapped(f.bold, ImVec2(box.min.x, y), box.w(), pt.pal.text, caption) + 2 * s;
  const plot::LegendEntry entries[] = {{"exact", pt.pal.key, false, false},
                                       {"stored", pt.pal.query, false, false},
                                       {"error", pt.pal.accent, false, false}};
  y += plot::legend_row(dl, pt.st, ImVec2(box.min.x, y), box.w(), entries) + 8 * s;
  // labels under each dial ("i = 12", "−0.4934") when the cells are wide enough for them
  const float label_w = text_size(f.body, "−5.2·10⁻³").x + 8 * s;
  const float label_h = f.body->FontSize * 2.0f + 4.0f * s;
  Grid g = grid_for(n, box.w(), box.max.y - y, label_h, label_w, s);
  const bool labels = g.r >= 16.0f * s;
  if (!labels) g = grid_for(n, box.w(), box.max.y - y, 0.0f, 0.0f, s);
  if (g.r < 4.0f * s) return;
  const float x0 = box.min.x + 0.5f * (box.w() - g.cell_w * static_cast<float>(g.cols));
  const float thick = std::round(std::clamp(0.05f * g.r, 1.0f * s, 3.0f * s));
  for (int i = 0; i < n; ++i) {
    const EmulatedAngle& a = now.angles[static_cast<std::size_t>(i)];
    const ImVec2 centre(x0 + g.cell_w * (static_cast<float>(i % g.cols) + 0.5f),
                        y + g.cell_h * static_cast<float>(i / g.cols) + g.r + 6 * s);
    const bool chosen = i == now.pair;
    // small dials (d in the hundreds): a baked ring for the rim (ui/theme.h), no arc,
    // a dot for the exact tip and no anti-aliased fringe on the arrowhead; llvmpipe pays per
    // vertex, and 64 dials of polylines cost it several milliseconds a frame
    const bool small = g.r < 32.0f * s;
    const Fonts::Ring* baked = chosen ? nullptr : f.ring_for(g.r);
    if (baked) {
      add_ring(dl, *baked, centre, g.r, pt.pal.grid);
    } else {
      dl->AddCircle(centre, g.r, chosen ? pt.pal.text : pt.pal.grid,
                    std::clamp(static_cast<int>(g.r / 3.0f), 24, 48),
                    std::round((chosen ? 2.5f : 1.5f) * s));
    }
    const float len = 0.9f * g.r;
    PrecisionView::Dial d{i, centre, polar(centre, len, a.exact_angle), centre, g.r};
    const ImDrawListFlags flags = dl->Flags;
    if (small) dl->Flags &= ~ImDrawListFlags_AntiAliasedFill;
    if (std::isfinite(a.angle)) {
      d.stored_tip = polar(centre, len, a.angle);
      if (std::fabs(a.wrapped_error) > 1e-3 && !small)
        draw_arc(dl, centre, 0.45f * g.r, a.exact_angle, a.exact_angle + a.wrapped_error,
                 pt.pal.accent, thick, 24);
      // stored first and thicker, the exact pointer over it: both stay visible when they agree
      draw_arrow(dl, centre, d.stored_tip, pt.pal.query, thick + std::round(s),
                 std::max(5.0f * s, 0.22f * g.r));
    } else if (g.r >= 12.0f * s) {  // the angle overflowed to inf: nothing to point at
      pen.centred(f.bold, ImVec2(centre.x, centre.y - 0.5f * f.bold->FontSize), pt.pal.bad, "∞");
    }
    dl->AddLine(centre, d.exact_tip, pt.pal.key, thick);
    if (small) {
      dl->AddCircleFilled(d.exact_tip, std::max(2.0f * s, thick), pt.pal.key, 6);
    } else {
      dl->AddCircle(d.exact_tip, std::max(2.5f * s, 1.5f * thick), pt.pal.key, 8, thick);
    }
    dl->Flags = flags;
    out.push_back(d);
    if (!labels) continue;
    float ly = centre.y + g.r + 4 * s;
    pen.centred(chosen ? f.bold : f.body, ImVec2(centre.x, ly), pt.pal.text,
                "i = " + std::to_string(i));
    ly += f.body->FontSize;
    const bool large = !(std::fabs(a.wrapped_error) < 0.01);
    pen.centred(f.body, ImVec2(centre.x, ly), large ? pt.pal.accent : pt.pal.text_dim,
                error_text(a.wrapped_error, 2));
  }
}

// The labels of the dashed marks above the plot: in one row, or two when neighbours collide.
struct MarkLabel {
  double x;
  std::string text;
  int row;
};

std::vector<MarkLabel> mark_labels(const plot::Scale& xs, ImFont* font, float s, int* rows) {
  std::vector<MarkLabel> out;
  float right[2] = {-1e9f, -1e9f};
  *rows = 1;
  for (double m : kMarks) {
    const std::string t = value_text(m);
    const float w = text_size(font, t).x, cx = xs.to_px(m);
    const int row = cx - 0.5f * w > right[0] + 8 * s ? 0 : 1;
    right[row] = cx + 0.5f * w;
    *rows = std::max(*rows, row + 1);
    out.push_back({m, t, row});
  }
  return out;
}

// The error curves are noise above a few thousand positions (the rounding error of each pair
// is a pseudo-random fraction of an ulp). Drawn through every sample, each pixel column holds a
// zigzag of strokes: the class sees a smear, and llvmpipe pays per vertex. What matters is how
// large the error gets near a position, so the curve drawn is an upper envelope: the largest
// sample per column of `w` px, then the largest of the columns within `reach` px either side,
// with runs of equal height drawn as one segment. NaN (an overflowed angle) breaks the line. The
// values lie inside the area (floored at kErrorFloor, at most pi), so no clip rectangle is
// pushed (each draw command costs llvmpipe about a millisecond at 1920 x 1080). The exact
// samples are under the mouse (hover), and the exact value at m is marked.
void envelope_line(ImDrawList* dl, const plot::Frame& f, std::span<const double> xs,
                   std::span<const double> ys, ImU32 colour, float thickness, float w,
                   float reach) {
  // per column: x of its centre and the smallest screen y (the largest error); NaN: a gap
  std::vector<ImVec2> cols;
  long col = std::numeric_limits<long>::min();
  for (std::size_t i = 0; i < std::min(xs.size(), ys.size()); ++i) {
    if (std::isnan(ys[i])) {
      if (cols.empty() || !std::isnan(cols.back().y)) cols.emplace_back(0.0f, std::nanf(""));
      col = std::numeric_limits<long>::min();
      continue;
    }
    const float y = std::clamp(f.y.to_px(ys[i]), f.area_min.y, f.area_max.y);
    const long c = std::lround(std::floor(f.x.to_px(xs[i]) / w));
    if (c == col) {
      cols.back().y = std::min(cols.back().y, y);
      continue;
    }
    col = c;
    cols.emplace_back((static_cast<float>(c) + 0.5f) * w, y);
  }
  std::vector<ImVec2> run;
  const auto draw = [&] {
    if (run.size() >= 2)
      dl->AddPolyline(run.data(), static_cast<int>(run.size()), colour, 0, thickness);
    run.clear();
  };
  for (std::size_t k = 0; k < cols.size(); ++k) {
    if (std::isnan(cols[k].y)) {
      draw();
      continue;
    }
    // the columns within `reach` px (not within so many samples: on the left, where the
    // log-spaced integers are sparse, neighbouring samples lie far apart)
    float y = cols[k].y;
    for (std::size_t j = k; j-- > 0 && !std::isnan(cols[j].y) && cols[k].x - cols[j].x <= reach;)
      y = std::min(y, cols[j].y);
    for (std::size_t j = k + 1;
         j < cols.size() && !std::isnan(cols[j].y) && cols[j].x - cols[k].x <= reach; ++j)
      y = std::min(y, cols[j].y);
    const ImVec2 p(cols[k].x, y);
    // a point between two of the same height adds nothing: move it along instead
    if (run.size() >= 2 && run.back().y == y && run[run.size() - 2].y == y) {
      run.back() = p;
      continue;
    }
    run.push_back(p);
  }
  draw();
}

plot::Frame paint_plot(const Paint& pt, const Box& box, const Sweep& sw, const Now& now,
                       const Params& p, bool notes) {
  const float s = pt.s;
  const Fonts& f = pt.f;
  const Pen& pen = pt.c.pen;
  ImDrawList* dl = pt.c.draw_list;
  float y = box.min.y;
  y += pen.wrapped(f.bold, ImVec2(box.min.x, y), box.w(), pt.pal.text,
                   "Largest angle error over the pairs (rad)") +
       2 * s;
  if (notes && box.w() >= 640.0f * s)  // on a narrow plot the note would take three lines
    y += pen.wrapped(f.body, ImVec2(box.min.x, y), box.w(), pt.pal.text_dim,
                     std::string("Grey lines: 256 and 2048, the last integers bf16 and fp16 store "
                                 "exactly; ") +
                         nobreak("65 504,") + " the largest fp16.") +
         2 * s;
  const std::string preset = preset_name(p.precision.formats);
  // a preset whose angles are fp32's (the fix) draws one line: the other would hide under it
  const bool same = sw.reference.empty() || sw.reference == sw.error;
  std::vector<plot::LegendEntry> legend{
      {preset == "custom" ? "the formats above" : "preset " + preset, pt.pal.query, false, false}};
  if (!same) legend.push_back({"fp32 everywhere", pt.pal.key, false, false});
  if (same && !sw.reference.empty()) legend.front().label += " = fp32’s angles";
  y += plot::legend_row(dl, pt.st, ImVec2(box.min.x, y), box.w(), legend) + 4 * s;
  plot::Axis ax, ay;
  ax.lo = 1.0;
  ax.hi = PrecisionView::kMaxPosition;
  ax.log = true;
  ax.label = "position m (log scale)";
  ax.short_label = "position m";
  ay.lo = kErrorFloor;
  ay.hi = kErrorTop;
  ay.log = true;
  ay.label = "|error| (rad)";
  const plot::Margins mg = plot::margins(pt.st, ax, ay);
  const plot::Scale xs{ax.lo, ax.hi, true, box.min.x + mg.left, box.max.x - mg.right};
  int rows = 1;
  const auto labels = mark_labels(xs, f.body, s, &rows);
  const float row_h = f.body->FontSize + 2 * s;
  const float band_y = y;
  y += row_h * static_cast<float>(rows) + 2 * s;
  const plot::Frame fr = plot::axes(dl, pt.st, ImVec2(box.min.x, y), box.max, ax, ay);
  const float thin = std::max(1.0f, std::round(s));
  for (const MarkLabel& m : labels) {
    // solid: a dashed line is dozens of quads, and llvmpipe pays per vertex
    plot::vline(dl, fr, m.x, with_alpha(pt.pal.text_dim, 0.8f), thin);
    pen.centred(f.body, ImVec2(fr.x.to_px(m.x), band_y + row_h * static_cast<float>(m.row)),
                pt.pal.text_dim, m.text);
  }
  plot::hline(dl, fr, kPi, with_alpha(pt.pal.text_dim, 0.5f), thin);
  const auto floored = [](std::vector<double> v) {
    for (double& e : v)
      if (e < kErrorFloor) e = kErrorFloor;  // NaN stays NaN: the line breaks there
    return v;
  };
  {  // pi, the largest wrapped error (a pointer turned the wrong way round): in the right margin
    const ImVec2 ps = text_size(f.body, "π");
    pen.text(f.body, ImVec2(fr.area_max.x + 4 * s, fr.y.to_px(kPi) - 0.5f * ps.y), pt.pal.text_dim,
             "π");
  }
  const float thick = std::max(1.0f, std::round(2.0f * s));
  const float col_w = std::max(2.0f, std::round(2.0f * s));
  if (!same)
    envelope_line(dl, fr, sw.positions, floored(sw.reference), pt.pal.key, thick, col_w, 2 * col_w);
  envelope_line(dl, fr, sw.positions, floored(sw.error), pt.pal.query, thick, col_w, 2 * col_w);
  // the current position, with its exact largest error
  const double m = std::fabs(p.position);
  if (m >= 1.0 && m <= PrecisionView::kMaxPosition && now.problem.empty()) {
    plot::vline(dl, fr, m, pt.pal.text, std::max(1.0f, std::round(2.0f * s)));
    const double e = std::isnan(now.max_error) ? kNaN : std::max(now.max_error, kErrorFloor);
    if (!std::isnan(e)) plot::marker(dl, fr, m, e, pt.pal.query, 6 * s);
    const std::string label =
        nobreak("|m| = " + position_text(m) + ": ") +
        (std::isnan(e) ? "overflow" : format_number(now.max_error, NumberStyle::label, 3));
    const float w = text_size(f.body, label).x, px = fr.x.to_px(m);
    const ImVec2 lp = plot::label_box_padding(pt.st);
    float lx = px + 8 * s + lp.x;
    if (lx + w + lp.x > fr.area_max.x) lx = px - 8 * s - lp.x - w;
    lx = std::max(lx, fr.area_min.x + lp.x);
    plot::label_box(dl, pt.st, f.body, ImVec2(lx, fr.area_max.y - f.body->FontSize - 8 * s),
                    pt.pal.text, label);
  }
  return fr;
}

// The strip's cells: k integers centred on round(m), drawn from Now::stored.
struct StripCells {
  int first = 0, count = 0;  // indices into Now::stored
  float x0 = 0, cell_w = 0;
};

StripCells strip_cells(const Box& box, const Now& now, const Fonts& f, float s) {
  StripCells sc;
  if (now.stored.empty()) return sc;
  float widest = 0.0f;
  for (std::size_t k = 0; k < now.stored.size(); ++k) {
    widest =
        std::max(widest, text_size(f.body, value_text(now.strip_first + static_cast<double>(k))).x);
    widest = std::max(widest, text_size(f.body, value_text(now.stored[k])).x);
  }
  sc.cell_w = widest + 14 * s;
  sc.count = std::min(PrecisionView::kStripCells, static_cast<int>(box.w() / sc.cell_w));
  if (sc.count < 3) return StripCells{};
  const int centre = PrecisionView::kStripCells / 2 - 1;  // index of round(m)
  sc.first = std::clamp(centre - (sc.count - 1) / 2, 0, PrecisionView::kStripCells - sc.count);
  sc.x0 = box.min.x + 0.5f * (box.w() - sc.cell_w * static_cast<float>(sc.count));
  return sc;
}

void paint_strip(const Paint& pt, const Box& box, const Now& now, const Params& p) {
  if (!box.shown()) return;
  const float s = pt.s;
  const Fonts& f = pt.f;
  const Pen& pen = pt.c.pen;
  ImDrawList* dl = pt.c.draw_list;
  const StripCells sc = strip_cells(box, now, f, s);
  if (sc.count == 0) return;
  const auto at = [&](int k) { return now.stored[static_cast<std::size_t>(sc.first + k)]; };
  int distinct = 1;
  for (int k = 1; k < sc.count; ++k)
    distinct += at(k) != at(k - 1) ? 1 : 0;
  const std::string caption = strip_caption(sc.count, distinct, p.precision.formats.position);
  float y = box.min.y;
  y += pen.wrapped(f.bold, ImVec2(box.min.x, y), box.w(), pt.pal.text, caption) + 4 * s;
  const float cell_h = f.body->FontSize + 8 * s;
  for (int k = 0; k < sc.count;) {  // one group of equal stored values at a time
    int end = k + 1;
    while (end < sc.count && at(end) == at(k))
      ++end;
    const float gx0 = sc.x0 + sc.cell_w * static_cast<float>(k);
    const float gx1 = sc.x0 + sc.cell_w * static_cast<float>(end);
    const bool collapsed = end - k > 1;
    const ImU32 fill = collapsed ? with_alpha(pt.pal.query, 0.28f) : pt.pal.panel;
    dl->AddRectFilled(ImVec2(gx0 + s, y), ImVec2(gx1 - s, y + cell_h), fill);
    for (int j = k; j < end; ++j) {
      const double v = now.strip_first + static_cast<double>(sc.first + j);
      const float cx = sc.x0 + sc.cell_w * (static_cast<float>(j) + 0.5f);
      pen.centred(f.body, ImVec2(cx, y + 4 * s), pt.pal.text, value_text(v));
    }
    // the bracket under the group and the value its positions are stored as
    const float by = y + cell_h + 4 * s;
    const ImU32 bc = collapsed ? pt.pal.query : pt.pal.text_dim;
    const float bt = std::max(1.0f, std::round((collapsed ? 2.0f : 1.0f) * s));
    dl->AddLine(ImVec2(gx0 + 3 * s, by), ImVec2(gx1 - 3 * s, by), bc, bt);
    dl->AddLine(ImVec2(gx0 + 3 * s, by - 4 * s), ImVec2(gx0 + 3 * s, by), bc, bt);
    dl->AddLine(ImVec2(gx1 - 3 * s, by - 4 * s), ImVec2(gx1 - 3 * s, by), bc, bt);
    // a position stored as itself needs no second label: its bracket says it stands alone
    const double v0 = now.strip_first + static_cast<double>(sc.first + k);
    if (collapsed || at(k) != v0)
      pen.centred(collapsed ? f.bold : f.body, ImVec2(0.5f * (gx0 + gx1), by + 3 * s),
                  collapsed ? pt.pal.text : pt.pal.bad, value_text(at(k)));
    k = end;
  }
  // m itself: a tick over its place in the row (between cells when m is not an integer)
  const double frac = p.position - (now.strip_first + static_cast<double>(sc.first));
  const float mx = sc.x0 + sc.cell_w * (static_cast<float>(frac) + 0.5f);
  if (mx >= sc.x0 && mx <= sc.x0 + sc.cell_w * static_cast<float>(sc.count))
    dl->AddTriangleFilled(ImVec2(mx - 6 * s, y - 1 * s), ImVec2(mx + 6 * s, y - 1 * s),
                          ImVec2(mx, y + 6 * s), pt.pal.text);
}

// [SECTION] hover

void hover_dials(const Paint& pt, const std::vector<PrecisionView::Dial>& dials, const Now& now,
                 const Params& p) {
  for (const PrecisionView::Dial& d : dials) {
    if (std::hypot(pt.c.mouse.x - d.centre.x, pt.c.mouse.y - d.centre.y) > d.radius) continue;
    const EmulatedAngle& a = now.angles[static_cast<std::size_t>(d.pair)];
    const PrecisionFormats& fm = p.precision.formats;
    place_tooltip_beside(ImVec2(d.centre.x - d.radius, d.centre.y - d.radius),
                         ImVec2(d.centre.x + d.radius, d.centre.y + d.radius), 12.0f * pt.s);
    ImGui::BeginTooltip();
    ImGui::Text("pair i = %d", d.pair);
    ImGui::Text("position m = %s, stored (%s) %s", full_number(p.position).c_str(),
                format_name(fm.position), full_number(a.position).c_str());
    ImGui::Text("θᵢ exact %s, stored (%s) %s",
                full_number(now.thetas[static_cast<std::size_t>(d.pair)]).c_str(),
                format_name(fm.theta), full_number(a.theta).c_str());
    ImGui::Text("angle m·θᵢ exact %s rad, stored (%s) %s rad", full_number(a.exact_angle).c_str(),
                format_name(fm.angle), full_number(a.angle).c_str());
    ImGui::Text("wrapped error %s rad", full_number(a.wrapped_error).c_str());
    ImGui::Text("cos exact %s, stored (%s) %s", full_number(std::cos(a.exact_angle)).c_str(),
                format_name(fm.trig), full_number(a.cos).c_str());
    ImGui::Text("sin exact %s, stored (%s) %s", full_number(std::sin(a.exact_angle)).c_str(),
                format_name(fm.trig), full_number(a.sin).c_str());
    ImGui::EndTooltip();
    return;
  }
}

void hover_plot(const Paint& pt, const plot::Frame& fr, const Sweep& sw) {
  if (!fr.contains(pt.c.mouse) || sw.positions.empty()) return;
  const double x = fr.x.from_px(pt.c.mouse.x);
  const auto it = std::lower_bound(sw.positions.begin(), sw.positions.end(), x);
  std::size_t k = static_cast<std::size_t>(it - sw.positions.begin());
  if (k >= sw.positions.size() ||
      (k > 0 && std::log(x / sw.positions[k - 1]) < std::log(sw.positions[k] / x)))
    k = k > 0 ? k - 1 : 0;
  plot::vline(pt.c.draw_list, fr, sw.positions[k], pt.pal.text, std::max(1.0f, std::round(pt.s)));
  ImGui::BeginTooltip();
  ImGui::Text("position %s", full_number(sw.positions[k]).c_str());
  if (std::isnan(sw.error[k])) {
    ImGui::Text("chosen formats: an angle overflowed to inf");
  } else {
    ImGui::Text("chosen formats: largest |error| %s rad (pair %d)",
                full_number(sw.error[k]).c_str(), sw.worst_pair[k]);
  }
  if (!sw.reference.empty())
    ImGui::Text("fp32 everywhere: %s rad", full_number(sw.reference[k]).c_str());
  ImGui::EndTooltip();
}

void hover_strip(const Paint& pt, const Box& box, const Now& now, const Params& p) {
  const StripCells sc = strip_cells(box, now, pt.f, pt.s);
  if (sc.count == 0 || !box.shown() || pt.c.mouse.y < box.min.y || pt.c.mouse.y > box.max.y) return;
  const float k = std::floor((pt.c.mouse.x - sc.x0) / sc.cell_w);
  if (k < 0.0f || k >= static_cast<float>(sc.count)) return;
  const auto i = static_cast<std::size_t>(sc.first + static_cast<int>(k));
  ImGui::BeginTooltip();
  ImGui::Text("position %s is stored in %s as %s",
              full_number(now.strip_first + static_cast<double>(i)).c_str(),
              format_name(p.precision.formats.position), full_number(now.stored[i]).c_str());
  ImGui::EndTooltip();
}

}  // namespace

// [SECTION] Draw and DrawControls

void PrecisionView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Sweep& sw = sweep_.get(sweep_inputs(p), compute_sweep);
  const Now& now = now_.get(now_inputs(p), compute_now);
  const Canvas canvas("precision_canvas", &drawn_);
  const plot::Style st = plot::style(env, p.theme, &drawn_);
  const Paint pt{canvas, *env.fonts, palette(p.theme), st, env.scale};
  const Header h = header_of(p, now);
  const Layout lay = layout(collapsing(now), p.precision.formats.position, h, canvas, pt.f, pt.s);

  const Pen& pen = canvas.pen;
  pen.wrapped(lay.title_font, ImVec2(lay.x0, lay.title_y), lay.width, pt.pal.text, h.title);
  pen.wrapped(pt.f.body, ImVec2(lay.x0, lay.config_y), lay.width, pt.pal.text_dim, h.config);
  pen.wrapped(lay.read_font, ImVec2(lay.x0, lay.pair_y), lay.width,
              now.problem.empty() ? pt.pal.query : pt.pal.bad, h.pair);
  pen.wrapped(lay.read_font, ImVec2(lay.x0, lay.score_y), lay.width, pt.pal.text, h.score);
  paint_dials(pt, lay.dials, now, p.dim / 2, dials_);
  plot::Frame fr;
  const bool plotted = lay.plot.shown() && sw.problem.empty();
  if (plotted) fr = paint_plot(pt, lay.plot, sw, now, p, lay.mark_notes);
  paint_strip(pt, lay.strip, now, p);

  if (!canvas.hovered) return;
  hover_dials(pt, dials_, now, p);
  if (plotted) hover_plot(pt, fr, sw);
  hover_strip(pt, lay.strip, now, p);
}

void PrecisionView::DrawControls(AppState& state, const ViewEnv&) {
  PrecisionFormats& f = state.params.precision.formats;
  ImGui::TextUnformatted("Formats at RoPE's four cast points");
  const std::string current = preset_name(f);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##precision", ("preset: " + current).c_str())) {
    for (const char* name : kPrecisionPresetNames)
      if (ImGui::Selectable(name, current == name)) f = *parse_precision_preset(name);
    ImGui::EndCombo();
  }
  const auto format_combo = [](const char* label, FloatFormat& point) {
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.45f);
    if (ImGui::BeginCombo(label, format_name(point))) {
      for (FloatFormat ff : kFloatFormats)
        if (ImGui::Selectable(format_name(ff), ff == point)) point = ff;
      ImGui::EndCombo();
    }
  };
  format_combo("position m", f.position);
  format_combo("θᵢ (inv_freq)", f.theta);
  format_combo("angle m·θᵢ", f.angle);
  format_combo("cos, sin", f.trig);
  if (ImGui::Button("The fix: angle in fp32, then cast")) f = *parse_precision_preset("fix");
  Params& p = state.params;
  // The slider stops at the last pair of this d, an end the state sets (the table accepts any
  // pair below kMaxPrecisionPair, so that a session keeps it while d changes; the view shows
  // min(pair, d/2 - 1)).
  ImGui::SetNextItemWidth(-1);
  param_slider(p, "precision_pair", SliderEnds{0.0, std::max(0.0, p.dim / 2.0 - 1.0)});
  ImGui::TextUnformatted("Documented positions");
  // m jumps and n keeps its distance n − m: the score compares the same offset there (review
  // D11: n stayed at 10 000 004 after "100 000", and the fix then differed by −0.295)
  const auto jump = [&](const char* label, double m) {
    if (!ImGui::Button(label)) return;
    const double offset = p.key_position - p.position;
    (void)set_param_value(p, "position", m);
    (void)set_param_value(p, "key_position", m + offset);
  };
  jump("257", 257.0);
  ImGui::SameLine();
  jump("1857", 1857.0);
  ImGui::SameLine();
  jump("15962", 15962.0);
  ImGui::SameLine();
  jump("65504", 65504.0);
  jump("100 000", 1e5);
  ImGui::SameLine();
  jump("10⁶", 1e6);
  ImGui::SameLine();
  jump("10⁷", 1e7);
}

}  // namespace rope::app
