// views/heatmap_scores.h — the attention score matrices the heatmap view shows, computed from
// AppState parameters with the core's fast kernels, and a background job that computes them off
// the UI thread.
//
// Content of the N positions (q_m, k_n before the position encoding):
//   shared    the same q and k (the query/key parameters) at every position
//   random    seeded random q_m, k_n (rope::random_vectors with seed and seed + 1)
//   sentence  the words of sentence_b: q_m = k_m = rope::hash_embedding(word_m, d, seed)
// with the blocks outside pair_band set to 0 (rope::keep_band: the band's scores alone),
// then S = Q'K'^T (rope::score_matrix_shared, or encode_qk_fast + score_rows_fast split across
// threads), then rope::transform_scores (scale 1/sqrt(d), causal mask, row softmax). The cosine
// mode divides S_mn by the lengths of the encoded q'_m and k'_n (encoded_rows, in double) and adds
// 1: Su's similarity for linear attention, from 0 to 2.
// With a context-extension scaling on (RoPE only; views/view_scaling.h), q_m and k_n are rotated
// at θ′ (rope::scaled_frequencies) and multiplied by the attention factor a before the product,
// so S = a² q·R(θ′, n − m)k, as transformers computes it (cos and sin × a).
//
// Usage:
//   HeatmapJob job;  job.submit({heatmap_inputs(p, Encoding::rope)});
//   each frame: if (auto r = job.take()) show(*r);   // the previous result stays until then
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "io/platform.h"
#include "io/worker.h"
#include "rope/attention.h"
#include "rope/partial_rotary.h"
#include "rope/scaling.h"
#include "state/app_state.h"

namespace rope::app {

// Everything one matrix depends on; equal inputs give equal matrices.
struct HeatmapInputs {
  int positions = 0;  // N (for sentence content: the number of words, at most 4096)
  int stride = 1;     // row / column i is position i·stride (1 for sentence content)
  int dim = 0;
  double base = 0.0;
  Pairing pairing = Pairing::interleaved;
  Encoding encoding = Encoding::rope;
  Content content = Content::shared;
  ScoreMode score_mode = ScoreMode::raw;
  bool causal = false;
  std::int64_t window = 0;  // a layer's sliding window and chunk, positions; 0: off
  std::int64_t chunk = 0;
  std::uint64_t seed = 0;
  VectorChoice query, key;  // shared content only
  std::string sentence;     // sentence content only
  ScalingParams scaling;    // RoPE only: view_scaling(p); method none = θ, no attention factor
  // RoPE only: the partial rotation (state/scaling_params.h); the style only when fraction < 1
  double rotary_fraction = 1.0;
  RotaryStyle rotary_style = RotaryStyle::neox;
  PairBand band = PairBand::all;  // the blocks whose scores are summed (rope::keep_band)
  bool operator==(const HeatmapInputs&) const = default;
};
HeatmapInputs heatmap_inputs(const Params& p, Encoding encoding);
// The scaling, masks and softmax of `in` for rope::transform_scores and rope::visible_keys.
ScoreTransform score_transform(const HeatmapInputs& in);
// Why cell (m, n) is masked, in words: "masked (n > m)", "masked (m − n ≥ window 1 024)", ...
std::string mask_text(const HeatmapInputs& in, int m, int n);

// The content rows q'_m, k'_n of `in` after its band and its encoding, in double: [N][d] each,
// as the exact cells and the cosine mode's lengths use them.
Status encoded_rows(const HeatmapInputs& in, std::vector<double>& q, std::vector<double>& k);

// The words of a sentence: split at white space, at most 4096.
std::vector<std::string> sentence_words(std::string_view text);

struct HeatmapScores {
  HeatmapInputs inputs;
  int n = 0;             // matrix is [n][n]
  std::vector<float> s;  // row-major [query m][key n]; -inf = masked (causal, no softmax)
  // the colour range: the finite minimum and maximum, widened to reach 0 when they differ by
  // less than 0.1 % of their size, 0 ... 2 for the cosine mode
  double lo = 0.0, hi = 0.0;
  std::vector<std::string> words;  // sentence content: the token at each position
  double seconds = 0.0;            // wall time of the computation
  double attention_factor = 1.0;   // a with a scaling on (scores include a²), else 1
};

// Computes one matrix with `threads` threads (1 = on the caller only). Returns an Error for
// invalid inputs or when `cancel` became true on the way.
Result<HeatmapScores> compute_heatmap_scores(const HeatmapInputs& in, int threads,
                                             const std::atomic<bool>* cancel = nullptr);

// A rough cost in multiply-adds, to choose between computing now and in the background.
double heatmap_cost(const HeatmapInputs& in);

// One cell of the matrix of `in`, exactly: every step in double from the core's formulas (the
// content vectors as rope::random_vectors / hash_embedding / the query and key parameters give
// them, the encoding at θ or θ′ with the attention factor, then 1/√d, the masks and the row
// softmax), never the fp32 colour buffer. What the read-out and the hover show (classroom review
// D5: "S = 0.769999981" for q·k = 0.77). The encoded rows are kept for the last inputs: the first
// cell after a change costs O(N d) rotations, each further one O(d), or O(N d) with the softmax
// (its row). NaN for a masked cell without softmax: the caller says "masked" (mask_text).
class ExactScores {
 public:
  Result<double> at(const HeatmapInputs& in, int m, int n);

