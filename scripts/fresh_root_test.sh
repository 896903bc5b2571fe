#!/usr/bin/env bash
# scripts/fresh_root_test.sh — the package on a fresh Debian 12 (issue 31): debootstraps a
# minimal bookworm root (build/fresh-root, made anew each run; needs root, debootstrap and the
# Debian mirror), installs build/package/rope-lab_*_amd64.deb there with apt-get (which fetches
# its dependencies), runs the installed program from its installed paths — --version, lessons
# --check, lessons --folders, a screenshot and an MP4 without a display (EGL surfaceless on Mesa)
# — then purges it and checks that no file it installed is left. Not part of the test suite (it
# downloads about 170 packages); run it after scripts/package.sh. Takes about 3 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls build/package/rope-lab_*_amd64.deb 2>/dev/null | tail -1)
[[ -n "$deb" ]] || { echo "fresh-root: no package; run scripts/package.sh first"; exit 1; }
[[ $(id -u) -eq 0 ]] || { echo "fresh-root: needs root (debootstrap, chroot)"; exit 1; }
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap >/dev/null
root=$PWD/build/fresh-root
cleanup() {
  umount "$root/dev/pts" "$root/dev" "$root/proc" 2>/dev/null || true
}
trap cleanup EXIT
cleanup
rm -rf "$root"
echo "fresh-root: debootstrap --variant=minbase bookworm"
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian > build/fresh-root.log
cp "$deb" "$root/tmp/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"  # apt's terminal log
name=$(basename "$deb")
chroot "$root" bash -euo pipefail -c "
  apt-get update -q > /dev/null
  apt-get install -y -q /tmp/$name > /tmp/install.log
  grep -E 'newly installed' /tmp/install.log
  cd /tmp
  rope-lab --version
  rope-lab lessons --check
  rope-lab lessons --folders | grep -x 'shipped  /usr/share/rope-lab/lessons'
  rope-lab screenshot -o /tmp/shot.png --lesson 3 --presentation --size 1280x720
  rope-lab animate -o /tmp/sweep.mp4 --to 2 --fps 4 --seconds 1 --size 160x96
  [[ -s /tmp/sweep.mp4 ]]
  dpkg -L rope-lab > /tmp/files.txt
  apt-get remove -y -q --purge rope-lab > /dev/null
  left=0
  while read -r f; do
    if [[ -f \$f || -L \$f ]]; then echo \"left after purge: \$f\"; left=1; fi
  done < /tmp/files.txt
  [[ ! -e /usr/share/rope-lab ]] || { echo 'left after purge: /usr/share/rope-lab'; left=1; }
  [[ \$left -eq 0 ]]
  echo \"purged: none of its \$(wc -l < /tmp/files.txt) paths left\"
"
cp "$root/tmp/shot.png" build/fresh-root-lesson-3.png
echo "fresh-root: $name installs on a fresh Debian 12 root, works from its installed paths and purges cleanly (its picture: build/fresh-root-lesson-3.png)"
