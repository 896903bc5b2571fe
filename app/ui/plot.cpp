// ui/plot.cpp — the plotting layer (plot.h).
//
// [SECTION] colour map
// [SECTION] scales and ticks
// [SECTION] style and axes
// [SECTION] marks
// [SECTION] legends and colour bars
#include "ui/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "io/colour_map.h"
#include "ui/canvas.h"
#include "ui/theme.h"

namespace rope::app::plot {

// [SECTION] colour map

ImVec4 colour_map(double t) {
  const std::array<float, 3> c = colour_map_rgb(t);
  return ImVec4(c[0], c[1], c[2], 1.0f);
}

ImU32 colour_map_u32(double t) {
  return ImGui::ColorConvertFloat4ToU32(colour_map(t));
}

double colour_t(double v, double lo, double hi) {
  if (!(hi > lo)) return 0.5;
  return std::clamp((v - lo) / (hi - lo), 0.0, 1.0);
}

// [SECTION] scales and ticks

namespace {

constexpr float kFar = 1e6f;  // screen coordinates are clamped to +-this (no float overflow)

double safe_log10(double v) {
  return std::log10(std::max(v, std::numeric_limits<double>::min()));
}

// Draws `text` rotated 90 degrees counter-clockwise (reading upwards), centred on c, by
// rotating the vertices ImGui just emitted (1.86 has no rotated text).
void text_vertical(ImDrawList* dl, DrawnText* log, ImFont* font, ImVec2 c, ImU32 colour,
                   const std::string& text) {
  const ImVec2 ts = font->CalcTextSizeA(font->FontSize, 1e9f, 0.0f, text.c_str());
  if (log)
    log->add(ImVec2(c.x - 0.5f * ts.y, c.y - 0.5f * ts.x),
             ImVec2(c.x + 0.5f * ts.y, c.y + 0.5f * ts.x), text);
  const int start = dl->VtxBuffer.Size;
  // AddText drops glyphs outside the clip rectangle before we rotate them, so lay the text out
  // unclipped, and at the top left of the screen: laid out around c, a label at the screen's
  // left edge would begin left of it and lose its first glyphs. The rotated result lies inside
  // the caller's area.
  const ImVec2 o(0.5f * ts.x + 1.0f, 0.5f * ts.y + 1.0f);  // where the text is laid out
  dl->PushClipRectFullScreen();
  dl->AddText(font, font->FontSize, ImVec2(o.x - 0.5f * ts.x, o.y - 0.5f * ts.y), colour,
              text.c_str());
  dl->PopClipRect();
  for (int i = start; i < dl->VtxBuffer.Size; ++i) {
    ImVec2& p = dl->VtxBuffer[i].pos;
    const float dx = p.x - o.x;
    const float dy = p.y - o.y;
    p = ImVec2(c.x + dy, c.y - dx);
  }
}

// Strokes a polyline, optionally dashed (dash and gap in px).
void stroke(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 colour, float thickness,
            bool dashed, float dash, float gap) {
  if (pts.size() < 2) return;
  if (!dashed) {
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), colour, 0, thickness);
    return;
  }
  bool on = true;
  float left = dash;  // px left in the current dash or gap
  ImVec2 a = pts[0];
  if (on) dl->PathLineTo(a);
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const ImVec2 b = pts[i];
    float seg = std::hypot(b.x - a.x, b.y - a.y);
    while (seg > left) {
      const float t = left / seg;
      const ImVec2 m(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
      if (on) {
        dl->PathLineTo(m);
        dl->PathStroke(colour, 0, thickness);
      } else {
        dl->PathLineTo(m);
      }
      on = !on;
      seg -= left;
      a = m;
      left = on ? dash : gap;
      if (!on) dl->PathClear();
    }
    left -= seg;
    a = b;
    if (on) dl->PathLineTo(b);
  }
  if (on) {
    dl->PathStroke(colour, 0, thickness);
  } else {
    dl->PathClear();
  }
}

}  // namespace

float Scale::to_px(double v) const {
  double t = 0.0;
  if (log) {
    const double a = safe_log10(lo);
    const double b = safe_log10(hi);
    t = b > a ? (safe_log10(v) - a) / (b - a) : 0.5;
  } else {
    t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
  }
  const double px = static_cast<double>(px0) + t * static_cast<double>(px1 - px0);
  if (!(px == px)) return -kFar;  // NaN
  return static_cast<float>(std::clamp(px, -static_cast<double>(kFar), static_cast<double>(kFar)));
}

