// lessons/quantities.h — the named numbers a lesson can show and check, all computed from the
// current Params with the core (rope/*.h).
//
// A quantity is a vector of doubles (most are one number). Lessons use them two ways:
//   {{name}} in an equation or prose   the value, formatted as TeX (vectors as (a, b, c, ...))
//   check: left == right                both sides computed, agree within a tolerance
//   check: left <= right                left is at most right (within the same tolerance)
// The vocabulary is one table (quantity_table(): name, label, help, function); FORMAT.md's list
// of quantities is checked against it by tests/lessons.
// Indexed names take a block index or `last`: theta.0, wavelength.last, q.3. Block names also
// take `first_slow` (the first pair that turns less than once within the original context L,
// first_slow_pair) and `last_fast` (the pair before it): rotations.first_slow.
//
// Usage:
//   QuantityContext ctx(params);               // derived vectors computed once per state
//   Result<std::vector<double>> v = ctx.evaluate("rope_score");
//   CheckOutcome c = run_check(ctx, "rope_score", "relative_score", Relation::equal);
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/number_format.h"
#include "lessons/lesson.h"
#include "rope/scaling.h"
#include "state/app_state.h"

namespace rope::lessons {

// What a name's arguments are, which decides how evaluate() reads them.
enum class QuantityKind {
  state,       // no arguments: a value of the current state
  block,       // name.K: K a block index 0 ... d/2 - 1, `last`, `first_slow` or `last_fast`
  coordinate,  // name.K: K a coordinate index 0 ... d - 1 or `last` (q.K, k.K, rq.K)
  fixed,       // every argument in the name (number.*, stored.*, case_*, ...): see fixed_quantity
};

struct QuantityEnv;  // the state a row's function reads (quantities.cpp)
using QuantityFn = Result<std::vector<double>> (*)(const QuantityEnv&, std::string_view name);

// One row of the vocabulary: adding a quantity is adding a row (quantities.cpp).
struct QuantityInfo {
  const char* name;   // as written in lessons; "theta.K" for indexed names
  const char* label;  // TeX shown in the check panel
  const char* help;   // one line for FORMAT.md and --help
  QuantityFn fn;      // computes it; call through QuantityContext::evaluate
  QuantityKind kind = QuantityKind::state;
};

std::span<const QuantityInfo> quantity_table();

// The entry of `name` ("theta.3" finds "theta.K"), or nullptr. Syntax only: the index is
// checked against d when evaluated.
const QuantityInfo* find_quantity(std::string_view name);

// The TeX the check panel shows for `name`: the table's label, with the arguments written in
// for the decay_* quantities ("decay_at.128.10000.256" -> D(256)); "" for an unknown name.
std::string quantity_label(std::string_view name);

// Quantities with all their arguments in the name (number.*, stored.*, distinct.*, case_*):
// their value does not depend on the state, and a check between two of them leaves the
// positions out of its tolerance.
bool fixed_quantity(std::string_view name);

// Everything derived from one state. Build a new one when Params change (it copies them).
class QuantityContext {
 public:
  // `fixed`: where fixed quantities are remembered; a context of its own when null.
  explicit QuantityContext(const app::Params& params, std::shared_ptr<FixedValues> fixed = {});
  Result<std::vector<double>> evaluate(std::string_view name) const;
  // TeX for {{name}}: a number, a vector, or \text{...} for words; an error message in
  // \text{} when the value cannot be computed.
  // `digits`: a placeholder's {{name:5}} / {{name:.3}} (io/placeholders.h), for each entry.
  std::string tex_value(std::string_view name, app::Digits digits = {}) const;
  const app::Params& params() const { return p_; }

 private:
  app::Params p_;
  std::vector<double> thetas_, q_, k_;
  std::string error_;  // set when dim/base are invalid: every quantity fails with it
  // θ of app::drawn_frequencies: after the partial rotation, before the method (rope_score)
  std::vector<double> rope_thetas_;
  // θ′ and a of app::drawn_frequencies at this state (scaled_score), or why not
  ScaledFrequencies scaled_;
  std::string scaling_error_;
  // fixed quantities already computed (a view asks every frame), and costly results keyed by
  // their arguments (PI's fit); never null
  std::shared_ptr<FixedValues> memo_;
};

// The linear-attention example of lesson 9, shared with the heatmap view's linear_sums panel so
// that the prose and the panel show the same numbers: n = 16 seeded tokens whose q, k and v have
// d entries each (rope::random_vectors with seed + 10, + 11, + 12), [n][d] row-major.
struct LinearExample {
  int n = 0, d = 0;
  std::vector<double> q, k, v;
};
LinearExample linear_example(int dim, std::uint64_t seed);

struct CheckOutcome {
  bool computed = false;            // both sides evaluated
  bool passed = false;              // computed and the relation holds within tolerance
  std::vector<double> left, right;  // values (when computed)
  std::string error;                // why not computed
  double tolerance = 0.0;
};

// Agreement rule: |a_j - b_j| <= tol for every entry (or a_j <= b_j + tol), with
// tol = 1e-9 * max(1, max |a|, max |b|) * max(1, |m|, |n|): angles m theta lose about
// |m| * 1e-16 rad, and sums over d terms scale with their size. Between two fixed quantities
// the factor max(1, |m|, |n|) is left out.
CheckOutcome run_check(const QuantityContext& ctx, std::string_view left, std::string_view right,
                       Relation relation);

}  // namespace rope::lessons
