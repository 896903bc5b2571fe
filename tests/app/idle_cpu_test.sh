#!/usr/bin/env bash
# An open window with nothing moving sleeps: its CPU time over a few seconds stays below a few
# percent of one core (it drew continuously before: about 1.4 cores on llvmpipe). Then the same
# window animating keeps drawing, so the idle figure is not a window that stopped working.
set -euo pipefail
rope=$1
limit_percent=${2:-5}
dir=$(mktemp -d)
wpid=
source "$(dirname "$0")/xvfb.sh"
trap 'kill "$wpid" 2>/dev/null || true; stop_xvfb; rm -rf "$dir"' EXIT
start_xvfb 1280x720
export XDG_CONFIG_HOME="$dir/config"

cpu_ticks() {  # utime + stime of a process, in clock ticks (all its threads, llvmpipe's too)
  awk '{print $14 + $15}' "/proc/$1/stat"
}
measure() {  # percent of one core used by process $1 over $2 seconds
  local t0 t1 hz
  hz=$(getconf CLK_TCK)
  t0=$(cpu_ticks "$1")
  sleep "$2"
  t1=$(cpu_ticks "$1")
  echo $(( (t1 - t0) * 100 / (hz * $2) ))
}
started() {  # the window is still running after start-up (it did not fail to open)
  kill -0 "$wpid" 2>/dev/null || {
    echo "the window did not start:"
    cat "$dir/err"
    app_wait "$wpid" idle "$dir/err" || true
    exit 1
  }
}
stop() {  # the window's stderr, and a crash report if it died or a sanitizer spoke
  app_stop "$wpid" idle "$dir/err" || exit 1
  cat "$dir/err" >&2
}

"$rope" --view pointers --dim 64 2>"$dir/err" &
wpid=$!
sleep 4  # start-up and the first frames
started
idle=$(measure "$wpid" 4)
stop

"$rope" --view pointers --dim 64 --playing 2>"$dir/err" &
wpid=$!
sleep 4
started
playing=$(measure "$wpid" 2)
stop

echo "idle window: ${idle}% of a core; animating: ${playing}%"
[ "$idle" -le "$limit_percent" ] || { echo "idle window uses more than ${limit_percent}%"; exit 1; }
[ "$playing" -ge 10 ] || { echo "the animating window does not draw"; exit 1; }