double Scale::from_px(float px) const {
  const double t =
      px1 != px0 ? static_cast<double>(px - px0) / static_cast<double>(px1 - px0) : 0.0;
  if (log) {
    const double a = safe_log10(lo);
    const double b = safe_log10(hi);
    return std::pow(10.0, a + t * (b - a));
  }
  return lo + t * (hi - lo);
}

double nice_step(double range, int target) {
  if (!(range > 0.0) || !std::isfinite(range)) return 1.0;
  const double raw = range / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / mag;
  const double nice = r < 1.5 ? 1.0 : (r < 3.5 ? 2.0 : (r < 7.5 ? 5.0 : 10.0));
  return nice * mag;
}

std::vector<double> ticks(const Scale& s, int target) {
  std::vector<double> out;
  if (!(s.hi > s.lo) || !std::isfinite(s.lo) || !std::isfinite(s.hi)) return out;
  if (s.log && s.lo > 0.0) {
    const double a = std::log10(s.lo);
    const double b = std::log10(s.hi);
    const auto d0 = static_cast<long long>(std::ceil(a - 1e-9));
    const auto d1 = static_cast<long long>(std::floor(b + 1e-9));
    if (d1 >= d0) {
      const long long decades = d1 - d0 + 1;
      const long long stride = std::max(1LL, (decades + target - 1) / std::max(1, target));
      for (long long k = d0; k <= d1; ++k)
        if (k % stride == 0) out.push_back(std::pow(10.0, static_cast<double>(k)));
      if (b - a < 3.0) {  // few decades: 2 and 5 between them too
        for (long long k = d0 - 1; k <= d1; ++k)
          for (double mult : {2.0, 5.0}) {
            const double v = mult * std::pow(10.0, static_cast<double>(k));
            if (v >= s.lo && v <= s.hi) out.push_back(v);
          }
        std::sort(out.begin(), out.end());
      }
      if (!out.empty()) return out;
    }
    // less than one decade: nice linear ticks
  }
  const double step = nice_step(s.hi - s.lo, target);
  const double first = std::ceil(s.lo / step - 1e-9) * step;
  for (int i = 0; i < 200; ++i) {
    double v = first + i * step;
    if (v > s.hi + step * 1e-9) break;
    if (std::fabs(v) < step * 1e-9) v = 0.0;
    if (s.log && v <= 0.0) continue;
    out.push_back(v);
  }
  return out;
}

// [SECTION] style and axes

namespace {

std::vector<double> axis_ticks(const Scale& sc, const Axis& a) {
  if (a.categories.empty()) return ticks(sc, a.ticks);
  std::vector<double> out;
  for (std::size_t i = 0; i < a.categories.size(); ++i)
    out.push_back(static_cast<double>(i));
  return out;
}

std::string axis_label(double v, const Axis& a) {
  if (a.categories.empty())
    return format_number(v, a.log ? NumberStyle::log_tick : NumberStyle::tick);
  const auto i = static_cast<std::size_t>(std::max(0.0, v));
  return i < a.categories.size() ? a.categories[i] : std::string();
}

}  // namespace

Margins margins(const Style& st, const Axis& x, const Axis& y) {
  const float s = st.scale;
  Scale ys{y.lo, y.hi, y.log, 0.0f, 1.0f};
  float ytw = 0.0f;
  for (double v : axis_ticks(ys, y))
    ytw = std::max(ytw, text_size(st.tick_font, axis_label(v, y)).x);
  const float tick_len = std::round(6.0f * s);
  const float gap = std::round(6.0f * s);
  const float th = st.tick_font->FontSize;
  const float lh = st.label_font->FontSize;
  Margins m;
  m.left = tick_len + gap + ytw + (y.label.empty() ? 0.0f : gap + lh);
  // words as x ticks may take a second row, staggered, so that every word is named (axes)
  const float stagger = x.categories.empty() ? 0.0f : th;
  m.bottom = tick_len + gap + th + stagger + (x.label.empty() ? 0.0f : gap + lh);
  m.top = std::round(0.5f * th + 2.0f * s);
  m.right = std::round(24.0f * s);
  return m;
}

