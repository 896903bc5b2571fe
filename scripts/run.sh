#!/usr/bin/env bash
# Installs what building and running need (not the test tools), builds RoPE Lab (Release, no
# tests) when something changed, and launches it. Arguments are passed on, e.g.
#   scripts/run.sh --view pointers --dim 16
# A launch with nothing changed starts at once: configuring happens once, and the build step
# is then a no-op check (it reconfigures by itself when a CMakeLists.txt changes).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh run
[ -f build/app/build.ninja ] || cmake --preset app >/dev/null
cmake --build --preset app -j "$(nproc)"
exec build/app/app/rope-lab "$@"
