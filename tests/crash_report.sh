# shellcheck shell=bash
# crash_report.sh — sourced by every test script that starts rope-lab, so that no crash report
# is lost (issue 33: an ASan abort in a window test went to a file the test then deleted).
# When the app dies by a signal (exit status above 128) or a sanitizer speaks in what it printed,
# its output is printed in the test's log, kept in the crash-report folder, and the run is marked
# as crashed: second_chance (tests/app/xvfb.sh) never runs a crashed test again.
#
#   crash_check STATUS NAME FILE...  the app exited with STATUS, its stderr (and stdout) in FILE...:
#                                    returns 1 and reports on a crash, 0 otherwise
#   app_wait PID NAME FILE...        waits for an app started in the background, then checks as
#                                    above; returns the app's exit status (at least 1 on a crash)
#   app_stop PID NAME FILE...        the test gives up on a background app: stops it if it still
#                                    runs (that SIGTERM is the test's, not a crash; its output is
#                                    still searched for a sanitizer report), then checks; an
#                                    empty PID (already waited for) does nothing
#   rope_run NAME COMMAND...         runs COMMAND in the foreground, its stderr going where the
#                                    caller sent it (once COMMAND has ended), then checks
#
# The folder: $ROPE_CRASH_DIR if set, else crash-reports/ in the build tree CTest runs the test
# in (build/<preset>/crash-reports), else ${TMPDIR:-/tmp}/rope-lab-crash-reports. A report is
# NAME-PID.log; no test deletes one. What counts as a sanitizer speaking: the first line of an
# ASan, LSan or TSan report (LSan's own fatal error too: its tracer crashed), or UBSan's
# "runtime error:".
ROPE_CRASH_PATTERN='ERROR: AddressSanitizer|ERROR: LeakSanitizer|LeakSanitizer has encountered a fatal error|WARNING: ThreadSanitizer|ThreadSanitizer: |runtime error:'
ROPE_CRASH_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/crash_report.sh
export ROPE_CRASH_LIB ROPE_CRASH_PATTERN

if [[ -z "${ROPE_CRASH_DIR:-}" ]]; then
  # CTest runs each test in a folder of the build tree; the tree's top holds CMakeCache.txt
  _crash_up=$PWD
  while [[ "$_crash_up" != / && ! -f "$_crash_up/CMakeCache.txt" ]]; do
    _crash_up=$(dirname "$_crash_up")
  done
  if [[ -f "$_crash_up/CMakeCache.txt" ]]; then
    ROPE_CRASH_DIR=$_crash_up/crash-reports
  else
    ROPE_CRASH_DIR=${TMPDIR:-/tmp}/rope-lab-crash-reports
  fi
  unset _crash_up
fi
export ROPE_CRASH_DIR
# the test's own output, kept at source time: a report is printed there even when the app's
# stdout is sent elsewhere (rope_run NAME "$rope" ... >/dev/null)
exec {ROPE_CRASH_OUT}>&1

# crash_print FILE: a file as the test log shows it (a long one: its start and its last 300 lines,
# where a sanitizer report sits; the kept copy is whole)
crash_print() {
  local lines
  lines=$(wc -l <"$1")
  if [[ "$lines" -le 400 ]]; then
    cat "$1"
  else
    head -n 40 "$1"
    echo "[... $((lines - 340)) lines left out here; the kept report has them ...]"
    tail -n 300 "$1"
  fi
}

crash_check() {
  local status=$1 name=$2 why="" f report
  shift 2
  # SIGPIPE (141) is a reader that stopped reading (`| head -1`), not a crash
  if [[ "$status" -gt 128 && "$status" -lt 256 && "$status" -ne 141 ]]; then
    why="killed by signal $((status - 128)) (SIG$(kill -l "$((status - 128))" 2>/dev/null || echo '?'))"
  fi
  for f in "$@"; do
    if [[ -f "$f" ]] && grep -Eq -- "$ROPE_CRASH_PATTERN" "$f"; then
      why="${why:+$why; }a sanitizer report in its output"
      break
    fi
  done
  [[ -z "$why" ]] && return 0
  mkdir -p "$ROPE_CRASH_DIR"
  report="$ROPE_CRASH_DIR/$name.log"
  local k=1
  while [[ -e "$report" ]]; do report="$ROPE_CRASH_DIR/$name.$((k++)).log"; done
  {
    echo "crash report: $name"
    echo "test: ${0##*/} in $PWD, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "the app exited with status $status: $why"
    for f in "$@"; do
      [[ -f "$f" ]] || continue
      echo "===== ${f##*/} ($(wc -l <"$f") lines)"
      cat "$f"
    done
  } >"$report"
  {
    echo "===== CRASH: $name: $why"
    for f in "$@"; do
      [[ -f "$f" ]] || continue
      echo "----- ${f##*/}:"
      crash_print "$f"
    done
    echo "===== the whole report is kept in $report"
  } >&"$ROPE_CRASH_OUT"
  # second_chance reads this: a crashed run is a failure, never run again
  [[ -n "${ROPE_CRASH_MARK:-}" ]] && echo "$report" >>"$ROPE_CRASH_MARK"
  return 1
}

app_wait() {
  local pid=$1 name=$2 status=0
  shift 2
  wait "$pid" || status=$?
  crash_check "$status" "$name-$pid" "$@" || { [[ "$status" -ne 0 ]] || status=1; }
  return "$status"
}

app_stop() {
  local pid=$1 name=$2
  shift 2
  [[ -n "$pid" ]] || return 0  # already waited for (app_wait has checked it)
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    crash_check 0 "$name-$pid" "$@"
  else
    app_wait "$pid" "$name" "$@"
  fi
}

rope_run() {
  local name=$1 status=0 err
  shift
  err=$(mktemp "${TMPDIR:-/tmp}/rope-stderr.XXXXXX")
  "$@" 2>"$err" || status=$?
  cat "$err" >&2
  crash_check "$status" "$name-$$" "$err" || { [[ "$status" -ne 0 ]] || status=1; }
  rm -f "$err"
  return "$status"
}
