#!/usr/bin/env bash
# Runs each fuzz target (tests/fuzz) under libFuzzer for a given time and prints, per target, the
# executions, the inputs in its corpus and what it found. Builds the `fuzz` preset first (clang 14
# with libFuzzer, ASan and UBSan; scripts/deps.sh test installs it).
#
#   scripts/fuzz.sh                  60 s per target, all six targets
#   scripts/fuzz.sh 3600 tex cli     one hour each for two of them
#   scripts/fuzz.sh --runs 1000000   until each target has run a million inputs (issue 16's bar)
#   scripts/fuzz.sh --smoke          what scripts/test.sh runs: a fixed 2 000 mutations per
#                                    target from seed 1 (300 for `state`, whose inputs are whole
#                                    lectures), the same every run (a finding there is real,
#                                    never bad luck)
#
# Seeds: the folders listed per target in build/fuzz/fuzz_corpora.txt (assets/lessons, the test
# lesson files, tests/fuzz/corpus/NAME). New inputs the fuzzer finds go to build/fuzz/corpus/NAME
# (kept between runs); crashes, leaks, timeouts and out-of-memory inputs go to
# build/fuzz/findings/ as NAME-crash-..., NAME-timeout-... . Add a finding to
# tests/fuzz/corpus/NAME once it is fixed: CTest then replays it on every run.
# Exit 0 when nothing was found, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
limit=(-max_total_time="$seconds")
if [[ "$seconds" == --smoke ]]; then
  limit=(-runs=2000 -seed=1)
elif [[ "$seconds" == --runs ]]; then
  runs=${1:-}
  shift || true
  [[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: --runs needs a whole number from 1, got '$runs'" >&2; exit 2; }
  limit=(-runs="$runs")
elif ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: seconds must be a whole number from 1 (or --smoke), got '$seconds'" >&2
  exit 2
fi

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)"

build=build/fuzz
mkdir -p "$build/findings"
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  mapfile -t targets < <(cut -d' ' -f1 "$build/fuzz_corpora.txt")
fi

found=0
printf '%-9s %12s %8s %8s %9s  %s\n' target executions exec/s seconds corpus findings
for t in "${targets[@]}"; do
  line=$(grep -m1 "^$t " "$build/fuzz_corpora.txt") || { echo "fuzz: no target '$t'" >&2; exit 2; }
  read -r -a seeds <<<"${line#* }"
  corpus="$build/corpus/$t"
  mkdir -p "$corpus"
  before=$(find "$build/findings" -name "$t-*" | wc -l)
  log="$build/findings/$t.log"
  started=$SECONDS
  # -timeout: an input slower than 10 s is a finding (issue 16: TeX that blocked the UI);
  # -rss_limit_mb: more than 2 GiB for one input is one too. Exit status is read from the log.
  run_limit=("${limit[@]}")
  # an input of `state` is a whole lecture (12 actions, each checked by building the view's
  # export): about 20 per second under the sanitizers, so its smoke run is 300 inputs (~15 s)
  if [[ "$seconds" == --smoke && "$t" == state ]]; then run_limit=(-runs=300 -seed=1); fi
  "$build/tests/fuzz/fuzz_$t" "$corpus" "${seeds[@]}" "${run_limit[@]}" \
    -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$build/findings/$t-" >"$log" 2>&1 || true
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  after=$(find "$build/findings" -name "$t-*" ! -name '*.log' | wc -l)
  new=$((after - before))
  summary="none"
  if [[ -z "$execs" || $new -gt 0 ]]; then
    found=1
    summary="$new new input(s) in $build/findings; log: $log"
    [[ -n "$execs" ]] || summary="the run did not finish; log: $log"
  fi
  printf '%-9s %12s %8s %8s %9s  %s\n' "$t" "${execs:-?}" "${rate:-?}" $((SECONDS - started)) "$(find "$corpus" -type f | wc -l)" "$summary"
  if [[ "$summary" != none ]]; then
    grep -E 'ERROR|SUMMARY|==[0-9]+==|runtime error|Test unit written' "$log" | head -20 >&2 || true
  fi
done
exit "$found"
