#!/usr/bin/env bash
# -o onto something other than a regular file: a symbolic link is written through (the link
# stays), a FIFO and /dev/null are written in place (never replaced by a regular file), a socket
# is refused; stale temporary files of dead processes are removed; SIGTERM and SIGINT during a
# long export leave no temporary file behind.
set -euo pipefail
rope=$1
# shellcheck source=../crash_report.sh
source "$(dirname "$0")/../crash_report.sh"   # rope_run: a crash's report printed and kept
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
args=(--dim 8 --base 10000)

echo old > real.csv
ln -s real.csv link.csv
rope_run special-outputs "$rope" export frequencies "${args[@]}" -o link.csv
[ -L link.csv ] && [ "$(readlink link.csv)" = real.csv ]
head -1 real.csv | grep -qx 'i,theta,wavelength'

mkfifo pipe.csv
cat pipe.csv > from-pipe.txt &
reader=$!
rope_run special-outputs "$rope" export frequencies "${args[@]}" -o pipe.csv
wait "$reader"
[ -p pipe.csv ]
head -1 from-pipe.txt | grep -qx 'i,theta,wavelength'

rope_run special-outputs "$rope" export frequencies "${args[@]}" -o /dev/null
[ -c /dev/null ]
# read whole (not through `| head -1`: a reader that stops early is now an error the app reports)
table=$(rope_run special-outputs "$rope" export frequencies "${args[@]}" -o /dev/stdout)
head -1 <<<"$table" | grep -qx 'i,theta,wavelength'

python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('sock.csv')"
if rope_run special-outputs "$rope" export frequencies "${args[@]}" -o sock.csv 2> err.txt; then exit 1; fi
grep -q 'sock.csv: is a special file' err.txt
[ -S sock.csv ]

touch .real.csv.tmp-999999999-0   # a process id that cannot be running
rope_run special-outputs "$rope" export frequencies "${args[@]}" -o real.csv
[ ! -e .real.csv.tmp-999999999-0 ]

q=$(python3 -c "print(','.join(['1'] * 256))")
for sig in TERM INT; do
  "$rope" export scores --query "$q" --key "$q" --positions 4096 --base 10000 -o big.csv &
  pid=$!
  for _ in $(seq 100); do compgen -G '.big.csv.tmp-*' >/dev/null && break; sleep 0.1; done
  compgen -G '.big.csv.tmp-*' >/dev/null   # the export is under way
  kill -"$sig" "$pid"
  if wait "$pid"; then exit 1; fi
  if compgen -G '.big.csv.tmp-*' >/dev/null; then echo "temporary file left after SIG$sig"; exit 1; fi
  [ ! -e big.csv ]
done
echo "links followed, pipes and devices written in place, sockets refused, no temporary file left"
