#!/usr/bin/env bash
# Renders a fixed set of pictures (every view and every lesson step, in the window and in
# presentation mode, at 1920x1080 and 1280x720) into a folder, for comparing two builds pixel
# for pixel during a refactor:
#   scripts/golden.sh OLD/rope-lab /tmp/before && scripts/golden.sh NEW/rope-lab /tmp/after
#   scripts/golden.sh --compare /tmp/before /tmp/after
# The same binary always writes byte-identical PNGs; pictures whose bytes differ (another PNG
# encoder, other compression settings) are decoded and compared pixel by pixel (png_diff.c).
set -euo pipefail
if [ "${1:-}" = "--compare" ]; then
  differ=0
  tool=$(mktemp -d)
  trap 'rm -rf "$tool"' EXIT
  cc -O2 $(pkg-config --cflags stb) "$(dirname "$0")/png_diff.c" -lstb -o "$tool/png_diff"
  for f in "$2"/*.png; do
    g="$3/$(basename "$f")"
    if ! cmp -s "$f" "$g" && ! "$tool/png_diff" "$f" "$g" >"$tool/out" 2>&1; then
      echo "differs: $(basename "$f"): $(cat "$tool/out")"
      differ=$((differ + 1))
    fi
  done
  echo "$(ls "$2"/*.png | wc -l) pictures compared, $differ differ"
  [ "$differ" -eq 0 ]
  exit
fi
rope=$1
out=$2
mkdir -p "$out"
export ROPE_LAB_LESSONS="${ROPE_LAB_LESSONS:-$(cd "$(dirname "$0")/.." && pwd)/assets/lessons}"
shot() {  # name, flags...
  local name=$1
  shift
  for size in 1920x1080 1280x720; do
    "$rope" screenshot -o "$out/$name-$size.png" --size "$size" "$@" >/dev/null
    "$rope" screenshot -o "$out/$name-$size-pres.png" --size "$size" --presentation "$@" >/dev/null
  done
}
for view in pointers sinusoidal trajectory sentence heatmap decay spectrum; do
  shot "$view" --view "$view"
done
shot pointers-d64-circle --view pointers --dim 64 --layout circle --trails --position 7.5
shot pointers-light-half --view pointers --pairing half --query random --theme light --position 3
shot heatmap-compare --view heatmap --compare --positions 64 --content random
shot heatmap-softmax --view heatmap --score-mode softmax --causal --positions 128
shot decay-overlays --view decay --compare-base 500000 --compare-dim 32 --mean-score
"$rope" lessons | while read -r lesson steps _; do
  for step in $(seq 1 "$steps"); do
    shot "lesson-$lesson-$step" --view derivation --lesson "$lesson" --step "$step"
  done
done
echo "$(ls "$out"/*.png | wc -l) pictures in $out"
