#!/usr/bin/env bash
# models_file_test.sh — a missing or broken models file (ROPE_LAB_MODELS) costs the presets, never
# the program: `rope-lab models` exits 1 with one message naming the file and the problem, a
# picture is still made (exit 0, one warning line), exports without --model still work, and
# --model is refused with the message. Usage: models_file_test.sh PATH/TO/rope-lab
set -uo pipefail
exe=$1
# shellcheck source=../crash_report.sh
source "$(dirname "$0")/../crash_report.sh"   # rope_run: a crash's report printed and kept
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
check() {  # description, condition already evaluated as $?
  if [[ $2 -ne 0 ]]; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi
}

printf '{"format": "rope-lab-models", "version": 1, "models": [' > "$dir/truncated.json"
printf '{"format": "rope-lab-models", "version": 1, "models": [{"id": "x", "name": "X", "tag": "V", "source": "s", "head_dim": 128, "rotary_dims": 64, "rotary_meaning": "full", "base": 10000, "context": 2048, "scaling": {"method": "none"}, "pairing": {"transformers": "half"}}]}' > "$dir/inconsistent.json"
printf '{"format": "rope-lab-models", "version": 1, "models": [{"id": "x", "name": "X", "tag": "V", "source": "s", "head_dim": 128, "rotary_dims": 128, "rotary_meaning": "full", "base": 0.5, "context": 2048, "scaling": {"method": "none"}, "pairing": {"transformers": "half"}}]}' > "$dir/bad-base.json"

for case in "truncated.json:is not valid JSON" "inconsistent.json:entry 1 (\"x\"): rotary_dims: must equal head_dim" "bad-base.json:entry 1 (\"x\"): base: must be" "missing.json:cannot be read"; do
  file=${case%%:*}
  want=${case#*:}
  export ROPE_LAB_MODELS="$dir/$file"
  out=$(rope_run models-file "$exe" models 2>"$dir/err"); code=$?
  [[ $code -eq 1 && -z "$out" && $(wc -l < "$dir/err") -eq 1 ]] && grep -qF "$file: $want" "$dir/err"
  check "$file: rope-lab models exits 1 with one line '$want' ($(cat "$dir/err"))" $?
  rope_run models-file "$exe" screenshot -o "$dir/x.png" --size 320x200 >/dev/null 2>"$dir/err"; code=$?
  [[ $code -eq 0 && -s "$dir/x.png" && $(wc -l < "$dir/err") -eq 1 ]] &&
    grep -q "^rope-lab: warning: .*$file" "$dir/err"
  check "$file: a screenshot is still made, with one warning ($(cat "$dir/err"))" $?
  rm -f "$dir/x.png"
  rope_run models-file "$exe" export frequencies --dim 8 --base 10000 >/dev/null 2>"$dir/err"
  check "$file: export without --model still works" $?
  rope_run models-file "$exe" export frequencies --model pythia-6.9b >/dev/null 2>"$dir/err"; code=$?
  [[ $code -eq 2 ]] && grep -q "^rope-lab: error: --model: cannot be set: .*$file" "$dir/err"
  check "$file: --model is refused with the file's problem" $?
done
exit $fail
