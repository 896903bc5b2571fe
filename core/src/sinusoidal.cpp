// sinusoidal.cpp — the additive sinusoidal encoding, its offset matrix, and 2D trajectories.
#include "rope/sinusoidal.h"

#include <cmath>

#include "internal.h"
#include "rope/frequencies.h"

namespace rope {

namespace {

constexpr std::int64_t kMaxTablePositions = 1'000'000;
constexpr std::int64_t kMaxTableEntries = std::int64_t{1} << 26;  // 512 MiB of doubles
constexpr int kMaxTrajectoryPoints = 1'000'000;

}  // namespace

std::vector<double> sinusoidal_vector(double pos, std::span<const double> thetas) {
  if (!detail::thetas_ok(thetas)) return {};
  std::vector<double> pe(2 * thetas.size());
  for (std::size_t i = 0; i < thetas.size(); ++i) {
    pe[2 * i] = std::sin(pos * thetas[i]);
    pe[2 * i + 1] = std::cos(pos * thetas[i]);
  }
  return pe;
}

Result<std::vector<double>> sinusoidal_table(std::int64_t positions, std::int64_t dim,
                                             double base) {
  if (auto s = validate_dim(dim); !s) return s.error();
  if (auto s = validate_base(base); !s) return s.error();
  if (auto s = validate_count(positions, kMaxTablePositions, "positions"); !s) return s.error();
  if (positions > kMaxTableEntries / dim) {
    return Error{"positions", "must be an integer from 1 to " +
                                  std::to_string(kMaxTableEntries / dim) + " for dim " +
                                  std::to_string(dim) + " (at most " +
                                  std::to_string(kMaxTableEntries) + " entries), got " +
                                  std::to_string(positions)};
  }
  const auto thetas = frequencies(dim, base).value();
  const auto d = static_cast<std::size_t>(dim);
  std::vector<double> table(static_cast<std::size_t>(positions) * d);
  for (std::size_t p = 0; p < static_cast<std::size_t>(positions); ++p) {
    const double pos = static_cast<double>(p);
    for (std::size_t i = 0; i < d / 2; ++i) {
      table[p * d + 2 * i] = std::sin(pos * thetas[i]);
      table[p * d + 2 * i + 1] = std::cos(pos * thetas[i]);
    }
  }
  return table;
}

std::vector<double> sinusoidal_offset_matrix(double k, std::span<const double> thetas) {
  if (!detail::thetas_ok(thetas)) return {};
  const std::size_t d = 2 * thetas.size();
  std::vector<double> m(d * d, 0.0);
  for (std::size_t i = 0; i < thetas.size(); ++i) {
    // sin((p+k)t) = cos(kt) sin(pt) + sin(kt) cos(pt);  cos((p+k)t) = -sin(kt) sin(pt) + cos(kt)
    // cos(pt)
    const double c = std::cos(k * thetas[i]);
    const double s = std::sin(k * thetas[i]);
    const std::size_t a = 2 * i;
    const std::size_t b = 2 * i + 1;
    m[a * d + a] = c;
    m[a * d + b] = s;
    m[b * d + a] = -s;
    m[b * d + b] = c;
  }
  return m;
}

std::vector<Vec2> additive_trajectory(Vec2 x, double first, double step, int count, double omega) {
  if (count < 0 || count > kMaxTrajectoryPoints) return {};
  std::vector<Vec2> out(static_cast<std::size_t>(count));
  for (int j = 0; j < count; ++j) {
    const double angle = (first + step * j) * omega;
    out[static_cast<std::size_t>(j)] = {x.x + std::sin(angle), x.y + std::cos(angle)};
  }
  return out;
}

std::vector<Vec2> rotary_trajectory(Vec2 x, double first, double step, int count, double omega) {
  if (count < 0 || count > kMaxTrajectoryPoints) return {};
  std::vector<Vec2> out(static_cast<std::size_t>(count));
  for (int j = 0; j < count; ++j) {
    out[static_cast<std::size_t>(j)] = rotate2d(x, (first + step * j) * omega);
  }
  return out;
}

}  // namespace rope
