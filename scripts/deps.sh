#!/usr/bin/env bash
# Installs the Debian 12 packages RoPE Lab needs, and nothing else:
#   scripts/deps.sh run    what building and running the app needs (scripts/run.sh)
#   scripts/deps.sh test   that, plus the test tools (scripts/test.sh; the default)
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
    # the fuzz targets: clang with libFuzzer and the sanitizer runtimes (scripts/fuzz.sh)
    clang-14 libclang-rt-14-dev
  )
elif [[ "$purpose" != run ]]; then
  echo "deps: usage: scripts/deps.sh [run|test]" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "deps: all ${#packages[@]} Debian packages are present"
  exit 0
fi

echo "deps: installing ${#missing[@]} missing Debian package(s): ${missing[*]}"
as_root=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "deps: not root and sudo is not available; install these as root: ${missing[*]}" >&2
    exit 1
  fi
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "deps: done"
