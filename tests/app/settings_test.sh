#!/usr/bin/env bash
# The window remembers its theme and recent sessions in $XDG_CONFIG_HOME/rope-lab; a settings
# file can never stop it, a broken one is kept (set aside), and one it could not read, or one
# written by a newer version, is never overwritten.
set -euo pipefail
rope=$1
dir=$(mktemp -d)
chmod 755 "$dir"
trap 'chmod -R u+rwX "$dir"; rm -rf "$dir"' EXIT
export XDG_CONFIG_HOME="$dir/config"
run() { xvfb-run -a -s "-screen 0 1280x800x24" "$rope" "$@" --frames 3; }
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
timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" "$rope" --frames 3 2> "$dir/err"
grep -q 'not a regular file' "$dir/err"
[ -p "$settings" ]
rm "$settings"

# A file the user cannot read is not replaced by the defaults (and keeps its mode). Root reads
# any file, so this part runs as an unprivileged user when the test runs as root.
printf '{"format": "rope-lab-settings", "version": 1, "theme": "light"}' > "$settings"
chmod 000 "$settings"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
  chmod -R a+rwX "$XDG_CONFIG_HOME"
  chmod 000 "$settings"
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$dir")
fi
"${as_user[@]}" xvfb-run -a -s "-screen 0 1280x800x24" "$rope" --frames 3 2> "$dir/err"
grep -q 'cannot be read' "$dir/err"
[ "$(stat -c %a "$settings")" = "0" ]
chmod 600 "$settings"
grep -q '"theme": "light"' "$settings"
echo "settings remembered; broken files kept aside; unreadable, newer and special files untouched"
