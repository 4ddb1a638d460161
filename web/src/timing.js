// Timing of library calls and the SIMD line of the status bar.

/**
 * Runs `fn` once for its value, then again until about 10 ms have passed
 * (browsers coarsen performance.now(), so one fast call would read 0 ms).
 * Returns the value of the first call and the mean time per call.
 */
export function timed(fn) {
  let t0 = performance.now();
  const value = fn();
  let elapsed = performance.now() - t0;
  let runs = 1;
  if (elapsed < 10) {
    t0 = performance.now();
    runs = 0;
    do { fn(); runs++; } while (performance.now() - t0 < 10 && runs < 1000);
    elapsed = performance.now() - t0;
  }
  return { value, ms: elapsed / runs };
}

export function formatMs(ms) {
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 0.1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

// (module (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt)): the
// feature test of wasm-feature-detect; validates only where SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0,
  65, 0, 253, 15, 253, 98, 11,
]);

/**
 * "SIMD: yes/no" and where that comes from: the build the package loaded
 * (backendInfo()), otherwise whether this browser validates a SIMD module.
 */
export function simdStatus(pkg) {
  const flag = typeof pkg.backendInfo === 'function' ? pkg.backendInfo().simd : undefined;
  if (typeof flag === 'boolean') return { simd: flag, source: "the package's backendInfo()" };
  return { simd: WebAssembly.validate(SIMD_PROBE), source: 'browser support for WebAssembly SIMD' };
}