Style style(const ViewEnv& env, Theme theme, DrawnText* log) {
  const Palette& pal = palette(theme);
  Style st;
  st.tick_font = env.fonts->body;
  st.label_font = env.fonts->large;
  st.title_font = env.fonts->bold;
  st.axis = pal.axis;
  st.grid = with_alpha(pal.grid, 0.55f);
  st.text = pal.text;
  st.text_dim = pal.text_dim;
  st.panel = pal.panel;
  st.canvas = pal.canvas;
  st.scale = env.scale;
  st.log = log;
  return st;
}

Frame axes(ImDrawList* dl, const Style& st, ImVec2 rect_min, ImVec2 rect_max, Axis x, Axis y) {
  const float s = st.scale;
  const Pen pen{dl, st.log, {}};
  const auto fix = [](Axis& a) {
    if (!std::isfinite(a.lo)) a.lo = 0.0;
    if (!std::isfinite(a.hi)) a.hi = a.lo + 1.0;
    if (a.log) {
      if (!(a.hi > 0.0)) a.hi = 1.0;
      if (!(a.lo > 0.0)) a.lo = a.hi * 1e-3;
    }
    if (!(a.hi > a.lo)) {
      const double w = a.log ? a.lo : std::max(1.0, std::fabs(a.lo) * 0.1);
      a.hi = a.lo + w;
      if (!a.log) a.lo -= w;
    }
  };
  fix(x);
  fix(y);

  const Margins mg = margins(st, x, y);
  const float tick_len = std::round(6.0f * s);
  const float gap = std::round(6.0f * s);
  const float th = st.tick_font->FontSize;
  const float lh = st.label_font->FontSize;
  const float left = mg.left, bottom = mg.bottom, top = mg.top, right = mg.right;

  Frame f;
  f.area_min = ImVec2(std::round(rect_min.x + left), std::round(rect_min.y + top));
  f.area_max = ImVec2(std::round(std::max(f.area_min.x + 1.0f, rect_max.x - right)),
                      std::round(std::max(f.area_min.y + 1.0f, rect_max.y - bottom)));
  f.x = Scale{x.lo, x.hi, x.log, f.area_min.x, f.area_max.x};
  f.y = y.down ? Scale{y.lo, y.hi, y.log, f.area_min.y, f.area_max.y}
               : Scale{y.lo, y.hi, y.log, f.area_max.y, f.area_min.y};
  const std::vector<double> xt = axis_ticks(f.x, x);
  const std::vector<double> yt = axis_ticks(f.y, y);

  const float one = std::max(1.0f, std::round(s));
  // grid
  for (double v : xt) {
    const float px = std::round(f.x.to_px(v)) + 0.5f;
    if (x.grid) dl->AddLine(ImVec2(px, f.area_min.y), ImVec2(px, f.area_max.y), st.grid, one);
  }
  for (double v : yt) {
    const float py = std::round(f.y.to_px(v)) + 0.5f;
    if (y.grid) dl->AddLine(ImVec2(f.area_min.x, py), ImVec2(f.area_max.x, py), st.grid, one);
  }
  // axes: left and bottom edges of the area
  const float ax = f.area_min.x - 0.5f;
  const float ay = f.area_max.y + 0.5f;
  dl->AddLine(ImVec2(ax, f.area_min.y), ImVec2(ax, ay), st.axis, one);
  dl->AddLine(ImVec2(ax, ay), ImVec2(f.area_max.x, ay), st.axis, one);
  // ticks and their labels: every tick labelled, or every k-th with the smallest k at which no
  // two labels overlap (dropping only the labels that collide would leave uneven steps, such
  // as 2000 … 8000 then 12 000, where the wider labels begin)
  struct TickLabel {
    float px, lx, w;
    std::string text;
  };
  std::vector<TickLabel> xl;
  for (double v : xt) {
    const float px = std::round(f.x.to_px(v)) + 0.5f;
    std::string t = axis_label(v, x);
    const float w = text_size(st.tick_font, t).x;
    xl.push_back({px, std::round(px - 0.5f * w), w, std::move(t)});
  }
  const auto fits_every = [&](std::size_t k) {
    float last_right = -1e9f;
    for (std::size_t i = 0; i < xl.size(); i += k) {
      if (xl[i].lx < last_right + gap) return false;
      last_right = xl[i].lx + xl[i].w;
    }
    return true;
  };
  std::size_t every = 1;
  while (every < xl.size() && !fits_every(every))
    ++every;
  // words (categories) that do not fit in one row alternate between two rows when each row
  // then fits: a sentence's every word is named (review D20: 5 of 9 were), and margins()
  // keeps the second row's room for a categorical axis
  const auto row_fits = [&](std::size_t first) {
    float last_right = -1e9f;
    for (std::size_t i = first; i < xl.size(); i += 2) {
      if (xl[i].lx < last_right + gap) return false;
      last_right = xl[i].lx + xl[i].w;
    }
    return true;
  };
  const bool staggered = !x.categories.empty() && every > 1 && row_fits(0) && row_fits(1);
  if (staggered) every = 1;
  for (std::size_t i = 0; i < xl.size(); ++i) {
    const float row = staggered && i % 2 == 1 ? th : 0.0f;
    dl->AddLine(ImVec2(xl[i].px, ay), ImVec2(xl[i].px, ay + tick_len + row), st.axis, one);
    if (i % every == 0)
      pen.text(st.tick_font, ImVec2(xl[i].lx, ay + tick_len + 0.5f * gap + row), st.text_dim,
               xl[i].text);
  }
  float last_top = 1e9f, last_bottom = -1e9f;  // the last y label drawn
  for (double v : yt) {
    const float py = std::round(f.y.to_px(v)) + 0.5f;
    dl->AddLine(ImVec2(ax - tick_len, py), ImVec2(ax, py), st.axis, one);
    const std::string t = axis_label(v, y);
    const float w = text_size(st.tick_font, t).x;
    const float ly = std::round(py - 0.5f * th);
    if (ly < last_bottom && ly + th > last_top) continue;  // never overlap labels
    pen.text(st.tick_font, ImVec2(std::round(ax - tick_len - gap - w), ly), st.text_dim, t);
    last_top = ly;
    last_bottom = ly + th;
  }
  // axis labels, or their short forms when they are longer than the axis
  const auto fitting = [&](const Axis& a, float length) {
    return text_size(st.label_font, a.label).x > length && !a.short_label.empty() ? a.short_label
                                                                                  : a.label;
  };
  if (!x.label.empty()) {
    pen.centred(st.label_font,
                ImVec2(0.5f * (f.area_min.x + f.area_max.x),
                       ay + tick_len + gap + th + (staggered ? th : 0.0f) + gap),
                st.text, fitting(x, f.area_max.x - f.area_min.x));
  }
  if (!y.label.empty()) {
    text_vertical(dl, st.log, st.label_font,
                  ImVec2(std::round(rect_min.x + 0.5f * lh), 0.5f * (f.area_min.y + f.area_max.y)),
                  st.text, fitting(y, f.area_max.y - f.area_min.y));
  }
  return f;
}

