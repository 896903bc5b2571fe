#!/usr/bin/env bash
# Soak test (issue 16): the real window under Xvfb for a long time, in two runs,
#   pointers  d = 512, animating (--playing), trails on
#   heatmap   N = 4096, animating, the base toggled (key B) every 10 s so the N x N scores are
#             recomputed on the worker thread again and again
# sampling the process's resident memory (VmRSS) every 10 s, and checking every minute that the
# window answers: F12 must save a screenshot within 30 s. At the end Ctrl+Q must quit within 30 s.
#
#   scripts/soak.sh                 10 minutes per run, fail on RSS growth over 5 MB
#   scripts/soak.sh 60 5            the one-hour soak of issue 16 (both runs: two hours)
#   scripts/soak.sh 60 5 pointers   only the pointers run (or: heatmap)
#   ROPE_LAB=build/asan/app/rope-lab scripts/soak.sh 5
#
# Growth is measured from the first sample after a 60 s warm-up (fonts, caches, the first
# heatmap, the first screenshot) to the largest later sample. Writes build/soak/NAME.csv (seconds, RSS in kB) and
# exits 1 when a run grew past the bound, stopped answering or did not quit.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
bound_mb=${2:-5}
only=${3:-}
[[ "$minutes" =~ ^[1-9][0-9]*$ ]] || { echo "soak: minutes must be a whole number from 1, got '$minutes'" >&2; exit 2; }
[[ "$bound_mb" =~ ^[0-9]+$ ]] || { echo "soak: the bound must be a whole number of MB, got '$bound_mb'" >&2; exit 2; }
[[ -z "$only" || "$only" == pointers || "$only" == heatmap ]] || { echo "soak: the run must be pointers or heatmap, got '$only'" >&2; exit 2; }
rope=${ROPE_LAB:-build/release/app/rope-lab}
[[ -x "$rope" ]] || { echo "soak: no binary at $rope (build it: cmake --preset release && cmake --build --preset release)" >&2; exit 2; }
for tool in Xvfb xdotool; do
  command -v "$tool" >/dev/null || { echo "soak: $tool is missing (scripts/deps.sh test)" >&2; exit 2; }
done

out=build/soak
mkdir -p "$out"
work=$(mktemp -d)
xvfb_pid=
app_pid=
cleanup() {
  [[ -n "$app_pid" ]] && kill "$app_pid" 2>/dev/null || true
  [[ -n "$xvfb_pid" ]] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# One X server for both runs; -displayfd picks a free display number.
Xvfb -displayfd 1 -screen 0 1920x1080x24 -nolisten tcp -noreset >"$work/display" 2>"$work/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 100); do [[ -s "$work/display" ]] && break; sleep 0.1; done
[[ -s "$work/display" ]] || { echo "soak: Xvfb did not start"; cat "$work/xvfb.log"; exit 1; }
export DISPLAY=":$(head -1 "$work/display")"
export HOME="$work" XDG_CONFIG_HOME="$work/config" XDG_PICTURES_DIR="$work/pictures"
mkdir -p "$XDG_PICTURES_DIR"

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

failed=0
run() {  # NAME KEY_EVERY_10S ARGS...
  local name=$1 key=$2
  shift 2
  "$rope" "$@" >"$work/$name.out" 2>&1 &
  app_pid=$!
  local wid=
  for _ in $(seq 300); do
    wid=$(xdotool search --pid "$app_pid" 2>/dev/null | tail -1 || true)
    [[ -n "$wid" ]] && break
    sleep 0.1
  done
  [[ -n "$wid" ]] || { echo "soak $name: no window appeared"; cat "$work/$name.out"; failed=1; return; }
  local csv="$out/$name.csv" start=$SECONDS base=0 peak=0 slowest=0 answers=0
  echo "seconds,rss_kb" >"$csv"
  local end=$((start + minutes * 60))
  while ((SECONDS < end)); do
    sleep 10
    kill -0 "$app_pid" 2>/dev/null || { echo "soak $name: the app exited"; cat "$work/$name.out"; failed=1; return; }
    local t=$((SECONDS - start)) rss
    rss=$(rss_kb "$app_pid")
    echo "$t,$rss" >>"$csv"
    if ((t >= 60)); then
      ((base == 0)) && base=$rss
      ((rss > peak)) && peak=$rss
    fi
    if [[ -n "$key" ]]; then
      xdotool windowfocus "$wid" 2>/dev/null || true
      xdotool key --delay 1 "$key"
    fi
    # once a minute, and at the first sample: does the window answer? (The first F12 also puts
    # the screenshot's one-time buffers, about 14 MB, into the baseline: they stay allocated.)
    if ((answers == 0 || t % 60 < 10)); then
      local before asked=$SECONDS
      before=$(find "$XDG_PICTURES_DIR" -name '*.png' | wc -l)
      xdotool windowfocus "$wid" 2>/dev/null || true
      xdotool key --delay 1 F12
      while (($(find "$XDG_PICTURES_DIR" -name '*.png' | wc -l) == before)); do
        if ((SECONDS - asked > 30)); then
          echo "soak $name: the window did not answer F12 within 30 s at t = ${t} s"
          failed=1
          break
        fi
        sleep 0.2
      done
      ((SECONDS - asked > slowest)) && slowest=$((SECONDS - asked))
      answers=$((answers + 1))
      rm -f "$XDG_PICTURES_DIR"/*.png
    fi
  done
  xdotool windowfocus "$wid" 2>/dev/null || true
  xdotool key --delay 1 ctrl+q
  for _ in $(seq 300); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$app_pid" 2>/dev/null; then
    echo "soak $name: Ctrl+Q did not quit within 30 s"
    kill "$app_pid"
    failed=1
  fi
  wait "$app_pid" 2>/dev/null || true
  app_pid=
  local growth=$(((peak - base) / 1024))
  printf 'soak %-8s %3d min: RSS %d MB after warm-up, peak %d MB, growth %d MB (bound %d); answered F12 %d times, slowest %d s\n' \
    "$name" "$minutes" $((base / 1024)) $((peak / 1024)) "$growth" "$bound_mb" "$answers" "$slowest"
  if ((growth > bound_mb)); then failed=1; fi
}

[[ "$only" == heatmap ]] || run pointers "" --view pointers --dim 512 --playing --trails
[[ "$only" == pointers ]] || run heatmap b --view heatmap --positions 4096 --playing
exit "$failed"
