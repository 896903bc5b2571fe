// extrapolation.cpp — PI's Fig. 2 least-squares fit (pivoted Householder QR, minimum-norm
// solution) and Fig. 5's B(s)/d.
//
// Why QR and not the normal equations. The basis matrix A ([L][d], A[s][2j] = sin(s theta_j),
// A[s][2j+1] = cos(s theta_j)) is badly conditioned: for d = 128, base 10^4, L = 2048 the 23
// slowest pairs (wavelength above L) turn by less than a full circle over [0, L), where their
// sines and cosines are all close to low-degree polynomials in s and hence close to each other.
// Forming A^T A squares the condition number, so every direction of A whose singular value is
// below sqrt(eps) * ||A|| (about 1e-8 relative) would be lost to rounding before the solve
// starts. Householder QR works on A itself and is backward stable: it loses only what the
// rounding of A's own entries already blurs (eps * ||A||).
//
// Why column pivoting and a rank. A is rank-deficient to working precision. With pivoting, the
// ratios |R_kk|/|R_00| for d = 128, L = 2048 (seed 1) stay near 0.7 up to k = 68, then fall:
// 0.12, 0.039, 5.2e-3, 3.6e-4, 2.6e-5, 7.4e-6, 3.5e-7, 1.2e-8, 1.0e-9, 9.4e-11, 1.3e-12, 9.3e-14
// at k = 69 ... 80, and from k = 81 on lie on a floor of rounding noise, 3.3e-15 down to
// 1.3e-17. Dividing by those last pivots fits rounding, not data: keeping all 128 columns makes
// the residual on [0, L) worse (44.50 instead of 43.93). So the QR picks, at each step, the
// remaining column with the largest norm (Businger and Golub 1965) and stops at the first k with
//   |R_kk| <= tol * |R_00|,  tol = max(L, d) * eps by default
// (NumPy lstsq's default rcond, used here on R's diagonal as LAPACK's xGELSY uses its rcond:
// below it, a column's remaining part is no larger than the rounding of A's entries; for
// d = 128, L = 2048 it keeps rank 80). The columns left over are dependent on the chosen ones;
// they get the values that make the coefficient vector shortest (the complete orthogonal
// decomposition of xGELSY): [R11 R12] = [T 0] Z with Z orthogonal, c = P Z^T [T^-1 z; 0].
// Unlike "set the dependent coefficients to zero", this answer does not depend on which of two
// nearly equal columns the pivoting happened to pick, and like an SVD-based solver's it is the
// shortest coefficient vector among those that fit equally well.
//
// The tolerance decides the picture beyond L, and barely anything inside. Measured for d = 128,
// base 10^4, L = 2048, seed 1 (max |a(s)| on [0, L) / on [L, 2L) / residual norm, rank):
//   tol 1e-2: 0.61 / 0.67 / 44.08, 71     tol 1e-6:  1.06 / 3.7e4 / 43.98, 75
//   tol 1e-4: 0.57 / 60   / 44.03, 73     tol 1e-10: 1.02 / 8.2e7 / 43.94, 78
//   default (4.5e-13): 0.84 / 1.4e10 / 43.93, 80
// The data on [0, L) determine a(s) there and say almost nothing beyond: keep the nearly
// dependent directions (as an exact least-squares fit must) and a(s) explodes past L; the paper's
// "beyond 8000" corresponds to a tolerance near 1e-6. fit_targets takes the tolerance as an
// argument so the app can show this.
//
// Tikhonov regularisation (minimise ||Ac - y||^2 + mu^2 ||c||^2, also solvable by QR of [A; mu I])
// would also tame the tiny pivots; it was not chosen because it biases every coefficient, so a
// problem with an exact, well-conditioned solution would be recovered only to about mu^2 / s_min^2
// instead of to rounding, while the pivoted QR solves the well-determined part exactly.
#include "rope/extrapolation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "internal.h"
#include "rope/decay.h"
#include "rope/frequencies.h"
#include "rope/random.h"

