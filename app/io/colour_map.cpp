#include "io/colour_map.h"

#include <algorithm>
#include <cstddef>

namespace rope::app {

// Eleven evenly spaced samples of a dark-violet -> blue -> teal -> green -> yellow ramp whose
// lightness rises steadily (the shape of matplotlib's viridis, written out as control points).
const std::array<std::array<float, 3>, kColourMapPoints> kColourMap{{
    {0.267f, 0.005f, 0.329f},
    {0.283f, 0.141f, 0.458f},
    {0.254f, 0.265f, 0.530f},
    {0.207f, 0.372f, 0.553f},
    {0.164f, 0.471f, 0.558f},
    {0.128f, 0.567f, 0.551f},
    {0.135f, 0.659f, 0.518f},
    {0.267f, 0.749f, 0.441f},
    {0.478f, 0.821f, 0.318f},
    {0.741f, 0.873f, 0.150f},
    {0.993f, 0.906f, 0.144f},
}};

std::array<float, 3> colour_map_rgb(double t) {
  if (!(t >= 0.0)) t = 0.0;  // also NaN
  t = std::min(t, 1.0);
  const double x = t * (kColourMapPoints - 1);
  const int i = std::min(static_cast<int>(x), kColourMapPoints - 2);
  const auto f = static_cast<float>(x - i);
  const auto& a = kColourMap[static_cast<std::size_t>(i)];
  const auto& b = kColourMap[static_cast<std::size_t>(i + 1)];
  return {a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f};
}

}  // namespace rope::app
