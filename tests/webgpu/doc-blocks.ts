// The examples of docs/webgpu.md ("With ONNX Runtime Web", "With TF.js"),
// run as written in the WebGPU test files: a block is found by its first
// line, its imports are bound to the namespaces the test passes, the names
// it uses but does not define are given, and the names it defines are
// returned for the test to check.
import markdown from '../../docs/webgpu.md?raw';

/** The `js` or `js no-run` block of docs/webgpu.md whose first line is `first`. */
export function docBlock(first: string): string {
  const lines = markdown.split('\n');
  const found: string[] = [];
  for (let i = 0; i < lines.length; ++i) {
    if (!/^```js( no-run)?$/.test(lines[i].trim()) || lines[i + 1] !== first) continue;
    let end = i + 1;
    while (end < lines.length && lines[end].trim() !== '```') ++end;
    found.push(lines.slice(i + 1, end).join('\n'));
  }
  if (found.length !== 1) throw new Error(`docs/webgpu.md: ${found.length} js blocks start with ${first}`);
  return found[0];
}

type AsyncFn = (...args: unknown[]) => Promise<Record<string, unknown>>;
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as
  new (...args: string[]) => AsyncFn;

/**
 * Runs `code` (a docBlock) with its `import`s bound to `modules` (by
 * specifier; each must be given), `given` as the names it uses, and returns
 * the values of `names` at its end.
 */
export async function runBlock(code: string, modules: Record<string, unknown>,
                               given: Record<string, unknown>, names: string[]): Promise<Record<string, unknown>> {
  const used = new Set<string>();
  const body = code.split('\n').map((line) => {
    const m = /^import (?:(\* as \w+|\{[^}]*\}) from )?'([^']+)';$/.exec(line);
    if (m === null) {
      if (/^import\b/.test(line)) throw new Error(`doc block: an import this runner does not read: ${line}`);
      return line;
    }
    const [, what, spec] = m;
    if (!(spec in modules)) throw new Error(`doc block imports '${spec}': not given`);
    used.add(spec);
    if (what === undefined) return '';
    const binding = what.startsWith('*') ? what.slice(5) : what;
    return `const ${binding} = __modules[${JSON.stringify(spec)}];`;
  }).join('\n');
  const unused = Object.keys(modules).filter((s) => !used.has(s));
  if (unused.length > 0) throw new Error(`doc block does not import ${unused.join(', ')}`);
  const fn = new AsyncFunction('__modules', ...Object.keys(given), `${body}\nreturn { ${names.join(', ')} };`);
  return fn(modules, ...Object.values(given));
}