// [SECTION] marks

void line(ImDrawList* dl, const Frame& f, std::span<const double> xs, std::span<const double> ys,
          ImU32 colour, float thickness, bool dashed) {
  const std::size_t n = std::min(xs.size(), ys.size());
  if (n == 0) return;
  const float s = std::max(1.0f, thickness);
  const float xmin = f.area_min.x - 2.0f * s, xmax = f.area_max.x + 2.0f * s;
  const float ymin = f.area_min.y - 4000.0f, ymax = f.area_max.y + 4000.0f;
  // the points of every run (a run ends at a value that cannot be drawn), run after run
  std::vector<ImVec2> pts;
  std::vector<std::size_t> run_ends;
  pts.reserve(
      std::min<std::size_t>(n, 4 * static_cast<std::size_t>(f.area_max.x - f.area_min.x + 8)));

  // Column reduction: for the points falling in one pixel column keep the first, the lowest,
  // the highest and the last, in that order, which draws the same pixels as all of them.
  bool open = false;
  long col = 0;
  ImVec2 first{}, lowest{}, highest{}, last{};
  const auto flush = [&]() {
    if (!open) return;
    pts.push_back(first);
    if (lowest.y != first.y || lowest.x != first.x) pts.push_back(lowest);
    if (highest.y != lowest.y) pts.push_back(highest);
    if (last.y != highest.y) pts.push_back(last);
    open = false;
  };
  const auto finish = [&]() {
    flush();
    if (run_ends.empty() ? !pts.empty() : run_ends.back() != pts.size())
      run_ends.push_back(pts.size());
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(xs[i]) || !std::isfinite(ys[i]) || (f.x.log && xs[i] <= 0.0) ||
        (f.y.log && ys[i] <= 0.0)) {
      finish();
      continue;
    }
    const ImVec2 p(std::clamp(f.x.to_px(xs[i]), xmin, xmax),
                   std::clamp(f.y.to_px(ys[i]), ymin, ymax));
    const long c = std::lround(std::floor(p.x));
    if (!open || c != col) {
      flush();
      open = true;
      col = c;
      first = lowest = highest = last = p;
      continue;
    }
    if (p.y > lowest.y) lowest = p;  // screen y grows downwards: "lowest" is largest y
    if (p.y < highest.y) highest = p;
    last = p;
  }
  finish();
  // Clip to the plot area (plus the line's half width) only when the curve leaves it: every
  // clip rectangle starts a new draw command, and llvmpipe pays for each.
  const ImVec2 clip_min(f.area_min.x - s, f.area_min.y - s);
  const ImVec2 clip_max(f.area_max.x + s, f.area_max.y + s);
  bool inside = true;
  for (const ImVec2& p : pts)
    inside = inside && p.x >= clip_min.x + s && p.x <= clip_max.x - s && p.y >= clip_min.y + s &&
             p.y <= clip_max.y - s;
  if (!inside) dl->PushClipRect(clip_min, clip_max, true);
  std::size_t begin = 0;
  for (const std::size_t end : run_ends) {
    const std::vector<ImVec2> run(pts.begin() + static_cast<std::ptrdiff_t>(begin),
                                  pts.begin() + static_cast<std::ptrdiff_t>(end));
    stroke(dl, run, colour, thickness, dashed, 8.0f * s, 6.0f * s);
    begin = end;
  }
  if (!inside) dl->PopClipRect();
}

