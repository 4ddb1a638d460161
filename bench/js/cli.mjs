// The command line of the Node benchmarks that time one build: the dist
// folder (first argument, default dist), --reps, and --scalar (the build
// without SIMD, as engines without WebAssembly SIMD get it); the package is
// loaded and initialised from it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export async function openDist(defaultReps = 21) {
  const args = process.argv.slice(2);
  // Positional: not an option, nor an option's value (--scalar takes none).
  const isValue = (i) => args[i - 1]?.startsWith('--') && args[i - 1] !== '--scalar';
  const dist = args.find((a, i) => !a.startsWith('--') && !isValue(i)) ?? 'dist';
  const at = args.indexOf('--reps');
  const reps = at >= 0 ? Number(args[at + 1]) : defaultReps;
  if (!(reps >= 1)) throw new Error(`--reps needs a count >= 1, got ${args[at + 1]}`);
  const u = await import(pathToFileURL(path.resolve(dist, 'index.js')).href);
  await u.init(args.includes('--scalar') ? { simd: false } : {});
  return { u, reps };
}
