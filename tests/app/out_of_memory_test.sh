#!/usr/bin/env bash
# Exports that do not fit in memory: exit 1 with one line saying so, no crash, no file left
# behind. The limit is a virtual-memory ulimit, so the sanitizer build (which reserves terabytes
# of address space for its shadow memory) skips this test.
# Usage: out_of_memory_test.sh PATH/TO/rope-lab
set -euo pipefail
rope=$1
# shellcheck source=../crash_report.sh
source "$(dirname "$0")/../crash_report.sh"   # rope_run: a crash's report printed and kept
# A build that cannot even start under the limit (AddressSanitizer reserves its shadow memory
# first) is skipped; ldd does not show a statically linked sanitizer runtime.
if ! (ulimit -v 900000; "$rope" --version) > /dev/null 2>&1; then
  echo "skipped: this build cannot start under a 900 MB address-space limit (a sanitizer build)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
set +e
(ulimit -v 900000; "$rope" animate -o big.gif --size 3840x2160 --to 3 --scale 2) \
  > out.txt 2> err.txt
code=$?
set -e
crash_check "$code" "out-of-memory-$$" err.txt out.txt || exit 1
[ "$code" -eq 1 ] || { echo "exit $code, expected 1"; cat err.txt; exit 1; }
[ "$(wc -l < err.txt)" -eq 1 ] || { echo "expected one line on stderr:"; cat err.txt; exit 1; }
grep -q '^rope-lab: error: out of memory' err.txt || { cat err.txt; exit 1; }
[ -z "$(ls -A)" ] || [ "$(ls -A)" = "$(printf 'err.txt\nout.txt')" ] ||
  { echo "files left behind:"; ls -A; exit 1; }

# An MP4 at 7680x4320 whose encoder cannot get its frames (review N12: before, "frame: Cannot
# allocate memory" or "Generic error in an external library"): the last line says out of memory
# and what to lower. x264 itself may print its own "malloc ... failed" line first (it writes to
# stderr directly, past libavcodec's logging).
rm -f err.txt out.txt
set +e
(ulimit -v 1400000; "$rope" animate -o big.mp4 --size 3840x2160 --to 3 --seconds 1 --fps 10 --scale 2) \
  > out.txt 2> err.txt
code=$?
set -e
crash_check "$code" "out-of-memory-mp4-$$" err.txt out.txt || exit 1
[ "$code" -eq 1 ] || { echo "MP4: exit $code, expected 1"; cat err.txt; exit 1; }
tail -1 err.txt | grep -q '^rope-lab: error: out of memory: .*choose a smaller size or scale' ||
  { echo "MP4: the last line does not say out of memory:"; cat err.txt; exit 1; }
[ ! -e big.mp4 ] || { echo "MP4: big.mp4 written"; exit 1; }
if compgen -G '.big.mp4.tmp-*' > /dev/null; then echo "MP4: a temporary file left"; exit 1; fi
echo "a 4K animation at 2x under a 900 MB limit, an 8K MP4 under 1.4 GB: exit 1, out of memory said, nothing left behind"
