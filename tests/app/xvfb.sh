# xvfb.sh — sourced by the window tests. A virtual X server of a given screen size:
#   with_xvfb WxH COMMAND...   runs COMMAND with DISPLAY set to a fresh server, then stops the
#                              server; returns COMMAND's exit status
#   start_xvfb WxH             starts one and exports DISPLAY and XVFB_PID (stop: stop_xvfb)
#
# Why not `xvfb-run -a`: it picks a display number by looking for a free lock file and then
# starts Xvfb, so two tests starting at the same moment can pick the same number, and one of
# them fails with "Failed to open display" (the fresh-clone CI of 2026-11-24 lost a run to it).
# Xvfb's -displayfd lets the server itself claim a free number atomically and report it.
start_xvfb() {
  local screen=$1 tmp
  tmp=$(mktemp -d)
  Xvfb -displayfd 3 -screen 0 "${screen}x24" -nolisten tcp 3>"$tmp/display" 2>"$tmp/log" &
  XVFB_PID=$!
  for _ in $(seq 300); do
    [[ -s "$tmp/display" ]] && break
    kill -0 "$XVFB_PID" 2>/dev/null || break
    sleep 0.05
  done
  if [[ ! -s "$tmp/display" ]]; then
    echo "Xvfb did not start:"
    cat "$tmp/log"
    stop_xvfb
    rm -rf "$tmp"
    return 1
  fi
  DISPLAY=":$(tr -d '[:space:]' <"$tmp/display")"
  export DISPLAY XVFB_PID
  rm -rf "$tmp"
}

stop_xvfb() {
  if [[ -n "${XVFB_PID:-}" ]]; then
    kill "$XVFB_PID" 2>/dev/null || true
    wait "$XVFB_PID" 2>/dev/null || true
    XVFB_PID=
  fi
}

with_xvfb() {
  local screen=$1 status=0
  shift
  (
    start_xvfb "$screen" || exit 1
    "$@" || status=$?
    stop_xvfb
    exit "$status"
  )
}
