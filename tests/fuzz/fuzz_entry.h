// tests/fuzz/fuzz_entry.h — the one function every fuzz target defines, and the helpers they share.
//
// Each fuzz_*.cpp defines LLVMFuzzerTestOneInput. Built with the `fuzz` preset (clang), libFuzzer
// supplies main() and mutates inputs; in the ordinary builds replay_main.cpp supplies a main()
// that runs the target once over every file of its seed corpus, so the Release and ASan test runs
// replay the corpora (and any crash a fuzzer found, once it is added there) on every change.
//
// A target traps (__builtin_trap) when a property that must hold is broken, e.g. a session that
// loads does not survive a save and a reload: the fuzzer reports a trap like a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace rope::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Stops the run: a property of the code under test was broken by this input.
[[noreturn]] inline void broken() {
  __builtin_trap();
}

}  // namespace rope::fuzz
