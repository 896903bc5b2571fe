#!/usr/bin/env bash
# The window remembers its theme and recent sessions in $XDG_CONFIG_HOME/rope-lab, and a damaged
# settings file never stops it.
set -euo pipefail
rope=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_CONFIG_HOME="$dir/config"
cat > "$dir/lecture.json" <<'JSON'
{"format": "rope-lab-session", "version": 1, "params": {"dim": 8}}
JSON
xvfb-run -a -s "-screen 0 1280x800x24" "$rope" "$dir/lecture.json" --theme light --frames 3
settings="$XDG_CONFIG_HOME/rope-lab/settings.json"
grep -q '"theme": "light"' "$settings"
grep -qF "$dir/lecture.json" "$settings"
printf '{"format": "rope-lab-settings", "vers' > "$settings"   # damaged
xvfb-run -a -s "-screen 0 1280x800x24" "$rope" --frames 3
grep -q '"format": "rope-lab-settings"' "$settings"          # rewritten whole
echo "settings remembered, and a damaged file replaced"
