// Timing, shared by every benchmark here: the median, and the runner that
// times cases side by side (runCases); and the probes' (probes.mjs,
// probes-memory.mjs) page-fault count and formats.

export const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Times the cases `{ name: fn }` side by side: each is warmed up and its
 * batch size chosen (>= minBatchMs, or one call), then `reps` rounds run one
 * batch of every case in turn, so that all cases see the same machine state.
 * Returns `{ name: median µs per call }`. A case may return a promise.
 */
export async function runCases(cases, { reps, minBatchMs, warmupMs }) {
  const names = Object.keys(cases);
  const batch = {};
  for (const name of names) {
    const fn = cases[name];
    let calls = 0;
    const start = performance.now();
    while (calls < 3 || performance.now() - start < warmupMs) {
      const r = fn();
      if (r instanceof Promise) await r;
      ++calls;
    }
    batch[name] = Math.max(1, Math.ceil(minBatchMs / ((performance.now() - start) / calls)));
  }
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let rep = 0; rep < reps; ++rep) {
    for (const name of names) {
      const fn = cases[name];
      const t0 = performance.now();
      for (let i = 0; i < batch[name]; ++i) {
        const r = fn();
        if (r instanceof Promise) await r;
      }
      times[name].push(((performance.now() - t0) / batch[name]) * 1000);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n])]));
}

/** µs right-aligned in 8 columns, 2 decimals under 100. */
export const us = (v) => (v < 100 ? v.toFixed(2) : v.toFixed(0)).padStart(8);

/** Ratios `v`: their median and range, e.g. '1.02x (0.98-1.10)'. */
export const ratioRange = (v) => `${median(v).toFixed(2)}x (${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)})`;

/** Minor page faults so far, or undefined where the runtime does not count them. */
export const pageFaults = () => {
  const n = globalThis.process?.resourceUsage?.().minorPageFault;
  return typeof n === 'number' ? n : undefined;
};
