#!/usr/bin/env bash
# A session file renders exactly the picture of the same state given as flags.
set -euo pipefail
rope=$1
# shellcheck source=../crash_report.sh
source "$(dirname "$0")/../crash_report.sh"   # rope_run: a crash's report printed and kept
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cat > lecture.json <<'JSON'
{"format": "rope-lab-session", "version": 1,
 "params": {"dim": 8, "position": 3.5, "key_position": 9, "theme": "light", "layout": "circle",
            "query": "1,0,0.5,0.5,-1,2,0,1"}}
JSON
rope_run session-screenshot "$rope" screenshot -o from-session.png --size 800x600 --session lecture.json >/dev/null
rope_run session-screenshot "$rope" screenshot -o from-flags.png --size 800x600 --dim 8 --position 3.5 --key-position 9 \
  --theme light --layout circle --query 1,0,0.5,0.5,-1,2,0,1 >/dev/null
cmp from-session.png from-flags.png
echo "session and flags give identical pictures"
