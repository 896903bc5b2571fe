#!/usr/bin/env bash
# Installs the Debian 12 packages RoPE Lab needs, and nothing else:
#   scripts/deps.sh run    what building and running the app needs (scripts/run.sh)
#   scripts/deps.sh test   that, plus the test tools (scripts/test.sh; the default)
#   scripts/deps.sh web    the browser build (scripts/web.sh): emscripten, headless Chromium and
#                          the Debian *source* packages the web build compiles itself (ImGui,
#                          FreeType, HarfBuzz, zlib, libpng), fetched with a private deb-src list into
#                          build/web-deps/ without touching the system's apt configuration
#   scripts/deps.sh bench  that of `run`, plus NumPy on OpenBLAS for scripts/bench_scores.py (the
#                          score matrix beside NumPy; Debian's /usr/bin/python3)
# Idempotent: asks dpkg which packages are present, installs only the missing ones, and prints
# their names first. Uses sudo when not run as root. Does nothing when everything is present.
set -euo pipefail
purpose=${1:-test}

packages=(
  # compiler and build
  g++ make cmake pkg-config ninja-build
  # libraries (all linked from Debian packages; nothing is vendored)
  libimgui-dev libstb-dev libglfw3-dev libfreetype-dev libharfbuzz-dev
  libcli11-dev nlohmann-json3-dev libgif-dev libpng-dev
  # header-only: number text shared with the browser build (core/include/rope/decimal.h)
  libfmt-dev libfast-float-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev
  # OpenGL through glvnd, Mesa's software rasteriser, EGL for rendering without a display
  libgl-dev libopengl-dev libegl-dev libgl1-mesa-dri libglx-mesa0 libegl-mesa0
  # fonts: UI text and OpenType MATH fonts for the equations
  fonts-dejavu-core fonts-lmodern fonts-stix
)
if [[ "$purpose" == test ]]; then
  packages+=(
    # tests: Catch2, the format check, the shader check, independent references in Python
    catch2 clang-format-14 glslang-tools python3
    # a virtual X server and key events for the windowed tests
    xvfb xauth xdotool
    # the desktop entry's, the session MIME type's and the AppStream metainfo's validators
    # (tests/app/desktop_entry_test.sh, metainfo_test.sh)
    desktop-file-utils shared-mime-info appstream
    # the zsh completion is run in zsh (tests/app/completion_test.sh)
    zsh
    # the manual page's rendering check (tests/app/man_page_test.sh)
    man-db groff-base
    # the fuzz targets: clang with libFuzzer and the sanitizer runtimes (scripts/fuzz.sh)
    clang-14 libclang-rt-14-dev
  )
elif [[ "$purpose" == web ]]; then
  packages+=(
    # the compiler (clang 14, lld, binaryen, node) and the browser that draws it in tests
    emscripten chromium-headless-shell python3 python3-websocket
    # apt-get source and dpkg-source for the third-party sources the web build compiles
    dpkg-dev xz-utils
  )
elif [[ "$purpose" == bench ]]; then
  packages+=(
    # scripts/bench_scores.py: NumPy, and OpenBLAS (threaded) as the BLAS NumPy's products use
    # (libopenblas0-pthread takes over libblas.so.3 through update-alternatives)
    python3-numpy libopenblas0-pthread
  )
elif [[ "$purpose" != run ]]; then
  echo "deps: usage: scripts/deps.sh [run|test|web|bench]" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "deps: all ${#packages[@]} Debian packages are present"
  [[ "$purpose" == web ]] || exit 0
fi

as_root=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "deps: not root and sudo is not available; install these as root: ${missing[*]}" >&2
    exit 1
  fi
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "deps: installing ${#missing[@]} missing Debian package(s): ${missing[*]}"
  "${as_root[@]}" apt-get update -q
  "${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
  echo "deps: done"
fi
[[ "$purpose" == web ]] || exit 0

# --- web: Debian source packages, unpacked under build/web-deps/src/<package>/ ---------------
# A private sources list and lists folder: `apt-get source` needs deb-src lines, and the system's
# configuration stays as it is. Each package is fetched once; its unpacked folder is the cache.
root=$(cd "$(dirname "$0")/.." && pwd)
deps="$root/build/web-deps"
mkdir -p "$deps/apt/sources.list.d" "$deps/apt/lists/partial" "$deps/src"
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
cat >"$deps/apt/sources.list.d/web-src.list" <<LIST
deb-src http://deb.debian.org/debian $suite main
deb-src http://deb.debian.org/debian $suite-updates main
deb-src http://deb.debian.org/debian-security $suite-security main
LIST
apt_private=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$deps/apt/sources.list.d"
             -o "Dir::State::Lists=$deps/apt/lists")
fetched=0
for src in imgui freetype harfbuzz zlib libpng1.6; do
  if compgen -G "$deps/src/$src/*/" >/dev/null; then continue; fi
  if [[ $fetched -eq 0 ]]; then
    apt-get "${apt_private[@]}" update -q
    fetched=1
  fi
  rm -rf "$deps/src/$src.tmp" && mkdir -p "$deps/src/$src.tmp"
  # the newest version first; a mirror may lack a security update's files, so older versions of
  # the same release are tried after it
  got=0
  for version in $(apt-cache "${apt_private[@]}" showsrc "$src" 2>/dev/null |
                   sed -n 's/^Version: //p' | sort -u -r -V); do
    if (cd "$deps/src/$src.tmp" &&
        apt-get "${apt_private[@]}" source --download-only -q "$src=$version" >/dev/null 2>&1); then
      got=1
      break
    fi
    rm -f "$deps/src/$src.tmp"/*
  done
  [[ $got -eq 1 ]] || { echo "deps: no source of $src could be fetched" >&2; exit 1; }
  (cd "$deps/src/$src.tmp" && dpkg-source --no-check -x ./*.dsc unpacked >/dev/null)
  mkdir -p "$deps/src/$src"
  mv "$deps/src/$src.tmp/unpacked" "$deps/src/$src/$(basename "$deps/src/$src.tmp"/*.dsc .dsc)"
  rm -rf "$deps/src/$src.tmp"
  echo "deps: $src source in $deps/src/$src/"
done
echo "deps: web sources present in $deps/src"