void hline(ImDrawList* dl, const Frame& f, double y, ImU32 colour, float thickness, bool dashed) {
  const float py = std::round(f.y.to_px(y)) + 0.5f;
  if (py < f.area_min.y - 1 || py > f.area_max.y + 1) return;
  stroke(dl, {ImVec2(f.area_min.x, py), ImVec2(f.area_max.x, py)}, colour, thickness, dashed,
         10.0f * thickness, 6.0f * thickness);
}

void vline(ImDrawList* dl, const Frame& f, double x, ImU32 colour, float thickness, bool dashed) {
  const float px = std::round(f.x.to_px(x)) + 0.5f;
  if (px < f.area_min.x - 1 || px > f.area_max.x + 1) return;
  stroke(dl, {ImVec2(px, f.area_min.y), ImVec2(px, f.area_max.y)}, colour, thickness, dashed,
         10.0f * thickness, 6.0f * thickness);
}

void marker(ImDrawList* dl, const Frame& f, double x, double y, ImU32 colour, float radius,
            bool filled) {
  const ImVec2 p(f.x.to_px(x), f.y.to_px(y));
  if (!f.contains(p)) return;
  if (filled) {
    dl->AddCircleFilled(p, radius, colour, 12);
  } else {
    dl->AddCircle(p, radius, colour, 12, std::max(1.0f, std::round(0.35f * radius)));
  }
}

ImVec2 label_box_padding(const Style& st) {
  const float pad = std::round(5.0f * st.scale);
  return ImVec2(pad, pad * 0.5f);
}

void label_box(ImDrawList* dl, const Style& st, ImFont* font, ImVec2 pos, ImU32 colour,
               const std::string& text) {
  const ImVec2 ts = text_size(font, text);
  const float pad = std::round(5.0f * st.scale);
  dl->AddRectFilled(ImVec2(pos.x - pad, pos.y - pad * 0.5f),
                    ImVec2(pos.x + ts.x + pad, pos.y + ts.y + pad * 0.5f), st.panel,
                    4.0f * st.scale);
  Pen{dl, st.log, {}}.text(font, pos, colour, text);
}

// [SECTION] legends and colour bars

