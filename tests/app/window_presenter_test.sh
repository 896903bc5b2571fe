#!/usr/bin/env bash
# The presenter window (F6, --presenter) in the real app under Xvfb, driven by xdotool: it opens
# beside the main window, keys typed in it step the lesson in the main window, F6 typed in it
# closes it, F6 in the main window opens it again, and the session saved at the end holds the
# step the presenter's keys reached. While it is open and nothing moves, the app stays idle
# apart from the lecture timer's one frame a second (CPU time printed, not judged: the idle
# test judges the main window alone).
# Usage: window_presenter_test.sh PATH/TO/rope-lab   (run by ctest; needs Xvfb and xdotool)
#
# In the fresh-clone CI of 2026-11-25 one run (the ASan build) found no display: the app said
# "X11: Failed to open display :0" right after the server reported it. start_xvfb now waits until
# the server answers a client, and the test runs once more if the first run fails
# (second_chance in xvfb.sh), as the lecture test does.
set -euo pipefail
rope=$1
command -v xdotool >/dev/null || { echo "xdotool is not installed (scripts/deps.sh)"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xvfb.sh
source "$here/xvfb.sh"
second_chance "$0" "$@"
dir=$(mktemp -d)
start_xvfb 1920x1080 || exit 1
trap 'kill "$pid" 2>/dev/null || true; stop_xvfb; rm -rf "$dir"' EXIT
export HOME="$dir" XDG_CONFIG_HOME="$dir/config" XDG_PICTURES_DIR="$dir/pictures"
session="$dir/rope-lab-session.json"
"$rope" --presenter --view derivation --lesson 3 --step 1 >"$dir/out.txt" 2>&1 &
pid=$!
fail() {
  echo "FAIL: $*"
  cat "$dir/out.txt"
  app_stop "$pid" presenter "$dir/out.txt" || true
  exit 1
}
# wait_for TEST...: up to 60 s
wait_for() {
  local i
  for ((i = 0; i < 600; i++)); do "$@" && return 0; sleep 0.1; done
  return 1
}
window_named() { xdotool search --all --onlyvisible --pid "$pid" --name "$1" 2>/dev/null | head -1; }
presenter_shown() { [ -n "$(window_named '^RoPE Lab: presenter$')" ]; }
presenter_gone() { ! presenter_shown; }
focus() {  # focus WINDOW: keys go to it from now on
  local i
  for ((i = 0; i < 300; i++)); do
    [ "$(xdotool getwindowfocus 2>/dev/null)" = "$1" ] && return 0
    xdotool windowfocus "$1" 2>/dev/null || true
    sleep 0.1
  done
  fail "window $1 does not take the keyboard focus"
}
wait_for presenter_shown || fail "no presenter window appeared with --presenter"
main=$(window_named '^RoPE Lab$')
[ -n "$main" ] || fail "no main window"
presenter=$(window_named '^RoPE Lab: presenter$')

# keys typed in the presenter window: two steps on, then F6 closes it
focus "$presenter"
sleep 0.5
cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }  # user + system, clock ticks
cpu_before=$(cpu)
sleep 5
cpu_after=$(cpu)
echo "CPU with the presenter open and nothing moving: $(( (cpu_after - cpu_before) * 1000 / $(getconf CLK_TCK) )) ms over 5 s"
xdotool key --delay 15 Right Right F6
wait_for presenter_gone || fail "F6 in the presenter window did not close it"
# F6 in the main window opens it again
focus "$main"
xdotool key --delay 15 F6
wait_for presenter_shown || fail "F6 in the main window did not open the presenter again"
focus "$main"
xdotool key --delay 15 ctrl+s Return
wait_for test -f "$session" || fail "no session saved"
python3 - "$session" <<'PY' || fail "the session does not hold the step the presenter's keys reached"
import json, sys
p = json.load(open(sys.argv[1]))["params"]
assert p["lesson"] in ("3", "03-rope-2d") and p["step"] == 3, f"lesson {p['lesson']}, step {p['step']}"
PY
xdotool key --delay 15 ctrl+q
wait_for bash -c "! kill -0 $pid 2>/dev/null" || fail "Ctrl+Q did not quit"
status=0
app_wait "$pid" presenter "$dir/out.txt" || status=$?
pid=""
[ "$status" -eq 0 ] || fail "exit status $status"
grep -q "warning\|error" "$dir/out.txt" && fail "the app printed a warning or error"
echo "presenter window: opened by --presenter, keys in it reached the lesson (step 3), F6 closed and opened it"
