// views/pointers_view.cpp — the rotating pointers (pointers_view.h).
//
// [SECTION] one block's dial: trail, angle, pointers, labels
// [SECTION] inputs, compute, scores
// [SECTION] layout: the read-out and the legend on top, the dials under them
// [SECTION] paint
// [SECTION] hover read-out with full precision
#include "views/pointers_view.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "rope/frequencies.h"
#include "rope/partial_rotary.h"
#include "rope/rotation.h"
#include "state/params.h"
#include "ui/canvas.h"
#include "ui/param_widgets.h"
#include "ui/theme.h"
#include "views/pointer_cover.h"
#include "views/vector_editor.h"
#include "views/view_precision.h"
#include "views/view_scaling.h"

namespace rope::app {
namespace {

// Block i of x under a pairing, as a 2D vector (rope::pair_indices).
Vec2 block(const std::vector<double>& x, int i, Pairing pairing) {
  const PairIndices pi = pair_indices(i, static_cast<int>(x.size()), pairing);
  return {x[static_cast<std::size_t>(pi.first)], x[static_cast<std::size_t>(pi.second)]};
}

// Wraps an angle to (-pi, pi].
double wrap(double a) {
  a = std::remainder(a, kTwoPi);
  return a <= -kPi ? a + kTwoPi : a;
}

std::string position_text(double v) {
  // whole positions grouped in threes, "10 000 004" beside "100 000" (review D11: the label
  // style wrote "1.00000040000·10⁷" there)
  if (v == std::round(v) && std::fabs(v) < 1e15) return format_number(v, NumberStyle::tick);
  if (v == std::round(v)) return format_number(v, NumberStyle::label, 12);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", std::fabs(v));
  return (v < 0 ? "−" : "") + std::string(buf);
}

struct Grid {
  int cols = 1, rows = 1;
  float cell = 0.0f;
};

// The column count (at most max_cols) that makes the largest square cells for `n` dials in a
// w x h area, when every row also needs label_h px of labels.
Grid best_grid(int n, float w, float h, int max_cols, float label_h) {
  Grid best;
  for (int c = 1; c <= std::min(n, std::max(1, max_cols)); ++c) {
    const int r = (n + c - 1) / c;
    const float cell = std::min(w / static_cast<float>(c), h / static_cast<float>(r) - label_h);
    if (cell > best.cell) best = {c, r, cell};
  }
  return best;
}

// The grid of dials in an area (x, y, w, h px): how many columns and rows, the dial radius,
// the cells, and whether the labels fit under the dials.
struct DialGrid {
  Grid grid{};
  float r = 0.0f;                                            // dial radius, px
  float cell_w = 0.0f, cell_h = 0.0f, x0 = 0.0f, y0 = 0.0f;  // cells and their top left, px
  bool labels = false;         // "i = …" and theta, lambda under each dial
  bool label_one_line = true;  // theta and lambda share one line
  float label_size = 0.0f;     // px of the labels' text (the bold "i = …" in proportion)
  int segs = 12;               // segments of a dial's rim
};

// Three grids, the fullest first: room for "i = …" and theta, lambda on two lines under each of
// the n dials in the body font, if the dials stay large; then the same labels at the window's
// text size (presentation mode's larger text would otherwise drop labels the lecturer's window
// shows); else the largest dials without labels.
DialGrid dial_grid(int n, float area_x, float area_y, float area_w, float area_h, const Fonts& f,
                   float s, bool scaled) {
  const Grid plain = best_grid(n, area_w, area_h, n, 0.0f);
  const float r_plain = 0.5f * plain.cell - 10.0f * s;
  // the label sizes to try, px: the body font's, then the window's (its size at scale 1)
  const float body = f.body->FontSize;
  const float sizes[2] = {body, std::min(body, body / std::max(s, 1.0f))};
  struct Try {
    Grid grid{};
    float r = 0.0f, label_h = 0.0f;
  };
  const auto labelled = [&](float px) {
    const float k = px / body;
    // with a scaling the labels take three lines when they do not share one: θ, θ′ and λ′
    const float label_h = f.bold->FontSize * k + (scaled ? 3.0f : 2.0f) * px + 10.0f * s;
    // a column is as wide as the longest label line ("θ = 0.000562", "θ′ = 6.25·10⁻⁵")
    const float label_w =
        text_size(f.body, scaled ? "θ′ = 6.25·10⁻⁵" : "θ = 0.000562").x * k + 16.0f * s;
    const Grid g = best_grid(n, area_w, area_h, static_cast<int>(area_w / label_w), label_h);
    return Try{g, 0.5f * g.cell - 10.0f * s, label_h};
  };
  const Try tries[2] = {labelled(sizes[0]), labelled(sizes[1])};
  const int level = first_fitting(3, [&](int l) {
    return l == 2 ||
           (r_plain >= 48.0f * s && tries[l].r >= 36.0f * s && (l == 0 || sizes[1] < sizes[0]));
  });
  DialGrid g;
  g.labels = level < 2;
  g.label_size = g.labels ? sizes[level] : body;
  g.grid = g.labels ? tries[level].grid : plain;
  g.r = std::max(g.labels ? tries[level].r : r_plain, 2.0f);
  g.cell_h = 2.0f * g.r + 20.0f * s + (g.labels ? tries[level].label_h : 0.0f);
  g.cell_w = std::max(2.0f * g.r + 20.0f * s, area_w / static_cast<float>(g.grid.cols));
  // they share one line when the cells are wide
  g.label_one_line = g.cell_w >= (scaled ? 400.0f : 250.0f) * s;
  const float grid_w = g.cell_w * static_cast<float>(g.grid.cols);
  const float grid_h = g.cell_h * static_cast<float>(g.grid.rows);
  g.x0 = area_x + 0.5f * (area_w - grid_w);
  g.y0 = area_y + std::max(0.0f, 0.5f * (area_h - grid_h));
  // segments by the radius in pixels, so a 4x export has round rims too
  g.segs = std::clamp(static_cast<int>(g.r / 1.5f), 12, 256);
  return g;
}

// [SECTION] one block's dial: trail, angle, pointers, labels

// Block i as drawn: where, how large, and where its pointers point.
struct Dial {
  int i = 0;
  ImVec2 c;                         // centre, px
  float r = 0.0f;                   // dial radius, px
  float rq = 0.0f, rk = 0.0f;       // query and key pointer lengths, px
  double th = 0.0;                  // theta_i (theta'_i with a scaling on), rad per position
  double th0 = -1.0;                // the original theta_i when a scaling is on, else -1
  double aq = 0.0, ak = 0.0;        // query angle at m, key angle at n, rad
  double q_angle0 = 0.0;            // query angle at position 0, rad
  double k_angle0 = 0.0;            // key angle at position 0, rad
  ImU32 col = 0;                    // the block's colour
  float thick = 0.0f, thin = 0.0f;  // line widths, px
};

// The trail of the query tip over [m - trail, m], fading in four bands; more than one turn is
// drawn as one turn. About one segment per 5 px of arc. `shown`: dials drawn (the budget).
// `dots`: the integer positions on it (left out where many trails share one circle).
void paint_trail(ImDrawList* dl, const Fonts& f, const Dial& d, double m, double trail, int shown,
                 bool dots, float s) {
  if (!(trail > 0.0 && d.rq > 0.0f)) return;
  const double span = std::min(trail * d.th, kTwoPi * 0.999);
  // Small dials (d in the hundreds) get one band of a few segments: at 25 px a fade is
  // invisible, and the rasteriser's cost is per triangle. The crowded shared circle's trails
  // (`dots` false) get one band too, many trails ending on one ring; `shown` is the number of
  // them drawn there (the others lie under them), each smooth at the circle's full radius.
  const bool small = d.r < 40.0f * s;
  const int bands = small || !dots ? 1 : 4;
  // about one segment per 5 px, within a budget of ~6000 trail points for all blocks
  const int budget =
      small   ? (span > kPi ? 12 : 6)
      : !dots ? std::clamp(6000 / std::max(1, shown), 2, 512)
              : std::clamp(6000 / std::max(1, shown * bands), 2, static_cast<int>(16.0f * s));
  const int per_band = std::clamp(
      static_cast<int>(span * static_cast<double>(d.rq) / (5.0 * static_cast<double>(s)) / bands) +
          1,
      1, budget);
  const bool full_turn = span >= kTwoPi * 0.99;
  const Fonts::Ring* baked = full_turn ? f.ring_for(d.rq) : nullptr;
  const bool ring = baked != nullptr;
  const ImVec2 c = d.c;
  const float rq = d.rq;
  if (ring) {  // a whole turn on a small dial: a baked ring (ui/theme.h)
    add_ring(dl, *baked, c, rq, with_alpha(d.col, 0.5f));
  }
  for (int band = 0; band < (ring ? 0 : bands); ++band) {
    const double b0 = d.aq - span * (1.0 - static_cast<double>(band) / bands);
    const double b1 = d.aq - span * (1.0 - static_cast<double>(band + 1) / bands);
    for (int k = 0; k <= per_band; ++k)
      dl->PathLineTo(polar(c, rq, b0 + (b1 - b0) * k / per_band));
    const float alpha =
        bands == 1 ? 0.5f : 0.15f + 0.6f * static_cast<float>(band + 1) / static_cast<float>(bands);
    dl->PathStroke(with_alpha(d.col, alpha), 0, d.thin);
  }
  // integer positions on the trail
  const double first = std::ceil(m - trail);
  if (dots && d.r >= 30.0f * s && std::floor(m) - first < 64.0) {
    for (double t = first; t <= m; t += 1.0)
      dl->AddCircleFilled(polar(c, rq, d.q_angle0 + t * d.th), d.thick + 1.0f,
                          with_alpha(d.col, 0.85f), d.thick >= 4.0f ? 0 : 8);  // 0: by size
  }
}

// The arc between the two pointers; on big dials in the grid its angle in rad beside it
// (`arc_only`: not, as on the shared circle and in the polar form). `trail`: positions of query
// trail drawn (0: none), a ring the label keeps off.
void paint_angle(ImDrawList* dl, const Pen& pen, const Fonts& f, ImU32 accent, const Dial& d,
                 bool arc_only, double trail, float s) {
  if (!(d.r >= 32.0f * s && d.rq > 0.0f && d.rk > 0.0f)) return;  // on smaller dials a smudge
  const double delta = wrap(d.ak - d.aq);
  draw_arc(dl, d.c, d.r * 0.32f, d.aq, d.aq + delta, accent, d.thin,
           std::clamp(static_cast<int>(d.r * 0.32f), 12, 96));
  if (arc_only) return;
  // The label in the body font on a dial of 80 px at its scale; on a smaller one, down to 80 px
  // at scale 1, at the window's text size: presentation mode's larger text would otherwise drop
  // the angles the lecturer's window shows (classroom review D7)
  float px = f.body->FontSize;
  if (d.r < 80.0f * s) {
    if (d.r < 80.0f) return;
    px = f.body->FontSize / std::max(s, 1.0f);
  }
  // an arc narrower than its label (the label's width seen from the centre, plus a margin) has
  // no room between the pointers: the label goes opposite, across the centre
  const std::string label = format_number(delta, NumberStyle::label, 3) + " rad";
  const ImVec2 full = text_size(f.body, label);
  const float shrink = px / f.body->FontSize;
  const ImVec2 ts(full.x * shrink, full.y * shrink);
  const float label_r0 = d.r * 0.32f + 14.0f * s;
  const bool narrow = std::fabs(delta) < std::max(0.6, static_cast<double>(ts.x / label_r0) + 0.3);
  // The label's box at a direction and radius: its side nearest the centre at the radius,
  // reaching outward. Wide and short, it fits inside the rim better towards the top or bottom:
  // directions from the arc's middle (across the centre for a narrow arc) outward, within the
  // arc (or within 60° of the opposite direction), each drawn in towards the arc while its far
  // corner would cross the rim; the first that fits, else the middle one as close as it goes.
  const auto box_at = [&](double angle, float radius) {
    const ImVec2 lp = polar(d.c, radius, angle);
    const float dx = static_cast<float>(std::cos(angle));
    return ImVec2(lp.x - 0.5f * ts.x * (1.0f - dx), lp.y - 0.5f * ts.y);
  };
  const auto far_corner = [&](ImVec2 at) {
    float far = 0.0f;
    for (const float x : {at.x, at.x + ts.x})
      for (const float y : {at.y, at.y + ts.y})
        far = std::max(far, std::hypot(x - d.c.x, y - d.c.y));
    return far;
  };
  const float inner = d.r * 0.32f + 4.0f * s;  // just outside the arc
  const float rim = d.r - 4.0f * s;
  // inside the rim, and off the query's trail ring (its dots lie at radius rq)
  const auto clear = [&](ImVec2 at) {
    const float far = far_corner(at);
    if (far > rim) return false;
    if (!(trail > 0.0)) return true;
    const float nx = std::clamp(d.c.x, at.x, at.x + ts.x) - d.c.x;
    const float ny = std::clamp(d.c.y, at.y, at.y + ts.y) - d.c.y;
    const float near = std::hypot(nx, ny);
    return near > d.rq + 6.0f * s || far < d.rq - 6.0f * s;
  };
  const auto fitted = [&](double angle) {  // the box drawn in as far as needed (or possible)
    float radius = label_r0;
    while (radius > inner && !clear(box_at(angle, radius)))
      radius = std::max(inner, radius - 2.0f * s);
    return box_at(angle, radius);
  };
  const double middle = d.aq + 0.5 * delta + (narrow ? kPi : 0.0);
  const double reach = narrow ? kPi / 3.0 : 0.35 * std::fabs(delta);  // either way from middle
  ImVec2 at = fitted(middle);
  for (int k = 1; k <= 6 && !clear(at); ++k)
    for (const double sign : {1.0, -1.0}) {
      const ImVec2 b = fitted(middle + sign * reach * k / 6.0);
      if (clear(b)) {
        at = b;
        break;
      }
    }
  if (!clear(at)) at = box_at(middle, label_r0);  // nowhere clear: where it always went
  pen.text(f.body, at, accent, label, px);
}

// Where block d's pointers end, px.
PointersView::Tip pointer_tips(const Dial& d) {
  return PointersView::Tip{d.c, polar(d.c, d.rq, d.aq), polar(d.c, d.rk, d.ak), d.r};
}

// The query arrow's head size (draw_arrow's head_size), px.
float query_head(const Dial& d, float s) {
  return std::max(6.0f * s, d.thick * 3.2f);
}

// Key: thin line with a ring at the tip; query: solid arrow. On small dials the filled shapes
// (arrowhead, key dot) skip their anti-aliased fringe: a few pixels across, they look the
// same, and the rasteriser draws one triangle instead of seven. `query`, `key` false: that
// pointer lies under another to the pixel and is not drawn. `query_skip`, `key_skip`: the
// stretch of the shaft (px from the centre) that lies under pointers painted later
// (ShaftCover) and is left out. Returns where they end.
PointersView::Tip paint_pointers(ImDrawList* dl, const Dial& d, float s, bool query = true,
                                 bool key = true, ShaftCover::Stretch query_skip = {},
                                 ShaftCover::Stretch key_skip = {}) {
  const PointersView::Tip tip = pointer_tips(d);
  const ImVec2 c = d.c;
  const ImVec2 tk = tip.key;
  const ImVec2 tq = tip.query;
  const ImDrawListFlags flags = dl->Flags;
  if (d.r < 32.0f * s) dl->Flags &= ~ImDrawListFlags_AntiAliasedFill;
  if (d.rk > 0.0f && key) {
    if (!(key_skip.to > key_skip.from)) {
      dl->AddLine(c, tk, d.col, d.thin);
    } else {
      const auto at = [&](float radius) {
        const float t = std::clamp(radius / d.rk, 0.0f, 1.0f);
        return ImVec2(c.x + (tk.x - c.x) * t, c.y + (tk.y - c.y) * t);
      };
      if (key_skip.from > 0.0f) dl->AddLine(c, at(key_skip.from), d.col, d.thin);
      if (key_skip.to < d.rk) dl->AddLine(at(key_skip.to), tk, d.col, d.thin);
    }
    if (d.r >= 32.0f * s) {
      dl->AddCircle(tk, std::max(3.0f * s, d.thick * 1.5f), d.col, d.r >= 60.0f * s ? 16 : 8,
                    d.thin);
    } else {  // small dials: a dot reads as the key's tip and costs a fraction of a ring
      dl->AddCircleFilled(tk, std::max(2.0f * s, d.thick), d.col, 6);
    }
  }
  if (d.rq > 0.0f && query) {
    draw_arrow(dl, c, tq, d.col, d.thick, query_head(d, s), query_skip.from, query_skip.to);
  } else if (d.rq <= 0.0f && query) {
    dl->AddCircleFilled(c, d.thick, d.col, 12);
  }
  dl->Flags = flags;
  return tip;
}

// A trail on the shared circle: the arc [end - span, end] at radius r (px, rad). One arc covers
// another, to the pixel, when both lie on the same ring and the other lies within it: on a
// crowded circle the slow blocks' short trails end where the fast blocks' long ones end (all at
// the query's angle when q's pairs point alike), and 200 hidden trails cost a software
// rasteriser a seventh of a frame's area.
struct TrailArc {
  float r = 0.0f;
  double end = 0.0, span = 0.0;
  bool covers(const TrailArc& o) const {
    constexpr float kPx = 0.5f;
    if (std::fabs(r - o.r) > kPx) return false;
    const double tol = static_cast<double>(kPx / std::max(1.0f, r));
    // how far back from this arc's end the other's end lies, in [-tol, 2π - tol)
    double back = std::fmod(end - o.end, kTwoPi);
    if (back < 0.0) back += kTwoPi;
    if (back > kTwoPi - tol) back -= kTwoPi;
    return back + o.span <= span + tol;
  }
};

// Points already painted over, for pointers that share one centre and one width: a pointer
// whose tip lies within kCoverPx of one painted above it is hidden by it to the pixel along its
// whole length (both run straight from the centre). On the shared circle at d = 512 the slow
// blocks' 200 or so pointers coincide this way (at m = 0 with equal pairs, all 256 queries), and
// each costs a software rasteriser as much as a visible one (issue 32).
class CoverSet {
 public:
  static constexpr float kCoverPx = 0.5f;
  // True if `p` is within kCoverPx of a point added before; else adds it and returns false.
  bool covered_or_add(ImVec2 p) {
    const auto cell = [](float v) { return static_cast<std::int64_t>(std::floor(v / kCoverPx)); };
    const std::int64_t cx = cell(p.x), cy = cell(p.y);
    for (std::int64_t dy = -1; dy <= 1; ++dy)
      for (std::int64_t dx = -1; dx <= 1; ++dx) {
        const auto it = cells_.find(key(cx + dx, cy + dy));
        if (it == cells_.end()) continue;
        for (const ImVec2& q : it->second)
          if (std::hypot(q.x - p.x, q.y - p.y) <= kCoverPx) return true;
      }
    cells_[key(cx, cy)].push_back(p);
    return false;
  }