namespace {

struct LegendMetrics {
  float sample, pad, row, w, h;
};

LegendMetrics legend_metrics(const Style& st, std::span<const LegendEntry> entries) {
  const float s = st.scale;
  LegendMetrics m;
  m.sample = std::round(30.0f * s);
  m.pad = std::round(10.0f * s);
  m.row = st.tick_font->FontSize + std::round(4.0f * s);
  float w = 0.0f;
  for (const auto& e : entries)
    w = std::max(w, text_size(st.tick_font, e.label).x);
  m.w = m.pad + m.sample + m.pad + w + m.pad;
  m.h = m.pad + m.row * static_cast<float>(entries.size()) + m.pad - std::round(4.0f * s);
  return m;
}

// The boxed legend with its box's top-left at `pos`.
void legend_at(ImDrawList* dl, const Style& st, ImVec2 pos, std::span<const LegendEntry> entries) {
  if (entries.empty()) return;
  const float s = st.scale;
  const Pen pen{dl, st.log, {}};
  ImFont* font = st.tick_font;
  const LegendMetrics m = legend_metrics(st, entries);
  const float x0 = pos.x, y0 = pos.y;
  dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + m.w, y0 + m.h), st.panel, 6.0f * s);
  dl->AddRect(ImVec2(x0, y0), ImVec2(x0 + m.w, y0 + m.h), st.grid, 6.0f * s, 0,
              std::max(1.0f, std::round(s)));
  float y = y0 + m.pad;
  const float thick = std::max(1.0f, std::round(3.0f * s));
  for (const auto& e : entries) {
    const float cy = std::round(y + 0.5f * font->FontSize);
    if (e.dot) {
      dl->AddCircleFilled(ImVec2(x0 + m.pad + 0.5f * m.sample, cy), 5.0f * s, e.colour, 12);
    } else {
      stroke(dl, {ImVec2(x0 + m.pad, cy), ImVec2(x0 + m.pad + m.sample, cy)}, e.colour, thick,
             e.dashed, 8.0f * s, 5.0f * s);
    }
    pen.text(font, ImVec2(x0 + m.pad + m.sample + m.pad, y), st.text, e.label);
    y += m.row;
  }
}

}  // namespace

ImVec2 legend_size(const Style& st, std::span<const LegendEntry> entries) {
  if (entries.empty()) return ImVec2(0, 0);
  const LegendMetrics m = legend_metrics(st, entries);
  return ImVec2(m.w, m.h);
}

float legend_row(ImDrawList* dl, const Style& st, ImVec2 pos, float width,
                 std::span<const LegendEntry> entries) {
  if (entries.empty()) return 0.0f;
  const float s = st.scale;
  ImFont* font = st.tick_font;
  const float sample = std::round(30.0f * s);
  const float gap = std::round(8.0f * s);
  const float item_gap = std::round(24.0f * s);
  const float row = font->FontSize + std::round(4.0f * s);
  const float thick = std::max(1.0f, std::round(3.0f * s));
  float x = pos.x, y = pos.y;
  for (const auto& e : entries) {
    const float w = sample + gap + text_size(font, e.label).x;
    if (x > pos.x && x + w > pos.x + width) {
      x = pos.x;
      y += row;
    }
    if (dl) {
      const float cy = std::round(y + 0.5f * font->FontSize);
      if (e.dot) {
        dl->AddCircleFilled(ImVec2(x + 0.5f * sample, cy), 5.0f * s, e.colour, 12);
      } else {
        stroke(dl, {ImVec2(x, cy), ImVec2(x + sample, cy)}, e.colour, thick, e.dashed, 8.0f * s,
               5.0f * s);
      }
      Pen{dl, st.log, {}}.text(font, ImVec2(x + sample + gap, y), st.text, e.label);
    }
    x += w + item_gap;
  }
  return y + font->FontSize - pos.y;
}

float legend(ImDrawList* dl, const Style& st, const Frame& f, std::span<const LegendEntry> entries,
             int corner) {
  if (entries.empty()) return f.area_min.y;
  const LegendMetrics m = legend_metrics(st, entries);
  const float inset = std::round(12.0f * st.scale);
  const float x0 = (corner == 0 || corner == 2) ? f.area_min.x + inset : f.area_max.x - inset - m.w;
  const float y0 = (corner == 0 || corner == 1) ? f.area_min.y + inset : f.area_max.y - inset - m.h;
  legend_at(dl, st, ImVec2(x0, y0), entries);
  return y0 + m.h;
}

float colour_bar_margin(const Style& st, bool vertical) {
  const float s = st.scale;
  if (vertical)
    return std::round(6.0f * s) + std::round(6.0f * s) + text_size(st.tick_font, "−0.0000").x +
           std::round(8.0f * s) + st.label_font->FontSize;
  return std::round(6.0f * s) + st.tick_font->FontSize + std::round(6.0f * s) +
         st.label_font->FontSize;
}

