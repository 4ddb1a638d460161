// The published types under tsc --strict (issue 32): tests/js/types/pass.ts
// must compile, and each tests/js/types/fail/*.ts must fail with the error
// its first line names, on the line marked `// error` and nowhere else (a
// misspelled option, an int64 index array taken as int32, a code that is
// not documented). Node only: it runs the TypeScript compiler on files.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('./types/', import.meta.url));
const failDir = `${dir}fail/`;
const failing = fs.readdirSync(failDir).filter((f) => f.endsWith('.ts')).sort();

// A strict consumer, as tests/runtimes/types and test:pack configure one.
const options: ts.CompilerOptions = {
  strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [], skipLibCheck: true,
};

const program = ts.createProgram([`${dir}pass.ts`, ...failing.map((f) => failDir + f)], options);

/** Every diagnostic of a file as `line:TScode message` (lines from 1). */
function diagnostics(file: string): { line: number; code: number; text: string }[] {
  const source = program.getSourceFile(file)!;
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => ({
    line: source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1,
    code: d.code,
    text: ts.flattenDiagnosticMessageText(d.messageText, ' '),
  }));
}

describe('types under tsc --strict', () => {
  it('pass.ts compiles: exact result types of the classes, convertIndices and error codes', () => {
    expect(diagnostics(`${dir}pass.ts`)).toEqual([]);
  });

  it('there are fixtures that must fail', () => {
    expect(failing.length).toBeGreaterThanOrEqual(9);
  });

  for (const f of failing) {
    it(`fail/${f} fails with its error on its marked line only`, () => {
      const text = fs.readFileSync(failDir + f, 'utf8');
      const want = /^\/\/ expect TS(\d+) /.exec(text);
      expect(want, 'the first line says `// expect TS<code> ...`').not.toBeNull();
      const marked = text.split('\n').findIndex((l) => l.endsWith('// error')) + 1;
      expect(marked).toBeGreaterThan(0);
      const got = diagnostics(failDir + f);
      expect(got.length, JSON.stringify(got)).toBeGreaterThan(0);
      for (const d of got) {
        expect(d.line, d.text).toBe(marked);
        expect(d.code, d.text).toBe(Number(want![1]));
      }
    });
  }
});
