#!/usr/bin/env bash
# The AppStream metainfo (issue 31, item 3): appstreamcli validates it with no error or warning
# (offline: --no-net; the screenshots' addresses are checked only for their
# form), its release is CMake's version with the date of CHANGELOG.md's newest entry, it
# launches the desktop entry that ships, and every screenshot it names is one of the README's.
set -euo pipefail
meta=$1 version=$2 src=$3
command -v appstreamcli >/dev/null || { echo "appstreamcli missing (scripts/deps.sh)"; exit 77; }
out=$(appstreamcli validate --no-net --pedantic "$meta" 2>&1) ||
  { echo "$out"; exit 1; }
# errors and warnings are not allowed. Infos and pedantic remarks are suggestions; the one left
# is "cid-contains-uppercase-letter": reverse-DNS ids of applications conventionally end in the
# name as written (org.gnome.Nautilus), and RopeLab does.
if grep -E '^[EW]: ' <<<"$out"; then exit 1; fi
date=$(grep -m1 -oE '^## [0-9.]+ .* [0-9]{4}-[0-9]{2}-[0-9]{2}$' "$src/CHANGELOG.md" | grep -oE '[0-9]{4}-[0-9]{2}-[0-9]{2}$')
grep -q "<release version=\"$version\" date=\"$date\">" "$meta" ||
  { echo "no release $version of $date:"; grep '<release' "$meta"; exit 1; }
launch=$(grep -oE '<launchable type="desktop-id">[^<]+' "$meta" | cut -d'>' -f2)
[[ -f "$src/assets/desktop/$launch" ]] || { echo "launches $launch, which does not ship"; exit 1; }
n=0
for shot in $(grep -oE 'screenshots/[a-z0-9-]+\.png' "$meta"); do
  grep -qF "($shot)" "$src/README.md" || grep -qF "(assets/$shot)" "$src/README.md" ||
    { echo "$shot is not in the README's gallery"; exit 1; }
  [[ -f "$src/assets/$shot" ]] || { echo "assets/$shot missing"; exit 1; }
  n=$((n + 1))
done
(( n >= 3 )) || { echo "only $n screenshots"; exit 1; }
echo "metainfo valid (appstreamcli, pedantic), release $version of $date, $launch, $n screenshots"