 private:
  Status prepare(const HeatmapInputs& in);
  double raw(int m, int n) const;  // q'_m · k'_n
  std::optional<HeatmapInputs> for_;
  int d_ = 0, n_ = 0;
  std::vector<double> q_, k_;  // [N][d] encoded rows
};

// Matrices computed a slice at a time on the calling thread: the browser build has no threads
// (io/platform.h), and a 4096 x 4096 x 512 matrix there takes seconds; its HeatmapJob calls
// step() once a frame, so the page keeps drawing ("computing …") meanwhile. The result is the
// one compute_heatmap_scores gives, bit for bit.
class HeatmapSlices {
 public:
  explicit HeatmapSlices(std::vector<HeatmapInputs> panels);
  ~HeatmapSlices();
  HeatmapSlices(const HeatmapSlices&) = delete;
  HeatmapSlices& operator=(const HeatmapSlices&) = delete;
  // Computes for about `seconds` (at least one chunk of rows); true once every panel is done or
  // one failed.
  bool step(double seconds);
  std::vector<HeatmapScores>& panels();  // when done without an error
  const std::string& error() const;      // why a panel failed ("" if none)

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// One worker thread (none in the browser build, io/platform.h: there take() computes a request
// a slice per frame from the frame after the one that submitted it, with HeatmapSlices, and
// wait_idle() computes on for at most its bound). submit()
// replaces whatever was pending and cancels a running computation; take() hands over a finished
// result set (one HeatmapScores per submitted input, or an error).
class HeatmapJob {
 public:
  HeatmapJob();
  ~HeatmapJob();
  HeatmapJob(const HeatmapJob&) = delete;
  HeatmapJob& operator=(const HeatmapJob&) = delete;

  struct Output {
    std::vector<HeatmapScores> panels;
    std::string error;  // set instead of panels when a computation failed
    std::uint64_t id = 0;
  };
  std::uint64_t submit(std::vector<HeatmapInputs> panels);  // returns the request id
  std::optional<Output> take();
  bool busy() const;  // a request is pending or running
  // Blocks until nothing is pending or running (tests), at most `seconds`.
  bool wait_idle(double seconds);

 private:
  void run(const StopToken& stop);
  // Computes the pending request (if any) on the calling thread with `threads` threads.
  void compute_pending(int threads, const StopToken* stop = nullptr);
  mutable std::mutex mutex_;
  std::condition_variable_any cv_;
  std::optional<std::pair<std::uint64_t, std::vector<HeatmapInputs>>> pending_;
  std::optional<Output> done_;
  bool running_ = false;
  std::uint64_t next_id_ = 1;
  std::atomic<bool> cancel_{false};
  bool fresh_ = false;  // without threads: submitted since the last take()
  // without threads: the request being computed, a slice per take()
  std::unique_ptr<HeatmapSlices> slices_;
  std::uint64_t slices_id_ = 0;
  void step_slices(double seconds);
  static constexpr double kSliceSeconds = 0.006;  // of each frame, without threads
  Worker thread_;  // last: started after every member above exists (none without threads)
};

}  // namespace rope::app
