// The GPU kernels, described once: each family's WGSL files, override
// constants and bindings, and each entry point's dispatch. The WGSL a
// pipeline compiles is generated from this table: the uniform block
// (params.ts), the shared constants (workgroup size, the dtype codes), the
// family's overrides and its `@binding` lines come first, then its files.
// The WGSL files declare none of these; tests/webgpu/cases/stack.mjs checks
// that every generated source compiles on the device. A new entry point is
// a line in ENTRIES and its function in its family's file; a new family, an
// entry in FAMILIES and its file.
import type { DType } from '../dtypes.js';
import { PARAMS_WGSL } from './params.js';
import { shaders } from './shaders.js';

/** Invocations per workgroup (WebGPU's compatibility mode allows 128). */
export const WG = 64;
/** "No position": status[0] until a kernel records a bad element. */
export const NONE = 0xffffffff;

/** The code of each dtype in the kernels' DTYPE override, and its WGSL name. */
export const DTYPE_CODES: Readonly<Record<DType, readonly [code: number, wgsl: string]>> = {
  float32: [0, 'F32'], float64: [1, 'F64'], float16: [2, 'F16'], bfloat16: [3, 'BF16'],
  uint8: [4, 'U8'], int8: [5, 'I8'], int16: [6, 'I16'], int32: [7, 'I32'], int64: [8, 'I64'],
};

/**
 * A binding after the uniform block: its WGSL name, whether the kernels
 * write it, and what it holds (words of a tensor; atomic words; a call's
 * status: [first bad position or NONE, its value's lo, hi, a flag]).
 */
interface Binding {
  readonly name: string;
  readonly write: boolean;
  readonly holds: 'words' | 'atomics' | 'status';
}

const read = <N extends string>(name: N) => ({ name, write: false, holds: 'words' }) as const;
const write = <N extends string, H extends Binding['holds'] = 'words'>(name: N, holds?: H) =>
  ({ name, write: true, holds: holds ?? 'words' as H }) as const;

/** An override constant: its WGSL type and default. */
type Override = readonly [type: 'u32' | 'bool', fallback: string];

/**
 * The value dtype (DTYPE_CODES), and whether indices are int64 (lo, hi)
 * word pairs: every family's.
 */
const COMMON: Readonly<Record<string, Override>> = { DTYPE: ['u32', '0u'], INDEX64: ['bool', 'false'] };
/** Where windows come from: 0 max pool, 1 adaptive, 2 fractional (windows.wgsl). */
const MODE: Readonly<Record<string, Override>> = { MODE: ['u32', '0u'] };

// The softfloat library (IEEE arithmetic in integer math) comes in parts: the
// integer helpers every part needs (softfloat-int), then binary32, binary64
// and the 16-bit conversions; a family lists the parts its kernels call.

export interface Family {
  /** Its WGSL files after the generated prelude, in order. */
  readonly files: readonly string[];
  /**
   * Whether its source ends with interior_taps(), generated per kernel shape
   * (geometry.ts interiorTaps): software adapters do not unroll loops over
   * override constants. Every entry of the family needs it to compile (1x1x1
   * where none is asked for).
   */
  readonly taps?: boolean;
  readonly overrides: Readonly<Record<string, Override>>;
  /** Its bindings 1, 2, ... (0 is the uniform block). */
  readonly bindings: readonly Binding[];
}

export const FAMILIES = {
  pool: {
    files: ['common', 'softfloat-int', 'windows', 'packed', 'pool'], taps: true, overrides: { ...COMMON, ...MODE },
    // aux: a fractional pool's window starts per plane
    bindings: [read('x'), write('y'), write('idx'), read('aux')],
  },
  backward: {
    // adds in every float dtype: binary32, binary64, 16-bit through binary32
    files: ['common', 'softfloat-int', 'softfloat-f32', 'softfloat-f64', 'softfloat-half', 'windows', 'status',
      'backward'],
    overrides: { ...COMMON, ...MODE },
    // status[3]: an index that is not one of its window's taps (gather scans)
    bindings: [read('go'), read('indices'), write('gi'), read('aux'), write('status', 'status')],
  },
  fractional: {
    // float32 and float64 samples only: no 16-bit part
    files: ['common', 'softfloat-int', 'softfloat-f32', 'softfloat-f64', 'fractional'], overrides: COMMON,
    bindings: [read('samples'), write('starts'), write('status', 'status')],
  },
  convert: {
    files: ['common', 'status', 'convert'],
    // FROM, TO: unpool::IndexFormat codes; OUT64: the result is int64
    overrides: { ...COMMON, FROM: ['u32', '0u'], TO: ['u32', '0u'], OUT64: ['bool', 'false'] },
    // status[3]: an index not in [0, plane) (the message needs it)
    bindings: [read('indices'), write('result'), write('status', 'status')],
  },
  unpool: {
    files: ['common', 'status', 'packed', 'unpool'], overrides: COMMON,
    // won: the gather's read-only view of `win` (one buffer cannot be bound
    // both read-write and read-only in one dispatch: the gather leaves win unbound)
    bindings: [read('x'), read('indices'), write('y'), write('win', 'atomics'), write('status', 'status'),
      read('won')],
  },
} as const satisfies Record<string, Family>;

