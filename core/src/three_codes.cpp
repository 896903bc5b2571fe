// three_codes.cpp — RoPE written the three ways of rope/three_codes.h, each following its
// listing, and the weight-row permutation between the layouts.
#include "rope/three_codes.h"

#include <cmath>
#include <complex>
#include <cstddef>
#include <string>

#include "internal.h"
#include "rope/frequencies.h"
#include "rope/rotation.h"

namespace rope {

namespace {

constexpr int kMaxHeads = 1024;

Status check_vector(const char* parameter, std::span<const double> x,
                    std::span<const double> thetas) {
  if (!detail::thetas_ok(thetas))
    return Error{"thetas", "must have 1 to " + std::to_string(kMaxDim / 2) + " entries, got " +
                               std::to_string(thetas.size())};
  if (x.size() != 2 * thetas.size())
    return detail::size_error(parameter, 2 * thetas.size(), x.size(), "[d], d = 2 * thetas");
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      return Error{parameter, "entry " + std::to_string(i) + " must be a finite number, got " +
                                  detail::format_number(x[i])};
  return {};
}

Status check_inputs(std::span<const double> x, double position, std::span<const double> thetas) {
  if (Status s = check_vector("x", x, thetas); !s) return s;
  return validate_position(position);
}

double rel_gap(double a, double b, double scale) {
  const double denom = std::fmax(std::fmax(std::fabs(a), std::fabs(b)), scale);
  return denom > 0.0 ? std::fabs(a - b) / denom : 0.0;
}

}  // namespace

Result<std::vector<double>> rotate_math(std::span<const double> x, double position,
                                        std::span<const double> thetas) {
  if (Status s = check_inputs(x, position, thetas); !s) return s.error();
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < thetas.size(); ++i) {
    // [y0; y1] = [[cos, -sin], [sin, cos]] [x0; x1] for block i at angle m theta_i
    const double phi = position * thetas[i];
    const double c = std::cos(phi), s = std::sin(phi);
    const double x0 = x[2 * i], x1 = x[2 * i + 1];
    y[2 * i] = c * x0 - s * x1;
    y[2 * i + 1] = s * x0 + c * x1;
  }
  return y;
}

Result<std::vector<double>> rotate_complex_interleaved(std::span<const double> x, double position,
                                                       std::span<const double> thetas) {
  if (Status s = check_inputs(x, position, thetas); !s) return s.error();
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < thetas.size(); ++i) {
    // freqs_cis_i = polar(1, m theta_i); x viewed as complex pairs; product; back to real pairs
    const std::complex<double> w = std::polar(1.0, position * thetas[i]);
    const std::complex<double> z(x[2 * i], x[2 * i + 1]);
    const std::complex<double> r = z * w;
    y[2 * i] = r.real();
    y[2 * i + 1] = r.imag();
  }
  return y;
}

Result<std::vector<double>> rotate_half_form(std::span<const double> x, double position,
                                             std::span<const double> thetas) {
  if (Status s = check_inputs(x, position, thetas); !s) return s.error();
  const std::size_t half = thetas.size(), d = x.size();
  // cos and sin tables duplicated over both halves: emb = cat(freqs, freqs)
  std::vector<double> cos_full(d), sin_full(d), rotated(d), y(d);
  for (std::size_t j = 0; j < d; ++j) {
    const double phi = position * thetas[j % half];
    cos_full[j] = std::cos(phi);
    sin_full[j] = std::sin(phi);
  }
  // rotate_half(x) = cat(-x[half:], x[:half])
  for (std::size_t j = 0; j < half; ++j) {
    rotated[j] = -x[j + half];
    rotated[j + half] = x[j];
  }
  for (std::size_t j = 0; j < d; ++j)
    y[j] = x[j] * cos_full[j] + rotated[j] * sin_full[j];
  return y;
}

