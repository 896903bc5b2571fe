#!/usr/bin/env bash
# expect.sh — run one command in a fresh scratch directory and check what it did.
#
#   expect.sh [checks...] -- COMMAND [ARGS...]
#
# Checks (any number, in any order; regexes are grep -E, matched against single lines):
#   --code N             exit status must be N (default 0)
#   --err RE             stderr must be exactly one line, starting "rope-lab: error: " and
#                        matching RE. With a nonzero --code the one-line rule holds even without
#                        --err; with code 0 stderr must be empty unless --err is given.
#   --out RE             some line of stdout matches RE (repeatable)
#   --out-line K TEXT    line K (from 1) of stdout is exactly TEXT
#   --out-lines N        stdout has exactly N lines
#   --out-empty          stdout is empty
#   --given FILE TEXT    before running, FILE holds TEXT (plus a newline)
#   --mkdir DIR          before running, DIR exists
#   --readonly DIR       before running, DIR exists and is read-only (skipped, exit 77, as root:
#                        root writes anywhere)
#   --same FILE          afterwards FILE still holds what --given put there
#   --file FILE RE       afterwards FILE exists and some line matches RE
#   --file-line FILE K TEXT   line K of FILE is exactly TEXT
#   --file-lines FILE N  afterwards FILE has exactly N lines
#   --no-file FILE       afterwards FILE does not exist
#   --stdout-to PATH     run with stdout sent to PATH (e.g. /dev/full); stdout checks then see
#                        nothing
#   --fsize-kb N         run with `ulimit -f N` and SIGXFSZ ignored: writes beyond N KiB fail
#                        with EFBIG, as on a full disk
# Always: no temporary file (".*.tmp-*") is left anywhere in the scratch directory, and the
# command neither died by a signal nor printed a sanitizer report (crash_report.sh: such a run
# fails, and its output is kept in build/<preset>/crash-reports).
# Relative paths (FILE, DIR, and the command's own arguments) are inside the scratch directory.
set -uo pipefail
# shellcheck source=../crash_report.sh
source "$(dirname "$0")/../crash_report.sh"

code=0
err_re=""
stdout_to=""
fsize_kb=""
checks=()   # deferred checks, each a string "kind<TAB>arg1<TAB>arg2"
setup=()
tab=$'\t'

while [[ $# -gt 0 ]]; do
  case "$1" in
    --code) code=$2; shift 2 ;;
    --err) err_re=$2; shift 2 ;;
    --out) checks+=("out${tab}$2"); shift 2 ;;
    --out-line) checks+=("out-line${tab}$2${tab}$3"); shift 3 ;;
    --out-lines) checks+=("out-lines${tab}$2"); shift 2 ;;
    --out-empty) checks+=("out-empty"); shift ;;
    --given) setup+=("given${tab}$2${tab}$3"); checks+=("given${tab}$2${tab}$3"); shift 3 ;;
    --mkdir) setup+=("mkdir${tab}$2"); shift 2 ;;
    --readonly) setup+=("mkdir${tab}$2" "readonly${tab}$2"); shift 2 ;;
    --same) checks+=("same${tab}$2"); shift 2 ;;
    --file) checks+=("file${tab}$2${tab}$3"); shift 3 ;;
    --file-line) checks+=("file-line${tab}$2${tab}$3${tab}$4"); shift 4 ;;
    --file-lines) checks+=("file-lines${tab}$2${tab}$3"); shift 3 ;;
    --no-file) checks+=("no-file${tab}$2"); shift 2 ;;
    --stdout-to) stdout_to=$2; shift 2 ;;
    --fsize-kb) fsize_kb=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "expect.sh: unknown check '$1'" >&2; exit 2 ;;
  esac
