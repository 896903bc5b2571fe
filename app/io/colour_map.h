// io/colour_map.h — the one colour map of RoPE Lab (heatmaps, colour bars, sinusoidal figure),
// below both the GL renderer and the ImGui toolkit so that the GPU pass and the CPU colour bars
// read one table.
//
// Control points of a perceptually uniform map (viridis-like: dark violet -> blue -> green ->
// yellow), evenly spaced on t in [0, 1], RGB in [0, 1]. shaders/heatmap.frag declares the
// number of points as `const int kColourMapPoints`; tests/app/test_views.cpp checks that the
// shader and this table agree.
#pragma once

#include <array>

namespace rope::app {

inline constexpr int kColourMapPoints = 11;
extern const std::array<std::array<float, 3>, kColourMapPoints> kColourMap;

// Linear interpolation between the control points; t is clamped to [0, 1], NaN gives t = 0.
std::array<float, 3> colour_map_rgb(double t);

}  // namespace rope::app
