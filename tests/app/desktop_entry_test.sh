#!/usr/bin/env bash
# The desktop entry and the session MIME type (issue 31, item 2): the entry is valid
# (desktop-file-validate, no warning), offers RoPE Lab for its own sessions only (before:
# MimeType=application/json, every JSON file on the system) and names the window's WM_CLASS;
# the shared-mime-info package compiles, with the glob and the magic that a session the app
# writes starts with (tests/app/test_session.cpp checks the app's side of that string).
set -euo pipefail
src=$1
entry="$src/assets/desktop/rope-lab.desktop"
mime="$src/assets/desktop/rope-lab-mime.xml"
command -v desktop-file-validate >/dev/null || { echo "desktop-file-validate missing (scripts/deps.sh)"; exit 77; }
command -v update-mime-database >/dev/null || { echo "update-mime-database missing (scripts/deps.sh)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

out=$(desktop-file-validate "$entry" 2>&1) || { echo "$out"; exit 1; }
[[ -z "$out" ]] || { echo "desktop-file-validate: $out"; exit 1; }
grep -qx 'MimeType=application/x-rope-lab-session;' "$entry" || { echo "MimeType is not the session type"; exit 1; }
grep -qx 'StartupWMClass=rope-lab' "$entry" || { echo "no StartupWMClass=rope-lab"; exit 1; }

mkdir -p "$dir/mime/packages"
cp "$mime" "$dir/mime/packages/rope-lab.xml"
out=$(XDG_DATA_HOME="$dir" update-mime-database "$dir/mime" 2>&1) || { echo "$out"; exit 1; }
[[ -z "$out" ]] || { echo "update-mime-database: $out"; exit 1; }
grep -q ':application/x-rope-lab-session:\*\.ropelab\.json' "$dir/mime/globs2" ||
  { echo "the glob *.ropelab.json is not in the compiled database"; cat "$dir/mime/globs2"; exit 1; }
grep -q 'application/x-rope-lab-session application/json' "$dir/mime/subclasses" ||
  { echo "not a sub-class of application/json"; exit 1; }
grep -aq 'application/x-rope-lab-session' "$dir/mime/magic" || { echo "no magic compiled"; exit 1; }
grep -q 'value="&quot;format&quot;: &quot;rope-lab-session&quot;" offset="0:64"' "$mime" ||
  { echo "the magic is not the session's format field in the first 64 bytes"; exit 1; }
echo "desktop entry valid, for sessions only, WM_CLASS named; MIME type compiles with glob and magic"
