#!/usr/bin/env bash
# The bash and zsh completions (issue 31, item 5), written by the program from its own options:
# the built scripts are what `rope-lab --bash-completion` and `--zsh-completion` print now, and
# completing a few lines as each shell would offers the subcommands, datasets, flags, the words a
# flag takes (--view, --scaling, --model from the presets), file names after -o and folders
# after --lessons-dir. bash runs its function as it does on Tab (COMP_WORDS / COMP_CWORD); zsh
# sources the script (which calls its function, as the file zsh autoloads does) with `words` /
# CURRENT / PREFIX set and its completion builtins replaced by ones that print what they were
# given (zsh filters by PREFIX itself, so the offers are the
# candidates before that filter).
set -euo pipefail
rope=$1 script=$2 zscript=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$rope" --bash-completion > "$dir/now"
cmp -s "$dir/now" "$script" || { echo "$script is not what rope-lab --bash-completion prints now"; exit 1; }
"$rope" --zsh-completion > "$dir/znow"
cmp -s "$dir/znow" "$zscript" || { echo "$zscript is not what rope-lab --zsh-completion prints now"; exit 1; }
ids=$("$rope" models --ids)
model=${ids%%$'\n'*}
cd "$dir"
touch lecture-notes.csv
mkdir my-lessons
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
expect my-lessons --lessons-dir my
# every flag the window's --help lists is offered after "--"
for f in $("$rope" --help | grep -oE '^ +(-[a-z],)?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*'); do
  expect "$f" --
done

# zcomplete WORDS...: what zsh's function offers for the last word of "rope-lab WORDS...", one
# per line ("files", "folders" where it hands over to _files)
zcomplete() {
  zsh -f -c '
    compadd() { while [[ $# -gt 0 && $1 != -- ]]; do shift; done; shift; print -rl -- "$@"; }
    _describe() { local name=${@[-1]}; print -rl -- ${${(P)name}%%:*}; }
    _files() { [[ $1 == -/ ]] && print folders || print files; }
    script=$1; shift
    words=(rope-lab "$@"); CURRENT=${#words}; PREFIX=${words[CURRENT]}
    source "$script"' _ "$zscript" "$@" 2>&1
}
zexpect() {  # WANT WORDS...
  local want=$1 offered
  shift
  offered=$(zcomplete "$@")
  grep -qx -- "$want" <<<"$offered" || {
    echo "zsh: rope-lab $* <Tab>: $want not offered; offered:"; head -20 <<<"$offered"; exit 1; }
}
if command -v zsh >/dev/null; then
  zexpect --view --vi
  zexpect axial --view ''
  zexpect frequencies export ''
  zexpect b-over-d export ''
  zexpect screenshot ''
  zexpect files ''
  zexpect --scaling export frequencies --sc
  zexpect longrope export frequencies --scaling ''
  zexpect "$model" --model ''
  zexpect files export frequencies -o lec
  zexpect folders --lessons-dir ''
  zexpect --force screenshot --fo
  # the help beside each flag: the start of its own --help line
  grep -qF "'--presenter:open the presenter window too" "$zscript" ||
    { echo "zsh: --presenter has no description"; exit 1; }
  for f in $("$rope" --help | grep -oE '^ +(-[a-z],)?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*'); do
    zexpect "$f" --
  done
  zsh_done="; zsh the same"
else
  echo "zsh missing (scripts/deps.sh): only bash was checked"
  zsh_done=""
fi
echo "bash completion: current; subcommands, datasets, flags, flag values, models and files offered${zsh_done}"
