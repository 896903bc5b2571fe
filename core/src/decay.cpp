// decay.cpp — RoPE's relative upper bound D(r) and the mean score of random positive pairs.
#include "rope/decay.h"

#include <algorithm>
#include <cmath>
#include <complex>

#include "internal.h"
#include "rope/frequencies.h"
#include "rope/random.h"

namespace rope {

namespace {

constexpr std::int64_t kMaxDistance = 1'000'000;
constexpr int kMaxSamples = 100'000;

Status validate_distance(std::int64_t max_distance) {
  if (max_distance < 0 || max_distance > kMaxDistance) {
    return Error{"max_distance", "must be an integer from 0 to " + std::to_string(kMaxDistance) +
                                     ", got " + std::to_string(max_distance)};
  }
  return {};
}

Status validate_thetas(std::span<const double> thetas) {
  if (!detail::thetas_ok(thetas))
    return Error{"thetas", "must have 1 to " + std::to_string(kMaxDim / 2) + " entries, got " +
                               std::to_string(thetas.size())};
  for (std::size_t i = 0; i < thetas.size(); ++i)
    if (!(std::isfinite(thetas[i]) && thetas[i] >= 0.0))
      return Error{"thetas", "entry " + std::to_string(i) +
                                 " must be a finite number of at least 0, got " +
                                 detail::format_number(thetas[i])};
  return {};
}

// The mean of h_i = conj(z_i) w_i over `samples` seeded pairs, i = 0 ... half - 1. Draw order
// per sample: q[0 ... d-1], then k[0 ... d-1], each uniform in [0, 1).
std::vector<std::complex<double>> mean_weights(std::size_t half, int samples, std::uint64_t seed) {
  const std::size_t d = 2 * half;
  std::vector<std::complex<double>> mean_h(half);
  SplitMix64 rng(seed);
  std::vector<double> q(d);
  std::vector<double> k(d);
  for (int sample = 0; sample < samples; ++sample) {
    for (double& x : q)
      x = rng.uniform();
    for (double& x : k)
      x = rng.uniform();
    for (std::size_t i = 0; i < half; ++i) {
      mean_h[i] += std::conj(std::complex<double>(q[2 * i], q[2 * i + 1])) *
                   std::complex<double>(k[2 * i], k[2 * i + 1]);
    }
  }
  for (auto& h : mean_h)
    h /= static_cast<double>(samples);
  return mean_h;
}

}  // namespace

Result<std::vector<double>> decay_curve(std::int64_t dim, double base, std::int64_t max_distance) {
  if (auto s = validate_dim(dim); !s) return s.error();
  if (auto s = validate_base(base); !s) return s.error();
  if (auto s = validate_distance(max_distance); !s) return s.error();
  return decay_curve_thetas(frequencies(dim, base).value(), max_distance);
}

Result<std::vector<double>> decay_curve_thetas(std::span<const double> thetas,
                                               std::int64_t max_distance) {
  if (auto s = validate_thetas(thetas); !s) return s.error();
  if (auto s = validate_distance(max_distance); !s) return s.error();
  const std::size_t half = thetas.size();
  std::vector<double> out(static_cast<std::size_t>(max_distance) + 1);
  // For each r: the prefix sums S_j = sum_{i<j} e^{i r theta_i}, j = 1 ... d/2, and the mean of
  // their magnitudes.
  detail::PhasorStepper ph(thetas);
  for (std::size_t r = 0; r < out.size(); ++r, ph.advance()) {
    const auto c = ph.cos();
    const auto s = ph.sin();
    double re = 0.0;
    double im = 0.0;
    double total = 0.0;
    for (std::size_t i = 0; i < half; ++i) {
      re += c[i];
      im += s[i];
      total += std::sqrt(re * re + im * im);
    }
    out[r] = total / static_cast<double>(half);
  }
  return out;
}

Result<std::vector<double>> mean_random_score(std::int64_t dim, double base,
                                              std::int64_t max_distance, int samples,
                                              std::uint64_t seed) {
  if (auto s = validate_dim(dim); !s) return s.error();
  if (auto s = validate_base(base); !s) return s.error();
  if (auto s = validate_distance(max_distance); !s) return s.error();
  if (auto s = validate_count(samples, kMaxSamples, "samples"); !s) return s.error();
  return mean_random_score_thetas(frequencies(dim, base).value(), max_distance, samples, seed);
}

Result<std::vector<double>> mean_random_score_thetas(std::span<const double> thetas,
                                                     std::int64_t max_distance, int samples,
                                                     std::uint64_t seed) {
  if (auto s = validate_thetas(thetas); !s) return s.error();
  if (auto s = validate_distance(max_distance); !s) return s.error();
  if (auto s = validate_count(samples, kMaxSamples, "samples"); !s) return s.error();
  const std::size_t half = thetas.size();

  // (R_0 q) . (R_r k) = sum_i Re(conj(z_i) w_i e^{i r theta_i}) with z_i = q[2i] + i q[2i+1]
  // and w_i likewise for k. The score is linear in h_i = conj(z_i) w_i, so its mean over the
  // samples is the same sum with the mean h_i: O(samples d + R d) instead of O(samples R d).
  const std::vector<std::complex<double>> mean_h = mean_weights(half, samples, seed);
  std::vector<double> out(static_cast<std::size_t>(max_distance) + 1);
  detail::PhasorStepper ph(thetas);
  for (std::size_t r = 0; r < out.size(); ++r, ph.advance()) {
    const auto c = ph.cos();
    const auto s = ph.sin();
    double total = 0.0;
    for (std::size_t i = 0; i < half; ++i)
      total += mean_h[i].real() * c[i] - mean_h[i].imag() * s[i];
    out[r] = total;
  }
  return out;
}

Result<double> mean_random_max_step(std::int64_t dim, int samples, std::uint64_t seed) {
  if (auto s = validate_dim(dim); !s) return s.error();
  if (auto s = validate_count(samples, kMaxSamples, "samples"); !s) return s.error();
  const auto half = static_cast<std::size_t>(dim / 2);
  const std::vector<std::complex<double>> h = mean_weights(half, samples, seed);
  double step = 0.0;
  for (std::size_t i = 0; i < half; ++i)  // h_{d/2} = 0 past the last block
    step =
        std::max(step, std::abs((i + 1 < half ? h[i + 1] : std::complex<double>(0.0, 0.0)) - h[i]));
  return step;
}

}  // namespace rope
