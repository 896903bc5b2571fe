#!/usr/bin/env bash
# The shaders of shaders/ hold no #version line: render/gl_desktop.cpp and render/gl_web.cpp
# put theirs first. Each shader is checked by glslangValidator in both dialects, with exactly
# the header its build prepends (GLSL 330 core; GLSL ES 300 with its precision lines).
# Usage: check_shaders.sh GLSLANG_VALIDATOR SHADER_DIR
set -euo pipefail
validator=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
headers=("#version 330 core" $'#version 300 es\nprecision highp float;\nprecision highp int;')
for name in heatmap.vert heatmap.frag; do
  for i in 0 1; do
    printf '%s\n' "${headers[$i]}" >"$tmp/$i-$name"
    cat "$dir/$name" >>"$tmp/$i-$name"
    "$validator" "$tmp/$i-$name"
  done
done
echo "shaders: both dialects pass"
