#!/usr/bin/env bash
# One version number (issue 31, item 7): CMake's project(VERSION), which the build passes in as
# EXPECTED, is what `rope-lab --version` prints, what the manual page's title names, and the
# newest entry of CHANGELOG.md.
set -euo pipefail
rope=$1 expected=$2 changelog=$3 page=$4
got=$("$rope" --version)
[[ "$got" == "rope-lab $expected" ]] || { echo "rope-lab --version says '$got', CMake says $expected"; exit 1; }
newest=$(grep -m1 -oE '^## [0-9]+\.[0-9]+\.[0-9]+' "$changelog" | cut -c4-)
[[ "$newest" == "$expected" ]] || { echo "CHANGELOG.md's newest entry is '$newest', CMake says $expected"; exit 1; }
grep -q "^\.TH ROPE\\\\-LAB 1 .*\"rope\\\\-lab ${expected//./\\.}\"" "$page" ||
  { echo "the manual page's title does not name $expected:"; grep '^\.TH' "$page"; exit 1; }
echo "version $expected in --version, CHANGELOG.md and rope-lab(1)"
