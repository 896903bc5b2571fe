#!/usr/bin/env bash
# Issue 30 (reliability review N1–N5, N8): no read or write can hang, grow without bound or
# replace what the user did not mean. Every command runs under `timeout 20`: a hang is exit 124,
# a failure here. Each check failed on the code before the fix (hang, 2.8 GB, or a replaced file).
set -euo pipefail
rope=$1
# shellcheck source=../crash_report.sh
source "$(dirname "$0")/../crash_report.sh"   # rope_run: a crash's report printed and kept
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
args=(--dim 8 --base 10000)
run() { rope_run special-inputs timeout 20 "$rope" "$@"; }
expect_fail() {  # CODE PATTERN COMMAND...: exits CODE, stderr matches PATTERN
  local code=$1 pattern=$2 status=0
  shift 2
  run "$@" > out.txt 2> err.txt || status=$?
  if [ "$status" != "$code" ] || ! grep -Eq "$pattern" err.txt; then
    echo "FAIL: $* -> exit $status (want $code), stderr:"; cat err.txt; exit 1
  fi
}

# N1: a FIFO as the math font: refused at once (before: every renderer blocked at start).
mkfifo fifo
ROPE_LAB_MATH_FONT=fifo expect_fail 1 'font file fifo: is a pipe \(FIFO\), not a regular file' \
  screenshot -o x.png --size 320x240 --view derivation
# N2: a lesson file that is a FIFO.
mkdir L
mkfifo L/01-x.lesson
expect_fail 2 'L/01-x.lesson:1:1: is a pipe \(FIFO\), not a regular file' lessons --check L/01-x.lesson
# N3: shaders linked to /dev/zero (before: 2.8 GB in 6 s, still growing).
mkdir S
ln -s /dev/zero S/heatmap.vert
ln -s /dev/zero S/heatmap.frag
ROPE_LAB_SHADER_DIR=S expect_fail 1 'S/heatmap.vert: is a character device, not a regular file' \
  screenshot -o x.png --size 320x240 --view heatmap
# ... and a session larger than the limit names it.
head -c $((17 << 20)) /dev/zero > big.json
expect_fail 2 'big.json: is 17825792 bytes; at most 16 MiB are read' screenshot -o x.png --session big.json

# N4: -o to a FIFO no process reads: refused at once (before: blocked in open() for ever).
expect_fail 1 'fifo: is a pipe \(FIFO\) that no process is reading' export frequencies "${args[@]}" -o fifo
# "-o -" is standard output (before: a file named "-"): a CSV, and a PNG with nothing else on stdout.
run export frequencies "${args[@]}" -o - > out.csv
[ ! -e ./- ]
head -1 out.csv | grep -qx 'i,theta,wavelength'
run screenshot -o - --size 320x240 > shot.png
python3 - shot.png <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "stdout is not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (320, 240), (w, h)
PY
expect_fail 2 'standard output\) is not offered here' animate -o - --to 3
# A reader that closes early: a message and exit 1 (before: killed by SIGPIPE, exit 141, silent).
set +o pipefail
q=$(python3 -c "print(','.join(['1'] * 64))")
timeout 20 "$rope" export scores --query "$q" --key "$q" --positions 2048 --base 10000 2> err.txt | head -1 > /dev/null
status=${PIPESTATUS[0]}
set -o pipefail
if [ "$status" != 1 ] || ! grep -q 'standard output: the reader closed the pipe before the end' err.txt; then
  echo "FAIL: a closed pipe gave exit $status:"; cat err.txt; exit 1
fi

# N5: a write-protected target is kept (before: replaced through the rename), --force replaces it
# and keeps its mode. Refused for root too: the bits say "do not change me".
echo keep > ro.csv
chmod 444 ro.csv
expect_fail 1 'ro.csv: is write-protected, so it is kept' export frequencies "${args[@]}" -o ro.csv
[ "$(cat ro.csv)" = keep ]
expect_fail 1 'ro.csv: is write-protected' screenshot -o ro.csv --size 320x240
cp ro.csv ro.gif
expect_fail 1 'ro.gif: is write-protected' animate -o ro.gif --to 3 --size 320x240
run export frequencies "${args[@]}" -o ro.csv --force > /dev/null
head -1 ro.csv | grep -qx 'i,theta,wavelength'
[ "$(stat -c %a ro.csv)" = 444 ]
# "-o DIR/" is a usage error (exit 2), a missing folder a failure (exit 1), both before rendering.
expect_fail 2 "names a folder; give a file name" screenshot -o ./ --size 320x240
expect_fail 1 'nosuch/x.png: cannot be created: nosuch: No such file or directory' screenshot -o nosuch/x.png

# N8: a dangling link is written through: its target is created and the link stays a link
# (before: the link was replaced by a regular file).
ln -s made.csv dangling.csv
run export frequencies "${args[@]}" -o dangling.csv > /dev/null
[ -L dangling.csv ]
[ "$(readlink dangling.csv)" = made.csv ]
head -1 made.csv | grep -qx 'i,theta,wavelength'
ln -s loop1 loop2
ln -s loop2 loop1
expect_fail 1 'loop2: is a symbolic link in a loop' export frequencies "${args[@]}" -o loop2
echo "special files refused at once, - is stdout, write-protected files kept, dangling links written through"
