// views/sentence_view.h — the same two words in two sentences ("Python is love" and "Coding in
// Python is love"): their absolute positions differ, their distance does not, so under RoPE the
// angle between the rotated query and key and their score are the same in both.
//
// Word vectors are rope::hash_embedding(word, d, seed): a seeded hash of the word standing in
// for a trained embedding (projections are the identity). The pictures show block 0 (theta_0 = 1
// rad per position) of R_m q and R_n k; the score is over all d dimensions.
//
// Layout: the two sentences side by side when their words fit in half the canvas, else one under
// the other with the words wrapped to the width; the two planes always share one row below the
// text, and the verdict sits at the bottom. Titles and read-outs wrap, so the view also works in
// the narrow half of the derivation view and at presentation scale.
//
// Usage: SentenceView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "rope/rotation.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct SentenceView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // One sentence's numbers (A, B)
  struct Side {
    std::vector<std::string> words;
    int m = -1, n = -1;  // positions of the query and key words (-1: not in the sentence)
    double score = 0.0;  // (R_m q) . (R_n k) over all d dimensions
    double angle = 0.0;  // block 0: angle from R_m q to R_n k, rad, in (-pi, pi]
    Vec2 q0, k0;         // block 0 of R_m q and of R_n k ((0, 0) when a word is missing)
  };
  // Where one sentence's text went in the last Draw
  struct SideText {
    std::vector<TextBox> word_boxes;  // each word, in order
    TextBox missing;  // the "… is not a word of this sentence" message (empty text: none)
  };
  // Read-only results, for tests and exports (sides empty before the first Draw)
  const Side& a() const { return model().sides[0]; }
  const Side& b() const { return model().sides[1]; }
  const SideText& text(int side) const { return text_[side == 0 ? 0U : 1U]; }  // 0: A, 1: B
  bool stacked() const { return stacked_; }          // B drawn under A (too narrow for two columns)
  const DrawnText& drawn() const { return drawn_; }  // every line of text of the last Draw

 private:
  struct Inputs {  // the Params fields compute() reads: the cache key
    int dim = 0;
    double base = 0.0;
    Pairing pairing = Pairing::interleaved;
    std::uint64_t seed = 0;  // of the word vectors
    std::string sentence_a, sentence_b, query_word, key_word;
    bool operator==(const Inputs&) const = default;
  };
  struct Model {
    std::array<Side, 2> sides;  // A, B
  };
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);
  const Model& model() const;  // the cached model, or an empty one before the first Draw

  ViewCache<Inputs, Model> model_;  // ui/view_cache.h
  std::array<SideText, 2> text_;    // A, B
  bool stacked_ = false;
  DrawnText drawn_;  // every line of text of the last Draw
};

}  // namespace rope::app
