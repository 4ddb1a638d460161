// The GPU kernels' table (js/src/webgpu/kernels.ts) against the WGSL files:
// what the table generates is declared nowhere else, every name a family's
// source uses is declared in it, every entry point exists, and a family
// compiles only the softfloat parts it calls. Checked on the text, without a
// device (the WebGPU stage compiles and runs every source on five stacks).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DTYPE_CODES, ENTRIES, FAMILIES, prelude, sourceOf, wgslName } from '../../dist/webgpu/kernels.js';

const wgsl = (name: string) =>
  fs.readFileSync(new URL(`../../js/src/webgpu/wgsl/${name}.wgsl`, import.meta.url), 'utf8');
const files = fs.readdirSync(new URL('../../js/src/webgpu/wgsl/', import.meta.url))
  .filter((f) => f.endsWith('.wgsl')).map((f) => f.replace(/\.wgsl$/, ''));
/** The text without comments. */
const code = (s: string) => s.replace(/\/\/.*$/gm, '');
const families = Object.keys(FAMILIES) as (keyof typeof FAMILIES)[];

describe('GPU kernels described once', () => {
  it('no WGSL file declares what the table generates, or names a dtype by its number', () => {
    for (const f of files) {
      const s = code(wgsl(f));
      expect(s, f).not.toMatch(/@binding|@group|\boverride\b|\bconst (WG|NONE)\b|struct Params/);
      expect(s, f).not.toMatch(/DTYPE\s*(==|!=|>=|<=|<|>)\s*\d/);
      for (const [, name] of Object.values(DTYPE_CODES)) expect(s, f).not.toMatch(new RegExp(`const ${name}\\b`));
      // A switch on DTYPE takes the generated names.
      for (const m of s.matchAll(/switch DTYPE \{([^]*?)\n {2}\}/g)) expect(m[1], f).not.toMatch(/case \d/);
    }
  });

  it('the prelude declares each binding, override and dtype constant once', () => {
    for (const family of families) {
      const p = prelude(family);
      FAMILIES[family].bindings.forEach((b, i) => {
        expect(p.match(new RegExp(`@binding\\(${i + 1}\\) var<storage, ${b.write ? 'read_write' : 'read'}> ${b.name}:`, 'g')),
               `${family}.${b.name}`).toHaveLength(1);
      });
      for (const o of Object.keys(FAMILIES[family].overrides)) expect(p, `${family} ${o}`).toContain(`override ${o}:`);
      for (const [c, name] of Object.values(DTYPE_CODES)) expect(p).toContain(`const ${name}: u32 = ${c}u;`);
    }
  });

  it('every binding of a family is used by its source, and every entry point is a compute function of it', () => {
    for (const family of families) {
      const body = code(FAMILIES[family].files.map(wgsl).join('\n'));
      for (const b of FAMILIES[family].bindings) expect(body, `${family} uses ${b.name}`).toMatch(new RegExp(`\\b${b.name}\\b`));
    }
    for (const [entry, { family }] of Object.entries(ENTRIES) as [keyof typeof ENTRIES, { family: keyof typeof FAMILIES }][]) {
      const body = code(FAMILIES[family].files.map(wgsl).join('\n'));
      expect(body, entry).toMatch(new RegExp(`@compute @workgroup_size\\((WG|1)\\)\\s*fn ${wgslName(entry)}\\(`));
    }
  });

  it('a family lists every file it calls into, and only those', () => {
    /** The functions a text defines, and those it calls. */
    const defines = (s: string) => new Set([...s.matchAll(/^fn (\w+)\(/gm)].map((m) => m[1]));
    const calls = (s: string) => new Set([...s.matchAll(/(?<!fn )\b([a-z_]\w*)\(/g)].map((m) => m[1]));
    const definedBy = new Map<string, string[]>();
    for (const f of files) for (const fn of defines(code(wgsl(f)))) definedBy.set(fn, [...definedBy.get(fn) ?? [], f]);
    for (const family of families) {
      const listed: readonly string[] = FAMILIES[family].files;
      // Every function of the WGSL files the family calls is defined by a file it lists.
      for (const fn of calls(code(listed.map(wgsl).join('\n')))) {
        const where = definedBy.get(fn);
        if (where !== undefined) expect(listed.some((f) => where.includes(f)), `${family} calls ${fn} (${where})`).toBe(true);
      }
      // Every file it lists holds an entry point, or defines a function another listed file calls.
      for (const f of listed) {
        const others = calls(code(listed.filter((o) => o !== f).map(wgsl).join('\n')));
        const used = /@compute/.test(code(wgsl(f))) || [...defines(code(wgsl(f)))].some((fn) => others.has(fn));
        expect(used, `${family} lists ${f}`).toBe(true);
      }
    }
  });

  it('a family compiles the softfloat parts it calls, and only those', () => {
    const parts = files.filter((f) => f.startsWith('softfloat-'));
    const defines = (part: string) => [...code(wgsl(part)).matchAll(/^fn (sf_\w+)/gm)].map((m) => m[1]);
    for (const family of families) {
      const listed: readonly string[] = FAMILIES[family].files;
      const own = code(listed.filter((f) => !f.startsWith('softfloat-')).map(wgsl).join('\n'));
      const calls = new Set([...own.matchAll(/\b(sf_\w+)\(/g)].map((m) => m[1]));
      for (const part of parts) {
        const used = defines(part).some((fn) => calls.has(fn));
        // softfloat-int also serves the other parts: needed where one of them is listed.
        const needed = used ||
            (part === 'softfloat-int' && listed.some((f) => f.startsWith('softfloat-') && f !== part));
        expect(listed.includes(part), `${family} lists ${part}`).toBe(needed);
      }
      // Every sf_ function (or struct) the family's source calls is defined in it.
      const src = code(sourceOf(family));
      for (const fn of src.matchAll(/\b(sf_\w+)\(/g)) {
        expect(src, `${family}: ${fn[1]}`).toMatch(new RegExp(`(fn ${fn[1]}\\(|struct ${fn[1]} )`));
      }
    }
  });
});
