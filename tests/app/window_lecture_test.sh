#!/usr/bin/env bash
# A whole lecture from the keyboard alone: the real window under Xvfb, driven by xdotool with
# every key tapped 15 ms after the last (`xdotool key --delay 15`), faster than a frame of
# llvmpipe. It covers the lecture's commands: views 1 … 8, the arrows for m and n with Shift and
# Ctrl, d, N, E, P, C, [ ], T, B, R, Space, + / −, Ctrl + = / −, undo and redo, F1, Ctrl + E,
# lessons by Ctrl + digit, the step keys, V, Backspace, F5 and Esc, both export dialogs by their
# keys with real exports (a PNG and a GIF), Ctrl + S then Enter, Ctrl + Q.
#
# No lost key, exactly: the sessions saved on the way (Ctrl + S, Enter) hold a state that every
# tap moved — e.g. 70 taps of → and 5 of ← must leave m at exactly 65 more — and the exports'
# file names, sizes and frame counts come from keys typed into the dialogs. Waits are for files
# and window sizes, not fixed sleeps, so a loaded machine only makes it slower.
# Usage: window_lecture_test.sh PATH/TO/rope-lab   (run by ctest; needs Xvfb and xdotool)
#
# Taps start only once the window is mapped and has the keyboard focus: before that they go to
# the root window. Without that wait, 4 of 8 runs on 2026-11-24 lost the first one or two → taps
# (m = 98 or 99 for 100), idle machine or not; with it, 4 of 4 were exact. The lecture runs a
# second time if the first is not exact (its failure printed in full first), so a tap lost to a
# cause not found yet shows in the log without failing CI; the second run must be exact
# (second_chance in xvfb.sh).
set -euo pipefail
rope=$1
command -v xdotool >/dev/null || { echo "xdotool is not installed (scripts/deps.sh)"; exit 77; }
# shellcheck source=xvfb.sh
source "$(dirname "$0")/xvfb.sh"
second_chance "$0" "$@"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# HOME: the session dialog offers $HOME/rope-lab-session.json, so Ctrl+S then Enter saves there
export HOME="$dir" XDG_CONFIG_HOME="$dir/config" XDG_PICTURES_DIR="$dir/pictures"
mkdir -p "$XDG_PICTURES_DIR"

cat > "$dir/drive.sh" <<'DRIVE'
set -euo pipefail
source "$ROPE_CRASH_LIB"
rope=$1 dir=$2
session="$dir/rope-lab-session.json"
pictures="$XDG_PICTURES_DIR/RoPE Lab"
"$rope" --view pointers --dim 16 --position 0 --key-position 4 >"$dir/out.txt" 2>&1 &
pid=$!
fail() {
  echo "FAIL: $*"
  cat "$dir/out.txt"
  ls -l "$pictures" 2>/dev/null || true
  app_stop "$pid" lecture "$dir/out.txt" || true
  exit 1
}
for _ in $(seq 300); do  # wait for the window to be mapped
  # --onlyvisible: mapped, so it can take the keyboard focus (an unmapped window found by its
  # pid cannot, and the first taps would go to the root window)
  wid=$(xdotool search --onlyvisible --pid "$pid" 2>/dev/null | tail -1 || true)
  [ -n "$wid" ] && break
  sleep 0.1
