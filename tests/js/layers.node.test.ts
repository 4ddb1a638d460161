// The layers, lowest first, and the rule that no import runs from a lower
// layer to a higher one: ukernels -> operators (cpp/src) -> bindings
// (cpp/bindings, which see only the public header) -> TS core -> TS API.
// Type-only imports count too. Node only: it reads the sources.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string) => fs.readFileSync(new URL(path, root), 'utf8');
const list = (dir: string) => fs.readdirSync(new URL(dir, root));

/** js/src files by layer, lowest first; a file may import only from lower layers. */
const TS_LAYERS: readonly (readonly string[])[] = [
  // the glue's types (the bindings) and the embedded .wasm of unpool/inline
  ['unpool.d.mts', 'unpool-scalar.d.mts', 'wasm-base64.d.ts'],
  ['dtypes.ts'],
  ['tensor.ts'],
  ['layout.ts'],
  ['keys.ts'],  // option-key order and the unknown-key check
  ['parse.ts'],  // option parsers into one Geometry
  ['block.ts'],  // the parameter block: its every read and write
  ['heap.ts'],  // the arena, heap blocks
  ['runtime.ts'],  // the module checked at load, its block, arena and plans
  ['loader.ts'],
  ['resident.ts'],
  ['options.ts'],  // the public option types (their FloatInput samples)
  ['call.ts'],  // a call, a backend, host inputs and out arrays
  ['streamed.ts'],
  ['engine.ts'],  // the WebAssembly backend
  ['optable.ts'],  // the op table
  ['invoke.ts'],  // the one generic call
  ['functional.ts'],
  ['modules.ts', 'interop.ts'],
  ['index.ts'],
  ['inline.ts'],  // index.ts's API over the embedded .wasm
  // unpool/webgpu: the GPU backend, passed to the same generic call; nothing
  // below imports it.
  ['webgpu'],
  // unpool/onnx: the model runner, over both backends; nothing imports it.
  ['onnx'],
];

/**
 * Module-level mutable state of js/src (a top-level `let`), each holding
 * data. A lower layer that calls a function a higher one stored (a hook, as
 * setForeignInput once was) is a call back up that the import rule cannot
 * see: backends are passed down as arguments instead.
 */
const STATE: Readonly<Record<string, readonly string[]>> = {
  'loader.ts': ['loaded', 'loadedInfo', 'loading'],  // the one loaded module
  'runtime.ts': ['current'],  // its runtime
};

const layerOf = (file: string) => TS_LAYERS.findIndex((l) => l.includes(file));

describe('layers', () => {
  it('every js/src file has a layer', () => {
    for (const f of list('js/src/')) expect(layerOf(f), f).toBeGreaterThanOrEqual(0);
  });

  it('nothing but unpool/onnx imports unpool/onnx', () => {
    const files = [...list('js/src/').filter((f) => f.endsWith('.ts')),
      ...list('js/src/webgpu/').filter((f) => f.endsWith('.ts')).map((f) => `webgpu/${f}`)];
    for (const f of files) expect(read(`js/src/${f}`), f).not.toMatch(/from '\.\.?\/(\.\.\/)?onnx\//);
  });

  it('js/src imports only from lower layers', () => {
    for (const f of list('js/src/').filter((f) => f.endsWith('.ts') && !f.endsWith('.d.mts'))) {
      const imports = [...read(`js/src/${f}`).matchAll(/from '\.\/([\w-]+)\.(m?js)'/g)]
        .map((m) => (m[2] === 'mjs' ? `${m[1]}.d.mts`
          : fs.existsSync(new URL(`js/src/${m[1]}.ts`, root)) ? `${m[1]}.ts` : `${m[1]}.d.ts`));
      for (const target of imports) {
        expect(layerOf(target), `${f} imports ${target}`).toBeLessThan(layerOf(f));
      }
    }
  });

  it('no lower layer calls back up through a hook', () => {
    const files = [...list('js/src/').filter((f) => f.endsWith('.ts')),
      ...['webgpu', 'onnx'].flatMap((d) => list(`js/src/${d}/`).filter((f) => f.endsWith('.ts')).map((f) => `${d}/${f}`))];
    for (const f of files) {
      const src = read(`js/src/${f}`);
      const lets = [...src.matchAll(/^(?:export )?let (\w+)(?::((?:[^;=]|=>)*))?/gm)];
      for (const [, name, type] of lets) {
        expect(STATE[f] ?? [], `${f}: module state '${name}'`).toContain(name);
        expect(type ?? '', `${f}: '${name}' holds a function`).not.toMatch(/=>|Function/);
      }
      // A setter of a hook: an exported set*/register*/on* function.
      expect(src, f).not.toMatch(/export function (set|register|on)[A-Z]\w*\(/);
      expect(src, f).not.toMatch(/setForeign(Input|Engine)/);
    }
  });

  it('the microkernels include only microkernel headers', () => {
    for (const f of list('cpp/src/ukernels/')) {
      for (const m of read(`cpp/src/ukernels/${f}`).matchAll(/#include "([^"]+)"/g)) {
        expect(m[1], `cpp/src/ukernels/${f} includes ${m[1]}`).toMatch(/^ukernels\//);
      }
    }
  });

  it('the bindings include only the public header of the core, and nothing includes them', () => {
    for (const f of list('cpp/bindings/')) {
      for (const m of read(`cpp/bindings/${f}`).matchAll(/#include "([^"]+)"/g)) {
        const ok = /^unpool\/(unpool|types)\.h$/.test(m[1]) || list('cpp/bindings/').includes(m[1]);
        expect(ok, `cpp/bindings/${f} includes ${m[1]}`).toBe(true);
      }
    }
    for (const dir of ['cpp/src/', 'cpp/src/ukernels/', 'cpp/include/unpool/']) {
      for (const f of list(dir).filter((f) => /\.(h|cc|inc)$/.test(f))) {
        expect(read(`${dir}${f}`), `${dir}${f}`).not.toMatch(/#include "(\.\.\/)*(bindings\/|param_block|plan_holder)/);
      }
    }
  });
});
