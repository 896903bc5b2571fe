#!/usr/bin/env bash
# Installs what is missing, builds RoPE Lab (Release) and launches it. Arguments are passed on,
# e.g. scripts/run.sh --view pointers --dim 16.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
exec build/release/app/rope-lab "$@"
