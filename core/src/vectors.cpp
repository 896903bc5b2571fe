// vectors.cpp — the views' query and key vectors (rope/vectors.h).
#include "rope/vectors.h"

#include <cmath>

#include "rope/frequencies.h"
#include "rope/random.h"

namespace rope {

Result<std::vector<double>> make_vector(VectorSource source, int dim, std::span<const double> given,
                                        std::uint64_t seed) {
  if (auto s = validate_dim(dim); !s) return s.error();
  const auto d = static_cast<std::size_t>(dim);
  switch (source) {
    case VectorSource::unit: {
      std::vector<double> v(d, 0.0);
      if (!v.empty()) v.front() = 1.0;  // always: d >= 2 (validated above)
      return v;
    }
    case VectorSource::ones:
      return std::vector<double>(d, 1.0);
    case VectorSource::random:
      return random_vectors(1, dim, seed);
    case VectorSource::given: {
      for (std::size_t i = 0; i < given.size(); ++i)
        if (!std::isfinite(given[i]))
          return Error{"vector", "entry " + std::to_string(i + 1) + " must be a finite number"};
      std::vector<double> v(d, 0.0);
      for (std::size_t i = 0; i < d && i < given.size(); ++i)
        v[i] = given[i];
      return v;
    }
  }
  return Error{"vector", "unknown source"};
}

}  // namespace rope
