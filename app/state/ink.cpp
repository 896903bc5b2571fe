#include "state/ink.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "state/app_state.h"
#include "state/params.h"

namespace rope::app {
namespace {

constexpr std::array<const char*, static_cast<std::size_t>(InkColour::count)> kColourNames = {
    "red", "blue", "green", "text"};

struct Scaled {
  double x, y;
};

// Squared distance from p to the segment a-b (all in the same scaled units).
double distance2_to_segment(Scaled p, Scaled a, Scaled b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double len2 = dx * dx + dy * dy;
  double t = len2 > 0.0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  const double ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
  return ex * ex + ey * ey;
}

bool passes_near(const InkStroke& s, Scaled at, double radius, const InkFrame& f) {
  const double r2 = radius * radius;
  const auto scaled = [&](InkPoint p) {
    return Scaled{f.x + p.x * f.width / kInkUnits, f.y + p.y * f.height / kInkUnits};
  };
  if (s.points.size() == 1) {
    const Scaled p = scaled(s.points[0]);
    return distance2_to_segment(at, p, p) <= r2;
  }
  for (std::size_t i = 1; i < s.points.size(); ++i)
    if (distance2_to_segment(at, scaled(s.points[i - 1]), scaled(s.points[i])) <= r2) return true;
  return false;
}

}  // namespace

const std::vector<Ink::StrokePtr>& Ink::strokes(const std::string& page) const {
  static const std::vector<StrokePtr> kNone;  // NOLINT: an immutable empty answer
  const auto it = pages_.find(page);
  return it == pages_.end() ? kNone : it->second;
}

void Ink::add(const std::string& page, InkStroke stroke) {
  if (stroke.points.empty()) return;
  if (stroke.points.size() > kMaxInkPoints) stroke.points.resize(kMaxInkPoints);
  auto it = pages_.find(page);
  if (it == pages_.end()) {
    if (pages_.size() >= kMaxInkPages) return;
    it = pages_.emplace(page, std::vector<StrokePtr>{}).first;
  }
  if (it->second.size() >= kMaxInkStrokes) return;
  it->second.push_back(std::make_shared<const InkStroke>(std::move(stroke)));
}

int Ink::erase_near(const std::string& page, double x, double y, double radius,
                    const InkFrames& frames) {
  const auto it = pages_.find(page);
  if (it == pages_.end()) return 0;
  auto& list = it->second;
  const auto removed = std::erase_if(list, [&](const StrokePtr& s) {
    return passes_near(*s, Scaled{x, y}, radius, frames[static_cast<std::size_t>(s->anchor)]);
  });
  if (list.empty()) pages_.erase(it);
  return static_cast<int>(removed);
}

void Ink::clear_page(const std::string& page) {
  pages_.erase(page);
}

bool Ink::operator==(const Ink& other) const {
  if (pages_.size() != other.pages_.size()) return false;
  for (auto a = pages_.begin(), b = other.pages_.begin(); a != pages_.end(); ++a, ++b) {
    if (a->first != b->first || a->second.size() != b->second.size()) return false;
    for (std::size_t i = 0; i < a->second.size(); ++i)
      if (a->second[i] != b->second[i] && *a->second[i] != *b->second[i]) return false;
  }
  return true;
}

const char* ink_anchor_name(InkAnchor a) {
  switch (a) {
    case InkAnchor::lesson:
      return "lesson";
    case InkAnchor::view:
      return "view";
    case InkAnchor::area:
    case InkAnchor::count:
      break;
  }
  return "area";
}

bool ink_anchor_from_name(std::string_view name, InkAnchor& out) {
  for (const InkAnchor a : {InkAnchor::area, InkAnchor::lesson, InkAnchor::view})
    if (name == ink_anchor_name(a)) {
      out = a;
      return true;
    }
  return false;
}

namespace {
bool layout_follows_dim(ViewId v) {
  return v == ViewId::pointers || v == ViewId::sinusoidal || v == ViewId::spectrum ||
         v == ViewId::precision || v == ViewId::extension;
}
std::string page_with_dim(const char* view, int dim) {
  return std::string(view) + "@d" + std::to_string(dim);
}
}  // namespace

std::string ink_page(const Params& params) {
  if (params.view == ViewId::derivation) return params.lesson + "/" + std::to_string(params.step);
  if (layout_follows_dim(params.view)) return page_with_dim(view_name(params.view), params.dim);
  return view_name(params.view);
}

void name_ink_pages_by_dim(Ink& ink, int dim) {
  for (int i = 0; i < kViewCount; ++i) {
    const auto v = static_cast<ViewId>(i);
    if (!layout_follows_dim(v)) continue;
    const std::string old_name = view_name(v);
    const auto strokes = ink.strokes(old_name);  // a copy: the page is cleared below
    if (strokes.empty()) continue;
    const std::string page = page_with_dim(view_name(v), dim);
    for (const Ink::StrokePtr& s : strokes)
      ink.add(page, *s);
    ink.clear_page(old_name);
  }
}

const char* ink_colour_name(InkColour c) {
  const auto i = static_cast<std::size_t>(c);
  return i < kColourNames.size() ? kColourNames[i] : "red";
}

bool ink_colour_from_name(std::string_view name, InkColour& out) {
  for (std::size_t i = 0; i < kColourNames.size(); ++i)
    if (name == kColourNames[i]) {
      out = static_cast<InkColour>(i);
      return true;
    }
  return false;
}

}  // namespace rope::app
