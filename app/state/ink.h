// state/ink.h — what the lecturer draws over the canvas with the pen and the highlighter: strokes,
// kept per page (a view, or one step of one lesson) until erased or cleared, saved in sessions.
//
// Coordinates are fixed-point fractions of the panel the stroke is anchored to: x from 0 at its
// left edge to kInkUnits at the right, y from 0 at the top to kInkUnits at the bottom. A stroke
// on a view is anchored to the ink area (the canvas right of the control panel); on a lesson
// step, to the part it began in — the lesson's text or the step's view — because the two
// panels change shape differently (presentation mode hides the control panel: the lesson gets
// wider, and the view's dials move with the view's own width, not the whole canvas's). A
// stroke that runs on past its panel's edge keeps going (coordinates from −kInkUnits to
// 2 kInkUnits). Fractions rather than pixels, so a stroke stays over the same part of the
// picture in a window, in presentation mode and in a 4× picture; integers rather than doubles,
// so a session saves and restores a stroke exactly.
//
// A finished stroke never changes, so it is shared (shared_ptr<const>): Params is copied into
// every undo step (state/history.h), and copying the ink copies pointers, not points.
//
// Usage:
//   params.ink.add(ink_page(params), stroke);                   // a finished stroke
//   for (const auto& s : params.ink.strokes(ink_page(params)))  // what to draw on this page
// Sessions save it beside the parameters (state/session.h: "ink").
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rope::app {

struct Params;

inline constexpr int kInkUnits = 10000;  // the ink area's width and height in ink units

// Limits that keep a session small and a frame fast; a longer stroke is cut (drawing stops
// adding points), a file that exceeds them is refused with the limit named.
inline constexpr std::size_t kMaxInkPoints = 20000;  // per stroke
inline constexpr std::size_t kMaxInkStrokes = 2000;  // per page
inline constexpr std::size_t kMaxInkPages = 500;

enum class InkKind : std::uint8_t { pen, highlighter };
// The pen's colours; `text` is the theme's text colour (white on dark, near-black on light).
enum class InkColour : std::uint8_t { red, blue, green, text, count };

struct InkPoint {
  std::int32_t x = 0, y = 0;  // ink units, 0 ... kInkUnits
  bool operator==(const InkPoint&) const = default;
};

// What a stroke's coordinates are fractions of (above).
enum class InkAnchor : std::uint8_t { area, lesson, view, count };

// The screen rectangle (px) an anchor stands for in this frame.
struct InkFrame {
  double x = 0, y = 0, width = kInkUnits, height = kInkUnits;
};
using InkFrames = std::array<InkFrame, static_cast<std::size_t>(InkAnchor::count)>;

// The coordinates a stroke anchored there may take (a stroke may run past its panel's edge).
inline constexpr std::int32_t ink_min(InkAnchor a) {
  return a == InkAnchor::area ? 0 : -kInkUnits;
}
inline constexpr std::int32_t ink_max(InkAnchor a) {
  return a == InkAnchor::area ? kInkUnits : 2 * kInkUnits;
}

struct InkStroke {
  InkKind kind = InkKind::pen;
  InkColour colour = InkColour::red;  // the highlighter is always yellow: its colour is ignored
  std::vector<InkPoint> points;       // at least one; one point is a dot
  InkAnchor anchor = InkAnchor::area;
  bool operator==(const InkStroke&) const = default;
};

class Ink {
 public:
  using StrokePtr = std::shared_ptr<const InkStroke>;

  const std::vector<StrokePtr>& strokes(const std::string& page) const;
  bool empty() const { return pages_.empty(); }
  std::size_t page_count() const { return pages_.size(); }
  const std::map<std::string, std::vector<StrokePtr>>& pages() const { return pages_; }

  // Appends a stroke (nothing when the page is full or the stroke has no point).
  void add(const std::string& page, InkStroke stroke);
  // Removes every stroke of `page` that passes within `radius` px of the screen point (x, y),
  // each stroke placed on screen by the frame of its anchor; returns how many were removed.
  int erase_near(const std::string& page, double x, double y, double radius,
                 const InkFrames& frames);
  void clear_page(const std::string& page);
  void clear() { pages_.clear(); }

  // Strokes compare by content: two sessions with the same drawing are equal.
  bool operator==(const Ink& other) const;

 private:
  std::map<std::string, std::vector<StrokePtr>> pages_;  // no empty page is kept
};

// The page the current picture is: the view's name, or "lesson/STEP" for a lesson step
// ("03-rope-2d/2"), so a drawing stays with the step it was made on. A view whose layout follows
// d (one dial, column or pair per block: pointers, sinusoidal, spectrum, precision, extension)
// has a page per d ("pointers@d16"): a circle drawn round dial 3 at d = 16 would circle
// another dial at d = 64 (review D20), so it is shown again only when d is back at 16.
std::string ink_page(const Params& params);
// Sessions written before pages named d have "pointers" where ink_page now says "pointers@d16":
// such pages are renamed to the session's d (state/session.cpp, after its parameters).
void name_ink_pages_by_dim(Ink& ink, int dim);

const char* ink_colour_name(InkColour c);  // "red", "blue", "green", "text"
// The colour with that name; false when there is none.
bool ink_colour_from_name(std::string_view name, InkColour& out);
const char* ink_anchor_name(InkAnchor a);  // "area", "lesson", "view"
bool ink_anchor_from_name(std::string_view name, InkAnchor& out);

}  // namespace rope::app
