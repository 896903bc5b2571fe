#!/usr/bin/env bash
# rope-lab(1) (issue 31, item 4): written by the program from its own options, so it cannot
# drift: the built page is what `rope-lab --man-page` prints now, man renders it without a
# warning, and every flag of every --help screen (the window's, each subcommand's, each export
# dataset's) is in it.
set -euo pipefail
rope=$1 page=$2
command -v man >/dev/null || { echo "man is not installed (scripts/deps.sh)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$rope" --man-page > "$dir/now.1"
cmp -s "$dir/now.1" "$page" || { echo "$page is not what rope-lab --man-page prints now"; exit 1; }
# a very wide page: no line breaks or hyphens inside a flag
MANWIDTH=2000 man --warnings -E UTF-8 -l "$page" > "$dir/page.txt" 2> "$dir/warnings.txt"
[[ ! -s "$dir/warnings.txt" ]] || { echo "man warns:"; cat "$dir/warnings.txt"; exit 1; }
helps=("--help")
for sub in export screenshot bench animate lessons models; do helps+=("$sub --help"); done
datasets=$("$rope" export --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF { print $1 }')
[[ -n "$datasets" ]] || { echo "no datasets found in rope-lab export --help"; exit 1; }
for ds in $datasets; do helps+=("export $ds --help"); done
checked=0
for h in "${helps[@]}"; do
  # shellcheck disable=SC2086  # the words of $h are the arguments
  flags=$("$rope" $h | grep -oE '^ +(-[a-z],)?--[a-z][a-z0-9-]*(,--no-[a-z0-9-]+)?' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
  for f in $flags; do
    grep -qF -- "$f" "$dir/page.txt" || { echo "rope-lab $h lists $f, the manual page does not"; exit 1; }
    checked=$((checked + 1))
  done
done
[[ $checked -gt 100 ]] || { echo "only $checked flags found in the --help screens"; exit 1; }
echo "rope-lab.1 is current, renders without warnings, and holds all $checked flags of ${#helps[@]} --help screens"
