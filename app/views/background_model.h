// views/background_model.h — ViewCache's counterpart for computations too slow for a frame: the
// model is computed on one worker thread, and the view keeps drawing the last finished model
// until the new one is ready (a new request replaces one that has not started; one that is
// running finishes first, since the core's functions cannot be interrupted).
//
// Usage (in a view):
//   BackgroundModel<Inputs, Model> model_;
//   const Model* m = model_.get(inputs_of(p), compute);  // nullptr only before the first model
//   if (model_.busy()) say("computing …");
// get() waits for the very first model (at most kFirstWaitSeconds), so a screenshot, an export or
// a test shows the picture rather than a "computing" note; later changes never block a frame.
// Without threads (the browser build, io/platform.h) the job runs on the caller, in the frame
// after the one that asked for it: that frame still shows the last model and "computing …".
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <utility>

#include "io/platform.h"
#include "io/worker.h"

namespace rope::app {

template <class Inputs, class Model>
class BackgroundModel {
 public:
  using Compute = Model (*)(const Inputs&);
  static constexpr double kFirstWaitSeconds = 30.0;

  BackgroundModel() {
    if constexpr (kHaveThreads) thread_ = Worker([this](const StopToken& stop) { run(stop); });
  }
  ~BackgroundModel() {
    {
      std::unique_lock lock(mutex_);  // not between the worker's check and its wait
      thread_.request_stop();
    }
    cv_.notify_all();
  }
  BackgroundModel(const BackgroundModel&) = delete;
  BackgroundModel& operator=(const BackgroundModel&) = delete;

  // The newest finished model; asks for `inputs` when they differ from the last request.
  const Model* get(const Inputs& inputs, Compute compute) {
    bool first = false, asked = false;
    {
      std::unique_lock lock(mutex_);
      if (!requested_ || !(*requested_ == inputs)) {
        requested_ = inputs;
        pending_.emplace(inputs, compute);
        first = !shown_;
        asked = true;
        cv_.notify_all();
      }
    }
    if constexpr (!kHaveThreads) {
      if (first || !asked) run_pending();
    }
    if (first) wait_idle(kFirstWaitSeconds);
    std::unique_lock lock(mutex_);
    if (done_) {
      shown_ = std::move(done_);
      done_.reset();
    }
    return shown_ ? &shown_->second : nullptr;
  }

  // The model drawn last (nullptr before the first) and the inputs it was computed for.
  const Model* model() const { return shown_ ? &shown_->second : nullptr; }
  // True while the shown model is not the one for the last request.
  bool busy() const {
    std::unique_lock lock(mutex_);
    return pending_ || running_ || done_ ||
           (requested_ && (!shown_ || !(shown_->first == *requested_)));
  }
  // Blocks until nothing is pending or running, at most `seconds`; false on timeout.
  bool wait_idle(double seconds) {
    if constexpr (!kHaveThreads) run_pending();
    std::unique_lock lock(mutex_);
    return idle_cv_.wait_for(lock, std::chrono::duration<double>(seconds),
                             [this] { return !pending_ && !running_; });
  }

 private:
  void run(const StopToken& stop) {
    while (true) {
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return stop.stop_requested() || pending_.has_value(); });
        if (stop.stop_requested()) return;
      }
      run_pending();
    }
  }

  // Computes the pending request, if any, on the calling thread.
  void run_pending() {
    std::optional<std::pair<Inputs, Compute>> job;
    {
      std::unique_lock lock(mutex_);
      if (!pending_) return;
      job = std::move(pending_);
      pending_.reset();
      running_ = true;
    }
    Model m = job->second(job->first);
    {
      std::unique_lock lock(mutex_);
      done_.emplace(std::move(job->first), std::move(m));
      running_ = false;
    }
    idle_cv_.notify_all();
  }

  mutable std::mutex mutex_;
  std::condition_variable_any cv_;       // the worker waits for a request
  std::condition_variable_any idle_cv_;  // wait_idle waits for the worker
  std::optional<Inputs> requested_;      // the last request (UI thread)
  std::optional<std::pair<Inputs, Compute>> pending_;
  bool running_ = false;
  std::optional<std::pair<Inputs, Model>> done_;   // finished, not yet taken by get()
  std::optional<std::pair<Inputs, Model>> shown_;  // UI thread only
  Worker thread_;  // last: started after every member above exists (none without threads)
};

}  // namespace rope::app
