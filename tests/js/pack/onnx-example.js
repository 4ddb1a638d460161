// The computation of every `unpool/onnx` smoke (Node.js, Deno and Bun, the
// Vite, webpack and import-map pages), so that their results can be compared
// with each other instead of with literals: onnx-model.mjs's model through
// createSession with unpoolNodes 'all' (unpool's WebAssembly kernels run the
// MaxPool and the MaxUnpool) and through ORT alone (its own kernels), on the
// same input and execution provider. Throws unless the two agree bit for bit
// and unpool ran both nodes, and unless `isReady` of the caller's 'unpool'
// then says true: 'unpool' and 'unpool/onnx' must share one module instance
// (createSession initialised it), not load a second copy of the loader.
export async function onnxExample({ createSession, isReady, ort, model, ep }) {
  const dims = [1, 2, 7, 6];
  // Values on a coarse grid, so that windows hold ties, and negatives.
  const data = Float32Array.from({ length: 84 }, (_, k) => ((k * 37) % 11) - 5);
  const session = await createSession(model, { ort, executionProviders: [ep], unpoolNodes: 'all' });
  const alone = await ort.InferenceSession.create(model, { executionProviders: [ep] });
  try {
    const got = await session.run({ x: new ort.Tensor('float32', data, dims) });
    const want = await alone.run({ x: new ort.Tensor('float32', data, dims) });
    const bits = (t) => String(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    for (const name of ['y', 'i']) {
      const [g, w] = [got[name], want[name]];
      if (g.type !== w.type || String(g.dims) !== String(w.dims) || bits(g) !== bits(w)) {
        throw new Error(`unpool/onnx (${ep}): output ${name} differs from ORT's alone: ` +
            `${g.type} [${g.dims}] ${Array.from(g.data)} vs ${w.type} [${w.dims}] ${Array.from(w.data)}`);
      }
    }
    const steps = session.steps.map((s) => (s.kind === 'unpool' ? `unpool ${s.op}` : s.kind));
    if (steps.join() !== 'unpool MaxPool,unpool MaxUnpool') throw new Error(`unpool/onnx: steps ${steps}`);
    if (!isReady()) throw new Error("'unpool' is not initialised after unpool/onnx ran: two module instances");
    const result = {
      steps,
      y: { type: got.y.type, dims: got.y.dims, data: Array.from(got.y.data) },
      i: { type: got.i.type, dims: got.i.dims, data: Array.from(got.i.data, Number) },
    };
    for (const t of [...Object.values(got), ...Object.values(want)]) t.dispose();
    return result;
  } finally {
    await session.release();
    await alone.release();
  }
}
