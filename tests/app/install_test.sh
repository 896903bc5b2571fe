#!/usr/bin/env bash
# `cmake --install` puts the binary, its MP4 module, its data, the desktop entry and the icon
# under a prefix, and the installed binary uses the installed data (not the source tree).
set -euo pipefail
build=$1
# shellcheck source=../crash_report.sh
source "$(dirname "$0")/../crash_report.sh"   # rope_run: a crash's report printed and kept
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prefix="$dir/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
module=$(cd "$prefix" && find . -path '*/rope-lab/librope_mp4.so' | head -1)
[[ -n "$module" ]] || { echo "missing after install: librope_mp4.so (lib*/rope-lab/)"; exit 1; }
for f in bin/rope-lab share/applications/rope-lab.desktop \
         share/icons/hicolor/scalable/apps/rope-lab.svg share/mime/packages/rope-lab.xml share/man/man1/rope-lab.1.gz share/bash-completion/completions/rope-lab \
         share/zsh/vendor-completions/_rope-lab share/metainfo/io.github.rope_lab.RopeLab.metainfo.xml \
         share/rope-lab/shaders/heatmap.vert share/rope-lab/shaders/heatmap.frag \
         share/rope-lab/lessons/03-rope-2d.lesson; do
  [[ -e "$prefix/$f" ]] || { echo "missing after install: $f"; exit 1; }
done
folders=$(rope_run install "$prefix/bin/rope-lab" lessons --folders)
grep -qx "shipped  $prefix/share/rope-lab/lessons" <<<"$folders" || {
  echo "the installed binary does not read its installed lessons:"; echo "$folders"; exit 1; }
rope_run install "$prefix/bin/rope-lab" lessons --check >/dev/null
rope_run install "$prefix/bin/rope-lab" screenshot -o "$dir/heatmap.png" --view heatmap --size 640x400 >/dev/null
rope_run install "$prefix/bin/rope-lab" animate -o "$dir/sweep.mp4" --to 2 --fps 4 --seconds 1 --size 160x96 >/dev/null
[[ -s "$dir/sweep.mp4" ]] || { echo "the installed binary wrote no MP4"; exit 1; }
echo "installed under $prefix: binary, MP4 module ($module), shaders, lessons, desktop entry" \
  "and icon; data found"
