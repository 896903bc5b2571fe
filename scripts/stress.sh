#!/usr/bin/env bash
# Repeats the window tests N times under CPU load with a sanitizer build, to catch what only
# timing brings out (issue 33: an ASan abort in the key-tap test on a loaded 2-core machine).
# Not part of scripts/test.sh. Builds the preset's app first.
#
#   scripts/stress.sh [asan|tsan] [RUNS] [options]
#     asan | tsan    the preset (default asan: ASan + UBSan, leaks checked at exit)
#     RUNS           how many times the tests run (default 20)
#     --load K       K busy loops beside the tests (default: the number of cores), 0 for none
#     -R REGEX       the tests to repeat, a ctest regex (default: every window test); e.g.
#                    -R 'key taps' for the lesson key-tap test alone
#
# Prints one line per run, then the count of passes, failures and crashes, and the paths of the
# crash reports kept (build/PRESET/crash-reports, tests/crash_report.sh). A crash is a run with a
# new crash report: the app died by a signal or a sanitizer spoke. Each run's ctest output is
# kept in build/PRESET/stress/run-K.log. Exit 0 when every run passed, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=asan
runs=20
load=$(nproc)
regex='^app: (window |presentation on a monitor|the window |a whole lecture|the presenter window)'
while [[ $# -gt 0 ]]; do
  case "$1" in
    asan | tsan) preset=$1; shift ;;
    --load) load=$2; shift 2 ;;
    -R) regex=$2; shift 2 ;;
    *)
      if [[ "$1" =~ ^[1-9][0-9]*$ ]]; then runs=$1; shift
      else echo "stress: unknown argument '$1' (see the top of scripts/stress.sh)" >&2; exit 2; fi ;;
  esac
done
[[ "$load" =~ ^[0-9]+$ ]] || { echo "stress: --load must be a whole number from 0, got '$load'" >&2; exit 2; }

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)" --target rope-lab
build=build/$preset
reports=$build/crash-reports
mkdir -p "$build/stress" "$reports"
count=$(ctest --preset "$preset" -N -R "$regex" | sed -n 's/^Total Tests: //p')
[[ "${count:-0}" -gt 0 ]] || { echo "stress: no test matches '$regex'" >&2; exit 2; }

busy=()
stop_load() { [[ ${#busy[@]} -eq 0 ]] || kill "${busy[@]}" 2>/dev/null || true; }
trap stop_load EXIT
for ((i = 0; i < load; i++)); do
  yes >/dev/null &
  busy+=($!)
done
echo "== $runs runs of $count test(s) matching '$regex', $preset build, $load busy loop(s)"

passed=0 failed=0 crashed=0 kept=()
started=$SECONDS
for ((run = 1; run <= runs; run++)); do
  before=$(find "$reports" -name '*.log' | sort)
  log=$build/stress/run-$run.log
  ctest --preset "$preset" -R "$regex" --output-on-failure >"$log" 2>&1 || true
  after=$(find "$reports" -name '*.log' | sort)
  mapfile -t new < <(comm -13 <(echo "$before") <(echo "$after") | sed '/^$/d')
  p=$(grep -c ' Passed ' "$log" || true)
  f=$(grep -Ec '\*\*\*(Failed|Timeout)|\*\*\*Exception| Not Run ' "$log" || true)
  if [[ ${#new[@]} -gt 0 ]]; then
    crashed=$((crashed + 1))
    kept+=("${new[@]}")
    verdict="CRASH (${#new[@]} report(s))"
  elif [[ "$f" -gt 0 ]]; then
    failed=$((failed + 1))
    verdict="FAILED: $(grep -E '\*\*\*(Failed|Timeout)' "$log" | sed 's/^ *[0-9/]* *Test *#[0-9]*: //; s/ \.\.\.*.*//' | paste -sd';')"
  else
    passed=$((passed + 1))
    verdict="passed"
  fi
  printf 'run %3d/%d: %d passed, %d failed: %s\n' "$run" "$runs" "$p" "$f" "$verdict"
done

echo "== $runs runs in $((SECONDS - started)) s: $passed passed, $failed failed without a crash," \
  "$crashed crashed"
for r in "${kept[@]+"${kept[@]}"}"; do echo "crash report: $r"; done
[[ $passed -eq $runs ]]
