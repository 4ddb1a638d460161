// The WebGPU cases' deterministic random numbers (mulberry32): the same
// inputs on every stack and every run, so that a failure names a seed that
// reproduces it.

/** A generator of uint32s from `seed`; `.int(n)` gives one in [0, n). */
export function rngU32(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  next.int = (n) => next() % n;  // the modulo's bias does not matter to the tests
  return next;
}

/** A generator of numbers in [0, 1) from `seed`. */
export function rng(seed) {
  const next = rngU32(seed);
  return () => next() / 4294967296;
}
