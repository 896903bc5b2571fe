#!/usr/bin/env bash
# `cmake --install` puts the binary, its data, the desktop entry and the icon under a prefix,
# and the installed binary uses the installed data (not the source tree).
set -euo pipefail
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prefix="$dir/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/rope-lab share/applications/rope-lab.desktop \
         share/icons/hicolor/scalable/apps/rope-lab.svg \
         share/rope-lab/shaders/heatmap.vert share/rope-lab/shaders/heatmap.frag \
         share/rope-lab/lessons/03-rope-2d.lesson; do
  [[ -e "$prefix/$f" ]] || { echo "missing after install: $f"; exit 1; }
done
help=$("$prefix/bin/rope-lab" lessons --help)
grep -qF "Lessons are read from $prefix/share/rope-lab/lessons" <<<"$help" || {
  echo "the installed binary does not read its installed lessons:"; echo "$help" | tail -2; exit 1; }
"$prefix/bin/rope-lab" lessons --check >/dev/null
"$prefix/bin/rope-lab" screenshot -o "$dir/heatmap.png" --view heatmap --size 640x400 >/dev/null
echo "installed under $prefix: binary, shaders, lessons, desktop entry and icon; data found"
