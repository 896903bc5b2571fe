#!/usr/bin/env bash
# Wall time and peak memory (maximum resident set size) of PNG exports, from start to file:
# the 1080p screenshot, and the 4x pictures (7680 x 4320) of the canvas alone, of presentation
# mode (UI scale 1.5 x 4 = 6, the largest font atlas the export dialog makes) and of the window
# at UI scale 1.5. Each is run RUNS times (default 3); the table shows the median, the range
# and the file size. Measured with GNU time (/usr/bin/time -v); the load average before and
# after is printed, since other processes on the machine change the times.
# Usage: scripts/bench_export.sh [PATH/TO/rope-lab] [RUNS]
set -euo pipefail
rope=${1:-build/release/app/rope-lab}
runs=${2:-3}
[ -x "$rope" ] || { echo "bench_export: no executable at $rope" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench_export: needs GNU time (/usr/bin/time, Debian 'time')" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cases=(
  "1080p screenshot|--size 1920x1080"
  "4x canvas only|--size 1920x1080 --canvas-only --scale 4"
  "4x presentation|--size 1920x1080 --presentation --scale 4"
  "4x at UI scale 1.5|--size 1920x1080 --ui-scale 1.5 --scale 4"
)

# median and range of a list of numbers, one per line: "MEDIAN (MIN-MAX)"
summary() { sort -g | awk '{v[NR] = $1} END {printf "%s (%s-%s)", v[int((NR + 1) / 2)], v[1], v[NR]}'; }

echo "rope-lab: $rope ($runs runs each; $(nproc) cores)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)   $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '| %-20s | %-22s | %-22s | %-12s |\n' "picture" "wall time, s" "peak RSS, MB" "PNG bytes"
printf '| %-20s | %-22s | %-22s | %-12s |\n' "---" "---" "---" "---"
for c in "${cases[@]}"; do
  name=${c%%|*}
  read -r -a args <<<"${c#*|}"
  : >"$dir/times"
  : >"$dir/rss"
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -v -o "$dir/time.txt" "$rope" screenshot -o "$dir/shot.png" "${args[@]}" >/dev/null
    # "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:01.49" -> seconds
    awk -F': ' '/Elapsed/ {n = split($2, t, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + t[k]; print s}' \
      "$dir/time.txt" >>"$dir/times"
    # kibibytes -> megabytes (10^6 bytes)
    awk -F': ' '/Maximum resident/ {printf "%.0f\n", $2 * 1024 / 1e6}' "$dir/time.txt" >>"$dir/rss"
  done
  printf '| %-20s | %-22s | %-22s | %-12s |\n' "$name" "$(summary <"$dir/times")" \
    "$(summary <"$dir/rss")" "$(stat -c %s "$dir/shot.png")"
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
