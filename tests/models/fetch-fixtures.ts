// The fixtures of build/models in a browser test page (Vite serves them; the
// models stage makes them before the browser legs run).
import { Fixture, parseFixture } from './fixtures.js';

const jsons = import.meta.glob<Omit<Fixture, 'modelPath'>>('../../build/models/*.json', { eager: true, import: 'default' });

export async function fetchFixtures(): Promise<Fixture[]> {
  const out: Fixture[] = [];
  for (const [path, json] of Object.entries(jsons).sort()) {
    const base = new URL(path.replace(/[^/]+$/, ''), import.meta.url);
    const r = await fetch(new URL(path.replace(/^.*\//, '').replace(/\.json$/, '.bin'), base));
    if (!r.ok) throw new Error(`${path}: its .bin gave HTTP ${r.status}`);
    out.push(parseFixture(path, json, new Uint8Array(await r.arrayBuffer()), new URL(json.model, base).href));
  }
  if (out.length === 0) throw new Error('no fixtures in build/models: run bash scripts/test.sh models first');
  return out;
}
