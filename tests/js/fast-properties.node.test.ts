// The objects every call reads by property name keep fast properties in V8
// (Node only: it asks V8 with --allow-natives-syntax in a child process).
// A dictionary-mode object (one given many properties by keyed stores, as
// the block layout was) makes each of those reads a hash lookup: a cost of
// a few percent of every small call that no functional test sees.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./fast-properties.mjs', import.meta.url));

describe('hot-path objects', () => {
  it('have fast properties after a call of every op family (no dictionary mode)', () => {
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const { checked, dictionaries } = JSON.parse(run.stdout) as { checked: number; dictionaries: string[] };
    expect(checked).toBeGreaterThan(40);
    expect(dictionaries).toEqual([]);
  });
});