 private:
  static std::int64_t key(std::int64_t x, std::int64_t y) { return x * 1'000'003 + y; }
  std::unordered_map<std::int64_t, std::vector<ImVec2>> cells_;
};

// On the shared circle the block's number beyond the query tip; under a dial "i = …" and its
// theta and wavelength, on one line or two.
void paint_labels(const Pen& pen, const Fonts& f, const Palette& pal, const Dial& d,
                  bool circle_layout, bool one_line, float px, float s) {
  if (circle_layout) {
    const ImVec2 lp = polar(d.c, d.rq + 16.0f * s, d.aq);
    pen.centred(f.body, ImVec2(lp.x, lp.y - 0.5f * f.body->FontSize), d.col, std::to_string(d.i));
    return;
  }
  // px: the text size of the grid (DialGrid::label_size); the bold line in proportion
  const float bold_px = f.bold->FontSize * px / f.body->FontSize;
  float ly = d.c.y + d.r + 8.0f * s;
  pen.centred(f.bold, ImVec2(d.c.x, ly), d.col, "i = " + std::to_string(d.i), bold_px);
  ly += bold_px;
  if (d.th == 0.0 && d.th0 <= 0.0) {  // partial rotary: this pair passes through unrotated
    pen.centred(f.body, ImVec2(d.c.x, ly), pal.text_dim, "not rotated", px);
    return;
  }
  const bool scaled = d.th0 >= 0.0;
  const std::string t0 = "θ = " + format_number(scaled ? d.th0 : d.th, NumberStyle::label, 3);
  const std::string t1 = "θ′ = " + format_number(d.th, NumberStyle::label, 3);
  const std::string t = scaled ? nobreak(t0) + " " + nobreak("→ " + t1) : t0;
  const std::string w =
      scaled ? (d.th > 0.0 ? "λ′ = " + format_number(wavelength(d.th), NumberStyle::label, 3)
                           : std::string("θ′ = 0: still"))
             : "λ = " + format_number(wavelength(d.th), NumberStyle::label, 3);
  if (one_line) {
    pen.centred(f.body, ImVec2(d.c.x, ly), pal.text, t + "   " + w, px);
  } else if (scaled) {  // θ dimmed: the pointers turn at θ′
    pen.centred(f.body, ImVec2(d.c.x, ly), pal.text_dim, t0, px);
    pen.centred(f.body, ImVec2(d.c.x, ly + px), pal.text, t1, px);
    pen.centred(f.body, ImVec2(d.c.x, ly + 2 * px), pal.text_dim, w, px);
  } else {
    pen.centred(f.body, ImVec2(d.c.x, ly), pal.text, t, px);
    pen.centred(f.body, ImVec2(d.c.x, ly + px), pal.text_dim, w, px);
  }
}

// The query pointer where the original θ would put it: a faint line with a small hollow tip, so
// the scaled pointer (solid) reads as the one the model uses.
void paint_original(ImDrawList* dl, ImVec2 c, ImVec2 tip, ImU32 col, float thick) {
  const ImU32 faint = with_alpha(col, 0.4f);
  const float w = std::max(1.0f, std::round(0.5f * thick));
  dl->AddLine(c, tip, faint, w);
  dl->AddCircle(tip, std::max(2.5f, thick), faint, 10, w);
}

// Lesson 4's polar form on a big dial (polar on): q and k at position 0 (faint), and the turn
// from there to m (query) and to n (key) as an arc in the query's and the key's colour, marked
// φ(m) and φ(n); their values and the lengths ‖f‖ are in the read-out (Layout::polar). More than
// one turn is drawn as one turn.
void paint_polar(ImDrawList* dl, const Pen& pen, const Fonts& f, const Palette& pal, const Dial& d,
                 double m, double n, float s) {
  if (!(d.r >= 60.0f * s) || d.th == 0.0) return;
  const auto turn = [&](float radius, double from, double by, ImU32 col, const char* name) {
    const double span = std::clamp(by, -kTwoPi * 0.999, kTwoPi * 0.999);
    if (span == 0.0) return;
    draw_arc(dl, d.c, radius, from, from + span, col, d.thin + 1.0f, 96);
    const double mid = from + 0.5 * span;
    const ImVec2 ts = text_size(f.body, name);
    const ImVec2 lp = polar(d.c, radius + 6.0f * s, mid);
    const float cx = static_cast<float>(std::cos(mid)), sy = static_cast<float>(std::sin(mid));
    pen.text(f.body, ImVec2(lp.x - 0.5f * ts.x * (1.0f - cx), lp.y - 0.5f * ts.y * (1.0f + sy)),
             col, name);
  };
  if (d.rq > 0.0f) {
    paint_original(dl, d.c, polar(d.c, d.rq, d.q_angle0), d.col, d.thick);
    turn(0.5f * d.r, d.q_angle0, m * d.th, pal.query, "φ(m)");
  }
  if (d.rk > 0.0f) {
    paint_original(dl, d.c, polar(d.c, d.rk, d.k_angle0), d.col, d.thick);
    turn(0.7f * d.r, d.k_angle0, n * d.th, pal.key, "φ(n)");
  }
}

// The legend's items, each after its icon; item 4's words are the emulated formats'.
constexpr const char* kLegendLabels[4] = {"query Rₘq (solid)", "key Rₙk (ring)",
                                          "angle between them", "faint: q, k at the original θ"};
enum LegendItem { kQueryItem = 0, kKeyItem, kAngleItem, kOriginalItem, kEmulatedItem };

// A pointer of the emulated overlay: a thin line from the centre with a filled dot at the tip,
// in the text colour (no block's colour), drawn over the exact pointers so that both show
// where they part.
void paint_emulated(ImDrawList* dl, ImVec2 c, ImVec2 tip, ImU32 col, float thick) {
  const float w = std::max(1.0f, std::round(0.6f * thick));
  dl->AddLine(c, tip, col, w);
  dl->AddCircleFilled(tip, std::max(2.5f, 1.3f * thick), col, 10);
}

// The legend's icon of item 0 (query arrow), 1 (key ring), 2 (angle arc), 3 (the faint
// pointer at the original θ, with a scaling on) or 4 (the emulated pointer, in `emulated`),
// from `left`, whose y is the middle of the item's line.
void legend_icon(ImDrawList* dl, int item, ImVec2 left, ImU32 demo, ImU32 accent, ImU32 emulated,
                 float s) {
  const float lx = left.x;
  const float mid = left.y;
  if (item == 0) {
    draw_arrow(dl, ImVec2(lx, mid), ImVec2(lx + 34 * s, mid), demo, std::round(3 * s), 11.0f * s);
  } else if (item == 1) {
    dl->AddLine(ImVec2(lx, mid), ImVec2(lx + 28 * s, mid), demo, std::round(2 * s));
    dl->AddCircle(ImVec2(lx + 31 * s, mid), 5.0f * s, demo, 16, std::round(2 * s));
  } else if (item == 2) {
    draw_arc(dl, ImVec2(lx + 4 * s, mid + 6 * s), 14.0f * s, 0.2, 1.4, accent,
             std::round(2.5f * s));
  } else if (item == kOriginalItem) {
    paint_original(dl, ImVec2(lx, mid), ImVec2(lx + 34 * s, mid), demo, std::round(3 * s));
  } else {
    paint_emulated(dl, ImVec2(lx, mid), ImVec2(lx + 34 * s, mid), emulated, std::round(3 * s));
  }
}

}  // namespace

// [SECTION] inputs, compute, scores

PointersView::Inputs PointersView::inputs_of(const Params& p) {
  return Inputs{p.dim,
                p.base,
                p.pairing,
                p.query,
                p.key,
                p.seed,
                p.extension.scaling.rotary_fraction,
                p.extension.rotary_style,
                view_scaling(p),
                p.emulate_precision,
                p.emulate_precision ? p.precision.formats : PrecisionFormats{}};
}

const PointersView::Model& PointersView::model() const {
  return model_.model_or_empty();
}

const PointersView::Scores& PointersView::scores() const {
  return scores_.model_or_empty();
}

PointersView::Model PointersView::compute(const Inputs& in) {
  Model md;
  md.pairing = in.pairing;
  auto f = drawn_frequencies(in.dim, in.base,
                             drawn_extension(in.scaling, in.rotary_fraction, in.rotary_style));
  if (!f) return md;  // params are validated on entry; an empty model draws no dials
  md.thetas = std::move(f.value().theta_drawn);
  md.thetas_original = std::move(f.value().theta);
  md.attention_factor = f.value().attention_factor;
  md.scaled = f.value().scaled;
  // an invalid fraction alone is reported by the panel; with a method on, the view says it
  if (scaling_on(in.scaling) && f.value().error) md.scaling_error = f.value().error->to_string();
  md.q = effective_vector(in.query, in.dim, in.seed, false);
  md.k = effective_vector(in.key, in.dim, in.seed, true);
  const int half = in.dim / 2;
  md.q_norm.assign(static_cast<std::size_t>(half), 0.0);
  md.q_angle = md.k_norm = md.k_angle = md.q_norm;
  md.max_norm = 0.0;
  for (int i = 0; i < half; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const Vec2 qb = block(md.q, i, in.pairing);
    const Vec2 kb = block(md.k, i, in.pairing);
    md.q_norm[u] = std::hypot(qb.x, qb.y);
    md.k_norm[u] = std::hypot(kb.x, kb.y);
    md.q_angle[u] = std::atan2(qb.y, qb.x);
    md.k_angle[u] = std::atan2(kb.y, kb.x);
    md.max_norm = std::max({md.max_norm, md.q_norm[u], md.k_norm[u]});
  }
  if (md.max_norm <= 0.0) md.max_norm = 1.0;
  return md;
}

PointersView::Scores PointersView::score_of(const Model& md, const ScoreInputs& in) {
  const auto d = md.q.size();
  std::vector<double> qm(d), kn(d), kr(d);
  apply_rope<double>(md.q, qm, in.m, md.thetas, md.pairing);
  apply_rope<double>(md.k, kn, in.n, md.thetas, md.pairing);
  apply_rope<double>(md.k, kr, in.n - in.m, md.thetas, md.pairing);
  // cos and sin × a on both sides: every product × a² (a = 1 without scaling)
  const double a2 = md.attention_factor * md.attention_factor;
  Scores sc;
  sc.score = a2 * dot(qm, kn);
  sc.relative = a2 * dot(md.q, kr);
  if (!in.vectors.emulate || d == 0) return sc;
  // The overlay emulates plain RoPE (rope/low_precision.h builds θ from d and base): with a
  // scaling or a partial rotation the pointers turn at other frequencies, so it says so instead.
  const bool plain =
      !md.scaled && std::find(md.thetas.begin(), md.thetas.end(), 0.0) == md.thetas.end();
  if (!plain) {
    sc.emulate_note =
        "the emulated rotation is drawn for plain RoPE only: switch the scaling "
        "and the partial rotation off to see it";
    return sc;
  }
  const auto dim = static_cast<std::int64_t>(d);
  auto at_m = emulate_angles(in.m, dim, in.vectors.base, in.vectors.formats);
  auto at_n = emulate_angles(in.n, dim, in.vectors.base, in.vectors.formats);
  if (!at_m || !at_n) {
    sc.emulate_note = (at_m ? at_n : at_m).error().to_string();
    return sc;
  }
  auto qe = rotate_emulated(md.q, at_m.value(), md.pairing);
  auto ke = rotate_emulated(md.k, at_n.value(), md.pairing);
  if (!qe || !ke) {
    sc.emulate_note = (qe ? ke : qe).error().to_string();
    return sc;
  }
  sc.emulated = true;
  sc.score_emulated = dot(qe.value(), ke.value());
  const std::size_t half = d / 2;
  sc.q_angle_emulated.resize(half);
  sc.k_angle_emulated.resize(half);
  sc.q_len_emulated.resize(half);
  sc.k_len_emulated.resize(half);
  const int blocks = static_cast<int>(half);
  for (int i = 0; i < blocks; ++i) {
    const auto u = static_cast<std::size_t>(i);
    // the block's angle is its angle at position 0 plus the stored angle; its length the
    // stored (cos, sin)'s (NaN for both when the angle overflowed)
    const EmulatedAngle& am = at_m.value()[u];
    const EmulatedAngle& an = at_n.value()[u];
    sc.q_angle_emulated[u] = md.q_angle[u] + std::atan2(am.sin, am.cos);
    sc.k_angle_emulated[u] = md.k_angle[u] + std::atan2(an.sin, an.cos);
    sc.q_len_emulated[u] = std::hypot(am.cos, am.sin);
    sc.k_len_emulated[u] = std::hypot(an.cos, an.sin);
  }
  return sc;
}

// [SECTION] layout: the read-out and the legend on top, the dials under them

struct PointersView::Layout {
  const Fonts& f;
  const Palette& pal;
  Theme theme = Theme::dark;
  float s = 1.0f;
  int blocks = 0;  // d/2
  int shown = 0;   // dials drawn: blocks 0 ... shown - 1
  // the read-out: positions, the two equal scores, d and base, and which blocks are shown
  float pad = 0.0f, xa = 0.0f, width = 0.0f, top = 0.0f;  // top: of the read-out, px
  std::string line1{}, a{}, b{}, info{}, notice{};        // notice: empty when every block is shown
  std::string scaling{};  // with a scaling on: the method, θ′ and the attention factor
  std::string ratios{};  // with a scaling on: θ′ᵢ/θᵢ by runs of pairs (frequency_ratio_words)
  std::string emulation{};  // with the emulated overlay: its formats and score, or why not
  std::string polar{};      // polar on: block 0's lengths ‖f‖ and turns φ from position 0
  // the legend's items (LegendItem) and their words: query, key, angle, then the faint original
  // with a scaling on, or the emulated pointer with the overlay
  std::vector<std::pair<int, std::string>> legend{};
  float legend_bottom = 0.0f;  // of the legend's column, px
  ImFont *head = nullptr, *big = nullptr;
  float wa = 0.0f, gap_ab = 0.0f;
  bool ab_one_line = true;
  // the legend: a column at the top right, or rows under the read-out
  bool legend_column = false;
  float legend_x = 0.0f;  // left of its first item, px
  // the dials, in the area under the read-out and the legend
  float area_x = 0.0f, area_y = 0.0f, area_w = 0.0f, area_h = 0.0f;
  bool dials_fit = false;  // the area is at least 10 x 10 px
  bool circle = false;     // all pointers on one circle rather than a grid of dials
  ImVec2 centre{};         // the shared circle's
  float r = 0.0f;          // dial (or shared circle) radius, px
  bool labels = false;     // numbers on the circle, or "i = …", theta, lambda under each dial
  DialGrid dials{};        // the grid of dials (not the shared circle)
};

PointersView::Layout PointersView::layout(const Model& m, const Scores& sc, const Params& p,
                                          const Canvas& canvas, const ViewEnv& env) {
  Layout lay{*env.fonts, palette(p.theme)};
  const Fonts& f = lay.f;
  const float s = lay.s = env.scale;
  lay.theme = p.theme;
  lay.blocks = static_cast<int>(m.thetas.size());
  lay.shown = std::min(lay.blocks, kMaxShownBlocks);

  // the read-out, wrapped to the width
  lay.pad = 18.0f * s;
  lay.width = std::max(1.0f, canvas.size.x - 2 * lay.pad);
  lay.xa = canvas.origin.x + lay.pad;
  lay.top = canvas.origin.y + lay.pad;
  // m, n and n − m in the title font, with less room between them before a smaller font
  const auto line1 = [&](const char* gap) {
    return nobreak("m = " + position_text(p.position)) + gap +
           nobreak("n = " + position_text(p.key_position)) + gap +
           nobreak("n − m = " + position_text(p.key_position - p.position));
  };
  lay.line1 = line1("      ");
  if (text_size(f.title, lay.line1).x > lay.width &&
      text_size(f.title, line1("   ")).x <= lay.width)
    lay.line1 = line1("   ");
  lay.head = fit_font({f.title, f.heading}, lay.line1, lay.width, 1);
  // with a scaling on the scores are those of θ′ (R′), times a² when the factor is not 1: the
  // label says so rather than name the unscaled R beside a scaled number (review D14)
  const bool a_squared = m.scaled && m.attention_factor != 1.0;
  const std::string rq = m.scaled ? "(R′ₘq)·(R′ₙk)" : "(Rₘq)·(Rₙk)";
  const std::string rk = m.scaled ? "q·(R′ₙ₋ₘk)" : "q·(Rₙ₋ₘk)";
  lay.a = nobreak((a_squared ? "a²" : "") + rq + " = " +
                  format_number(sc.score, NumberStyle::label, 6));
  lay.b = nobreak((a_squared ? "a² " : "") + rk + " = " +
                  format_number(sc.relative, NumberStyle::label, 6));
  lay.big = fit_font({f.large, f.body}, lay.a, lay.width);
  lay.wa = text_size(lay.big, lay.a).x;
  const float wb = text_size(lay.big, lay.b).x;
  lay.gap_ab = 40.0f * s;
  lay.ab_one_line = lay.wa + lay.gap_ab + wb <= lay.width;
  const int half = p.dim / 2;
  lay.info = nobreak("d = " + std::to_string(p.dim) + " (" + std::to_string(half) +
                     (half == 1 ? " block)" : " blocks)")) +
             "    " + nobreak("base = " + format_number(p.base, NumberStyle::label, 8)) + "    " +
             "$\\theta_i = \\mathrm{base}^{-2i/d}$    " +
             // the pairing changes which coordinates a dial holds, and so the score (review D13)
             nobreak(p.pairing == Pairing::interleaved ? "interleaved pairs (2i, 2i + 1)"
                                                       : "half-split pairs (i, i + d/2)");
  if (m.scaled) {
    const double a = m.attention_factor;
    lay.scaling = nope(view_scaling(p))
                      ? scaling_words(view_scaling(p)) +
                            ":  q and k stay where they are (faint: " + "where " + nobreak("θᵢ") +
                            " would put them)"
                      : scaling_words(view_scaling(p)) + ":  pointers turn at " + nobreak("θ′ᵢ") +
                            " (faint: where " + nobreak("θᵢ") + " would put q and k)";
    if (a != 1.0)
      lay.scaling += ";  " +
                     nobreak("cos, sin × a = " + format_number(a, NumberStyle::label, 5) + ",") +
                     " " + nobreak("scores × a² = " + format_number(a * a, NumberStyle::label, 5));
    lay.ratios = frequency_ratio_words(m.thetas, m.thetas_original);
  } else if (!m.scaling_error.empty()) {
    lay.scaling = "scaling not applied: " + m.scaling_error;
  }
  const bool crowded = p.layout == PointerLayout::circle && lay.shown > kCrowdedCircle;
  for (int item : {kQueryItem, kKeyItem, kAngleItem})
    if (item != kAngleItem || !crowded)  // no arcs on a crowded shared circle (paint_dials)
      lay.legend.emplace_back(item, kLegendLabels[item]);
  if (m.scaled) lay.legend.emplace_back(kOriginalItem, kLegendLabels[kOriginalItem]);
  if (p.polar) lay.legend.emplace_back(kOriginalItem, "faint: q, k at position 0");
  if (sc.emulated) {
    const PrecisionFormats& fm = p.precision.formats;
    const std::string preset = preset_name(fm);
    const std::string in_words = preset == "custom" ? "the chosen formats" : preset;
    lay.legend.emplace_back(kEmulatedItem, "q, k as computed in " + in_words);
    lay.emulation =
        "Emulated " + precision_words(fm) + ":  " +
        nobreak("(Rₘq)·(Rₙk) = " + format_number(sc.score_emulated, NumberStyle::label, 6)) + " " +
        nobreak("(exact " + format_number(sc.score, NumberStyle::label, 6) + ");") +
        "  the thin pointers with a dot show where the stored cos and sin turn q and k";
  } else if (!sc.emulate_note.empty()) {
    lay.emulation = sc.emulate_note;
  }
  if (p.polar && !m.q_norm.empty()) {  // block 0: the one dial in lesson 4's d = 2
    const double th = m.thetas[0];
    lay.polar =
        std::string(lay.blocks > 1 ? "Block 0, polar form:  " : "Polar form:  ") +
        nobreak("‖f(q, m)‖ = ‖q‖ = " + format_number(m.q_norm[0], NumberStyle::label, 4)) + ",  " +
        nobreak("‖f(k, n)‖ = ‖k‖ = " + format_number(m.k_norm[0], NumberStyle::label, 4)) + ";  " +
        nobreak("φ(m) = mθ = " + format_number(p.position * th, NumberStyle::label, 4) + " rad") +
        ",  " +
        nobreak("φ(n) = nθ = " + format_number(p.key_position * th, NumberStyle::label, 4) +
                " rad") +
        "  (the arcs from q and k at position 0, faint)";
  }
  // partial rotary (or p-RoPE's still pairs): how many pairs turn at all
  const auto still = std::count(m.thetas.begin(), m.thetas.end(), 0.0);
  if (still > 0) {
    const RotaryStyle style = p.extension.scaling.method == ScalingMethod::proportional
                                  ? RotaryStyle::proportional  // p-RoPE: p always means this
                                  : p.extension.rotary_style;
    lay.info += "    " +
                nobreak("rotary " +
                        format_number(p.extension.scaling.rotary_fraction, NumberStyle::label, 4) +
                        " (" + rotary_style_name(style) + "):") +
                " " + nobreak(std::to_string(half - still) + " of " + std::to_string(half)) +
                " pairs rotate; " + nobreak("grey = not rotated");
  }
  if (lay.shown < lay.blocks)
    lay.notice = nobreak("showing blocks 0–" + std::to_string(lay.shown - 1)) + " " +
                 nobreak("of " + std::to_string(lay.blocks) + ":") +
                 " more dials would be too small to read. The scores use all " +
                 nobreak("d = " + std::to_string(p.dim) + ".");

  // the legend: a column at the top right when the read-out leaves room
  float label_w = 0.0f;
  for (const auto& [item, words] : lay.legend)
    label_w = std::max(label_w, text_size(f.body, words).x);
  const float item_w = 46.0f * s + label_w;
  float readout_w = lay.ab_one_line ? lay.wa + lay.gap_ab + wb : std::max(lay.wa, wb);
  for (const std::string& l : wrap_text(lay.head, lay.line1, lay.width))
    readout_w = std::max(readout_w, text_size(lay.head, l).x);
  lay.legend_column = readout_w + item_w + 3 * lay.pad <= canvas.size.x;
  lay.legend_x = lay.legend_column ? canvas.origin.x + canvas.size.x - lay.pad - item_w : lay.xa;
  lay.legend_bottom = lay.top + static_cast<float>(lay.legend.size()) * (f.body->FontSize + 6 * s);

  // the dials: the area left under the read-out and the legend (measured: nothing drawn)
  lay.area_x = canvas.origin.x + lay.pad;
  const Pen measure = canvas.pen.measuring();  // the info line's math as it will be drawn
  lay.area_y = paint_legend(lay, nullptr, measure, paint_readout(lay, measure));
  lay.area_w = canvas.size.x - 2 * lay.pad;
  lay.area_h = canvas.origin.y + canvas.size.y - lay.pad - lay.area_y;
  lay.dials_fit = lay.area_w >= 10 && lay.area_h >= 10;
  lay.circle = p.layout == PointerLayout::circle;
  if (lay.circle) {
    lay.r = 0.46f * std::min(lay.area_w, lay.area_h);
    lay.centre = ImVec2(lay.area_x + 0.5f * lay.area_w, lay.area_y + 0.5f * lay.area_h);
    lay.labels = lay.shown <= 24;
    return lay;
  }
  lay.dials = dial_grid(lay.shown, lay.area_x, lay.area_y, lay.area_w, lay.area_h, f, s, m.scaled);
  lay.labels = lay.dials.labels;
  lay.r = lay.dials.r;
  return lay;
}

// [SECTION] paint

// The read-out from the top of the canvas: m, n and n − m; the two equal scores side by side or
// stacked; d and base, and which blocks are shown. Returns the y under it. A measuring() pen
// only measures.
float PointersView::paint_readout(const Layout& lay, const Pen& pen) {
  const Palette& pal = lay.pal;
  const float s = lay.s;
  const float xa = lay.xa;
  float y = lay.top;
  y += pen.wrapped(lay.head, ImVec2(xa, y), lay.width, pal.text, lay.line1) + 4.0f * s;
  pen.text(lay.big, ImVec2(xa, y), pal.query, lay.a);
  if (!lay.ab_one_line) y += lay.big->FontSize + 2.0f * s;
  pen.text(lay.big, ImVec2(lay.ab_one_line ? xa + lay.wa + lay.gap_ab : xa, y), pal.key, lay.b);
  y += lay.big->FontSize + 4.0f * s;
  // beside the legend's column the info line wraps short of it too (with the pairing named it
  // reached under the legend's last item at 1280 × 720)
  const bool info_beside = lay.legend_column && y < lay.legend_bottom;
  const float info_w = info_beside ? std::max(1.0f, lay.legend_x - lay.pad - xa) : lay.width;
  float h = pen.rich_wrapped(lay.f.body, ImVec2(xa, y), info_w, pal.text_dim, lay.info);
  if (!lay.scaling.empty()) {
    // beside the legend's column it wraps short of it (the four items reach this far down)
    const bool beside = lay.legend_column && y + h < lay.legend_bottom;
    const float w = beside ? std::max(1.0f, lay.legend_x - lay.pad - xa) : lay.width;
    h += pen.wrapped(lay.f.bold, ImVec2(xa, y + h), w, pal.accent, lay.scaling);
    if (!lay.ratios.empty()) {
      const bool r_beside = lay.legend_column && y + h < lay.legend_bottom;
      const float rw = r_beside ? std::max(1.0f, lay.legend_x - lay.pad - xa) : lay.width;
      h += pen.wrapped(lay.f.body, ImVec2(xa, y + h), rw, pal.text, lay.ratios);
    }
  }
  if (!lay.emulation.empty()) {
    const bool beside = lay.legend_column && y + h < lay.legend_bottom;
    const float w = beside ? std::max(1.0f, lay.legend_x - lay.pad - xa) : lay.width;
    h += pen.wrapped(lay.f.bold, ImVec2(xa, y + h), w, pal.text, lay.emulation);
  }
  if (!lay.polar.empty()) {
    const bool beside = lay.legend_column && y + h < lay.legend_bottom;
    const float w = beside ? std::max(1.0f, lay.legend_x - lay.pad - xa) : lay.width;
    h += pen.wrapped(lay.f.bold, ImVec2(xa, y + h), w, pal.text, lay.polar);
  }
  if (!lay.notice.empty())
    h += pen.wrapped(lay.f.body, ImVec2(xa, y + h), lay.width, pal.accent, lay.notice);
  y += h + 14.0f * s;
  return y;
}

// The legend's three items (query arrow, key ring, angle arc): down a column at the top right,
// or flowing in rows from y; returns the y under it (y itself for the column). Without a draw
// list it only measures.
float PointersView::paint_legend(const Layout& lay, ImDrawList* dl, const Pen& pen, float y) {
  const Fonts& f = lay.f;
  const float s = lay.s;
  const ImU32 demo = frequency_colour(0, 1, lay.theme);
  const bool column = lay.legend_column;
  const float item_gap = 24.0f * s;
  const float row_h = f.body->FontSize + 6 * s;
  float lx = lay.legend_x;
  float ly = column ? lay.top : y;
  for (const auto& [item, words] : lay.legend) {
    const float w = 46.0f * s + text_size(f.body, words).x;
    if (!column && lx > lay.xa && lx + w > lay.xa + lay.width) {  // next row
      lx = lay.xa;
      ly += row_h;
    }
    if (dl)
      legend_icon(dl, item, ImVec2(lx, ly + 0.5f * f.body->FontSize), demo, lay.pal.accent,
                  lay.pal.text, s);
    pen.text(f.body, ImVec2(lx + 46 * s, ly), lay.pal.text, words);
    if (column) {
      ly += row_h;
    } else {
      lx += w + item_gap;
    }
  }
  return column ? y : ly + row_h + 8.0f * s;
}

// Every shown block's dial: the shared circle with the pointers from the last block to the
// first, or the grid of dials, each with its rim. Records the tips.
void PointersView::paint_dials(const Model& m, const Scores& sc, const Layout& lay,
                               const Canvas& canvas, const Params& p) {
  ImDrawList* dl = canvas.draw_list;
  const Palette& pal = lay.pal;
  const float s = lay.s;
  const double trail = p.trails ? p.trail_length : 0.0;
  const auto dial = [&](int i, ImVec2 c, float r) {
    const auto u = static_cast<std::size_t>(i);
    Dial d;
    d.i = i;
    d.c = c;
    d.r = r;
    d.th = m.thetas[u];
    if (m.scaled) d.th0 = m.thetas_original[u];
    d.col = d.th == 0.0 ? with_alpha(pal.text_dim, 0.55f)  // not rotated: grey
                        : frequency_colour(i, lay.blocks, lay.theme);
    d.rq = r * static_cast<float>(m.q_norm[u] / m.max_norm);
    d.rk = r * static_cast<float>(m.k_norm[u] / m.max_norm);
    d.aq = m.q_angle[u] + p.position * d.th;
    d.ak = m.k_angle[u] + p.key_position * d.th;
    d.q_angle0 = m.q_angle[u];
    d.k_angle0 = m.k_angle[u];
    // Whole-pixel widths: ImGui draws those as textured anti-aliased lines (one quad per
    // segment) instead of geometric fringes, several times fewer vertices for the rasteriser.
    d.thick = std::round(std::clamp(r * 0.05f, 1.0f * s, 4.0f * s));
    d.thin = std::max(1.0f, std::round(d.thick * 0.5f));
    return d;
  };
  int trails_drawn = 0;  // on the crowded shared circle: the trails not under another
  // `query`, `key` false: that pointer lies under another (CoverSet) and is not drawn;
  // `query_skip`, `key_skip`: the stretch of its shaft under others (ShaftCover)
  const auto paint_block = [&](const Dial& d, bool query, bool key, bool trail_shown,
                               ShaftCover::Stretch query_skip, ShaftCover::Stretch key_skip) {
    const int i = d.i;
    const auto u = static_cast<std::size_t>(i);
    const ImVec2 c = d.c;
    const float r = d.r;
    // Many blocks on the one shared circle (d = 512: 256) put their trails' position dots and
    // their angle arcs on the same few rings, where no pixel can tell one block's from
    // another's; they cost 50 000 of 70 000 vertices and three quarters of the frame on a
    // software renderer (issue 32: 46.7 ms). Up to kCrowdedCircle blocks they are drawn.
    const bool crowded = lay.circle && lay.shown > kCrowdedCircle;
    if (trail_shown)
      paint_trail(dl, lay.f, d, p.position, trail, crowded ? trails_drawn : lay.shown, !crowded, s);
    if (m.scaled && d.rq > 0.0f && r >= 20.0f * s)  // under the pointers the model uses
      paint_original(dl, c, polar(c, d.rq, m.q_angle[u] + p.position * d.th0), d.col, d.thick);
    if (m.scaled && d.rk > 0.0f && r >= 20.0f * s)
      paint_original(dl, c, polar(c, d.rk, m.k_angle[u] + p.key_position * d.th0), d.col, d.thick);
    // polar: the arc between the pointers stays, its label gives way to φ(m), φ(n)
    if (!crowded)
      paint_angle(dl, canvas.pen, lay.f, pal.accent, d, lay.circle || p.polar, trail, s);
    if (p.polar && !lay.circle)
      paint_polar(dl, canvas.pen, lay.f, pal, d, p.position, p.key_position, s);
    tips_[u] = paint_pointers(dl, d, s, query, key, query_skip, key_skip);
    if (sc.emulated && r >= 12.0f * s) {  // over the exact pointers: both show where they part
      const double qa = sc.q_angle_emulated[u], ka = sc.k_angle_emulated[u];
      const auto len = [](float exact, double factor) {
        return exact * static_cast<float>(factor);
      };
      if (d.rk > 0.0f && std::isfinite(ka))
        paint_emulated(dl, c, polar(c, len(d.rk, sc.k_len_emulated[u]), ka), pal.text, d.thick);
      if (d.rq > 0.0f && std::isfinite(qa))
        paint_emulated(dl, c, polar(c, len(d.rq, sc.q_len_emulated[u]), qa), pal.text, d.thick);
    }
    if (lay.labels) {
      paint_labels(canvas.pen, lay.f, pal, d, lay.circle, lay.dials.label_one_line,
                   lay.circle ? lay.f.body->FontSize : lay.dials.label_size, s);
    } else if (!lay.circle && r >= 12.0f * s) {
      // too many dials for "i = …, θ, λ" (d = 128: 64 dials): each keeps its number in the
      // gap below it, so "pair 40" can be found; the hover gives its values (review D7)
      const float px = std::min(lay.f.body->FontSize, 15.0f * s);
      canvas.pen.centred(lay.f.body, ImVec2(c.x, c.y + r + 2.0f * s), d.col, std::to_string(d.i),
                         px);
    }
  };

  if (lay.circle) {
    const ImVec2 c = lay.centre;
    const float r = lay.r;
    dl->AddCircle(c, r, pal.grid, std::clamp(static_cast<int>(r / 1.5f), 128, 512), 1.5f * s);
    dl->AddLine(ImVec2(c.x - r, c.y), ImVec2(c.x + r, c.y), with_alpha(pal.grid, 0.6f), 1.0f * s);
    dl->AddLine(ImVec2(c.x, c.y - r), ImVec2(c.x, c.y + r), with_alpha(pal.grid, 0.6f), 1.0f * s);
    // painted from the last block to the first, so block 0 is on top: a pointer is left out
    // when one of a lower block (painted later, above it) covers it
    std::vector<Dial> dials;
    dials.reserve(static_cast<std::size_t>(std::max(lay.shown, 0)));
    std::vector<char> draw_query, draw_key, draw_trail;
    std::vector<ShaftCover::Stretch> query_skip, key_skip;
    CoverSet queries, keys;
    // Shafts under shafts (views/pointer_cover.h): an opaque pointer's core covers what lies
    // under it, the anti-aliased fringe does not; whole-pixel widths w (Dial::thick, thin)
    // have cores w/2 - 0.5 and footprints w/2 + 0.5 either side of the axis.
    ShaftCover& cover = shaft_cover_;
    cover.clear();
    const auto core = [](float w) { return 0.5f * w - 0.5f; };
    const auto footprint = [](float w) { return 0.5f * w + 0.5f; };
    std::vector<TrailArc> trails;  // the trails drawn, of lower blocks than the one at hand
    for (int i = 0; i < lay.shown; ++i) {
      dials.push_back(dial(i, c, r));
      const Dial& d = dials.back();
      const PointersView::Tip tip = pointer_tips(d);
      draw_query.push_back(!queries.covered_or_add(tip.query));
      draw_key.push_back(!keys.covered_or_add(tip.key));
      // the query above the key of its block (paint_pointers), both under the lower blocks'
      const bool opaque = (d.col & IM_COL32_A_MASK) == IM_COL32_A_MASK;
      query_skip.emplace_back();
      key_skip.emplace_back();
      if (draw_query.back() && d.rq > 0.0f) {
        query_skip.back() = cover.covered(d.aq, footprint(d.thick));
        // the shaft ends where the head begins (draw_arrow)
        const float shaft = d.rq - std::min(query_head(d, s), 0.45f * d.rq) - 0.01f;
        if (opaque) cover.add(d.aq, shaft, core(d.thick));
      }
      if (draw_key.back() && d.rk > 0.0f) {
        key_skip.back() = cover.covered(d.ak, footprint(d.thin));
        if (opaque) cover.add(d.ak, d.rk - 0.01f, core(d.thin));
      }
      // the crowded circle's trails are one band of one width and alpha (paint_trail)
      bool shown = trail > 0.0 && d.rq > 0.0f;
      if (shown && lay.shown > kCrowdedCircle) {
        const TrailArc arc{d.rq, d.aq, std::min(trail * d.th, kTwoPi * 0.999)};
        shown = std::none_of(trails.begin(), trails.end(),
                             [&](const TrailArc& above) { return above.covers(arc); });
        if (shown) trails.push_back(arc);
      }
      draw_trail.push_back(shown);
    }
    trails_drawn = static_cast<int>(trails.size());
    for (int i = lay.shown - 1; i >= 0; --i) {
      const auto u = static_cast<std::size_t>(i);
      paint_block(dials[u], draw_query[u] != 0, draw_key[u] != 0, draw_trail[u] != 0, query_skip[u],
                  key_skip[u]);
    }
    return;
  }
  const float r = lay.r;
  for (int i = 0; i < lay.shown; ++i) {
    const int col = i % lay.dials.grid.cols;
    const int row = i / lay.dials.grid.cols;
    const ImVec2 c(lay.dials.x0 + lay.dials.cell_w * (static_cast<float>(col) + 0.5f),
                   lay.dials.y0 + lay.dials.cell_h * static_cast<float>(row) + 10.0f * s + r);
    if (const Fonts::Ring* baked = lay.f.ring_for(r)) {  // small dials: a baked ring (ui/theme.h)
      add_ring(dl, *baked, c, r, pal.grid);
    } else {
      dl->AddCircle(c, r, pal.grid, lay.dials.segs, std::max(1.0f, std::round(1.5f * s)));
    }
    paint_block(dial(i, c, r), true, true, true, {}, {});
  }
}

// [SECTION] hover read-out with full precision

// The block whose dial is under the mouse (on the shared circle, the one drawn last: block 0).
void PointersView::hover(const Model& m, const Scores& sc, const Layout& lay, const Canvas& canvas,
                         const Params& p) const {
  int hovered = -1;
  for (int i = 0; i < static_cast<int>(tips_.size()); ++i) {
    const Tip& t = tips_[static_cast<std::size_t>(i)];
    if (std::hypot(canvas.mouse.x - t.centre.x, canvas.mouse.y - t.centre.y) > t.radius) continue;
    hovered = i;
    if (lay.circle) break;  // drawn from the last block to the first
  }
  if (hovered < 0) return;
  const auto u = static_cast<std::size_t>(hovered);
  const double th = m.thetas[u];
  const PairIndices pi = pair_indices(hovered, p.dim, p.pairing);
  const Tip& t = tips_[u];
  place_tooltip_beside(ImVec2(t.centre.x - t.radius, t.centre.y - t.radius),
                       ImVec2(t.centre.x + t.radius, t.centre.y + t.radius), 12.0f * lay.s);
  ImGui::BeginTooltip();
  ImGui::PushFont(lay.f.bold);
  ImGui::Text("block i = %d  (coordinates %d, %d)", hovered, pi.first, pi.second);
  ImGui::PopFont();
  if (th == 0.0 && (!m.scaled || m.thetas_original[u] == 0.0)) {
    ImGui::Text("not rotated: this pair passes through unchanged at every position");
  } else if (m.scaled) {
    ImGui::Text("%s", scaling_words(view_scaling(p)).c_str());
    ImGui::Text("θᵢ = %s rad per position (original)", full_number(m.thetas_original[u]).c_str());
    ImGui::Text("θ′ᵢ = %s rad per position (θ′/θ = %.9g)", full_number(th).c_str(),
                th / m.thetas_original[u]);
    ImGui::Text("wavelength 2π/θ′ᵢ = %s positions", full_number(wavelength(th)).c_str());
    ImGui::Text("m·θ′ᵢ = %s rad", full_number(p.position * th).c_str());
    ImGui::Text("(n−m)·θ′ᵢ = %s rad", full_number((p.key_position - p.position) * th).c_str());
    ImGui::Text("attention factor a = %s (scores × a²)", full_number(m.attention_factor).c_str());
  } else {
    ImGui::Text("θᵢ = %s rad per position", full_number(th).c_str());
    ImGui::Text("wavelength 2π/θᵢ = %s positions", full_number(wavelength(th)).c_str());
    ImGui::Text("m·θᵢ = %s rad", full_number(p.position * th).c_str());
    ImGui::Text("(n−m)·θᵢ = %s rad", full_number((p.key_position - p.position) * th).c_str());
  }
  ImGui::Text("|qᵢ| = %s   |kᵢ| = %s", full_number(m.q_norm[u]).c_str(),
              full_number(m.k_norm[u]).c_str());
  if (sc.emulated) {
    // the stored angle's difference from the exact m·θᵢ, wrapped into (−π, π]
    const auto wrapped = [](double x) { return std::remainder(x, 2.0 * kPi); };
    ImGui::Text("emulated (%s): query at %.9g rad, %.6g rad from exact",
                preset_name(p.precision.formats), wrapped(sc.q_angle_emulated[u]),
                wrapped(sc.q_angle_emulated[u] - m.q_angle[u] - p.position * th));
    ImGui::Text("emulated: key at %.9g rad, %.6g rad from exact", wrapped(sc.k_angle_emulated[u]),
                wrapped(sc.k_angle_emulated[u] - m.k_angle[u] - p.key_position * th));
  }
  ImGui::EndTooltip();
}

void PointersView::Draw(AppState& state, const ViewEnv& env) {
  const Params& p = state.params;
  const Inputs in = inputs_of(p);
  const Model& m = model_.get(in, compute);
  const Scores& sc = scores_.get(ScoreInputs{in, p.position, p.key_position},
                                 [&m](const ScoreInputs& si) { return score_of(m, si); });
  const MathScope math(env, own_math_);
  const Canvas canvas("pointers_canvas", &drawn_, math.pen());  // clip popped at every return
  const Layout lay = layout(m, sc, p, canvas, env);
  paint_legend(lay, canvas.draw_list, canvas.pen, paint_readout(lay, canvas.pen));
  tips_.assign(static_cast<std::size_t>(lay.shown), Tip{});
  if (!lay.dials_fit) return;
  paint_dials(m, sc, lay, canvas, p);
  if (canvas.hovered) hover(m, sc, lay, canvas, p);
}

void PointersView::DrawControls(AppState& state, const ViewEnv&) {
  Params& p = state.params;
  int layout = p.layout == PointerLayout::circle ? 1 : 0;
  if (ImGui::RadioButton("one dial per block", &layout, 0)) p.layout = PointerLayout::dials;
  ImGui::SameLine();
  if (ImGui::RadioButton("shared circle", &layout, 1)) p.layout = PointerLayout::circle;
  ImGui::Checkbox("Trails", &p.trails);
  if (p.trails) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    param_slider(p, "trail_length");
  }

  ImGui::Checkbox("Polar form: lengths and turns from position 0", &p.polar);
  ImGui::Checkbox("Emulate precision", &p.emulate_precision);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Also draw q and k as a model computes them in %s (the Precision view's "
        "formats), in red",
        preset_name(p.precision.formats));

  ImGui::Spacing();
  ImGui::TextUnformatted("Query q");
  vector_editor("query", p.query, false, p);
  ImGui::TextUnformatted("Key k");
  vector_editor("key", p.key, true, p);
}

}  // namespace rope::app
