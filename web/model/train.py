#!/usr/bin/python3
"""Trains the demo's SegNet (segnet.py) on synthetic scenes (scenes.py),
prints its accuracy on held-out scenes, and writes what the page and its
tests read (web/model/README.md says more):

    segnet.onnx      the model, exported with unpool_onnx (python/)
    weights.bin      the trained weights, float32 in state_dict order
    model.json       the training recipe, the held-out accuracy, digests
    reference.json   the page's example scenes and PyTorch's labels of them

    /usr/bin/python3 web/model/train.py            train (3 to 4 minutes here), write the four files
    /usr/bin/python3 web/model/train.py --check    export from weights.bin and retrain the first 200
                                                   steps: the committed files must come out byte for
                                                   byte (11 s; npm test's demo stage runs it)
    /usr/bin/python3 web/model/train.py --check-full   retrain in full: the same bytes again
    /usr/bin/python3 web/model/train.py --export   rewrite the files from weights.bin (no training),
                                                   after a change to the export or the examples

Deterministic: seeded numpy and torch generators, one thread; measured
bit-exact from run to run on this machine (a different CPU may take other
kernels and round differently).
"""
import argparse
import hashlib
import json
import os
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import unpool_onnx  # noqa: E402
from scenes import CLASSES, SIZE, batch  # noqa: E402
from segnet import WIDTHS, SegNet  # noqa: E402
import examples  # noqa: E402

RECIPE = {
    "seed": 46, "steps": 4000, "batch": 16, "lr": 0.005, "lr_end": 0.0001,
    "test_seed": 4646, "test_scenes": 512, "prefix": 200,
}
FILES = ("segnet.onnx", "weights.bin", "model.json", "reference.json")


def setup():
    torch.manual_seed(RECIPE["seed"])
    # One thread: the same order of float additions in every run. (torch's
    # use_deterministic_algorithms refuses max_unpool2d, for CUDA's racy
    # scatter; on the CPU with 2x2 windows that never overlap it is exact.)
    torch.set_num_threads(1)


def to_input(images):
    """uint8 (n, H, W, 3) -> float32 (n, 3, H, W) in [0, 1], as the page makes it."""
    return torch.from_numpy(images).permute(0, 3, 1, 2).float() / 255


def weights_bytes(model):
    """Every float tensor of the state_dict, in order, as little-endian float32."""
    return b"".join(t.detach().contiguous().numpy().astype("<f4").tobytes()
                    for t in model.state_dict().values() if t.is_floating_point())


def load_weights(model, data):
    offset = 0
    with torch.no_grad():
        for t in model.state_dict().values():
            if not t.is_floating_point():
                continue
            n = t.numel()
            t.copy_(torch.from_numpy(np.frombuffer(data, "<f4", n, offset).copy()).reshape(t.shape))
            offset += 4 * n
    if offset != len(data):
        raise ValueError(f"weights.bin has {len(data)} bytes, the model {offset}")


def digest(data):
    return hashlib.sha256(data).hexdigest()


def train(steps, log=print):
    """Adam with a cosine learning rate, fresh scenes every step; the model
    and the digest of its weights every PREFIX steps."""
    setup()
    model = SegNet()
    rng = np.random.default_rng(RECIPE["seed"])
    opt = torch.optim.Adam(model.parameters(), lr=RECIPE["lr"])
    lr0, lr1, total = RECIPE["lr"], RECIPE["lr_end"], RECIPE["steps"]
    digests, losses = {}, {}
    model.train()
    for step in range(1, steps + 1):
        for g in opt.param_groups:
            g["lr"] = lr1 + 0.5 * (lr0 - lr1) * (1 + np.cos(np.pi * (step - 1) / total))
        images, labels = batch(rng, RECIPE["batch"])
        loss = F.cross_entropy(model.logits(to_input(images)), torch.from_numpy(labels).long())
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % RECIPE["prefix"] == 0:
            digests[step] = digest(weights_bytes(model))
            losses[step] = round(loss.item(), 4)
            log(f"step {step}: loss {loss.item():.4f}")
    return model.eval(), digests, losses


def evaluate(model):
    """Pixel accuracy and per-class IoU on held-out scenes (their own seed)."""
    images, truth = batch(np.random.default_rng(RECIPE["test_seed"]), RECIPE["test_scenes"])
    with torch.no_grad():
        pred = torch.cat([model(to_input(images[i:i + 64]))[0] for i in range(0, len(images), 64)]).numpy()
    k = len(CLASSES)
    confusion = np.bincount(truth.ravel().astype(np.int64) * k + pred.ravel(), minlength=k * k).reshape(k, k)
    inter = np.diag(confusion)
    iou = inter / (confusion.sum(0) + confusion.sum(1) - inter)
    return {
        "pixel_accuracy": round(float(inter.sum() / confusion.sum()), 4),
        "background_share": round(float(confusion[0].sum() / confusion.sum()), 4),
        "iou": {c: round(float(v), 4) for c, v in zip(CLASSES, iou)},
        "mean_iou": round(float(iou.mean()), 4),
    }


