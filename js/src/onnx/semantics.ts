// ONNX's MaxPool and MaxUnpool in unpool's (PyTorch's) terms: attributes to
// options, and the checks where the two differ. ONNX MaxPool's Indices are
// flat over N*C*H*W and row-major (storage_order 0); unpool's are per (n, c)
// plane, converted with convertIndices where the graph reads flat ones.
import { attrInt, attrInts, attrString, describeNode, OnnxModelError, OnnxNode } from './model.js';
import { IntTensor } from './shapes.js';

/** unpool's pool options for one ONNX MaxPool on an input of shape `x`. */
export interface PoolOptions {
  kernelSize: number[];
  stride: number[];
  padding: number[];
  dilation: number[];
  ceilMode: boolean;
  indexType: 'int32' | 'int64';
}

const fail = (node: OnnxNode, what: string) => new OnnxModelError(`${describeNode(node)}: ${what}`);

/** The options of MaxPool `node` on input shape `x` (N, C, *spatial). */
export function poolOptions(node: OnnxNode, x: readonly number[], dims: number): PoolOptions {
  const kernelSize = attrInts(node, 'kernel_shape')!;
  const stride = attrInts(node, 'strides') ?? kernelSize.map(() => 1);
  const dilation = attrInts(node, 'dilations') ?? kernelSize.map(() => 1);
  const ceilMode = attrInt(node, 'ceil_mode', 0) === 1;
  if (attrInt(node, 'storage_order', 0) !== 0) {
    throw fail(node, 'storage_order=1 (column-major Indices) is not supported: unpool gives row-major ' +
        'indices (storage_order 0), as PyTorch exports them');
  }
  if (x.length !== dims + 2) {
    throw fail(node, `input shape ${JSON.stringify(x)} has ${x.length} dims; a ${dims}d MaxPool takes N, C ` +
        `and ${dims} spatial dims`);
  }
  const autoPad = attrString(node, 'auto_pad', 'NOTSET');
  let pads = attrInts(node, 'pads') ?? Array(2 * dims).fill(0);
  if (autoPad === 'VALID') {
    pads = Array(2 * dims).fill(0);
  } else if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') {
    pads = Array(2 * dims).fill(0);
    for (let i = 0; i < dims; ++i) {
      const input = x[i + 2], out = Math.ceil(input / stride[i]);
      const total = Math.max(0, (out - 1) * stride[i] + (kernelSize[i] - 1) * dilation[i] + 1 - input);
      const small = Math.floor(total / 2);
      pads[i] = autoPad === 'SAME_UPPER' ? small : total - small;
      pads[i + dims] = total - pads[i];
    }
  } else if (autoPad !== 'NOTSET') {
    throw fail(node, `auto_pad=${JSON.stringify(autoPad)} is not an ONNX auto_pad`);
  }
  if (stride.length !== dims || dilation.length !== dims || pads.length !== 2 * dims) {
    throw fail(node, `strides, dilations and pads must have ${dims}, ${dims} and ${2 * dims} entries`);
  }
  const padding = pads.slice(0, dims);
  if (padding.some((p, i) => p !== pads[i + dims])) {
    throw fail(node, `pads=${JSON.stringify(pads)}${autoPad !== 'NOTSET' ? ` (from auto_pad=${autoPad})` : ''} ` +
        'pad the two ends of a dim differently, which unpool (as PyTorch) does not; pad the input instead');
  }
  return { kernelSize, stride, padding, dilation, ceilMode, indexType: 'int64' };
}

/**
 * The output shape of MaxUnpool `node` for values of shape `x`: its
 * output_shape input (`given`) when it has one, else ONNX's default,
 * (in - 1) * stride - pad_begin - pad_end + kernel per spatial dim.
 */
export function unpoolShape(node: OnnxNode, x: readonly number[], dims: number, given?: IntTensor): number[] {
  if (x.length !== dims + 2) {
    throw fail(node, `input shape ${JSON.stringify(x)} has ${x.length} dims; a ${dims}d MaxUnpool takes N, C ` +
        `and ${dims} spatial dims`);
  }
  if (given !== undefined) {
    const s = given.data.map(Number);
    if (given.dims.length !== 1 || s.length !== dims + 2 || s[0] !== x[0] || s[1] !== x[1] ||
        s.some((v) => !Number.isSafeInteger(v) || v < 0)) {
      throw fail(node, `output_shape=${JSON.stringify(s)} must be [N, C, ${dims} sizes] with the N and C of ` +
          `its input ${JSON.stringify(x)}`);
    }
    return s;
  }
  const kernel = attrInts(node, 'kernel_shape')!;
  const stride = attrInts(node, 'strides') ?? kernel.map(() => 1);
  const pads = attrInts(node, 'pads') ?? Array(2 * dims).fill(0);
  return [x[0], x[1], ...kernel.map((k, i) => (x[i + 2] - 1) * stride[i] - pads[i] - pads[i + dims] + k)];
}
