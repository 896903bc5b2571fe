#!/usr/bin/env bash
# The window remembers its theme and recent sessions in $XDG_CONFIG_HOME/rope-lab; a settings
# file can never stop it, a broken one is kept (set aside), and one it could not read, or one
# written by a newer version, is never overwritten.
set -euo pipefail
rope=$1
dir=$(mktemp -d)
chmod 755 "$dir"
# One X server for every run; without -auth it takes local clients of any user (the mode-000 part).
source "$(dirname "$0")/xvfb.sh"
trap 'stop_xvfb; chmod -R u+rwX "$dir"; rm -rf "$dir"' EXIT
# On a failure, say where: the line and what the app printed.
trap 'echo "failed at line $LINENO"; cat "$dir/err" 2>/dev/null' ERR
start_xvfb 1280x800
export XDG_CONFIG_HOME="$dir/config"
: > "$dir/err"
run() { rope_run settings "$rope" "$@" --frames 3; }
cat > "$dir/lecture.json" <<'JSON'
{"format": "rope-lab-session", "version": 1, "params": {"dim": 8}}
JSON
run "$dir/lecture.json" --theme light
settings="$XDG_CONFIG_HOME/rope-lab/settings.json"
grep -q '"theme": "light"' "$settings"
grep -qF "$dir/lecture.json" "$settings"

# A damaged or wrongly typed file: the app starts, says so once, keeps the file aside.
k=0
for broken in '{"format": "rope-lab-settings", "vers' '{"format": 1}' \
  '{"format": "rope-lab-settings", "version": 1, "window": {"width": "wide", "height": 800}}'; do
  k=$((k + 1))
  printf '%s' "$broken" > "$settings"
  run 2> "$dir/err"
  [ "$(grep -c 'settings file' "$dir/err")" -eq 1 ] || { cat "$dir/err"; exit 1; }
  [ "$(cat "$settings.broken-$k")" = "$broken" ]              # kept byte for byte
  grep -q '"format": "rope-lab-settings"' "$settings"          # a fresh file written on exit
done

# A newer version's file is left exactly as it is.
newer='{"format": "rope-lab-settings", "version": 99, "theme": "sepia"}'
printf '%s' "$newer" > "$settings"
run 2> "$dir/err"
grep -q 'newer RoPE Lab' "$dir/err"
[ "$(cat "$settings")" = "$newer" ]

# A FIFO in its place does not hang the start, and stays a FIFO.
rm "$settings"
mkfifo "$settings"
rope_run settings timeout 60 "$rope" --frames 3 2> "$dir/err"
grep -q 'not a regular file' "$dir/err"
[ -p "$settings" ]
rm "$settings"

# A file the user cannot read is not replaced by the defaults (and keeps its mode). Root reads
# any file, so this part runs as an unprivileged user when the test runs as root.
printf '{"format": "rope-lab-settings", "version": 1, "theme": "light"}' > "$settings"
chmod 000 "$settings"
as_user=()
user_rope=$rope
if [ "$(id -u)" -eq 0 ]; then
  chmod -R a+rwX "$XDG_CONFIG_HOME"
  chmod 000 "$settings"
  # The build tree may sit in a folder only root can enter (a mktemp -d checkout): the user
  # runs a copy of the binary from $dir (mode 755).
  cp "$rope" "$dir/rope-lab"
  chmod 755 "$dir/rope-lab"
  user_rope=$dir/rope-lab
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$dir" DISPLAY="$DISPLAY")
fi
rope_run settings "${as_user[@]}" "$user_rope" --frames 3 2> "$dir/err"
grep -q 'cannot be read' "$dir/err"
[ "$(stat -c %a "$settings")" = "0" ]
chmod 600 "$settings"
grep -q '"theme": "light"' "$settings"
echo "settings remembered; broken files kept aside; unreadable, newer and special files untouched"
