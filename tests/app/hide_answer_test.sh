#!/usr/bin/env bash
# `rope-lab screenshot --hide-answer`: a lesson step whose answer waits for V (10-2 asks which
# blocks bf16 turns elsewhere) pictured as the class first sees it: the "Press V to reveal the
# answer" button's fill covers its box, where the picture without the flag shows the answer and
# no such button.
# Usage: hide_answer_test.sh PATH/TO/rope-lab PATH/TO/png_check.py
set -euo pipefail
rope=$1 check=$2
# shellcheck source=../crash_report.sh
source "$(dirname "$0")/../crash_report.sh"   # rope_run: a crash's report printed and kept
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
shot=(screenshot --lesson 10 --step 2 --presentation --theme light --size 1280x720)
rope_run hide-answer "$rope" "${shot[@]}" --hide-answer -o "$dir/hidden.png" > /dev/null
rope_run hide-answer "$rope" "${shot[@]}" -o "$dir/shown.png" > /dev/null
# the button's fill (210, 226, 245) in the light presentation theme: a 625 x 64 px box
python3 "$check" "$dir/hidden.png" --size 1280x720 --pixel 330 340 210 226 245 2 \
  --colour 210 226 245 2 20000
python3 "$check" "$dir/shown.png" --size 1280x720 --at-most 210 226 245 2 100
echo "ok: the hidden step shows the button, the other the answer"
