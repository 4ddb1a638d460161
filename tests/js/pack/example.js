// The computation both smoke tests run (Node and the bundled page), so their
// results can be compared with each other instead of with literals.
export function example({ maxPool2d, maxUnpool2d, maxPool2dBackward }) {
  const data = Float32Array.from({ length: 2 * 5 * 5 }, (_, i) => Math.sin(i * 2.3) * 10);
  const x = { data, shape: [1, 2, 5, 5] };
  const { output, indices } = maxPool2d(x, { kernelSize: 3, stride: 2, padding: 1 });
  const restored = maxUnpool2d(output, indices, { kernelSize: 3, stride: 2, padding: 1, outputSize: x.shape });
  const grad = maxPool2dBackward({ data: new Float32Array(output.data.length).fill(1), shape: output.shape },
                                 indices, { inputShape: x.shape, kernelSize: 3, stride: 2, padding: 1 });
  // Every pooled value is the input at its index, and unpool puts it back there.
  const plane = 25;
  let consistent = true;
  for (let i = 0; i < output.data.length; ++i) {
    const c = Math.floor(i / (output.data.length / 2));
    const at = c * plane + indices.data[i];
    if (x.data[at] !== output.data[i] || restored.data[at] !== output.data[i]) consistent = false;
  }
  return {
    consistent,
    output: Array.from(output.data), outputShape: output.shape,
    indices: Array.from(indices.data), indexType: indices.data.constructor.name,
    restored: Array.from(restored.data), restoredShape: restored.shape,
    grad: Array.from(grad.data),
  };
}
