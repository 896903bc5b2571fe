// ui/plot.h — the one small plotting layer every chart view uses: axes with nice ticks (linear
// or logarithmic), axis labels, grid, polylines decimated to the pixel grid, markers, legends,
// colour bars with the perceptually uniform colour map, and hover mapping. Immediate mode over
// ImDrawList; nothing here keeps state between frames.
//
// Usage (inside a view's canvas, after InvisibleButton):
//   const plot::Style st = plot::style(env, p.theme);
//   plot::Frame f = plot::axes(dl, st, rect, {0, 256, false, "relative distance r"},
//                              {0, 35, false, "D(r)"});
//   plot::line(dl, f, xs, ys, colour, 2.0f * s);
//   plot::legend(dl, st, f, entries);
//   if (hovered) { double x = f.x.from_px(mouse.x); ... }
//
// Sizes are px at scale 1, multiplied by Style::scale. Lines are whole-pixel thick so ImGui
// draws them as cheap textured anti-aliased quads.
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "imgui.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_env.h"

namespace rope::app::plot {

// [SECTION] colour map

// The colour map of io/colour_map.h (the heatmap shader receives the same table as a uniform,
// so CPU colour bars and GPU cells agree), as ImGui colours.
// Linear interpolation between the control points; t is clamped to [0, 1], NaN gives t = 0.
ImVec4 colour_map(double t);
ImU32 colour_map_u32(double t);

// [SECTION] scales and ticks

struct Scale {
  double lo = 0.0, hi = 1.0;     // data range shown (lo < hi; on a log scale both > 0)
  bool log = false;              // logarithmic (base 10) axis
  float px0 = 0.0f, px1 = 1.0f;  // screen coordinates of lo and hi (px1 < px0 for y up)
  float to_px(double v) const;
  double from_px(float px) const;
};

// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `target` intervals.
double nice_step(double range, int target);
// Tick values inside [lo, hi]: multiples of a nice step, or on a log scale the powers of ten
// (every one, or every 2nd, 3rd... to keep about `target` of them), with 2 and 5 in between
// when fewer than three decades are shown.
std::vector<double> ticks(const Scale& s, int target);

// [SECTION] style and axes

struct Style {
  ImFont* tick_font = nullptr;   // tick labels, legends
  ImFont* label_font = nullptr;  // axis labels
  ImFont* title_font = nullptr;  // panel titles
  ImU32 axis = 0, grid = 0, text = 0, text_dim = 0, panel = 0, canvas = 0;
  float scale = 1.0f;
  DrawnText* log = nullptr;  // where the labels' boxes are recorded (the view's DrawnText)
};
Style style(const ViewEnv& env, Theme theme, DrawnText* log = nullptr);

struct Axis {
  double lo = 0.0, hi = 1.0;
  bool log = false;
  std::string label;
  bool down = false;                    // y only: values grow downwards (matrix rows)
  bool grid = true;                     // grid lines at the ticks
  int ticks = 6;                        // about this many intervals
  std::vector<std::string> categories;  // if set: ticks at 0, 1, ... labelled with these
  std::string short_label;  // drawn instead of `label` when that is longer than the axis
};

// The space axes() leaves around the data area for ticks and labels, px.
struct Margins {
  float left = 0, right = 0, top = 0, bottom = 0;
};
Margins margins(const Style& st, const Axis& x, const Axis& y);

// A drawn pair of axes: `area` is the data rectangle inside the margins.
struct Frame {
  ImVec2 area_min, area_max;
  Scale x, y;
  bool contains(ImVec2 p) const {
    return p.x >= area_min.x && p.x <= area_max.x && p.y >= area_min.y && p.y <= area_max.y;
  }
};

// Lays out margins for tick and axis labels inside [rect_min, rect_max], draws grid, axes,
// ticks and labels, and returns the mapping. Ranges that are empty or invalid are widened
// (lo == hi) or clamped (log with lo <= 0), never rejected.
Frame axes(ImDrawList* dl, const Style& st, ImVec2 rect_min, ImVec2 rect_max, Axis x, Axis y);

// [SECTION] marks

// A polyline through (xs[i], ys[i]), clipped to the frame's area. Points are reduced to at most
// a few per pixel column (min and max kept), so 100 000 samples cost what 2 000 do. Non-finite
// points break the line.
void line(ImDrawList* dl, const Frame& f, std::span<const double> xs, std::span<const double> ys,
          ImU32 colour, float thickness, bool dashed = false);
void hline(ImDrawList* dl, const Frame& f, double y, ImU32 colour, float thickness,
           bool dashed = false);
void vline(ImDrawList* dl, const Frame& f, double x, ImU32 colour, float thickness,
           bool dashed = false);
// A filled (or hollow) circle marker at data (x, y) if it lies inside the area.
void marker(ImDrawList* dl, const Frame& f, double x, double y, ImU32 colour, float radius,
            bool filled = true);
// Text with a panel-coloured box behind it, at a screen point (top-left).
void label_box(ImDrawList* dl, const Style& st, ImFont* font, ImVec2 pos, ImU32 colour,
               const std::string& text);
// The size label_box needs for `text` beyond the text itself: its padding on each side.
ImVec2 label_box_padding(const Style& st);

// [SECTION] legends and colour bars

struct LegendEntry {
  std::string label;
  ImU32 colour = 0;
  bool dashed = false;
  bool dot = false;  // a marker instead of a line sample
};
// A boxed legend in a corner of the area: 0 top-left, 1 top-right, 2 bottom-left,
// 3 bottom-right. Returns the box's bottom y.
float legend(ImDrawList* dl, const Style& st, const Frame& f, std::span<const LegendEntry> entries,
             int corner = 1);
// The size of that legend's box, px.
ImVec2 legend_size(const Style& st, std::span<const LegendEntry> entries);
// An unboxed legend outside a plot: the entries (sample and label) flow left to right from
// `pos`, wrapping at `width`. Returns the height used; with dl == nullptr it only measures.
float legend_row(ImDrawList* dl, const Style& st, ImVec2 pos, float width,
                 std::span<const LegendEntry> entries);

// A colour bar of the colour map for values lo ... hi with ticks and a label. Vertical bars put
// hi at the top and labels on the right; horizontal bars put labels below. Returns the bar's
// value scale (for hover).
Scale colour_bar(ImDrawList* dl, const Style& st, ImVec2 bar_min, ImVec2 bar_max, double lo,
                 double hi, const std::string& label, bool vertical);
// The width (vertical) or height (horizontal) the bar's labels need beyond the bar itself.
float colour_bar_margin(const Style& st, bool vertical);

// Normalised position of v in [lo, hi] for the colour map (lo == hi gives 0.5).
double colour_t(double v, double lo, double hi);

}  // namespace rope::app::plot