done
[ -n "$wid" ] || fail "no window appeared"
sent=0  # key taps sent (a chord such as ctrl+s is one tap)
# Taps 15 ms apart. Focus first: without a window manager, going in and out of full screen can
# drop it.
focused() { [ "$(xdotool getwindowfocus 2>/dev/null)" = "$wid" ]; }
keys() {
  # the window must have the focus before the first tap: a tap sent before it goes elsewhere
  local i
  for ((i = 0; i < 300; i++)); do
    focused && break
    xdotool windowfocus "$wid" 2>/dev/null || true
    sleep 0.1
  done
  focused || fail "the window does not take the keyboard focus"
  xdotool key --delay 15 "$@"
  sent=$((sent + $#))
}
times() {  # times N KEY: the key N times, as arguments
  local i
  for ((i = 0; i < $1; i++)); do printf '%s\n' "$2"; done
}
# wait_for TEST...: up to 120 s for the test to pass (a loaded 2-core machine drains slowly)
wait_for() {
  local i
  for ((i = 0; i < 1200; i++)); do "$@" && return 0; sleep 0.1; done
  return 1
}
width_is() {
  local WIDTH=0 HEIGHT=0 X=0 Y=0 SCREEN=0 WINDOW=0
  eval "$(xdotool getwindowgeometry --shell "$wid" 2>/dev/null)" || return 1
  [ "$WIDTH" = "$1" ]
}
one_file() { compgen -G "$1" >/dev/null; }
# An export's file appears (renamed into place) just before its child process exits; the dialog
# closes when the window has reaped the child, and until then it keeps the keyboard.
no_export_running() { ! pgrep -P "$pid" >/dev/null; }
# Ctrl + S then Enter, and a copy of what was saved under a name for the checks
checkpoint() {
  rm -f "$session"
  keys ctrl+s Return
  wait_for test -f "$session" || fail "checkpoint $1: no session saved"
  cp "$session" "$dir/$1.json"
}
wait_for width_is 1600 || fail "the window is not 1600 px wide"

# 1. the pointers view: m and n by the arrows, every parameter key, the views, play and pause,
# the speed and the UI scale, undo and redo (one step per key: d and Shift + B differ in their
# modifiers, so they never share a frame), the shortcut list, the CSV export
mapfile -t run < <(times 70 Right; times 5 Left; times 20 Up; times 3 Down
  times 4 shift+Right; times 1 shift+Left; times 6 ctrl+Right; times 2 ctrl+Left)
keys "${run[@]}"
keys d d shift+d b r r r p n n e e c bracketright bracketright bracketleft t \
  shift+equal shift+equal minus minus minus ctrl+equal ctrl+equal ctrl+minus \
  2 3 4 5 6 7 1 space space Right \
  shift+n d shift+b ctrl+z ctrl+z ctrl+shift+z F1 Escape ctrl+e
checkpoint pointers

# 2. lessons: view 8, lesson 2 then 3 by Ctrl + digit, every step key, V, Ctrl + → in a step
keys 8 ctrl+2 ctrl+3 Right Next Prior Home End Left v ctrl+Right ctrl+Right ctrl+Right
checkpoint lesson

# 3. Backspace restarts the step; F5 presentation (saved in it), Esc leaves it
keys BackSpace F5
wait_for width_is 1920 || fail "F5 did not go full screen"
checkpoint presentation
keys Escape
wait_for width_is 1600 || fail "Esc did not leave full screen"

# 4. the picture export: view 1, Ctrl + P, 4 then 1 (and 3 and → that must not act behind it),
# A canvas only, B transparent, Tab into the name, type, Enter
keys 1 ctrl+p 4 3 Right 1 a b Tab minus l e c t u r e Return
wait_for one_file "$pictures/*-lecture.png" || fail "no picture exported"
wait_for no_export_running || fail "the picture export did not end"

# 5. the animation export: Ctrl + M, M then G (MP4, back to GIF), 2 then 1, Tab through from,
# to, length and frames per second (0 … 3 in 1 s at 4 frames/s: 5 frames), the name, Enter
keys ctrl+m m g 2 1 Tab 0 Tab 3 Tab 1 Tab 4 Tab minus s w e e p Return
wait_for one_file "$pictures/*-sweep.gif" || fail "no animation exported"
wait_for no_export_running || fail "the animation export did not end"

checkpoint end
keys ctrl+q
wait_for bash -c "! kill -0 $pid 2>/dev/null" || fail "Ctrl+Q did not quit"
status=0
app_wait "$pid" lecture "$dir/out.txt" || status=$?
pid=""
[ "$status" -eq 0 ] || fail "exit status $status"
echo "$sent" > "$dir/sent.txt"
DRIVE
with_xvfb 1920x1080 bash "$dir/drive.sh" "$rope" "$dir"

python3 - "$dir" "$XDG_PICTURES_DIR/RoPE Lab" <<'PY'
import glob, json, os, struct, sys, zlib
d, pictures = sys.argv[1], sys.argv[2]
sent = int(open(os.path.join(d, "sent.txt")).read())
assert sent >= 200, f"only {sent} taps sent"

def params(name):
    return json.load(open(os.path.join(d, name + ".json")))["params"]

def expect(name, **want):
    got = params(name)
    wrong = {k: (got.get(k), v) for k, v in want.items()
             if not (abs(got.get(k) - v) < 1e-9 if isinstance(v, float) else got.get(k) == v)}
    assert not wrong, f"after '{name}' (got, expected): {wrong}: taps were lost"

# m: +70 −5 (→ ←), +40 −10 (Shift), +6 −2 (Ctrl), then → after play / pause; n: +20 −3 +6 −2.
# d: 16 ×2 ×2 ÷2, then d ×2 and Shift + B undone, the d redone. N: 64 ×2 ×2 ÷2.
# speed: 1 × 1.5² ÷ 1.5³. UI scale: 1 + 0.25 + 0.25 − 0.25.
expect("pointers", view="pointers", position=100, key_position=25, dim=64, base=500000,
       seed=4, pairing="half", positions=128, encoding="sinusoidal", content="random",
       max_distance=512, theme="light", speed=1 / 1.5, ui_scale=1.25, playing=False)
# Ctrl + 3: lesson 3 step 1; → PgDn PgUp Home End ←: step 2 (m = 3, n = 5); Ctrl + → three times
expect("lesson", view="derivation", lesson="03-rope-2d", step=2, position=6, key_position=8)
expect("presentation", view="derivation", step=2, position=3, key_position=5, presentation=True)
# 1: the pointers view; the 3 and → typed into the export dialog did not act behind it
expect("end", view="pointers", step=2, position=3, key_position=5, presentation=False)

csvs = glob.glob(os.path.join(pictures, "*.csv"))
assert len(csvs) == 1, f"Ctrl + E: expected one CSV, found {csvs}"

# the picture: its name edited (not replaced), 1x (not 4x) of the 1600 x 900 window's canvas,
# with a transparent background
[png] = glob.glob(os.path.join(pictures, "*-lecture.png"))
assert os.path.basename(png).startswith("rope-lab_"), f"the proposed name was replaced: {png}"
data = open(png, "rb").read()
w, h, depth, colour = struct.unpack(">IIBB", data[16:26])
assert (w, h) == (1600, 900), f"picture {w}x{h}, expected 1600x900 (1x, keys 4 then 1)"
assert depth == 8 and colour == 6, "expected 8-bit RGBA"
pos, idat = 8, b""
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + length]
    pos += 12 + length
raw = zlib.decompress(idat)
# the first row's first pixel: every PNG filter predicts it from zeros, so it is stored as it is
first = raw[1:1 + 4]
assert first[3] == 0, f"top-left pixel {tuple(first)}: not transparent (key B)"

# the animation: a GIF of the window's size with 5 frames (0 … 3 in 1 s at 4 frames/s)
[gif] = glob.glob(os.path.join(pictures, "*-sweep.gif"))
assert os.path.basename(gif).startswith("rope-lab_"), f"the proposed name was replaced: {gif}"
g = open(gif, "rb").read()
assert g[:6] in (b"GIF87a", b"GIF89a")
gw, gh, flags = struct.unpack("<HHB", g[6:11])
assert (gw, gh) == (1600, 900), f"GIF {gw}x{gh}, expected 1600x900 (1x, keys 2 then 1)"
pos = 13 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)

def skip_blocks(pos):
    while g[pos]:
        pos += 1 + g[pos]
    return pos + 1

frames = 0
while g[pos] != 0x3B:
    if g[pos] == 0x21:  # an extension: label, then data sub-blocks
        pos = skip_blocks(pos + 2)
    elif g[pos] == 0x2C:  # an image: descriptor, local colour table, LZW code size, data
        lflags = g[pos + 9]
        pos += 10 + (3 * 2 ** ((lflags & 7) + 1) if lflags & 0x80 else 0)
        pos = skip_blocks(pos + 1)
        frames += 1
    else:
        raise AssertionError(f"GIF: unexpected byte {g[pos]:#x} at {pos}")
assert frames == 5, f"{frames} frames, expected 5 (from 0, to 3, length 1 s, 4 frames/s)"
print(f"{sent} taps 15 ms apart, none lost: m, n, d, N, base, seed, pairing, encoding, content, "
      f"R, theme, speed, UI scale, undo / redo, views, lesson steps, presentation; "
      f"{os.path.basename(png)} 1600x900 transparent, {os.path.basename(gif)} with {frames} frames")
PY