Result<std::vector<int>> checkpoint_row_permutation(int n_heads, int head_dim) {
  if (n_heads < 1 || n_heads > kMaxHeads)
    return Error{"n_heads", "must be an integer from 1 to " + std::to_string(kMaxHeads) + ", got " +
                                std::to_string(n_heads)};
  if (Status s = validate_dim(head_dim); !s) return Error{"head_dim", s.error().message};
  // view(n_heads, head_dim/2, 2, model_dim): old row = h*head_dim + 2i + j;
  // transpose(1, 2) then reshape: new row = h*head_dim + j*head_dim/2 + i.
  const int half = head_dim / 2;
  std::vector<int> rows(static_cast<std::size_t>(n_heads * head_dim));
  for (int h = 0; h < n_heads; ++h)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < half; ++i)
        rows[static_cast<std::size_t>(h * head_dim + j * half + i)] = h * head_dim + 2 * i + j;
  return rows;
}

namespace {
Status check_perm(std::span<const int> perm, std::size_t n) {
  if (perm.size() != n) return detail::size_error("perm", n, perm.size(), "one index per entry");
  std::vector<char> seen(n, 0);
  for (std::size_t j = 0; j < n; ++j) {
    const int p = perm[j];
    if (p < 0 || static_cast<std::size_t>(p) >= n || seen[static_cast<std::size_t>(p)])
      return Error{"perm", "must hold each index 0 to " + std::to_string(n - 1) + " once; entry " +
                               std::to_string(j) + " is " + std::to_string(p)};
    seen[static_cast<std::size_t>(p)] = 1;
  }
  return {};
}
}  // namespace

Result<std::vector<double>> apply_permutation(std::span<const double> x,
                                              std::span<const int> perm) {
  if (Status s = check_perm(perm, x.size()); !s) return s.error();
  std::vector<double> y(x.size());
  for (std::size_t j = 0; j < x.size(); ++j)
    y[j] = x[static_cast<std::size_t>(perm[j])];
  return y;
}

Result<std::vector<double>> apply_permutation_transposed(std::span<const double> x,
                                                         std::span<const int> perm) {
  if (Status s = check_perm(perm, x.size()); !s) return s.error();
  std::vector<double> y(x.size());
  for (std::size_t j = 0; j < x.size(); ++j)
    y[static_cast<std::size_t>(perm[j])] = x[j];
  return y;
}

Result<CodeComparison> compare_codes(std::span<const double> q, std::span<const double> k, double m,
                                     double n, std::span<const double> thetas) {
  if (Status s = check_vector("q", q, thetas); !s) return s.error();
  if (Status s = check_vector("k", k, thetas); !s) return s.error();
  if (Status s = validate_position(m, "position"); !s) return s.error();
  if (Status s = validate_position(n, "key_position"); !s) return s.error();
  CodeComparison c;
  c.perm = interleaved_to_half_permutation(static_cast<int>(q.size()));  // q checked above
  const auto pq = apply_permutation(q, c.perm).value();
  const auto pk = apply_permutation(k, c.perm).value();
  c.rq_math = rotate_math(q, m, thetas).value();
  c.rk_math = rotate_math(k, n, thetas).value();
  c.rq_complex = rotate_complex_interleaved(q, m, thetas).value();
  c.rk_complex = rotate_complex_interleaved(k, n, thetas).value();
  c.rq_half = rotate_half_form(pq, m, thetas).value();
  c.rk_half = rotate_half_form(pk, n, thetas).value();
  c.rq_half_nop = rotate_half_form(q, m, thetas).value();
  c.rk_half_nop = rotate_half_form(k, n, thetas).value();
  c.score_math = dot(c.rq_math, c.rk_math);
  c.score_complex = dot(c.rq_complex, c.rk_complex);
  c.score_half_permuted = dot(c.rq_half, c.rk_half);
  c.score_half_unpermuted = dot(c.rq_half_nop, c.rk_half_nop);
  const double scale = std::sqrt(dot(q, q)) * std::sqrt(dot(k, k));
  c.rel_gap_permuted = rel_gap(c.score_half_permuted, c.score_math, scale);
  c.rel_gap_unpermuted = rel_gap(c.score_half_unpermuted, c.score_math, scale);
  c.rel_gap_complex = rel_gap(c.score_complex, c.score_math, scale);
  return c;
}

}  // namespace rope
