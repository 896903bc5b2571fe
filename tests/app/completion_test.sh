#!/usr/bin/env bash
# The bash completion (issue 31, item 5), written by the program from its own options: the built
# script is what `rope-lab --bash-completion` prints now, and completing a few lines as bash would
# (COMP_WORDS / COMP_CWORD) offers the subcommands, datasets, flags, the words a flag takes
# (--view, --scaling, --model from the presets) and file names after -o.
set -euo pipefail
rope=$1 script=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$rope" --bash-completion > "$dir/now"
cmp -s "$dir/now" "$script" || { echo "$script is not what rope-lab --bash-completion prints now"; exit 1; }
ids=$("$rope" models --ids)
model=${ids%%$'\n'*}
cd "$dir"
touch lecture-notes.csv
# complete WORDS...: what bash offers for the last word (may be empty) of "rope-lab WORDS..."
complete_line() {
  bash -c 'source "$1"; shift; COMP_WORDS=(rope-lab "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ));
           _rope_lab; printf "%s\n" "${COMPREPLY[@]}"' _ "$script" "$@"
}
expect() {  # WANT WORDS...: WANT is among the offers
  local want=$1 offered
  shift
  # the offers first, then the search: grep -q stopping early under pipefail would fail the
  # pipeline by the writer's SIGPIPE
  offered=$(complete_line "$@")
  grep -qx -- "$want" <<<"$offered" || {
    echo "rope-lab $* <Tab>: $want not offered; offered:"; head -20 <<<"$offered"; exit 1; }
}
expect --view --vi
expect axial --view ''
expect derivation --view ''
expect frequencies export ''
expect b-over-d export ''
expect screenshot ''
expect --scaling export frequencies --sc
expect longrope export frequencies --scaling ''
expect yarn --scaling y
expect "$model" --model ''
expect lecture-notes.csv export frequencies -o lec
expect --force screenshot --fo
# every flag the window's --help lists is offered after "--"
for f in $("$rope" --help | grep -oE '^ +(-[a-z],)?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*'); do
  expect "$f" --
done
echo "bash completion: current; subcommands, datasets, flags, flag values, models and files offered"
