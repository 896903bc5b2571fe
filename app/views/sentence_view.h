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

#include <string>
#include <vector>

#include "imgui.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_env.h"

namespace rope::app {

struct SentenceView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // read-only results, one per sentence (A, B)
  struct Side {
    std::vector<std::string> words;
    int m = -1, n = -1;  // positions of the query and key words (-1: not in the sentence)
    double score = 0.0;  // (R_m q) . (R_n k) over all d dimensions
    double angle = 0.0;  // block 0: angle from R_m q to R_n k, rad, in (-pi, pi]
    std::vector<TextBox> word_boxes;  // where each word was drawn, in order
    TextBox missing;  // the "… is not a word of this sentence" message (empty text: none)
  };
  Side a, b;
  bool stacked = false;  // sentence B drawn under A (the canvas is too narrow for two columns)
  DrawnText drawn;       // every line of text of the last Draw
};

}  // namespace rope::app
