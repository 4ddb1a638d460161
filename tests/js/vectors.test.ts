// The conformance vectors through the public API, with int64 and int32
// indices: outputs bit for bit (Object.is), indices by value, errors thrown.
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import {
  Container, containersOf, diffIndices, diffValues, expectation, GoldenCase, loadCases, parseOp,
  size, toIndices, toTyped, toValues,
} from './golden.js';

type Api = Record<string, (...args: unknown[]) => any>;
const api = unpool as unknown as Api;

const cases = loadCases();

beforeAll(async () => {
  await unpool.init();
});

function run(c: GoldenCase, indexType: 'int32' | 'int64', container?: Container) {
  const op = parseOp(c.op);
  const p = c.params;
  const x = toValues(c.inputs.x, container);
  const grad = () => toValues(c.inputs.grad_output, container);
  if (op.kind === 'adaptive' || op.kind === 'fractional') {
    runAdaptive(c, indexType, x, grad);
    return;
  }
  if (!op.unpool) {
    const geometry = {
      kernelSize: size(p.kernel_size)!, stride: size(p.stride), padding: size(p.padding),
      dilation: size(p.dilation), ceilMode: p.ceil_mode === true,
    };
    const { output, indices } = api[`maxPool${op.dims}d`](x, { ...geometry, indexType });
    expect(output.data.constructor).toBe(x.data.constructor);
    expect(indices.data).toBeInstanceOf(indexType === 'int64' ? BigInt64Array : Int32Array);
    checkValues('output', output, c.expected.output);
    if (c.expected.indices) {
      expect(indices.shape).toEqual(c.expected.indices.shape);
      expect(diffIndices(indices.data, c.expected.indices), 'indices').toBe('');
    }
    if (!op.backward) return;
    const gradInput = api[`maxPool${op.dims}dBackward`](
        grad(), indices, { ...geometry, inputShape: x.shape });
    checkValues('grad_input', gradInput, c.expected.grad_input);
    return;
  }
  const indices = { data: toIndices(c.inputs.indices, indexType), shape: c.inputs.indices.shape };
  const outputSize = p.output_size === null ? undefined : (p.output_size as number[]);
  const output = api[`maxUnpool${op.dims}d`](x, indices, {
    kernelSize: size(p.kernel_size)!, stride: size(p.stride), padding: size(p.padding), outputSize,
  });
  if (c.expected.output) {
    checkValues('output', output, c.expected.output);
  } else {
    // A divergence that succeeds: the spatial dims are outputSize's last ones.
    expect(output.shape.slice(-op.dims)).toEqual(outputSize!.slice(-op.dims));
  }
  if (!op.backward) return;
  const gradInput = api[`maxUnpool${op.dims}dBackward`](grad(), indices);
  checkValues('grad_input', gradInput, c.expected.grad_input);
}

/** Adaptive and fractional pools (and their backward passes). */
function runAdaptive(c: GoldenCase, indexType: 'int32' | 'int64', x: ReturnType<typeof toValues>,
                     grad: () => ReturnType<typeof toValues>) {
  const op = parseOp(c.op);
  const p = c.params;
  const name = `${op.fn}${op.dims}d`;
  let result;
  if (op.kind === 'adaptive') {
    result = api[name](x, { outputSize: p.output_size, indexType });
  } else {
    const s = c.inputs.random_samples;
    result = api[name](x, {
      kernelSize: size(p.kernel_size)!, outputSize: size(p.output_size),
      outputRatio: size(p.output_ratio), indexType,
      randomSamples: { data: toTyped(s), shape: s.shape },
    });
  }
  const { output, indices } = result;
  expect(output.data.constructor).toBe(x.data.constructor);
  expect(indices.data).toBeInstanceOf(indexType === 'int64' ? BigInt64Array : Int32Array);
  checkValues('output', output, c.expected.output);
  if (c.expected.indices) {
    expect(indices.shape).toEqual(c.expected.indices.shape);
    expect(diffIndices(indices.data, c.expected.indices), 'indices').toBe('');
  }
  if (!op.backward) return;
  const gradInput = api[`${name}Backward`](grad(), indices, { inputShape: x.shape });
  checkValues('grad_input', gradInput, c.expected.grad_input);
}

function checkValues(what: string, got: { data: ArrayLike<number>; shape: number[]; dtype: string },
                     want: GoldenCase['expected'][string] | undefined) {
  // An error case that fails in its backward pass has no forward results to check.
  if (want === undefined) return;
  expect(got.shape, `${what} shape`).toEqual(want.shape);
  expect(got.dtype, `${what} dtype`).toBe(want.dtype);
  expect(diffValues(got.data, want), what).toBe('');
}

describe('conformance vectors', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const c of cases) {
    const e = expectation(c);
    for (const [indexType, container] of (['int64', 'int32'] as const).flatMap((t) =>
      containersOf(c).map((k) => [t, k] as const))) {
      const name = `${c.id} ${c.op} (${indexType} indices${container ? `, ${container}` : ''})`;
      if (e.kind === 'skip') {
        it.skip(`${name}: ${e.why}`, () => {});
        continue;
      }
      it(name, () => {
        if (e.kind === 'error') {
          const prefix = parseOp(c.op).fn;
          let thrown: unknown;
          try {
            run(c, indexType, container);
          } catch (error) {
            thrown = error;
          }
          expect(thrown, `${c.error_kind}: must throw`).toBeInstanceOf(
              e.type === 'TypeError' ? TypeError : RangeError);
          expect((thrown as Error).message.startsWith(prefix), (thrown as Error).message).toBe(true);
        } else if (e.kind === 'either') {
          // README (v3): an empty-output unpool may match or throw.
          try {
            run(c, indexType, container);
          } catch (error) {
            expect(error).toBeInstanceOf(RangeError);
            expect((error as Error).message.startsWith(parseOp(c.op).fn)).toBe(true);
          }
        } else {
          run(c, indexType, container);
        }
      });
    }
  }
});