Scale colour_bar(ImDrawList* dl, const Style& st, ImVec2 bar_min, ImVec2 bar_max, double lo,
                 double hi, const std::string& label, bool vertical) {
  const float s = st.scale;
  const Pen pen{dl, st.log, {}};
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) {
    const double c = std::isfinite(lo) ? lo : 0.0;
    lo = c - 0.5;
    hi = c + 0.5;
  }
  // gradient: one quad per control-point interval
  for (int i = 0; i + 1 < kColourMapPoints; ++i) {
    const double t0 = static_cast<double>(i) / (kColourMapPoints - 1);
    const double t1 = static_cast<double>(i + 1) / (kColourMapPoints - 1);
    const ImU32 c0 = colour_map_u32(t0);
    const ImU32 c1 = colour_map_u32(t1);
    if (vertical) {
      const float ya = bar_max.y + (bar_min.y - bar_max.y) * static_cast<float>(t0);
      const float yb = bar_max.y + (bar_min.y - bar_max.y) * static_cast<float>(t1);
      dl->AddRectFilledMultiColor(ImVec2(bar_min.x, yb), ImVec2(bar_max.x, ya), c1, c1, c0, c0);
    } else {
      const float xa = bar_min.x + (bar_max.x - bar_min.x) * static_cast<float>(t0);
      const float xb = bar_min.x + (bar_max.x - bar_min.x) * static_cast<float>(t1);
      dl->AddRectFilledMultiColor(ImVec2(xa, bar_min.y), ImVec2(xb, bar_max.y), c0, c1, c1, c0);
    }
  }
  const float one = std::max(1.0f, std::round(s));
  dl->AddRect(bar_min, bar_max, st.axis, 0.0f, 0, one);
  Scale sc = vertical ? Scale{lo, hi, false, bar_max.y, bar_min.y}
                      : Scale{lo, hi, false, bar_min.x, bar_max.x};
  const float tick_len = std::round(6.0f * s);
  const float gap = std::round(6.0f * s);
  ImFont* font = st.tick_font;
  float max_w = 0.0f;
  // about one tick per 2.5 label heights (vertical) or label widths (horizontal), at most 5
  const float length = vertical ? bar_max.y - bar_min.y : bar_max.x - bar_min.x;
  const float per_tick = vertical ? 2.5f * font->FontSize : 1.6f * text_size(font, "−0.000").x;
  const int target = std::clamp(static_cast<int>(length / per_tick), 1, vertical ? 5 : 4);
  float last_lo = 1e9f, last_hi = -1e9f;  // the extent of the last label drawn along the bar
  for (double v : ticks(sc, target)) {
    const std::string t = format_number(v, NumberStyle::tick);
    const ImVec2 ts = text_size(font, t);
    const float p = std::round(sc.to_px(v)) + 0.5f;
    const float from = vertical ? std::round(p - 0.5f * ts.y) : std::round(p - 0.5f * ts.x);
    const float to = from + (vertical ? ts.y : ts.x);
    const bool overlaps = from < last_hi && to > last_lo;
    if (vertical) {
      dl->AddLine(ImVec2(bar_max.x, p), ImVec2(bar_max.x + tick_len, p), st.axis, one);
      if (overlaps) continue;
      pen.text(font, ImVec2(bar_max.x + tick_len + gap, from), st.text_dim, t);
      max_w = std::max(max_w, ts.x);
    } else {
      dl->AddLine(ImVec2(p, bar_max.y), ImVec2(p, bar_max.y + tick_len), st.axis, one);
      if (overlaps) continue;
      pen.text(font, ImVec2(from, bar_max.y + tick_len), st.text_dim, t);
    }
    last_lo = from;
    last_hi = to;
  }
  if (!label.empty()) {
    if (vertical) {
      text_vertical(dl, st.log, st.label_font,
                    ImVec2(bar_max.x + tick_len + gap + max_w + std::round(8.0f * s) +
                               0.5f * st.label_font->FontSize,
                           0.5f * (bar_min.y + bar_max.y)),
                    st.text, label);
    } else {
      pen.centred(
          st.label_font,
          ImVec2(0.5f * (bar_min.x + bar_max.x), bar_max.y + tick_len + font->FontSize + gap),
          st.text, label);
    }
  }
  return sc;
}

}  // namespace rope::app::plot
