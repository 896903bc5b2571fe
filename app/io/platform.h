// io/platform.h — what the platform the app is built for offers, as constants the code tests
// with `if constexpr` (the build sets ROPE_LAB_THREADS: 1 on the desktop, 0 in the browser
// build, which runs on the page's one thread without SharedArrayBuffer).
//
// Usage:
//   if constexpr (kHaveThreads) { start a worker } else { run the job between frames }
#pragma once

#ifndef ROPE_LAB_THREADS
#define ROPE_LAB_THREADS 1
#endif

namespace rope::app {

inline constexpr bool kHaveThreads = ROPE_LAB_THREADS != 0;

}  // namespace rope::app