done
[[ $# -gt 0 ]] || { echo "expect.sh: no command after --" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rope-cli-test.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 2
mkdir .io   # the captured streams live apart from what the command may create
out=.io/stdout
err=.io/stderr
: >"$out"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

declare -A given_text
for s in "${setup[@]+"${setup[@]}"}"; do
  IFS=$tab read -r kind a b <<<"$s"
  case "$kind" in
    given) printf '%s\n' "$b" >"$a"; given_text[$a]=$b ;;
    mkdir) mkdir -p "$a" ;;
    readonly)
      if [[ $(id -u) -eq 0 ]]; then echo "skipped: root can write into read-only directories"; exit 77; fi
      chmod a-w "$a" ;;
  esac
done

echo "running: $*"
(
  if [[ -n "$fsize_kb" ]]; then
    trap '' XFSZ
    ulimit -f "$fsize_kb"
  fi
  if [[ -n "$stdout_to" ]]; then exec "$@" >"$stdout_to" 2>"$err"; fi
  exec "$@" >"$out" 2>"$err"
)
status=$?

echo "exit status: $status"
echo "--- stderr:"; cat "$err"
echo "--- stdout (first 20 lines):"; head -n 20 "$out"
echo "---"

crash_check "$status" "expect-${1##*/}-$$" "$err" "$out" || fail "the command crashed (report above)"
[[ "$status" -eq "$code" ]] || fail "exit status $status, expected $code"

err_lines=$(wc -l <"$err")
err_bytes=$(wc -c <"$err")
if [[ -n "$err_re" || "$code" -ne 0 ]]; then
  if [[ "$err_lines" -ne 1 || "$(tail -c 1 "$err" | od -An -c | tr -d ' ')" != '\n' ]]; then
    fail "stderr must be exactly one line, got $err_lines line(s), $err_bytes byte(s)"
  fi
  grep -q '^rope-lab: error: ' "$err" || fail "stderr does not start with 'rope-lab: error: '"
  if [[ -n "$err_re" ]]; then
    grep -Eq -- "$err_re" "$err" || fail "stderr does not match /$err_re/"
  fi
else
  [[ "$err_bytes" -eq 0 ]] || fail "stderr should be empty"
fi

line_of() { sed -n "${2}p" "$1"; }

for c in "${checks[@]+"${checks[@]}"}"; do
  IFS=$tab read -r kind a b d <<<"$c"
  case "$kind" in
    out) grep -Eq -- "$a" "$out" || fail "no stdout line matches /$a/" ;;
    out-line) [[ "$(line_of "$out" "$a")" == "$b" ]] ||
      fail "stdout line $a is '$(line_of "$out" "$a")', expected '$b'" ;;
    out-lines) n=$(wc -l <"$out"); [[ "$n" -eq "$a" ]] || fail "stdout has $n lines, expected $a" ;;
    out-empty) [[ ! -s "$out" ]] || fail "stdout should be empty, has $(wc -c <"$out") bytes" ;;
    given) ;;
    same)
      if [[ ! -f "$a" ]]; then fail "$a is gone"
      elif [[ "$(cat "$a")" != "${given_text[$a]}" ]]; then fail "$a changed: '$(head -c 200 "$a")'"
      fi ;;
    file)
      if [[ ! -f "$a" ]]; then fail "$a was not written"
      else grep -Eq -- "$b" "$a" || fail "no line of $a matches /$b/"; fi ;;
    file-line) [[ "$(line_of "$a" "$b")" == "$d" ]] ||
      fail "$a line $b is '$(line_of "$a" "$b")', expected '$d'" ;;
    file-lines) n=$(wc -l <"$a" 2>/dev/null || echo missing)
      [[ "$n" == "$b" ]] || fail "$a has $n lines, expected $b" ;;
    no-file) [[ ! -e "$a" ]] || fail "$a should not exist" ;;
  esac
done

leftovers=$(find . -path ./.io -prune -o -name '.*.tmp-*' -print)
[[ -z "$leftovers" ]] || fail "temporary files left behind: $leftovers"

if [[ "$failures" -ne 0 ]]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "ok"
