#!/usr/bin/env bash
# expect_problems.sh — runs `rope-lab lessons --check ...` and checks its report.
#
#   expect_problems.sh [--cd DIR] [--code N] [--count N] [--line TEXT]... [--err RE]... [--out RE]...
#                      -- COMMAND...
#
#   --cd DIR     run in DIR (so relative lesson paths appear in the messages as given)
#   --code N     exit status must be N (default 0)
#   --count N    stderr has exactly N lines
#   --line TEXT  some stderr line is exactly TEXT (repeatable)
#   --err RE     some stderr line matches RE (grep -E)
#   --out RE     some stdout line matches RE (grep -E)
# Always: with status 2 every stderr line has the form "file:line:col: message"; with status 0
# stderr is empty.
set -uo pipefail
code=0; count=""; dir="."; lines=(); outs=(); errs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --cd) dir=$2; shift 2 ;;
    --code) code=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --line) lines+=("$2"); shift 2 ;;
    --out) outs+=("$2"); shift 2 ;;
    --err) errs+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "expect_problems.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
cd "$dir" || exit 2
err=$(mktemp); out=$(mktemp)
trap 'rm -f "$err" "$out"' EXIT
"$@" >"$out" 2>"$err"
status=$?
echo "running: $*"; echo "exit status: $status"; echo "--- stderr:"; cat "$err"; echo "--- stdout:"; cat "$out"; echo "---"
fail=0
[[ $status -eq $code ]] || { echo "FAIL: exit status $status, expected $code"; fail=1; }
if [[ $status -eq 2 ]]; then
  while IFS= read -r l; do
    [[ "$l" =~ ^[^:]+:[0-9]+:[0-9]+:\ .+$ ]] || { echo "FAIL: not file:line:col: message: '$l'"; fail=1; }
  done <"$err"
elif [[ $status -eq 0 && -s "$err" ]]; then
  echo "FAIL: stderr should be empty"; fail=1
fi
if [[ -n "$count" ]]; then
  n=$(wc -l <"$err"); [[ $n -eq $count ]] || { echo "FAIL: $n stderr lines, expected $count"; fail=1; }
fi
for l in "${lines[@]+"${lines[@]}"}"; do
  grep -qxF -- "$l" "$err" || { echo "FAIL: no stderr line '$l'"; fail=1; }
done
for re in "${errs[@]+"${errs[@]}"}"; do
  grep -Eq -- "$re" "$err" || { echo "FAIL: no stderr line matches /$re/"; fail=1; }
done
for re in "${outs[@]+"${outs[@]}"}"; do
  grep -Eq -- "$re" "$out" || { echo "FAIL: no stdout line matches /$re/"; fail=1; }
done
[[ $fail -eq 0 ]] && echo ok
exit $fail