namespace rope {

namespace {

constexpr std::int64_t kMaxBOverDS = 1'000'000;

// The largest L in [kMinFitContext, kMaxFitContext] with L * d * min(L, d) <= kMaxFitWork.
std::int64_t max_fit_context(std::int64_t dim) {
  const std::int64_t if_tall = kMaxFitWork / (dim * dim);  // L >= d: L d^2 <= work
  if (if_tall >= dim) return std::min(if_tall, kMaxFitContext);
  // L < d: L^2 d <= work
  auto l = static_cast<std::int64_t>(std::sqrt(static_cast<double>(kMaxFitWork / dim)));
  while (l * l * dim > kMaxFitWork)
    --l;
  while ((l + 1) * (l + 1) * dim <= kMaxFitWork)
    ++l;
  return l;
}

Status validate_context(std::int64_t dim, std::int64_t context) {
  if (context < kMinFitContext || context > kMaxFitContext) {
    return Error{"context", "must be an integer from " + std::to_string(kMinFitContext) + " to " +
                                std::to_string(kMaxFitContext) + ", got " +
                                std::to_string(context)};
  }
  const std::int64_t max_context = max_fit_context(dim);
  if (context > max_context) {
    return Error{"context", "must be an integer from " + std::to_string(kMinFitContext) + " to " +
                                std::to_string(max_context) + " for dim " + std::to_string(dim) +
                                " (the fit costs context x dim x min(context, dim), at most " +
                                std::to_string(kMaxFitWork) + "), got " + std::to_string(context)};
  }
  return {};
}

bool fit_ok(const FitResult& fit) {
  return detail::thetas_ok(fit.thetas) && fit.coefficients.size() == 2 * fit.thetas.size();
}

// A Householder reflector H = I - tau v v^T with v[0] = 1 that maps (alpha, x) to (beta, 0):
// on return x holds v[1 ...] and the function returns tau; alpha becomes beta. The sign of beta
// is opposite to alpha's so that alpha - beta never cancels (LAPACK's xLARFG, without its
// rescaling for underflow: the entries here are sines and cosines, at most 1 in magnitude).
double make_reflector(double& alpha, double* x, std::size_t stride, std::size_t count) {
  double sum = 0.0;
  for (std::size_t i = 0; i < count; ++i)
    sum += x[i * stride] * x[i * stride];
  if (sum == 0.0) return 0.0;  // already (alpha, 0): H = I
  const double beta = -std::copysign(std::sqrt(alpha * alpha + sum), alpha);
  const double tau = (beta - alpha) / beta;
  const double scale = 1.0 / (alpha - beta);
  for (std::size_t i = 0; i < count; ++i)
    x[i * stride] *= scale;
  alpha = beta;
  return tau;
}

}  // namespace

Result<FitResult> fit_targets(std::int64_t dim, double base, std::span<const double> targets,
                              std::optional<double> rank_tolerance) {
  if (auto s = validate_dim(dim); !s) return s.error();
  if (auto s = validate_base(base); !s) return s.error();
  const auto count = static_cast<std::int64_t>(targets.size());
  if (count < kMinFitContext || count > kMaxFitContext) {
    return Error{"targets", "must have from " + std::to_string(kMinFitContext) + " to " +
                                std::to_string(kMaxFitContext) + " entries, got " +
                                std::to_string(count)};
  }
  for (std::size_t s = 0; s < targets.size(); ++s) {
    if (!std::isfinite(targets[s])) {
      return Error{"targets", "entry " + std::to_string(s) + " must be a finite number, got " +
                                  detail::format_number(targets[s])};
    }
  }
  if (auto s = validate_context(dim, count); !s) return s.error();
  if (rank_tolerance && !(*rank_tolerance > 0.0 && *rank_tolerance < 1.0)) {
    return Error{"rank_tolerance", "must be a number greater than 0 and less than 1, got " +
                                       detail::format_number(*rank_tolerance)};
  }

  FitResult fit;
  fit.dim = static_cast<int>(dim);
  fit.base = base;
  fit.thetas = frequencies(dim, base).value();
  fit.targets.assign(targets.begin(), targets.end());
  const std::size_t rows = targets.size();          // L
  const auto cols = static_cast<std::size_t>(dim);  // d
  const std::size_t steps = std::min(rows, cols);
  fit.rank_tolerance = rank_tolerance.value_or(static_cast<double>(std::max(rows, cols)) *
                                               std::numeric_limits<double>::epsilon());

  // Pass 1: the basis matrix, column-major [d][L] (column k is a[k * L ... k * L + L-1]) so that
  // the QR's reflectors run over contiguous memory.
  std::vector<double> a(rows * cols);
  for (std::size_t j = 0; j < fit.thetas.size(); ++j) {
    double* sin_col = a.data() + 2 * j * rows;
    double* cos_col = sin_col + rows;
    for (std::size_t s = 0; s < rows; ++s) {
      const double angle = static_cast<double>(s) * fit.thetas[j];
      sin_col[s] = std::sin(angle);
      cos_col[s] = std::cos(angle);
    }
  }

  // Pass 2: Householder QR with column pivoting, A P = Q R, applying Q^T to the targets as we
  // go (z = Q^T y). R's upper triangle overwrites A; below the diagonal of column k sits the
  // reflector's v[1 ...]. norms[j] is the norm of the not-yet-reduced rows of column j, recomputed
  // exactly while each reflector is applied (downdating it instead loses all digits once the
  // column is nearly dependent, which is the common case here).
  std::vector<double> z = fit.targets;
  std::vector<std::size_t> perm(cols);
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  std::vector<double> norms(cols);
  for (std::size_t j = 0; j < cols; ++j) {
    double sum = 0.0;
    for (std::size_t s = 0; s < rows; ++s)
      sum += a[j * rows + s] * a[j * rows + s];
    norms[j] = std::sqrt(sum);
  }
  std::size_t rank = 0;
  double r00 = 0.0;
  for (std::size_t k = 0; k < steps; ++k) {
    const auto pivot = static_cast<std::size_t>(
        std::max_element(norms.begin() + static_cast<std::ptrdiff_t>(k), norms.end()) -
        norms.begin());
    if (pivot != k) {
      std::swap_ranges(a.begin() + static_cast<std::ptrdiff_t>(k * rows),
                       a.begin() + static_cast<std::ptrdiff_t>((k + 1) * rows),
                       a.begin() + static_cast<std::ptrdiff_t>(pivot * rows));
      std::swap(perm[k], perm[pivot]);
      std::swap(norms[k], norms[pivot]);
    }
    if (k == 0) r00 = norms[0];
    // |R_kk| equals the pivot column's remaining norm: below tolerance, the rest is dependent.
    if (!(norms[k] > fit.rank_tolerance * r00)) break;

    double* col = a.data() + k * rows;
    const double tau = make_reflector(col[k], col + k + 1, 1, rows - k - 1);
    const auto apply = [&](double* y) {  // y[k ...] = H y[k ...]; returns |y[k+1 ...]|
      double w = y[k];
      for (std::size_t s = k + 1; s < rows; ++s)
        w += col[s] * y[s];
      w *= tau;
      y[k] -= w;
      double sum = 0.0;
      for (std::size_t s = k + 1; s < rows; ++s) {
        y[s] -= w * col[s];
        sum += y[s] * y[s];
      }
      return std::sqrt(sum);
    };
    for (std::size_t j = k + 1; j < cols; ++j)
      norms[j] = apply(a.data() + j * rows);
    apply(z.data());
    rank = k + 1;
  }
  fit.rank = static_cast<int>(rank);

  // Pass 3: the first `rank` rows of R, copied row-major [rank][d] so that the row operations
  // below run over contiguous memory (in A they are strided by L: d = 4096, L = 512 took 4 s).
  std::vector<double> rr(rank * cols);
  for (std::size_t i = 0; i < rank; ++i) {
    for (std::size_t j = i; j < cols; ++j)
      rr[i * cols + j] = a[j * rows + i];
  }
  const auto r = [&](std::size_t i, std::size_t j) -> double& { return rr[i * cols + j]; };

  // Pass 4 (only when rank < d): zero R12 from the right, [R11 R12] = [T 0] Z. Row i's reflector
  // acts on column i and the dependent columns rank ... d-1, maps row i to (T_ii, 0 ... 0), and is
  // applied to the rows above it; rows below i are untouched (their column-i entry is 0 and
  // their dependent part is already zero). Each reflector's v[1 ...] is kept in row i's R12.
  std::vector<double> ztau(rank, 0.0);
  const std::size_t dependent = cols - rank;
  if (dependent > 0) {
    for (std::size_t i = rank; i-- > 0;) {
      const double* v = &r(i, rank);
      ztau[i] = make_reflector(r(i, i), &r(i, rank), 1, dependent);
      for (std::size_t row = 0; row < i; ++row) {
        double* other = &r(row, rank);
        double w = r(row, i);
        for (std::size_t t = 0; t < dependent; ++t)
          w += v[t] * other[t];
        w *= ztau[i];
        r(row, i) -= w;
        for (std::size_t t = 0; t < dependent; ++t)
          other[t] -= w * v[t];
      }
    }
  }

  // Pass 5: x = [T^-1 z[0 ... rank-1]; 0] by back substitution, then x = Z^T x (= H_{rank-1} ...
  // H_0 x, H_0 first) and c[perm[j]] = x[j].
  std::vector<double> x(cols, 0.0);
  for (std::size_t i = rank; i-- > 0;) {
    double sum = z[i];
    for (std::size_t j = i + 1; j < rank; ++j)
      sum -= r(i, j) * x[j];
    x[i] = sum / r(i, i);
  }
  for (std::size_t i = 0; i < rank && dependent > 0; ++i) {
    const double* v = &r(i, rank);
    double w = x[i];
    for (std::size_t t = 0; t < dependent; ++t)
      w += v[t] * x[rank + t];
    w *= ztau[i];
    x[i] -= w;
    for (std::size_t t = 0; t < dependent; ++t)
      x[rank + t] -= w * v[t];
  }
  fit.coefficients.assign(cols, 0.0);
  for (std::size_t j = 0; j < cols; ++j)
    fit.coefficients[perm[j]] = x[j];

  // The residual from the fitted function itself, not from z: it is what the picture shows.
  double sum = 0.0;
  for (std::size_t s = 0; s < rows; ++s) {
    const double e = evaluate_fit(fit, static_cast<double>(s)) - fit.targets[s];
    sum += e * e;
  }
  fit.residual_norm = std::sqrt(sum);
  return fit;
}

Result<FitResult> fit_random_target(std::int64_t dim, double base, std::int64_t context,
                                    std::uint64_t seed, std::optional<double> rank_tolerance) {
  if (auto s = validate_dim(dim); !s) return s.error();
  if (auto s = validate_base(base); !s) return s.error();
  if (auto s = validate_context(dim, context); !s) return s.error();
  SplitMix64 rng(seed);
  std::vector<double> targets(static_cast<std::size_t>(context));
  for (double& t : targets)
    t = rng.normal();
  return fit_targets(dim, base, targets, rank_tolerance);
}

double evaluate_fit(const FitResult& fit, double s) {
  if (!fit_ok(fit) || !std::isfinite(s)) return std::nan("");
  double sum = 0.0;
  for (std::size_t j = 0; j < fit.thetas.size(); ++j) {
    const double angle = s * fit.thetas[j];
    sum +=
        fit.coefficients[2 * j] * std::sin(angle) + fit.coefficients[2 * j + 1] * std::cos(angle);
  }
  return sum;
}

Result<std::vector<double>> evaluate_fit_range(const FitResult& fit, double from, double to,
                                               double step) {
  if (!fit_ok(fit)) {
    return Error{"fit", "must hold 1 to " + std::to_string(kMaxDim / 2) +
                            " frequencies and twice as many coefficients, got " +
                            std::to_string(fit.thetas.size()) + " and " +
                            std::to_string(fit.coefficients.size())};
  }
  if (auto s = validate_position(from, "from"); !s) return s.error();
  if (auto s = validate_position(to, "to"); !s) return s.error();
  if (!(to > from)) {
    return Error{"to", "must be greater than from (" + detail::format_number(from) + "), got " +
                           detail::format_number(to)};
  }
  if (!std::isfinite(step) || !(step > 0.0)) {
    return Error{"step",
                 "must be a finite number greater than 0, got " + detail::format_number(step)};
  }
  // n = the number of k >= 0 with from + k * step < to, as computed in double; the quotient is
  // only a first guess (25 + 400 * 0.125 = 75 must be excluded, whatever the rounding).
  const double span = (to - from) / step;
  const auto too_many = [&] {
    return Error{"step", "gives more than " + std::to_string(kMaxFitPoints) + " points from " +
                             detail::format_number(from) + " to " + detail::format_number(to) +
                             ", got step " + detail::format_number(step)};
  };
  if (!(span <= static_cast<double>(kMaxFitPoints) + 2.0)) return too_many();
  auto n = static_cast<std::int64_t>(std::ceil(span));
  const auto at = [&](std::int64_t k) { return from + static_cast<double>(k) * step; };
  while (n > 0 && !(at(n - 1) < to))
    --n;
  while (at(n) < to)  // ends: at(n) grows with n and span bounds n
    ++n;
  if (n > kMaxFitPoints) return too_many();
  std::vector<double> out(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k)
    out[static_cast<std::size_t>(k)] = evaluate_fit(fit, at(k));
  return out;
}

Result<std::vector<double>> b_over_d(std::int64_t dim, double base, std::int64_t max_s) {
  if (auto s = validate_dim(dim); !s) return s.error();
  if (auto s = validate_base(base); !s) return s.error();
  if (max_s < 0 || max_s > kMaxBOverDS) {
    return Error{"max_s", "must be an integer from 0 to " + std::to_string(kMaxBOverDS) + ", got " +
                              std::to_string(max_s)};
  }
  // decay_curve gives D(s) = (1/(d/2)) sum_{j=1}^{d/2} |S_j(s)| with S_j = sum_{i<j} e^{i s
  // theta_i}; PI's B(s) = sum_{k=0}^{d/2-1} |sum_{j<=k} e^{i s theta_j}| is the same sum of
  // |S_{k+1}|, so B(s) = (d/2) D(s) and B(s)/d = D(s)/2.
  auto curve = decay_curve(dim, base, max_s);
  if (!curve) return curve.error();
  auto out = std::move(curve).value();
  for (double& v : out)
    v *= 0.5;
  return out;
}

}  // namespace rope
