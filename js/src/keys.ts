// Option keys: the one order every op lists its options in, and the check
// that refuses an unknown key with a hint (PyTorch's and ONNX's spellings,
// another case, a typo one edit away).
import { describe, typeError } from './tensor.js';

/**
 * Every option name of the library, in the order each op lists the ones it
 * takes (messages: "it takes kernelSize, stride, ..."): an op's list is the
 * keys of its option parsers put in this order (optable.ts).
 */
export const OPTION_ORDER: readonly string[] = Object.freeze([
  'inputShape', 'kernelSize', 'stride', 'padding', 'dilation', 'ceilMode', 'outputSize',
  'outputRatio', 'randomSamples', 'indexType', 'layout', 'out', 'resident', 'from', 'to', 'dims',
]);

/** `keys` in OPTION_ORDER, frozen. */
export function inOptionOrder(keys: Iterable<string>): readonly string[] {
  const set = new Set(keys);
  for (const k of set) {
    if (!OPTION_ORDER.includes(k)) throw new Error(`unpool: internal error: option ${k} has no place in OPTION_ORDER`);
  }
  return Object.freeze(OPTION_ORDER.filter((k) => set.has(k)));
}

/**
 * Keys people bring from PyTorch (snake_case) and ONNX that are not a
 * camelCase spelling of an option: the option they mean ('' for none) and
 * a word on it. snake_case spellings of options (kernel_size, ceil_mode,
 * output_size, ...) are recognised without a line here.
 */
const FOREIGN_KEYS: Readonly<Record<string, readonly [means: string, note: string]>> = {
  strides: ['stride', "ONNX's strides"],
  kernel_shape: ['kernelSize', "ONNX's kernel_shape"],
  pads: ['padding', "ONNX's pads hold [begin..., end...]; padding is one entry per dim, the " +
      'same at both ends'],
  dilations: ['dilation', "ONNX's dilations"],
  return_indices: ['', 'indices are always returned: the result is { output, indices }'],
  storage_order: ['', 'indices are always per-plane row-major offsets (PyTorch\'s); convert ' +
      "ONNX's column-major ones with convertIndices(indices, { from: 'onnx-column-major', " +
      "to: 'pytorch', inputShape })"],
  auto_pad: ['', 'give padding explicitly'],
  count_include_pad: ['', 'that is an average-pooling option'],
  dtype: ['', "a tensor's dtype goes in the tensor: { data, shape, dtype }"],
  _random_samples: ['randomSamples', "PyTorch's _random_samples"],
};

/** A key folded for comparison: lower case, without '_' and '-'. */
const fold = (key: string) => key.toLowerCase().replace(/[_-]/g, '');

/**
 * Whether `a` becomes `b` by one edit (a letter inserted, dropped, changed,
 * or two neighbours swapped): a typo of a key ('stide', 'devce').
 */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const tail = (x: string, y: string) => a.slice(i + x.length) === b.slice(i + y.length);
  return tail('x', '') || tail('', 'x') || tail('x', 'x') ||
      (a[i] === b[i + 1] && a[i + 1] === b[i] && tail('xx', 'xx'));
}

/** What the message adds for an unknown `key`: a hint, or the options `fn` takes. */
function unknownKeyHint(fn: string, key: string, known: readonly string[]): string {
  const foreign = Object.prototype.hasOwnProperty.call(FOREIGN_KEYS, key) ? FOREIGN_KEYS[key]
                                                                            : undefined;
  let means = foreign?.[0] ?? '';
  const note = foreign?.[1] ?? '';
  if (foreign === undefined) {
    means = known.find((k) => fold(k) === fold(key)) ??
        (fold(key).length >= 3 ? known.find((k) => oneEditApart(fold(key), fold(k))) : undefined) ?? '';
    if (means === '' && fold(key) !== '') {
      // A known name in another spelling that this function does not take.
      const other = OPTION_ORDER.find((k) => fold(k) === fold(key));
      if (other !== undefined && other !== key) means = other;
      else if (other === key) return `; ${fn} has no ${key} option (it takes ${known.join(', ')})`;
    }
  }
  if (means !== '' && known.includes(means)) {
    return `; did you mean ${means}?${note ? ` (${note})` : ''}`;
  }
  if (means !== '') {
    return `; ${fn} has no ${means} option${note ? ` (${note})` : ''} (it takes ${known.join(', ')})`;
  }
  return note ? `; ${note}` : `; ${fn} takes ${known.join(', ')}`;
}

/**
 * Throws an UnpoolTypeError ('unknown_option') naming `fn`, the key and its
 * value when `options` (an object) has an enumerable key not in `known`
 * (own or inherited: the parsers read inherited keys too),
 * with a hint for PyTorch's and ONNX's spellings. Every op calls it first
 * on its options, with its own list (the *_KEYS above). Anything but an
 * object passes: the parsers say what the options must be.
 */
export function checkOptionKeys(fn: string, options: unknown, known: readonly string[],
                                name = 'options'): void {
  if (options === null || typeof options !== 'object') return;
  for (const key in options) {
    if (!known.includes(key)) {
      const value = (options as Record<string, unknown>)[key];
      throw typeError(`${fn}: ${name}.${key}=${describe(value)} is not an option` +
          unknownKeyHint(fn, key, known), 'unknown_option');
    }
  }
}
