// io/worker.h — the part of std::jthread the app uses, on std::thread: a thread that is asked
// to stop and joined when it is destroyed. LLVM 14's libc++ (the browser build's) has neither
// std::jthread nor std::stop_token.
//
// A worker waiting on a condition variable checks stop_requested() in its predicate; whoever
// requests the stop does it holding that mutex, then notifies, so the wake-up cannot be lost:
//   { std::lock_guard lock(mutex_); worker_.request_stop(); }  cv_.notify_all();
//
// Usage:
//   Worker w([this](const StopToken& stop) { while (!stop.stop_requested()) ...; });
#pragma once

#include <atomic>
#include <memory>
#include <thread>
#include <type_traits>
#include <utility>

namespace rope::app {

class StopToken {
 public:
  StopToken() = default;
  explicit StopToken(std::shared_ptr<const std::atomic<bool>> flag) : flag_(std::move(flag)) {}
  bool stop_requested() const { return flag_ && flag_->load(); }

 private:
  std::shared_ptr<const std::atomic<bool>> flag_;
};

class Worker {
 public:
  Worker() = default;  // no thread
  template <class F>
  explicit Worker(F&& f) : stop_(std::make_shared<std::atomic<bool>>(false)) {
    thread_ = std::thread([fn = std::forward<F>(f), token = StopToken(stop_)]() mutable {
      if constexpr (std::is_invocable_v<decltype(fn)&, const StopToken&>)
        fn(token);
      else
        fn();
    });
  }
  ~Worker() { finish(); }
  Worker(Worker&& other) noexcept = default;
  Worker& operator=(Worker&& other) noexcept {
    if (this != &other) {
      finish();
      thread_ = std::move(other.thread_);
      stop_ = std::move(other.stop_);
    }
    return *this;
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void request_stop() {
    if (stop_) stop_->store(true);
  }

 private:
  void finish() {
    request_stop();
    if (thread_.joinable()) thread_.join();
  }
  std::shared_ptr<std::atomic<bool>> stop_;
  std::thread thread_;
};

}  // namespace rope::app
