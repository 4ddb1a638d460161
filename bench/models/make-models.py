#!/usr/bin/python3
"""The models of the runner's benchmarks (bench/js/models.mjs, bench/js/models-webgpu.mjs):
the zoo's SegNet (tests/models/zoo.py) with the weights of the fixtures'
`segnet` (3x64x64) and `segnet-small` (3x15x17) cases, exported

  - whole, with unpool_onnx (what unpool/onnx runs, and one ORT session runs
    on a CPU EP): <name>.onnx;
  - split by hand at its pools and unpools, as a user without the runner
    exports it: <name>-enc1.onnx (x -> a), <name>-enc2.onnx (pooled a -> b),
    <name>-dec2.onnx (unpooled -> c), <name>-dec1.onnx (unpooled -> logits),
    with unpool's maxPool2d / maxUnpool2d between them.

    /usr/bin/python3 bench/models/make-models.py OUTDIR
"""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "models"))

import unpool_onnx  # noqa: E402
import zoo  # noqa: E402


def main(outdir):
    os.makedirs(outdir, exist_ok=True)
    for case in zoo.cases():
        if case.name not in ("segnet", "segnet-small"):
            continue
        torch.manual_seed(case.seed)
        model = zoo.seeded_eval(case.build())
        shape = (1, *case.shape[1:])
        x = torch.zeros(shape)
        unpool_onnx.export(model, x, os.path.join(outdir, f"{case.name}.onnx"), opset_version=case.opset,
                           input_names=["x"], output_names=["logits"])
        with torch.no_grad():
            a = model.enc1(x)
            p1, _ = model.pool(a)
            b = model.enc2(p1)
            c = model.dec2(torch.zeros_like(b))
        # Each block exported on its input's shape: x, a pooled, b unpooled, c unpooled to a's size.
        parts = {
            "enc1": (model.enc1, x, "x", "a"),
            "enc2": (model.enc2, p1, "p1", "b"),
            "dec2": (model.dec2, torch.zeros_like(b), "u2", "c"),
            "dec1": (torch.nn.Sequential(model.dec1, model.head), c.new_zeros(1, c.shape[1], *a.shape[2:]),
                     "u1", "logits"),
        }
        for part, (m, example, inp, out) in parts.items():
            torch.onnx.export(m, example, os.path.join(outdir, f"{case.name}-{part}.onnx"),
                              opset_version=case.opset, input_names=[inp], output_names=[out])
        print(case.name, "->", outdir)


if __name__ == "__main__":
    main(sys.argv[1])
