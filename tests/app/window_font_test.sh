#!/usr/bin/env bash
# A UI font that does not load (reliability review N11): the window still opens and quits with
# exit 0, and says so on stderr once (before: nothing on stderr, ImGui's bitmap font drawn
# silently, θ and → as "?"). A FIFO as the font is refused at once, never opened.
set -euo pipefail
# shellcheck source=xvfb.sh
source "$(dirname "$0")/xvfb.sh"
rope=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export HOME="$dir" XDG_CONFIG_HOME="$dir/config"
mkdir -p "$dir/damaged" "$dir/fifo"
head -c 4096 /dev/urandom > "$dir/damaged/DejaVuSans.ttf"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$dir/damaged/"
mkfifo "$dir/fifo/DejaVuSans.ttf"
for case in "damaged:not a font FreeType can read" "fifo:is a pipe \\(FIFO\\), not a regular file"; do
  folder=${case%%:*} reason=${case#*:}
  status=0
  ROPE_LAB_FONT_DIR="$dir/$folder" with_xvfb 1280x720 timeout 60 "$rope" --frames 5 \
    > "$dir/out" 2> "$dir/err" || status=$?
  crash_check "$status" "window-font-$folder-$$" "$dir/err" "$dir/out" || exit 1
  [[ $status -eq 0 ]] || { echo "$folder: exit $status"; cat "$dir/err"; exit 1; }
  pattern="^rope-lab: warning: font $dir/$folder/DejaVuSans.ttf: $reason .*ROPE_LAB_FONT_DIR"
  if [[ $(grep -Ec "$pattern" "$dir/err") != 1 ]]; then
    echo "$folder: want the font warning once on stderr, got:"; cat "$dir/err"; exit 1
  fi
done
echo "a damaged or FIFO UI font: the window runs and says so once on stderr"
