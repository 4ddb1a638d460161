// TensorFlow.js (its CPU backend, plain JS) as the other side of the
// bridge: tf.maxPoolWithArgmax's indexes ('tensorflow' and, with
// includeBatchInIndex, 'tensorflow-with-batch') on NHWC input equal
// unpool's NHWC indices converted with convertIndices, and back.
// Values are distinct, so each window's argmax is unique whatever the tie rule.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import * as u from '../../dist/index.js';
import { rng, sameBits } from './layout-helpers.js';

beforeAll(async () => {
  await tf.setBackend('cpu');
  await u.init();
});

describe('TensorFlow.js maxPoolWithArgmax', () => {
  it('its indexes are convertIndices of unpool\'s NHWC indices, with and without the batch', () => {
    const r = rng(42);
    const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
    for (let t = 0; t < 24; ++t) {
      const [N, C, H, W, k, s] = [int(1, 2), int(1, 5), int(4, 9), int(4, 9), int(2, 3), int(1, 3)];
      const n = N * H * W * C;
      const x = Float32Array.from({ length: n }, (_, i) => i - n / 2);
      for (let i = n - 1; i > 0; --i) {
        const j = Math.floor(r() * (i + 1));
        [x[i], x[j]] = [x[j], x[i]];
      }
      const shape = [N, H, W, C];
      const label = `${JSON.stringify(shape)} k${k} s${s}`;
      const ours = u.maxPool2d({ data: x, shape }, { kernelSize: k, stride: s, layout: 'NHWC' });
      const xt = tf.tensor4d(x, [N, H, W, C]);
      for (const withBatch of [false, true]) {
        const { result, indexes } = tf.maxPoolWithArgmax(xt, k, s, 'valid', withBatch);
        expect(result.shape, label).toEqual(ours.output.shape);
        expect(sameBits(result.dataSync() as Float32Array, ours.output.data), label).toBe('');
        const theirs = Int32Array.from(indexes.dataSync());
        const format = withBatch ? 'tensorflow-with-batch' : 'tensorflow';
        const conv = u.convertIndices(ours.indices, { from: 'pytorch', to: format, inputShape: shape, layout: 'NHWC' });
        expect(sameBits(conv.data, theirs), `${label} ${format}`).toBe('');
        const back = u.convertIndices({ data: theirs, shape: indexes.shape },
                                      { from: format, to: 'pytorch', inputShape: shape, layout: 'NHWC' });
        expect(sameBits(back.data, ours.indices.data), `${label} ${format} back`).toBe('');
        // TensorFlow's result unpools with its own indexes, converted
        const restored = u.maxUnpool2d({ data: result.dataSync() as Float32Array, shape: result.shape }, back,
                                       { kernelSize: k, stride: s, layout: 'NHWC', outputSize: shape });
        const reference = u.maxUnpool2d(ours.output, ours.indices,
                                        { kernelSize: k, stride: s, layout: 'NHWC', outputSize: shape });
        expect(sameBits(restored.data, reference.data), label).toBe('');
        tf.dispose([result, indexes]);
      }
      xt.dispose();
    }
  });
});
