#!/usr/bin/env bash
# Installs the Debian 12 packages RoPE Lab needs to build, run and test, and nothing else.
# Idempotent: asks dpkg which packages are present, installs only the missing ones, and prints
# their names first. Uses sudo when not run as root. Does nothing when everything is present.
set -euo pipefail

packages=(
  # compiler and build
  g++ make cmake pkg-config ninja-build clang-format-14 glslang-tools python3
  # libraries (all linked from Debian packages; nothing is vendored)
  libimgui-dev libstb-dev libglfw3-dev libfreetype-dev libharfbuzz-dev
  catch2 libcli11-dev nlohmann-json3-dev libgif-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev
  # OpenGL through glvnd, Mesa's software rasteriser, EGL for rendering without a display
  libgl-dev libopengl-dev libegl-dev libgl1-mesa-dri libglx-mesa0 libegl-mesa0
  # a virtual X server for the windowed tests
  xvfb xauth xdotool
  # fonts: UI text and OpenType MATH fonts for the equations
  fonts-dejavu-core fonts-lmodern fonts-stix
)

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
