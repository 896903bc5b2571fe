#!/usr/bin/env bash
# The browser build (README "In a browser"):
#   scripts/web.sh              installs what is missing (scripts/deps.sh web), builds FreeType and
#                               HarfBuzz for WebAssembly from Debian's source packages (once per
#                               version, under build/web-deps/wasm/), then the `web` preset:
#                               build/web/ holds index.html, rope-lab.js, rope-lab.wasm, rope-lab.data
#   scripts/web.sh serve [PORT] serves build/web/ on 127.0.0.1 (default port 8125), prints the URL
#   scripts/web.sh test         builds, then drives headless Chromium through tests/web/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
deps="$root/build/web-deps"
jobs=${JOBS:-$(nproc)}

# emcc finds Debian's acorn by itself with Debian's node; another node first in PATH does not.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

source_dir() {  # the unpacked Debian source of package $1
  local d
  d=$(compgen -G "$deps/src/$1/*/" | head -n 1)
  [[ -n "$d" ]] || { echo "web: no source of $1 in $deps/src (run scripts/deps.sh web)" >&2; exit 1; }
  echo "${d%/}"
}

# Builds one CMake project for wasm into $deps/wasm/<source folder name>, unless it is there.
build_library() {
  local name=$1 src prefix
  shift
  src=$(source_dir "$name")
  prefix="$deps/wasm/$(basename "$src")"
  if [[ -f "$prefix/.done" ]]; then return; fi
  echo "== web: $name for WebAssembly ($(basename "$src"))"
  rm -rf "$prefix" "$deps/wasm/build-$name"
  emcmake cmake -S "$src" -B "$deps/wasm/build-$name" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE=-O2 -DCMAKE_CXX_FLAGS_RELEASE=-O2 -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_INSTALL_PREFIX="$prefix" "$@" >"$deps/wasm/$name.log"
  cmake --build "$deps/wasm/build-$name" -j "$jobs" >>"$deps/wasm/$name.log"
  cmake --install "$deps/wasm/build-$name" >>"$deps/wasm/$name.log"
  rm -rf "$deps/wasm/build-$name"
  touch "$prefix/.done"
}

# The larger libraries with code the app links, each from its Debian source package, static,
# -O2, with only what the app uses (no FreeType <-> HarfBuzz link: the app passes glyphs between
# them). zlib and libpng are small enough to be compiled by the web preset itself
# (cmake/web.cmake), like Dear ImGui.
libraries() {
  bash "$root/scripts/deps.sh" web
  mkdir -p "$deps/wasm"
  # FreeType's gzip support uses the zlib the app links (cmake/web.cmake), not a copy of its own
  build_library freetype -DFT_DISABLE_ZLIB=ON -DFT_DISABLE_BZIP2=ON -DFT_DISABLE_PNG=ON \
    -DFT_DISABLE_HARFBUZZ=ON -DFT_DISABLE_BROTLI=ON \
    -DCMAKE_C_FLAGS="-DFT_CONFIG_OPTION_SYSTEM_ZLIB -I$(source_dir zlib)"
  build_library harfbuzz -DHB_HAVE_FREETYPE=OFF -DHB_HAVE_GLIB=OFF -DHB_HAVE_ICU=OFF \
    -DHB_HAVE_GOBJECT=OFF -DHB_BUILD_SUBSET=OFF -DHB_BUILD_UTILS=OFF -DHB_BUILD_TESTS=OFF
}

build() {
  libraries
  echo "== web: configure and build (preset web)"
  cmake --preset web -DROPE_WEB_DEPS="$deps" -DROPE_IMGUI_SOURCE="$(source_dir imgui)" >/dev/null
  cmake --build --preset web -j "$jobs"
  echo "web: built $root/build/web/ (index.html, rope-lab.js, rope-lab.wasm, rope-lab.data)"
}

case "${1:-build}" in
  build) build ;;
  deps) libraries ;;
  serve)
    port=${2:-8125}
    [[ -f "$root/build/web/index.html" ]] || { echo "web: build first: scripts/web.sh" >&2; exit 1; }
    echo "web: RoPE Lab at http://127.0.0.1:$port/ (Ctrl+C stops)"
    exec /usr/bin/python3 -m http.server --bind 127.0.0.1 --directory "$root/build/web" "$port"
    ;;
  test)
    build
    exec /usr/bin/python3 "$root/tests/web/web_test.py" "$root/build/web"
    ;;
  *)
    echo "web: usage: scripts/web.sh [build|deps|serve [PORT]|test]" >&2
    exit 2
    ;;
esac
