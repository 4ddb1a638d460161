#!/usr/bin/env bash
# The k2s2 pool's SIMD kernels (float16, bfloat16, float32) as WebAssembly
# and as native code from the same source (bench/native/simd_k2s2.cc):
#   wasm SIMD          em++ -O3 -msimd128, under Node
#   native -O3         g++ -O3 through SIMDe (baseline x86-64: SSE2)
#   native -O3 -march=native   the same for this machine's vector instructions
# SIMDe (Debian's libsimde-dev) implements <wasm_simd128.h> on the host's
# instructions. Benchmarks, not tests: run them on a quiet machine.
# Usage: bench/native/simde.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
if [ ! -f /usr/include/simde/wasm/simd128.h ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y libsimde-dev >/dev/null
  else
    echo "simde.sh: needs SIMDe; run: sudo apt-get install -y libsimde-dev" >&2
    exit 1
  fi
fi
out=build/bench-simde
mkdir -p "$out"
src=bench/native/simd_k2s2.cc
inc=(-Icpp/src -Icpp/include)
em++ -O3 -msimd128 -std=c++17 "${inc[@]}" "$src" -o "$out/simd_k2s2.cjs" -sENVIRONMENT=node
# -D__wasm_simd128__ selects the kernels' SIMD code; UNPOOL_NATIVE_SIMDE
# lifts the wasm32-only assertion (these planes' offsets fit int32).
native=(-O3 -std=c++17 -D__wasm_simd128__ -DUNPOOL_NATIVE_SIMDE -Ibench/native/simde "${inc[@]}")
g++ "${native[@]}" "$src" -o "$out/simd_k2s2-native"
g++ "${native[@]}" -march=native "$src" -o "$out/simd_k2s2-native-march"
wasm=$(node --no-experimental-fetch "$out/simd_k2s2.cjs")
base=$("$out/simd_k2s2-native")
march=$("$out/simd_k2s2-native-march")
# The same results from every build (the third column: a hash of them).
if [ "$(echo "$wasm" | awk '{print $3}')" != "$(echo "$base" | awk '{print $3}')" ] ||
   [ "$(echo "$wasm" | awk '{print $3}')" != "$(echo "$march" | awk '{print $3}')" ]; then
  echo "simde.sh: the builds' results differ:" >&2
  paste <(echo "$wasm") <(echo "$base") <(echo "$march") >&2
  exit 1
fi
echo "k2s2 kernel alone, 1x64x112x112, int32 indices: median µs per call"
echo "| type | wasm SIMD (Node $(node --version)) | native g++ -O3 | native g++ -O3 -march=native |"
echo "|---|---:|---:|---:|"
paste <(echo "$wasm") <(echo "$base") <(echo "$march") |
  awk '{ printf "| %s | %s | %s | %s |\n", $1, $2, $5, $8 }'
