// test_support.h — shared fixtures of the typeset tests: the math font (loaded once) and the
// equation corpus (in test_support.cpp: the 15 equations of the RoFormer paper plus RoPE Lab
// lesson equations).
#pragma once

#include <string>
#include <vector>

#include "rope/typeset/layout.h"

namespace rope::typeset::test {

// Latin Modern Math from fonts-lmodern; the tests fail clearly (not crash) if it is missing.
const MathFont* font();

struct CorpusEquation {
  std::string name;
  std::string tex;
};
// The 15 RoFormer-style equations (section 6), then extra RoPE / feature equations.
const std::vector<CorpusEquation>& corpus();
// Values for the placeholders used in the corpus.
const Values& corpus_values();

}  // namespace rope::typeset::test
