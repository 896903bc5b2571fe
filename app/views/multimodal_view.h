// views/multimodal_view.h — positions beyond a line of text: multimodal RoPE (M-RoPE) as
// Qwen2-VL, Qwen2.5-VL and Qwen3-VL compute it (rope/mrope.h; state/multimodal_params.h).
//
// The sequence laid out as a class would draw it: text tokens in rows, an image as its grid of
// merged patches between its <|vision_start|> and <|vision_end|> markers, a video as its frames
// side by side. Every token is coloured by the query token's score with the same key k put on
// that token (shared content: only the positions differ), the query outlined; a token large
// enough carries its ids (t, h, w). Above each sequence a bar of the d/2 pairs, each coloured by
// the axis it turns with (t, h, w), fastest left, with each axis's count and wavelengths: chunked
// (Qwen2-VL's mrope_section) gives w only the slowest pairs, interleaved (Qwen3-VL) spreads each
// axis from fast to slow. With mm_compare, the other layout on the same sequence below, one
// colour scale for both, and the token where the two layouts differ most ringed and named.
// Hover: a token's kind, ids, both scores and its offset from the query; a click makes it the
// query (mm_query).
// Limits: at most 2048 tokens (state/multimodal_params.h); a query index past the sequence is
// drawn at the last token and the header says so.
//
// Usage: MultimodalView view;  each frame inside the canvas window: view.Draw(state, env);
#pragma once

#include <string>
#include <vector>

#include "rope/mrope.h"
#include "state/app_state.h"
#include "ui/canvas.h"
#include "ui/view_cache.h"
#include "ui/view_env.h"

namespace rope::app {

struct MultimodalView {
  void Draw(AppState& state, const ViewEnv& env);
  void DrawControls(AppState& state, const ViewEnv& env);

  // One layout on the sequence: its pairs' axes and the scores with the query.
  struct Panel {
    MropeLayout layout = MropeLayout::chunked;
    MropeSection section{};
    std::vector<MropeAxis> axes;     // [d/2], pair 0 (fastest) first
    std::vector<double> wavelength;  // [d/2], 2π/θ_j positions
    std::vector<double> score;       // [tokens]: (R(p_query) q)·(R(p_token) k)
  };
  struct Model {
    std::vector<MropeSegment> segments;
    std::vector<MropeToken> tokens;
    int query = 0;               // the token index drawn as the query
    bool query_clamped = false;  // mm_query was past the sequence
    std::vector<Panel> panels;   // the state's layout, then (mm_compare) the other one
    double lo = 0.0, hi = 1.0;   // the colour scale, over every panel
    int most_different = -1;     // the token where the two panels' scores differ most
    double difference = 0.0;
    std::string error;
  };
  // Where a token went in the last Draw, per panel: [panel][token] rectangles (tests, hover).
  struct Placed {
    ImVec2 min{0, 0}, max{0, 0};
  };

  // Read-only results, for tests and exports (empty before the first Draw)
  const Model& model() const { return model_.model_or_empty(); }
  const std::vector<std::vector<Placed>>& placed() const { return placed_; }
  const DrawnText& drawn() const { return drawn_; }

 private:
  struct Inputs {  // the Params fields compute() reads: the cache key
    int dim = 0;
    double base = 0.0;
    Pairing pairing = Pairing::interleaved;
    std::vector<double> q, k;
    std::string sequence, section;
    MropeRule rule = MropeRule::qwen2_vl;
    MropeLayout layout = MropeLayout::chunked;
    int query = 0, tokens_per_second = 2;
    double seconds = 1.0;
    bool compare = true;
    bool operator==(const Inputs&) const = default;
  };
  struct Layout;  // multimodal_view.cpp: header level, cell size, where each token goes
  static Inputs inputs_of(const Params& p);
  static Model compute(const Inputs& in);
  static Layout layout(const Model& m, const Params& p, const Canvas& canvas, const ViewEnv& env);
  void paint(const Model& m, const Layout& lay, const Canvas& canvas);
  void hover(AppState& state, const Model& m, const Layout& lay, const Canvas& canvas);

  ViewCache<Inputs, Model> model_;  // ui/view_cache.h
  std::vector<std::vector<Placed>> placed_;
  DrawnText drawn_;  // every line of text of the last Draw
};

}  // namespace rope::app