def export(model, path):
    x = torch.zeros(1, 3, SIZE, SIZE)
    unpool_onnx.export(model, x, path, input_names=["image"], output_names=["labels", "logits"],
                       opset_version=17, do_constant_folding=True)


def write_all(model, digests, losses, out):
    """The four files of FILES into folder `out`; returns the metrics."""
    metrics = evaluate(model)
    weights = weights_bytes(model)
    with open(os.path.join(out, "weights.bin"), "wb") as f:
        f.write(weights)
    onnx_path = os.path.join(out, "segnet.onnx")
    export(model, onnx_path)
    with open(onnx_path, "rb") as f:
        onnx_bytes = f.read()
    card = {
        "classes": list(CLASSES), "size": SIZE, "widths": list(WIDTHS), "recipe": RECIPE,
        "torch": torch.__version__.split("+")[0], "held_out": metrics, "loss": losses,
        "digests": {"weights_at_step": digests, "weights": digest(weights), "onnx": digest(onnx_bytes)},
    }
    with open(os.path.join(out, "model.json"), "w") as f:
        json.dump(card, f, indent=1)
        f.write("\n")
    with open(os.path.join(out, "reference.json"), "w") as f:
        json.dump(examples.reference(model, to_input), f, indent=1)
        f.write("\n")
    return metrics


def print_metrics(m):
    print(f"held-out pixel accuracy {100 * m['pixel_accuracy']:.2f} % "
          f"(background alone: {100 * m['background_share']:.2f} %), mean IoU {m['mean_iou']:.3f}")
    print("IoU: " + ", ".join(f"{c} {v:.3f}" for c, v in m["iou"].items()))


def same_files(a, b, names):
    bad = []
    for n in names:
        with open(os.path.join(a, n), "rb") as fa, open(os.path.join(b, n), "rb") as fb:
            if fa.read() != fb.read():
                bad.append(n)
    return bad


def committed():
    """The committed model (weights.bin) with the digests and losses of its training (model.json)."""
    with open(os.path.join(HERE, "model.json")) as f:
        card = json.load(f)
    model = SegNet().eval()
    with open(os.path.join(HERE, "weights.bin"), "rb") as f:
        load_weights(model, f.read())
    return model, {int(k): v for k, v in card["digests"]["weights_at_step"].items()}, card["loss"]


def check(full):
    """Writes the files again into a scratch folder and compares them with the committed ones."""
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.time()
        if full:
            model, digests, losses = train(RECIPE["steps"], log=lambda s: None)
        else:
            model, digests, losses = committed()
            _, prefix, _ = train(RECIPE["prefix"], log=lambda s: None)
            got, want = prefix[RECIPE["prefix"]], digests[RECIPE["prefix"]]
            if got != want:
                sys.exit(f"train.py --check: {RECIPE['prefix']} training steps give weights {got[:16]}..., "
                         f"the recorded run {want[:16]}...: the training is not what made the committed "
                         "model (retrain: /usr/bin/python3 web/model/train.py)")
        write_all(model, digests, losses, tmp)
        bad = same_files(tmp, HERE, FILES)
        if bad:
            sys.exit(f"train.py --check{'-full' if full else ''}: {', '.join(bad)} differ from what the "
                     "script writes (retrain: /usr/bin/python3 web/model/train.py)")
        what = "retrained in full" if full else f"export from weights.bin, {RECIPE['prefix']} steps retrained"
        print(f"train.py: {', '.join(FILES)} reproduced byte for byte ({what}, {time.time() - t0:.1f} s)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files (fast)")
    ap.add_argument("--check-full", action="store_true", help="retrain in full and compare")
    ap.add_argument("--export", action="store_true", help="rewrite the files from weights.bin")
    a = ap.parse_args()
    if a.check or a.check_full:
        check(full=a.check_full)
        return
    if a.export:
        print_metrics(write_all(*committed(), HERE))
        return
    t0 = time.time()
    model, digests, losses = train(RECIPE["steps"])
    print(f"trained {RECIPE['steps']} steps of {RECIPE['batch']} scenes in {time.time() - t0:.1f} s")
    print_metrics(write_all(model, digests, losses, HERE))
    print(f"segnet.onnx: {os.path.getsize(os.path.join(HERE, 'segnet.onnx'))} bytes")


if __name__ == "__main__":
    main()