export type FamilyName = keyof typeof FAMILIES;
/** The binding names of family `F`. */
export type BindingOf<F extends FamilyName> = typeof FAMILIES[F]['bindings'][number]['name'];

/**
 * Each entry point: its family, and how many work items a dispatch is given
 * ('items': the call's count, WG a workgroup; 'one': one invocation, which
 * copies a call's first bad element into its status for the message).
 */
export const ENTRIES = {
  pool: { family: 'pool', size: 'items' },
  pool_interior: { family: 'pool', size: 'items' },
  intervals: { family: 'fractional', size: 'items' },
  fractional_error: { family: 'fractional', size: 'one', wgsl: 'error_value' },
  check: { family: 'backward', size: 'items' },
  gather: { family: 'backward', size: 'items' },
  backward_error: { family: 'backward', size: 'one', wgsl: 'error_value' },
  convert: { family: 'convert', size: 'items' },
  convert_error: { family: 'convert', size: 'one', wgsl: 'error_value' },
  scatter_plain: { family: 'unpool', size: 'items' },
  scatter: { family: 'unpool', size: 'items' },
  unpool_gather: { family: 'unpool', size: 'items', wgsl: 'gather' },
  unpool_backward: { family: 'unpool', size: 'items' },
  unpool_error: { family: 'unpool', size: 'one', wgsl: 'error_value' },
} as const satisfies Record<string, { family: FamilyName; size: 'items' | 'one'; wgsl?: string }>;

export type EntryName = keyof typeof ENTRIES;

/** The WGSL function of entry `e`. */
export const wgslName = (e: EntryName): string => ('wgsl' in ENTRIES[e] ? ENTRIES[e].wgsl : e) as string;

const TYPES: Readonly<Record<Binding['holds'], string>> = {
  words: 'array<u32>', atomics: 'array<atomic<u32>>', status: 'array<atomic<u32>, 4>',
};

/** The generated declarations of `family`: constants, overrides, bindings. */
export function prelude(family: FamilyName): string {
  const f: Family = FAMILIES[family];
  const lines = [
    `const WG: u32 = ${WG}u;`,
    `const NONE: u32 = 0x${NONE.toString(16)}u;`,
    ...Object.values(DTYPE_CODES).map(([code, name]) => `const ${name}: u32 = ${code}u;`),
    ...Object.entries(f.overrides).map(([name, [type, fallback]]) => `override ${name}: ${type} = ${fallback};`),
    ...f.bindings.map((b, i) => `@group(0) @binding(${i + 1}) var<storage, ${b.write ? 'read_write' : 'read'}> ` +
        `${b.name}: ${TYPES[b.holds]};`),
  ];
  return `${PARAMS_WGSL}${lines.join('\n')}\n`;
}

/** The WGSL source of `family`, after its prelude (`extra`: generated code appended). */
export function sourceOf(family: FamilyName, extra = ''): string {
  return prelude(family) + FAMILIES[family].files.map((f) => shaders[f]).join('\n') + extra;
}

/** The binding layout of `family` for createBindGroupLayout (binding 0: the uniform block). */
export function layoutEntries(family: FamilyName):
    { binding: number; visibility: number; buffer: { type: 'uniform' | 'storage' | 'read-only-storage' } }[] {
  const COMPUTE = 0x4;  // GPUShaderStage.COMPUTE
  const f: Family = FAMILIES[family];
  return [{ binding: 0, visibility: COMPUTE, buffer: { type: 'uniform' as const } },
    ...f.bindings.map((b, i) => ({
      binding: i + 1, visibility: COMPUTE,
      buffer: { type: b.write ? 'storage' as const : 'read-only-storage' as const },
    }))];
}

/** Throws unless every constant of a dispatch is an override its family declares. */
export function checkConstants(family: FamilyName, constants: Record<string, number>): void {
  for (const k of Object.keys(constants)) {
    if (!(k in FAMILIES[family].overrides)) {
      throw new Error(`unpool: internal error: family ${family} has no override ${k}`);
    }
  }
}
