#!/usr/bin/python3
"""Exports the model zoo (zoo.py) with unpool_onnx and records PyTorch's
results, for the Node tests (export.node.test.ts, the unpool/onnx runner):

    /usr/bin/python3 tests/models/make-fixtures.py OUTDIR

writes per case OUTDIR/<name>.onnx, OUTDIR/<name>.json (the format is in
tests/models/README.md) and OUTDIR/<name>.bin (every run's inputs and
PyTorch's outputs, raw little-endian). Deterministic: the weights and the
inputs are seeded and PyTorch runs on one thread, so the files are the same
bytes on every run on a machine.

Tolerances (each case's `atol` in zoo.py), measured with onnxruntime-node
1.30's CPU EP against these fixtures (export.node.test.ts prints the max abs
diff of every output):
  - float32 networks: outputs of magnitude 0.3 to 1.4, sums of 8 to 144
    products per conv, up to 5 convs deep. ORT (MLAS) and PyTorch round in
    other orders: max abs diff 3.6e-7 over every case (indices-out's pooled
    values, up to 1.37), 8.9e-8 on segnet's logits, a few float32 ulps.
    atol = 1e-5 is 28 times the worst of them, and far below the top-2
    margin every label needs (> 10 * atol, asserted below).
  - pools and unbatched1d: no arithmetic (a max, a copy, a scatter), so 0.
  - float64: the same sums in double, ~1e-16 relative; atol 1e-12 (ORT's
    CPU EP cannot run it alone: no float64 MaxUnpool kernel, measured).
Logits: every pixel's top-2 margin over axis 1 must exceed 10 * atol, so an
equal label is a fair test; inputs are redrawn (next seed) until it holds.
"""
import io
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import unpool_onnx  # noqa: E402
import zoo  # noqa: E402

DTYPES = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64"}
MARGIN = 10  # logits: top-2 margin > MARGIN * atol
ATTEMPTS = 50


def draw(case, shape, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(*shape, generator=g, dtype=case.dtype)
    return torch.round(x * 2) / 2 if case.ties else x


def min_margin(logits):
    top2 = logits.topk(2, dim=1).values
    return (top2[:, 0] - top2[:, 1]).min().item()


def naive_unpool2d(g, y, indices, output_size):
    """The usual workaround: PyTorch's per-plane indices straight into MaxUnpool."""
    del output_size
    spatial = g.original_node.output().type().sizes()[-2:]
    shape = g.op("Slice", g.op("Shape", y), *(g.op("Constant", value_t=torch.tensor([v])) for v in (0, 2, 0)))
    shape = g.op("Concat", shape, g.op("Constant", value_t=torch.tensor(spatial)), axis_i=0)
    return g.op("MaxUnpool", y, indices, shape, kernel_shape_i=[1, 1], strides_i=[1, 1])


def export(case, model, example):
    names = list(case.outputs)
    kwargs = dict(opset_version=case.opset, input_names=["x"], output_names=names)
    if case.batches:
        kwargs["dynamic_axes"] = {n: {0: "batch"} for n in ["x"] + names}
    f = io.BytesIO()
    if case.workaround:
        torch.onnx.register_custom_op_symbolic("aten::max_unpool2d", naive_unpool2d, case.opset)
        try:
            torch.onnx.export(model, example, f, **kwargs)
        finally:
            torch.onnx.unregister_custom_op_symbolic("aten::max_unpool2d", case.opset)
    else:
        unpool_onnx.export(model, example, f, **kwargs)
    return f.getvalue()


def record_run(case, model, shape, seed, blob):
    """Draws inputs (redrawn until the logits' margins hold), runs the model,
    appends inputs and outputs to blob; returns the run's JSON."""
    for attempt in range(ATTEMPTS):
        x = draw(case, shape, seed + attempt)
        with torch.no_grad():
            out = model(x)
        out = out if isinstance(out, tuple) else (out,)
        margins = [min_margin(o) for o, k in zip(out, case.outputs.values()) if k == "logits"]
        if all(m > MARGIN * case.atol for m in margins):
            break
    else:
        raise SystemExit(f"{case.name}: no input in {ATTEMPTS} seeds gives every label a margin over "
                         f"{MARGIN} * atol")

    def tensor(name, t, extra):
        while len(blob) % 8:
            blob.append(0)
        data = t.contiguous().numpy().astype(t.numpy().dtype.newbyteorder("<")).tobytes()
        entry = {"name": name, "dtype": DTYPES[t.dtype], "shape": list(t.shape), "offset": len(blob),
                 "bytes": len(data), **extra}
        blob.extend(data)
        return entry

    inputs = [tensor("x", x, {})]
    outputs = []
    for (name, kind), t in zip(case.outputs.items(), out):
        extra = {"kind": kind} if kind == "indices" else {"kind": kind, "atol": case.atol}
        outputs.append(tensor(name, t, extra))
    return {"inputs": inputs, "outputs": outputs}, (min(margins) if margins else None)


def dumps(doc):
    """JSON with one line per field and per tensor (diffable, still short)."""
    def tensors(ts):
        return "[\n" + ",\n".join("    " + json.dumps(t) for t in ts) + "]"
    runs = ",\n".join(f'  {{"inputs": {tensors(r["inputs"])},\n   "outputs": {tensors(r["outputs"])}}}'
                      for r in doc["runs"])
    fields = [f' "runs": [\n{runs}\n ]' if k == "runs" else f" {json.dumps(k)}: {json.dumps(v)}"
              for k, v in doc.items()]
    text = "{\n" + ",\n".join(fields) + "\n}\n"
    assert json.loads(text) == doc
    return text


def make(case, outdir):
    torch.manual_seed(case.seed)
    model = zoo.seeded_eval(case.build())
    onnx_bytes = export(case, model, draw(case, case.shape, case.seed * 1000))
    blob = bytearray()
    runs, notes = [], []
    shapes = [(b, *case.shape[1:]) for b in case.batches] if case.batches else [tuple(case.shape)]
    for r, shape in enumerate(shapes):
        run, margin = record_run(case, model, shape, case.seed * 1000 + 100 * (r + 1), blob)
        runs.append(run)
        notes.append(f"{list(shape)}" + (f" margin {margin:.2e}" if margin is not None else ""))
    doc = {"name": case.name, "description": case.description, "opset": case.opset,
           "model": f"{case.name}.onnx", "runs": runs, "gpu": case.gpu, **case.json}
    with open(os.path.join(outdir, f"{case.name}.onnx"), "wb") as f:
        f.write(onnx_bytes)
    with open(os.path.join(outdir, f"{case.name}.bin"), "wb") as f:
        f.write(blob)
    with open(os.path.join(outdir, f"{case.name}.json"), "w") as f:
        f.write(dumps(doc))
    print(f"{case.name}: opset {case.opset}, {len(onnx_bytes)} + {len(blob)} bytes, runs {', '.join(notes)}")


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    torch.set_num_threads(1)
    for case in zoo.cases():
        make(case, outdir)


if __name__ == "__main__":
    main(sys.argv)
