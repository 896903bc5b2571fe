// views/pointer_cover.h — how far out a pointer on the pointers view's shared circle lies under
// the pointers painted above it, so that the part under them is not painted at all.
//
// Every pointer on the shared circle is a straight anti-aliased line from one centre. At d = 512
// some 500 of them meet there, and near the centre a pixel is painted dozens of times, each time
// blended, for a picture in which only the top one shows; a software rasteriser pays for every
// layer (issue 32). A pointer's shaft whose pixels out to a radius R are all under the opaque
// cores of pointers painted later is drawn from R outward: the picture is the same, pixel for
// pixel.
//
// Geometry (px, rad; angles mathematical, counter-clockwise): a line of whole-pixel width w,
// drawn by ImGui as a quad w + 2 px wide textured with w opaque texels between two transparent
// ones and sampled bilinearly (or, without the texture, as a core w − 1 wide with a 1 px
// fringe each side), is opaque up to w/2 − 0.5 from its axis and leaves pixels untouched from
// w/2 + 0.5 on. On the circle of radius ρ around the centre a line at angle b whose core has
// half-width c covers the angles |θ − b| ≤ asin(min(1, c/ρ)) while ρ ≤ its length (the points
// of the circle there lie within c of its axis and not behind the centre); the footprint of
// half-width h of a line at angle a lies within |θ − a| ≤ asin(min(1, h/ρ)). The part of that
// line out to radius R (a rectangle R long, 2h wide) lies on the circles ρ ≤ √(R² + h²).
//
// Usage, from the top pointer down (the order opposite to painting):
//   ShaftCover cover;  cover.clear();
//   for each pointer, top first:  skip = cover.covered(angle, footprint);  draw all but `skip`;
//                                 cover.add(angle, length, core);
#pragma once

#include <cstddef>
#include <vector>

namespace rope::app {

class ShaftCover {
 public:
  // Empties the set and keeps its storage (one ShaftCover serves every frame).
  void clear();
  // Adds a shaft painted above all shafts asked about later: from the centre at `angle` (rad)
  // out to `length` px, opaque within `core` px of its axis (core <= 0: not added).
  void add(double angle, float length, float core);
  // The stretch of a shaft from the centre at `angle` (rad) whose footprint, `half` px either
  // side of its axis (> 0), lies under the cores of the shafts added: px from the centre,
  // `from` < `to`, or empty (0, 0) when no such stretch was found. Conservative: between the
  // circles it checks, each step takes the widest footprint and the narrowest cores of the
  // step.
  struct Stretch {
    float from = 0.0f, to = 0.0f;
  };
  Stretch covered(double angle, float half);

 private:
  struct Band {  // the shafts of one core half-width, sorted by angle
    float core = 0.0f;
    std::vector<double> angle;  // [0, 2π), ascending
    std::vector<float> length;  // px, in the same order
  };
  // True if the arc [a − alpha, a + alpha] of the circle of radius rho1 (with the shafts'
  // cores taken at that radius) is covered.
  bool arc_covered(double a, double alpha, double rho1);
  std::vector<Band> bands_;     // few: the shared circle has two widths (queries, keys)
  float longest_ = 0.0f;        // px, of the shafts added
  std::vector<double> gammas_;  // scratch of arc_covered: each band's γ on the circle
};

}  // namespace rope::app
