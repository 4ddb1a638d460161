// The cases of hostile.test.ts: one hostile value at one path of one
// entry's valid call (hostile-entries.ts, hostile-values.ts), and the
// call's arguments with that value put in.
import { type Args, type Entry, entries } from './hostile-entries.js';
import {
  dataValues, dtypeValues, type Hostile, indexValues, notObjects, shapeEntries, shapeValues, sizeValues,
} from './hostile-values.js';

export interface Case {
  entry: Entry;
  path: string;
  hostile: Hostile;
  /** Parameter names the message may use for this path. */
  params: string[];
  /** For index contents: the position in the indices that is set. */
  at?: number;
}

function setPath(args: Args, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = args;
  for (const k of keys.slice(0, -1)) o = o[k];
  o[keys[keys.length - 1]] = value;
}

function getPath(args: Args, path: string): any {
  return path.split('.').reduce((o, k) => o[k], args);
}

/** The names a message may use for a path: 'options.kernelSize' -> kernelSize; 'x.shape' -> x.shape, x. */
function paramNames(path: string): string[] {
  const parts = path.split('.');
  if (parts[0] === 'options' && parts.length > 1) return [parts[1]];
  if (parts.length === 1) return [parts[0]];
  return [parts.slice(0, 2).join('.'), parts[0]];
}

export function buildCases(): Case[] {
  const cases: Case[] = [];
  for (const entry of entries) {
    const dims = Number(/(\d)d/.exec(entry.label)![1]);
    const base = entry.base();
    for (const path of entry.sizes) {
      for (const hostile of sizeValues(path, dims)) cases.push({ entry, path, hostile, params: paramNames(path) });
    }
    for (const path of entry.shapes) {
      const shape = getPath(base, path) as number[];
      const isOutputSize = path.endsWith('outputSize');
      const params = paramNames(path);
      for (let i = 0; i < shape.length; ++i) {
        for (const hostile of shapeEntries) {
          // The N and C of a dims + 2 outputSize are ignored, as in PyTorch: any integer goes.
          if (isOutputSize && i < shape.length - dims && Number.isSafeInteger(hostile.value)) continue;
          cases.push({ entry, path: `${path}.${i}`, hostile, params });
        }
      }
      for (const hostile of shapeValues(dims)) {
        if (isOutputSize && (hostile.value === undefined || hostile.value === null)) continue;  // the default
        cases.push({ entry, path, hostile, params });
      }
    }
    for (const { path, kind } of entry.tensors) {
      const t = getPath(base, path) as { data: ArrayLike<unknown> };
      const integers = !/MaxPool\dd\.backward|maxPool\ddBackward/.test(entry.label);
      for (const hostile of dataValues(kind, t.data.length, integers)) {
        cases.push({ entry, path: `${path}.data`, hostile, params: [path] });
      }
      for (const hostile of dtypeValues(kind)) {
        cases.push({ entry, path: `${path}.dtype`, hostile, params: [`${path}.dtype`] });
      }
      for (const hostile of [...notObjects, { value: undefined, text: 'undefined', type: TypeError },
        { value: { shape: [1, 1, 4] }, text: 'undefined', type: TypeError }, { value: [], text: 'undefined', type: TypeError }]) {
        cases.push({ entry, path, hostile, params: [path] });
      }
      if (kind === 'index') {
        // Out of range or negative indices: the plane the indices address.
        const plane = 4 ** dims;  // every base call's indices address a plane of 4 per dim
        for (const hostile of indexValues(plane)) {
          for (const at of [0, t.data.length - 1]) cases.push({ entry, path: `${path}.data`, hostile, params: [path], at });
        }
      }
    }
    for (const path of entry.objects) {
      for (const hostile of notObjects) cases.push({ entry, path, hostile, params: [path] });
    }
    if (entry.label.startsWith('maxPool') && !entry.label.endsWith('Backward') || entry.label.startsWith('MaxPool') && entry.label.endsWith('forward')) {
      for (const v of ['int16', 'INT32', 'int', 32, null, true, Int32Array]) {
        cases.push({ entry, path: 'options.indexType', hostile: { value: v, type: TypeError, text: typeof v === 'string' ? `"${v}"` : undefined }, params: ['indexType'] });
      }
    }
    if (entry.label.startsWith('maxPool') || entry.label.startsWith('MaxPool')) {
      for (const v of ['yes', 1, 0, null, 'false']) {
        cases.push({ entry, path: 'options.ceilMode', hostile: { value: v, type: TypeError, text: typeof v === 'string' ? `"${v}"` : String(v) }, params: ['ceilMode'] });
      }
    }
  }
  return cases;
}

export function applyCase(c: Case): Args {
  const args = c.entry.base();
  if (c.path.endsWith('.data')) {
    // Other data in a result object: its dtype would not fit (a case of its own).
    delete (getPath(args, c.path.replace(/\.data$/, '')) as { dtype?: string }).dtype;
  }
  if (c.at !== undefined) {
    // Same type as the valid indices: Int32Array for numbers, BigInt64Array for bigints.
    const t = getPath(args, c.path.replace(/\.data$/, '')) as { data: Int32Array };
    const data = typeof c.hostile.value === 'bigint' ? BigInt64Array.from(t.data, BigInt) : Int32Array.from(t.data);
    (data as unknown as unknown[])[c.at] = c.hostile.value;
    setPath(args, c.path, data);
    return args;
  }
  setPath(args, c.path, c.hostile.value);
  return args;
}
