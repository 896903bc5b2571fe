#!/usr/bin/env bash
# The crash-report mechanism itself (tests/crash_report.sh, issue 33), with a stand-in for
# rope-lab that prints a sanitizer-like report on stderr and kills itself with SIGABRT, as an
# ASan build with abort_on_error=1 does:
#   1. window_test.sh (second_chance, with_xvfb, crash_check): the report is in the test's output,
#      kept in the crash-report folder, and the run is not repeated;
#   2. the same script with a stand-in that only fails (exit 1): second_chance does repeat it, and
#      nothing is kept;
#   3. expect.sh (every CLI test): the report is printed and kept;
#   4. app_wait and app_stop: a background app that aborts is reported; one the test stops with
#      SIGTERM is not.
# Usage: crash_report_test.sh   (needs Xvfb and xdotool for part 1 and 2; skipped, 77, without)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export ROPE_CRASH_DIR="$dir/reports"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

crasher="$dir/crashing-rope-lab"
cat >"$crasher" <<'APP'
#!/usr/bin/env bash
echo "a line on stdout before the crash"
echo "==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 (stand-in)" >&2
echo "SUMMARY: AddressSanitizer: heap-use-after-free (a stand-in's report)" >&2
kill -ABRT $$
APP
failer="$dir/failing-rope-lab"
cat >"$failer" <<'APP'
#!/usr/bin/env bash
echo "rope-lab: error: a stand-in that fails without crashing" >&2
exit 1
APP
chmod +x "$crasher" "$failer"
reports() { find "$ROPE_CRASH_DIR" -name "$1" -type f 2>/dev/null | wc -l; }

# 1 and 2: the window test, through second_chance
if command -v Xvfb >/dev/null && command -v xdotool >/dev/null; then
  status=0
  bash "$here/window_test.sh" "$crasher" 640x480 -- >"$dir/window.log" 2>&1 || status=$?
  [[ $status -ne 0 ]] || fail "window_test.sh passed with a crashing app"
  grep -q 'heap-use-after-free on address 0x602000000010' "$dir/window.log" ||
    fail "window_test.sh: the sanitizer report is not in the test's output"
  grep -q 'killed by signal 6 (SIGABRT)' "$dir/window.log" ||
    fail "window_test.sh: the output does not say the app died of SIGABRT"
  grep -q 'running it once more' "$dir/window.log" &&
    fail "window_test.sh: second_chance ran a crashed test again"
  grep -q 'a crash is a failure, not run again' "$dir/window.log" ||
    fail "window_test.sh: second_chance did not say why it stopped"
  [[ $(reports 'window-frames-*.log') -eq 1 ]] ||
    fail "window_test.sh: expected one kept report, found $(reports 'window-frames-*.log')"
  grep -qs 'heap-use-after-free on address' "$ROPE_CRASH_DIR"/window-frames-*.log ||
    fail "window_test.sh: the kept report lacks the sanitizer's line"
  [[ $failures -eq 0 ]] || { echo "--- window_test.sh's output:"; cat "$dir/window.log"; }

  status=0
  bash "$here/window_test.sh" "$failer" 640x480 -- >"$dir/failing.log" 2>&1 || status=$?
  [[ $status -ne 0 ]] || fail "window_test.sh passed with a failing app"
  grep -q 'running it once more' "$dir/failing.log" ||
    fail "window_test.sh: second_chance did not repeat a run that failed without a crash"
  [[ $(reports '*.log') -eq 1 ]] || fail "a failure without a crash left a crash report"
else
  echo "skipped parts 1 and 2: Xvfb or xdotool is not installed (scripts/deps.sh)"
fi

# 3: a CLI test through expect.sh
status=0
bash "$here/../cli/expect.sh" --out 'never' -- "$crasher" export >"$dir/expect.log" 2>&1 || status=$?
[[ $status -ne 0 ]] || fail "expect.sh passed with a crashing command"
grep -q '===== CRASH: ' "$dir/expect.log" || fail "expect.sh: no crash report in the output"
grep -q 'SUMMARY: AddressSanitizer' "$dir/expect.log" || fail "expect.sh: the report's lines are missing"
[[ $(reports 'expect-crashing-rope-lab-*.log') -eq 1 ]] || fail "expect.sh: no kept report"

# 4: app_wait and app_stop in a test's own shell
(
  # shellcheck source=../crash_report.sh
  source "$here/../crash_report.sh"
  "$crasher" >"$dir/bg.txt" 2>&1 &
  if app_wait $! background "$dir/bg.txt" >"$dir/bg.log"; then
    echo "FAIL: app_wait returned 0 for an app that aborted"
  fi
  sleep 30 &
  app_stop $! stopped "$dir/bg-none.txt" || echo "FAIL: app_stop reported the test's own SIGTERM"
) >"$dir/part4.log" 2>&1
! grep -q FAIL "$dir/part4.log" || fail "$(grep FAIL "$dir/part4.log")"
grep -q 'heap-use-after-free' "$dir/part4.log" || fail "app_wait: the report is not printed"
[[ $(reports 'background-*.log') -eq 1 ]] || fail "app_wait: no kept report"
[[ $(reports 'stopped-*.log') -eq 0 ]] || fail "app_stop: a report for the test's own SIGTERM"

if [[ $failures -ne 0 ]]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "a crash (SIGABRT and a sanitizer's report) is printed, kept ($(reports '*.log') reports) and" \
  "not run again; a plain failure is run again; the test's own SIGTERM is no crash"
