// ui/view_cache.h — the one way a view keeps derived data: recomputed only when its inputs
// change.
//
// A view gathers the Params fields its computation reads into an Inputs struct with
// `bool operator==(const Inputs&) const = default;` (the cache key), and keeps
//   ViewCache<Inputs, Model> model_;
// In Draw:  const Model& m = model_.get(inputs_of(state.params), compute);
// where compute(const Inputs&) -> Model is a pure function (usually calling core/). Nothing
// else decides when to recompute, so a new parameter the computation reads is one new field.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

namespace rope::app {

template <class Inputs, class Model>
class ViewCache {
 public:
  // The model for `inputs`; calls compute(inputs) only when they differ from the inputs of
  // the cached model, or when nothing is cached yet.
  template <class Compute>
  const Model& get(const Inputs& inputs, Compute&& compute) {
    if (!model_ || !(inputs == inputs_)) {
      model_.emplace(std::forward<Compute>(compute)(inputs));
      inputs_ = inputs;
      ++version_;
    }
    return *model_;
  }
  // The cached model, or nullptr before the first get().
  const Model* model() const { return model_ ? &*model_ : nullptr; }
  // The cached model, or a default-constructed one before the first get(): what a view's
  // read-only accessor returns to a test or an export that asks before the first Draw.
  const Model& model_or_empty() const {
    static const Model kEmpty{};  // immutable, shared by every view of this Model type
    return model_ ? *model_ : kEmpty;
  }
  const Inputs& inputs() const { return inputs_; }
  // Counts the computations: a new value means a new model (e.g. a texture to upload again).
  std::uint64_t version() const { return version_; }
  void reset() { model_.reset(); }

 private:
  Inputs inputs_{};
  std::optional<Model> model_;
  std::uint64_t version_ = 0;
};

}  // namespace rope::app
