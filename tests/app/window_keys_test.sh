#!/usr/bin/env bash
# The real window driven by key events from the X server (xdotool under Xvfb), as a lecturer
# or a presenter's clicker drives it: F5 into presentation mode, → through a lesson (each key
# tapped faster than a frame), F12, the command palette (Ctrl+K, "yarn 16", Enter), Ctrl+S to
# save a session, Ctrl+Q. Checks what only
# the window path can get wrong: taps that fall between two frames, and a UI scale change while
# running (the screenshot after F5 must show a drawn frame, not a blank one).
# Usage: window_keys_test.sh PATH/TO/rope-lab   (run by ctest; needs Xvfb and xdotool)
set -euo pipefail
rope=$1
# shellcheck source=xvfb.sh
source "$(dirname "$0")/xvfb.sh"
command -v xdotool >/dev/null || { echo "xdotool is not installed (scripts/deps.sh)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# HOME: the session dialog offers $HOME/rope-lab-session.json, so Ctrl+S then Enter saves there
export HOME="$dir" XDG_CONFIG_HOME="$dir/config" XDG_PICTURES_DIR="$dir/pictures"
mkdir -p "$XDG_PICTURES_DIR"

cat > "$dir/drive.sh" <<'DRIVE'
set -euo pipefail
source "$ROPE_CRASH_LIB"
rope=$1 dir=$2
"$rope" --view derivation --lesson 03-rope-2d --step 1 >"$dir/out.txt" 2>&1 &
pid=$!
for _ in $(seq 100); do  # wait for the window to be mapped
  wid=$(xdotool search --pid "$pid" 2>/dev/null | tail -1 || true)
  [ -n "$wid" ] && break
  sleep 0.1
done
[ -n "$wid" ] || { echo "no window appeared"; cat "$dir/out.txt"; app_stop "$pid" keys "$dir/out.txt"; exit 1; }
sleep 1.5
# Focus first (without a window manager, going in and out of full screen can drop it), then
# press and release about 1 ms apart: far less than a frame.
tap() {
  xdotool windowfocus "$wid" 2>/dev/null || true
  xdotool key --delay 1 "$@"
  sleep 0.4
}
tap F5
sleep 1.5                  # full screen and the larger fonts
tap Right
tap Right                  # step 3 of 3
tap F12
sleep 1.5
# the command palette from the keyboard, in presentation mode: Ctrl+K, a typed line, Enter
tap ctrl+k
xdotool type --delay 40 "yarn 16"
sleep 0.4
tap Return
sleep 0.5
tap ctrl+s
sleep 0.5
tap Return
# Under load the queued taps drain over a few seconds: wait for the session file, then quit (still in presentation mode; leaving it is tested headless).
for _ in $(seq 300); do [ -f "$dir/rope-lab-session.json" ] && break; sleep 0.1; done
tap ctrl+q
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then echo "Ctrl+Q did not quit"; app_stop "$pid" keys "$dir/out.txt"; exit 1; fi
app_wait "$pid" keys "$dir/out.txt" || { echo "exit $? after Ctrl+Q"; cat "$dir/out.txt"; exit 1; }
DRIVE
with_xvfb 1920x1080 bash "$dir/drive.sh" "$rope" "$dir"

# the session saved from the keyboard: lesson step 3, in presentation mode
session="$dir/rope-lab-session.json"
[ -f "$session" ] || { echo "no session was saved"; cat "$dir/out.txt"; exit 1; }
python3 - "$session" "$XDG_PICTURES_DIR" <<'PY'
import json, os, struct, sys, zlib
params = json.load(open(sys.argv[1]))["params"]
assert params["step"] == 3, f"step {params['step']}, expected 3: the → taps were lost"
assert params["presentation"] is True, "not in presentation mode when saved"
assert params["scaling"] == "yarn" and params["factor"] == 16, \
    f"the palette's 'yarn 16' did not act: scaling {params['scaling']}, factor {params['factor']}"

# the F12 picture: the whole 1920x1080 screen, drawn (many colours), not a blank frame
shots = [f for f in os.listdir(os.path.join(sys.argv[2], "RoPE Lab")) if f.endswith(".png")]
assert len(shots) == 1, f"expected one screenshot, found {shots}"
data = open(os.path.join(sys.argv[2], "RoPE Lab", shots[0]), "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, width, height = 8, b"", 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and colour == 6, "expected 8-bit RGBA"
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
assert (width, height) == (1920, 1080), f"{width}x{height}: not the full screen"
raw = zlib.decompress(idat)
stride = width * 4
rows, prev = [], bytearray(stride)
for y in range(height):  # undo the PNG row filters
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - 4] if i >= 4 else 0
        b = prev[i]
        c = prev[i - 4] if i >= 4 else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
colours = {row[x:x + 3] for row in rows[::8] for x in range(0, stride, 32)}
assert len(colours) > 40, f"only {len(colours)} colours: a blank frame"
# the light (projector) theme's canvas at the top-left corner
assert rows[2][8:11] == bytes([255, 255, 255]) or sum(rows[2][8:11]) > 700, "not the light theme"
print(f"step 3 reached by key taps; screenshot 1920x1080 with {len(colours)} sampled colours")
PY
# the lecturer's own theme is remembered, not presentation mode's
grep -q '"theme": "dark"' "$XDG_CONFIG_HOME/rope-lab/settings.json"
echo "window driven by keys: presentation, lesson steps, F12, Ctrl+S, Ctrl+Q"
