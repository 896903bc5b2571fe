// axial.cpp — axial 2D RoPE: half the blocks turn with the row, half with the column.
#include "rope/axial.h"

#include <cmath>
#include <string>

#include "internal.h"
#include "rope/frequencies.h"
#include "rope/rotation.h"

namespace rope {

namespace {

constexpr int kMaxGridSide = 1024;

Status validate_patch(Patch at, const char* row_name, const char* column_name) {
  if (auto s = validate_position(at.row, row_name); !s) return s;
  return validate_position(at.column, column_name);
}

// The d/2 block angles for frequencies `th` (d/4 entries) at `at`.
std::vector<double> angles_of(std::span<const double> th, Patch at) {
  const std::size_t quarter = th.size();
  std::vector<double> a(2 * quarter);
  for (std::size_t j = 0; j < quarter; ++j) {
    a[j] = at.row * th[j];
    a[quarter + j] = at.column * th[j];
  }
  return a;
}

// Checks q and k: a valid axial d, the same length.
Status validate_pair(std::span<const double> q, std::span<const double> k) {
  if (auto s = validate_axial_dim(static_cast<std::int64_t>(q.size())); !s) return s;
  if (k.size() != q.size())
    return detail::size_error("key", q.size(), k.size(), "[d], as many as the query");
  return {};
}

}  // namespace

Status validate_axial_dim(std::int64_t dim) {
  if (dim < 4 || dim > kMaxDim || dim % 4 != 0) {
    return Error{"dim", "must be a multiple of 4 from 4 to " + std::to_string(kMaxDim) +
                            " for axial 2D RoPE, got " + std::to_string(dim)};
  }
  return {};
}

Result<std::vector<double>> axial_frequencies(std::int64_t dim, double base) {
  if (auto s = validate_axial_dim(dim); !s) return s.error();
  if (auto s = validate_base(base); !s) return s.error();
  // The 1D frequencies of a head of size d/2: base^(-2j/(d/2)) = base^(-4j/d).
  const int half = static_cast<int>(dim / 2);
  std::vector<double> out(static_cast<std::size_t>(half / 2));
  for (int j = 0; j < half / 2; ++j)
    out[static_cast<std::size_t>(j)] = theta(j, half, base);
  return out;
}

Result<std::vector<double>> axial_angles(std::int64_t dim, double base, Patch at) {
  auto th = axial_frequencies(dim, base);
  if (!th) return th.error();
  if (auto s = validate_patch(at, "row", "column"); !s) return s.error();
  return angles_of(th.value(), at);
}

Result<std::vector<double>> axial_rotate(std::span<const double> x, Patch at, double base,
                                         Pairing pairing) {
  if (auto s = validate_axial_dim(static_cast<std::int64_t>(x.size())); !s) return s.error();
  auto a = axial_angles(static_cast<std::int64_t>(x.size()), base, at);
  if (!a) return a.error();
  std::vector<double> y(x.size());
  detail::rotate_by_angles(x, a.value(), pairing, y);
  return y;
}

Result<double> axial_score(std::span<const double> q, std::span<const double> k, Patch query_at,
                           Patch key_at, double base, Pairing pairing) {
  if (auto s = validate_pair(q, k); !s) return s.error();
  if (auto s = validate_patch(query_at, "query_row", "query_column"); !s) return s.error();
  if (auto s = validate_patch(key_at, "key_row", "key_column"); !s) return s.error();
  auto rq = axial_rotate(q, query_at, base, pairing);
  if (!rq) return rq.error();
  auto rk = axial_rotate(k, key_at, base, pairing);
  if (!rk) return rk.error();
  return dot(rq.value(), rk.value());
}

Result<double> axial_relative_score(std::span<const double> q, std::span<const double> k,
                                    Patch offset, double base, Pairing pairing) {
  if (auto s = validate_pair(q, k); !s) return s.error();
  if (auto s = validate_patch(offset, "row_offset", "column_offset"); !s) return s.error();
  auto rk = axial_rotate(k, offset, base, pairing);
  if (!rk) return rk.error();
  return dot(q, rk.value());
}

Result<std::vector<double>> axial_score_grid(std::span<const double> q, std::span<const double> k,
                                             Patch query_at, int rows, int columns, double base,
                                             Pairing pairing) {
  if (auto s = validate_pair(q, k); !s) return s.error();
  if (auto s = validate_patch(query_at, "query_row", "query_column"); !s) return s.error();
  if (auto s = validate_count(rows, kMaxGridSide, "rows"); !s) return s.error();
  if (auto s = validate_count(columns, kMaxGridSide, "columns"); !s) return s.error();
  auto th = axial_frequencies(static_cast<std::int64_t>(q.size()), base);
  if (!th) return th.error();
  auto rq = axial_rotate(q, query_at, base, pairing);
  if (!rq) return rq.error();
  // The score is a sum over blocks, and a row block's term depends on the key's row only, a
  // column block's on its column only: score(r, c) = row_part[r] + column_part[c]. That costs
  // (rows + columns) d/4 sin/cos pairs instead of rows columns d/2.
  const std::size_t quarter = th.value().size();
  const std::size_t half = 2 * quarter;
  const auto part = [&](std::size_t first_block, double at) {
    double sum = 0.0;
    for (std::size_t j = 0; j < quarter; ++j) {
      const auto [ia, ib] = detail::block_index(first_block + j, half, pairing);
      const double a = at * th.value()[j];
      const double c = std::cos(a);
      const double s = std::sin(a);
      sum += rq.value()[ia] * (k[ia] * c - k[ib] * s) + rq.value()[ib] * (k[ia] * s + k[ib] * c);
    }
    return sum;
  };
  std::vector<double> row_part(static_cast<std::size_t>(rows));
  std::vector<double> column_part(static_cast<std::size_t>(columns));
  for (std::size_t r = 0; r < row_part.size(); ++r)
    row_part[r] = part(0, static_cast<double>(r));
  for (std::size_t c = 0; c < column_part.size(); ++c)
    column_part[c] = part(quarter, static_cast<double>(c));
  std::vector<double> out(row_part.size() * column_part.size());
  for (std::size_t r = 0; r < row_part.size(); ++r)
    for (std::size_t c = 0; c < column_part.size(); ++c)
      out[r * column_part.size() + c] = row_part[r] + column_part[c];
  return out;
}

}  // namespace rope
