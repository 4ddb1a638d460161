// The fixtures of a directory in Node (tests/models/fixtures.ts has the format).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Fixture, parseFixture } from './fixtures.js';

/** Every fixture in `dir` (each <name>.json with its .bin), by name. */
export function loadFixtures(dir: string): Fixture[] {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((file) => {
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Omit<Fixture, 'modelPath'>;
    const bin = readFileSync(join(dir, file.replace(/\.json$/, '.bin')));
    return parseFixture(file, json, bin, join(dir, json.model));
  });
}
