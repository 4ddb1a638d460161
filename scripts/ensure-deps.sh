#!/usr/bin/env bash
# Installs what the build and the tests need, or says exactly what to run.
#   scripts/ensure-deps.sh native   cmake, a C++ compiler, GoogleTest
#   scripts/ensure-deps.sh wasm     + Emscripten (Debian's emscripten) and wabt
#   scripts/ensure-deps.sh browser  + Debian's chromium
#   scripts/ensure-deps.sh firefox  Debian's firefox-esr (driven by the npm
#                                   package puppeteer-core, a devDependency)
#   scripts/ensure-deps.sh webkit   WebKitGTK's MiniBrowser and WebKitWebDriver
#                                   (webkit2gtk-driver) and the X server it
#                                   needs without a display (xvfb)
#   scripts/ensure-deps.sh fuzz     clang with its sanitizer and libFuzzer runtimes
#   scripts/ensure-deps.sh lint     clang-format (Debian's, 14 on bookworm)
#   scripts/ensure-deps.sh proto    protoc (protobuf-compiler), which generates
#                                   unpool/onnx's ONNX schema code
#   scripts/ensure-deps.sh npm      node_modules via `npm ci`
#   scripts/ensure-deps.sh python   the PyTorch exporter's tests (models stage):
#                                   Debian's python3-torch, python3-onnx and
#                                   python3-pytest, imported by /usr/bin/python3
#   scripts/ensure-deps.sh webgpu   the software WebGPU stacks of
#                                   scripts/test-webgpu.sh: Debian's chromium
#                                   (SwiftShader, also Dawn's Vulkan driver),
#                                   Mesa's lavapipe (mesa-vulkan-drivers, for
#                                   Deno), Mesa's EGL + llvmpipe and the
#                                   unversioned libEGL.so that dawn.node
#                                   dlopens (its OpenGL ES backend)
# Several groups may be given at once.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
need() { # need PACKAGE TEST-COMMAND...
  local pkg=$1; shift
  "$@" >/dev/null 2>&1 || missing+=("$pkg")
}

for group in "$@"; do
  case "$group" in
    native)
      need cmake command -v cmake
      need g++ command -v c++
      need make command -v make
      need libgtest-dev test -f /usr/include/gtest/gtest.h
      need googletest test -f /usr/src/googletest/CMakeLists.txt
      ;;
    wasm)
      need emscripten command -v em++
      need wabt command -v wasm-objdump
      ;;
    browser)
      need chromium test -x /usr/bin/chromium
      ;;
    firefox)
      need firefox-esr test -x /usr/bin/firefox-esr
      ;;
    webkit)
      need webkit2gtk-driver command -v WebKitWebDriver
      need libwebkit2gtk-4.1-0 test -x /usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser
      need xvfb command -v Xvfb
      ;;
    fuzz)
      need clang command -v clang++
      need libclang-rt-14-dev sh -c 'ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a'
      ;;
    lint)
      need clang-format command -v clang-format
      ;;
    proto)
      need protobuf-compiler command -v protoc
      ;;
    webgpu)
      need chromium test -f /usr/lib/chromium/vk_swiftshader_icd.json
      need mesa-vulkan-drivers sh -c 'ls /usr/share/vulkan/icd.d/lvp_icd.*.json'
      need libegl-mesa0 sh -c 'ls /usr/lib/*-linux-gnu*/libEGL_mesa.so.0'
      need libgl1-mesa-dri sh -c 'ls /usr/lib/*-linux-gnu*/dri/swrast_dri.so'
      need libegl-dev sh -c 'ls /usr/lib/*-linux-gnu*/libEGL.so'  # not chromium's own
      ;;
    python)
      need python3-torch /usr/bin/python3 -c 'import torch'
      need python3-onnx /usr/bin/python3 -c 'import onnx'
      need python3-pytest /usr/bin/python3 -c 'import pytest'
      ;;
    npm) ;;
    *) echo "ensure-deps: unknown group '$group'" >&2; exit 2 ;;
  esac
done

if [ ${#missing[@]} -gt 0 ]; then
  # Deduplicate while keeping order.
  pkgs=$(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++' | tr '\n' ' ')
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "ensure-deps: installing $pkgs" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq $pkgs >/dev/null
  else
    echo "ensure-deps: missing Debian packages: $pkgs" >&2
    echo "ensure-deps: run:  sudo apt-get update && sudo apt-get install -y $pkgs" >&2
    exit 1
  fi
fi

for group in "$@"; do
  # firefox needs the npm package puppeteer-core too (a devDependency).
  if [ "$group" = npm ] || [ "$group" = firefox ]; then
    stamp=node_modules/.package-lock.json
    if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] ||
       { [ "$group" = firefox ] && [ ! -f node_modules/puppeteer-core/package.json ]; }; then
      echo "ensure-deps: npm ci" >&2
      npm ci --no-audit --no-fund
    fi
  fi
done
