"""Synthetic scenes for the demo's SegNet: discs, squares, triangles and lines
on a background, with noise, and the class of every pixel.

A scene is drawn from a numpy Generator, so a seed gives the same image on
every machine (numpy's PCG64 and its distributions are stable). Pixels are
sampled at their centres (x + 0.5, y + 0.5) with no antialiasing, so a shape
covers exactly the pixels its label says; the page draws its own scenes and
the visitor's shapes the same way (web/src/segnet/scenes.js).

    image  uint8 (SIZE, SIZE, 3), RGB, noise included
    labels uint8 (SIZE, SIZE), CLASSES' index of each pixel (a later shape
           covers an earlier one)
"""
import numpy as np

SIZE = 48
CLASSES = ("background", "disc", "square", "triangle", "line")


def _grid():
    c = np.arange(SIZE, dtype=np.float64) + 0.5
    return np.meshgrid(c, c)  # x, y of every pixel centre


X, Y = _grid()


def disc(cx, cy, r):
    return (X - cx) ** 2 + (Y - cy) ** 2 <= r * r


def square(x0, y0, side):
    return (X >= x0) & (X < x0 + side) & (Y >= y0) & (Y < y0 + side)


def triangle(cx, cy, r, angle):
    """An equilateral triangle of circumradius r, turned by `angle` (radians)."""
    a = angle + np.array([0.0, 2.0, 4.0]) * np.pi / 3
    px, py = cx + r * np.sin(a), cy - r * np.cos(a)
    inside = np.ones_like(X, dtype=bool)
    for i in range(3):
        j = (i + 1) % 3
        # The vertices go clockwise on screen (y down): inside is on the right of each edge.
        inside &= (px[j] - px[i]) * (Y - py[i]) - (py[j] - py[i]) * (X - px[i]) >= 0
    return inside


def line(x0, y0, x1, y1, width):
    """The pixels within width / 2 of the segment (x0, y0)-(x1, y1)."""
    dx, dy = x1 - x0, y1 - y0
    t = np.clip(((X - x0) * dx + (Y - y0) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    return (X - x0 - t * dx) ** 2 + (Y - y0 - t * dy) ** 2 <= (width / 2) ** 2


def random_shape(rng, kind):
    """The mask of one shape of class `kind` (1..4) at a random place and size."""
    u = rng.uniform
    if kind == 1:
        return disc(u(4, SIZE - 4), u(4, SIZE - 4), u(3.5, 9))
    if kind == 2:
        side = u(6, 15)
        return square(u(-2, SIZE - side + 2), u(-2, SIZE - side + 2), side)
    if kind == 3:
        return triangle(u(5, SIZE - 5), u(5, SIZE - 5), u(5.5, 11), u(0, 2 * np.pi))
    length, angle = u(14, 40), u(0, 2 * np.pi)
    x0, y0 = u(4, SIZE - 4), u(4, SIZE - 4)
    return line(x0, y0, x0 + length * np.cos(angle), y0 + length * np.sin(angle), u(1.2, 2.6))


def _colour_apart(rng, background):
    """A colour at least 0.45 from the background in its largest channel difference."""
    while True:
        c = rng.uniform(0, 1, 3)
        if np.abs(c - background).max() >= 0.45:
            return c


def scene(rng):
    """(image, labels) of one scene: a background with a gradient, 2 to 5
    shapes of random classes and colours, gaussian noise."""
    base = rng.uniform(0, 1, 3)
    gx, gy = rng.uniform(-0.15, 0.15, 2)
    ramp = gx * (X / SIZE - 0.5) + gy * (Y / SIZE - 0.5)
    image = np.clip(base[None, None, :] + ramp[:, :, None], 0, 1)
    labels = np.zeros((SIZE, SIZE), dtype=np.uint8)
    for _ in range(rng.integers(2, 6)):
        kind = int(rng.integers(1, 5))
        mask = random_shape(rng, kind)
        image[mask] = _colour_apart(rng, base)
        labels[mask] = kind
    image = image + rng.normal(0, rng.uniform(0.02, 0.08), image.shape)
    return np.round(np.clip(image, 0, 1) * 255).astype(np.uint8), labels


def batch(rng, n):
    """n scenes: images (n, SIZE, SIZE, 3) uint8, labels (n, SIZE, SIZE) uint8."""
    pairs = [scene(rng) for _ in range(n)]
    return np.stack([p[0] for p in pairs]), np.stack([p[1] for p in pairs])
