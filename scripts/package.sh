#!/usr/bin/env bash
# scripts/package.sh — builds rope-lab_VERSION_amd64.deb in build/package: a Release build
# configured for /usr (without the test suite), then CPack's DEB generator (CMakeLists.txt).
# Install it with `sudo apt-get install ./build/package/rope-lab_*_amd64.deb`. `--check` then
# runs lintian and the unpacked package (below).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh run
# ROPE_LAB_MAINTAINER="Name <address>" in the environment names who publishes the package
# (the default is a placeholder in the reserved .invalid domain).
maintainer=()
[[ -n "${ROPE_LAB_MAINTAINER:-}" ]] && maintainer=(-DROPE_LAB_MAINTAINER="$ROPE_LAB_MAINTAINER")
cmake -S . -B build/package -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DROPE_BUILD_TESTS=OFF -U ROPE_LAB_MAINTAINER "${maintainer[@]}"
cmake --build build/package -j"$(nproc)"
(cd build/package && cpack -G DEB)
ls build/package/rope-lab_*_amd64.deb

# --check: lintian finds no error or warning (info tags are listed), and the package's own files,
# unpacked into a temporary root, work from their installed paths.
if [[ "${1:-}" == --check ]]; then
  deb=$(ls build/package/rope-lab_*_amd64.deb)
  command -v lintian >/dev/null || { echo "package: lintian is not installed (apt-get install lintian)"; exit 1; }
  lintian -I "$deb" 2>&1 | grep -v 'running with root privileges' | tee build/package/lintian.txt
  if grep -qE '^[EW]: ' build/package/lintian.txt; then echo "package: lintian reports errors or warnings"; exit 1; fi
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  dpkg-deb -x "$deb" "$root"
  for f in usr/bin/rope-lab usr/share/man/man1/rope-lab.1.gz usr/share/doc/rope-lab/copyright \
           usr/share/doc/rope-lab/changelog.gz usr/share/applications/rope-lab.desktop \
           usr/share/mime/packages/rope-lab.xml usr/share/bash-completion/completions/rope-lab \
           usr/share/zsh/vendor-completions/_rope-lab \
           usr/share/metainfo/io.github.rope_lab.RopeLab.metainfo.xml \
           usr/share/rope-lab/lessons/03-rope-2d.lesson usr/share/rope-lab/shaders/heatmap.frag; do
    [[ -e "$root/$f" ]] || { echo "package: $f is missing"; exit 1; }
  done
  "$root/usr/bin/rope-lab" --version
  "$root/usr/bin/rope-lab" lessons --folders | grep -x "shipped  $root/usr/share/rope-lab/lessons"
  "$root/usr/bin/rope-lab" lessons --check > /dev/null
  "$root/usr/bin/rope-lab" screenshot -o "$root/shot.png" --view heatmap --size 640x400
  "$root/usr/bin/rope-lab" animate -o "$root/sweep.mp4" --to 2 --fps 4 --seconds 1 --size 160x96
  echo "package: $deb: lintian clean of errors and warnings; its files work from their installed paths"
fi
