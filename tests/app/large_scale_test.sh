#!/usr/bin/env bash
# The largest pictures the export dialog offers: 4x of a window at UI scale 1.5 (presentation at
# 1080 lines) and at UI scale 4, the largest the panel allows. The font atlas at those scales
# used to exceed the GL's largest texture, and every glyph came out a black block with all
# colour gone. Small windows keep the PNGs small; the atlas depends on the scale alone.
# Usage: large_scale_test.sh PATH/TO/rope-lab PATH/TO/png_check.py
set -euo pipefail
rope=$1 check=$2
# shellcheck source=../crash_report.sh
source "$(dirname "$0")/../crash_report.sh"   # rope_run: a crash's report printed and kept
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for ui in 1.5 4; do
  rope_run large-scale "$rope" screenshot -o "$dir/shot.png" --size 480x270 --ui-scale "$ui" --scale 4 --canvas-only \
    --view pointers --dim 16 > /dev/null
  # the read-out's light text and its amber score, and no black blocks (the canvas is 24,25,30)
  python3 "$check" "$dir/shot.png" --size 1920x1080 --colour 236 239 244 24 20000 \
    --at-most 0 0 0 8 100
done
rope_run large-scale "$rope" screenshot -o "$dir/shot.png" --size 480x270 --ui-scale 1.5 --scale 4 --canvas-only \
  --view pointers --dim 16 > /dev/null
python3 "$check" "$dir/shot.png" --colour 250 190 50 60 5000
# Larger than 2x 1080p, so drawn in bands of 512 rows (shell/offscreen_app.h): 3840x2176 is
# 4 whole bands and one of 128 rows; 129 287 light and 38 996 amber pixels measured, no black.
rope_run large-scale "$rope" screenshot -o "$dir/shot.png" --size 960x544 --ui-scale 1.5 --scale 4 --canvas-only \
  --view pointers --dim 16 > /dev/null
python3 "$check" "$dir/shot.png" --size 3840x2176 --colour 236 239 244 24 60000 \
  --colour 250 190 50 60 20000 --at-most 0 0 0 8 100
echo "4x pictures at UI scale 1.5 and 4, whole and in bands: text drawn in its colours, no black blocks"
