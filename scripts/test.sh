#!/usr/bin/env bash
# Installs what is missing, checks the formatting, builds, and runs the whole test suite: a
# Release build and an ASan + UBSan build, each through ctest, then each fuzz target for a fixed
# 2 000 mutations of its seed corpus (scripts/fuzz.sh --smoke, a clang build). Exits non-zero on
# any failure.
#
# Formatting: every C++ file under core/, app/ and tests/ must be exactly what clang-format 14
# makes of it with the repository's .clang-format (fix with `clang-format-14 -i FILE`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh test

echo "== format: clang-format-14 --dry-run -Werror"
mapfile -d '' sources < <(find core app tests -type f \( -name '*.cpp' -o -name '*.h' \) -print0 |
                          sort -z)
clang-format-14 --dry-run -Werror "${sources[@]}"
echo "format: ${#sources[@]} files as clang-format-14 writes them"

jobs=$(nproc)
for preset in release asan; do
  echo "== ${preset}: configure and build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "== ${preset}: test"
  ctest --preset "$preset" -j "$jobs"
done

echo "== fuzz: each target, 2 000 mutations of its seed corpus (clang, libFuzzer + ASan + UBSan)"
bash scripts/fuzz.sh --smoke
