// <wasm_simd128.h> for a native build: SIMDe's implementation of the
// WebAssembly SIMD intrinsics on the host's vector instructions
// (bench/native/simde.sh).
#ifndef UNPOOL_BENCH_NATIVE_SIMDE_WASM_SIMD128_H_
#define UNPOOL_BENCH_NATIVE_SIMDE_WASM_SIMD128_H_
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#endif  // UNPOOL_BENCH_NATIVE_SIMDE_WASM_SIMD128_H_
