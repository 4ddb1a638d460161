"""The page's example scenes and PyTorch's labels of them (reference.json):
what the page offers under "Examples", and what its tests compare the labels
of unpool/onnx with, in every browser and on both backends.

Each example: name, the image (RGB bytes, base64, row-major 48x48x3), the
true labels and PyTorch's (one byte a pixel, base64), PyTorch's pixel
accuracy on it, and the smallest gap between the best and the second-best
logit over its pixels: labels are compared exactly, so that gap must be far
above the float32 differences between two runtimes' convolutions (~1e-5
here). `channels`: per stage (outermost first), the channel the page shows
first, the one whose decoder map is largest on the Shapes example.
"""
import base64

import numpy as np
import torch

from scenes import CLASSES, SIZE, X, disc, line, scene, square, triangle

MIN_MARGIN = 1e-3  # refuse an example whose labels a rounding difference could flip


def shapes(rng):
    """One shape of each class on a dark background, placed by hand (the single-op demo's "Shapes")."""
    image = np.empty((SIZE, SIZE, 3))
    image[:] = [0.11, 0.12, 0.17]
    labels = np.zeros((SIZE, SIZE), dtype=np.uint8)
    for kind, mask, rgb in [
        (1, disc(14, 14, 8.5), (0.92, 0.27, 0.24)),
        (2, square(27, 6, 14), (0.24, 0.78, 0.43)),
        (3, triangle(14, 34, 10, 0.0), (0.27, 0.47, 0.94)),
        (4, line(26, 44, 44, 25, 2.2), (0.98, 0.84, 0.24)),
    ]:
        image[mask] = rgb
        labels[mask] = kind
    image = image + rng.normal(0, 0.04, image.shape)
    return np.round(np.clip(image, 0, 1) * 255).astype(np.uint8), labels


def candidates():
    """(name, image, labels): Shapes, then seeded random scenes, apart from the training and test streams."""
    yield ("Shapes",) + shapes(np.random.default_rng([46, 0]))
    for i in range(1, 100):
        yield (f"Scene {i}",) + scene(np.random.default_rng([46, i]))


def b64(a):
    return base64.b64encode(np.ascontiguousarray(a, dtype=np.uint8).tobytes()).decode("ascii")


def reference(model, to_input, count=5):
    """reference.json's content: the first `count` candidates whose labels no
    rounding difference can flip (every pixel's best logit MIN_MARGIN above
    the second), with PyTorch's labels."""
    assert X.shape == (SIZE, SIZE)
    items, skipped = [], []
    for name, image, truth in candidates():
        with torch.no_grad():
            labels, logits = model(to_input(image[None]))
        top2 = torch.topk(logits[0], 2, dim=0).values
        margin = float((top2[0] - top2[1]).min())
        if margin < MIN_MARGIN:
            skipped.append(name)
            continue
        labels = labels[0].numpy().astype(np.uint8)
        items.append({
            "name": name, "image": b64(image), "truth": b64(truth), "labels": b64(labels),
            "accuracy": round(float((labels == truth).mean()), 4), "margin": round(margin, 4),
        })
        if len(items) == count:
            break
    if items[0]["name"] != "Shapes":
        raise SystemExit("examples.py: the Shapes example has a pixel whose two best logits are under "
                         f"{MIN_MARGIN} apart: move a shape")
    with torch.no_grad():
        _, stages = model.maps(to_input(shapes(np.random.default_rng([46, 0]))[0][None]))
    channels = [int(s["decoder"][0].sum(dim=(1, 2)).argmax()) for s in stages]
    return {"size": SIZE, "classes": list(CLASSES), "min_margin": MIN_MARGIN, "skipped": skipped,
            "channels": channels, "examples": items}
