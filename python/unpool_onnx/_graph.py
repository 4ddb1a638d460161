"""Small builders and readers over the graph a symbolic is emitting into.

Everything here works on ``g`` (torch.onnx's GraphContext: ``g.op``,
``g.opset``, ``g.original_node``) and on ``torch._C.Value``s; the op
symbolics in ``_pool.py`` and ``_unpool.py`` are written with these only.
"""
import torch

from ._errors import UnpoolExportError


def const(g, value):
    """An int64 ONNX Constant: a scalar for an int, 1-D for a list."""
    return g.op("Constant", value_t=torch.tensor(value, dtype=torch.int64))


def unsqueeze0(g, x):
    """Unsqueeze(x, axes=[0]): an attribute before opset 13, an input since."""
    if g.opset >= 13:
        return g.op("Unsqueeze", x, const(g, [0]))
    return g.op("Unsqueeze", x, axes_i=[0])


def squeeze0(g, x):
    """Squeeze(x, axes=[0]), as unsqueeze0."""
    if g.opset >= 13:
        return g.op("Squeeze", x, const(g, [0]))
    return g.op("Squeeze", x, axes_i=[0])


def batch_channels(g, t):
    """Slice(Shape(t), [0], [2], [0]): t's (N, C) at run time, 1-D int64."""
    return g.op("Slice", g.op("Shape", t), const(g, [0]), const(g, [2]), const(g, [0]))


def plane_offsets(g, t, plane, dims):
    """PlaneOffsets(t, plane): (n * C + c) * plane, shaped (N, C, 1, ..., 1).

    t is (N, C, *spatial) with `dims` spatial dims; N and C are read from
    Shape(t) at run time, so the batch may be dynamic. This chain is the
    pattern the unpool/onnx runner matches (python/README.md): keep it.
    """
    nc = batch_channels(g, t)
    count = g.op("ReduceProd", nc, keepdims_i=0)  # no axes: all, at opsets 11..18
    r = g.op("Range", const(g, 0), count, const(g, 1))
    o = g.op("Mul", r, const(g, plane))
    shape = g.op("Concat", nc, const(g, [1] * dims), axis_i=0)
    return g.op("Reshape", o, shape)


def prod(sizes):
    n = 1
    for s in sizes:
        n *= s
    return n


def sizes_of(value):
    """A Value's sizes from its type: None for a dim that is not static, or
    None for all of them when the rank is unknown (or it is no tensor)."""
    try:
        return value.type().varyingSizes()
    except RuntimeError:
        return None


def _unknown(op, what):
    return UnpoolExportError(
        f"{op}: the static sizes of its {what} are unknown (was the model scripted with "
        "torch.jit.script? unpool_onnx reads them from the traced graph: pass the nn.Module "
        "itself, which torch.onnx.export traces)")


def static_input(op, value, traced, dims, what):
    """The sizes of an op's input: its rank must be dims + 1 (unbatched) or
    dims + 2 and its spatial sizes static. `traced` is the TorchScript input
    (the tracer's sizes; a model input carries its dynamic_axes there),
    `value` the ONNX-side one (the exporter's shape inference, which carries
    dynamic axes on). Only the batch and channel axes may be dynamic: the
    plane size is a constant of the index conversion."""
    sizes = sizes_of(traced)
    if sizes is None:
        raise _unknown(op, what)
    rank = len(sizes)
    if rank not in (dims + 1, dims + 2):
        raise UnpoolExportError(f"{op}: {what} of rank {rank}, expected {dims + 1} or {dims + 2}")
    seen = sizes_of(value)
    if seen is None or len(seen) != rank:
        seen = sizes
    dynamic = [a for a in range(rank - dims, rank) if sizes[a] is None or seen[a] is None]
    if dynamic:
        raise UnpoolExportError(
            f"{op}: dynamic spatial axes {dynamic} on its {what} (shape {_shape_str(seen)}): spatial "
            "sizes are fixed at export, since the plane size is a constant of the index "
            "conversion. Only the batch and channel axes may be dynamic: remove the spatial axes "
            "from dynamic_axes, or export once per input size")
    return sizes


def traced_spatial(op, traced, dims, what):
    """The static spatial sizes the tracer recorded for an op's output."""
    sizes = sizes_of(traced)
    if sizes is None or any(s is None for s in sizes[-dims:]):
        raise _unknown(op, what)
    return list(sizes[-dims:])


def _shape_str(sizes):
    return "(" + ", ".join("?" if s is None else str(s) for s in sizes) + ")"


def set_shape(out, like, sizes):
    """Gives `out` the type of `like` with `sizes` (None for a dynamic dim).
    ONNX's inference leaves a MaxUnpool with a computed output_shape without
    a shape, and torch then falls back to the traced one, batch included: a
    model exported with a dynamic batch axis would declare the batch it was
    traced at on every output downstream (ORT warns when it differs)."""
    try:
        out.setType(like.type().with_sizes(sizes))
    except RuntimeError:
        pass
    return out


def leading_dims(value, count):
    """The first `count` sizes of an ONNX-side Value (None where symbolic or unknown)."""
    sizes = sizes_of(value)
    return [None] * count if sizes is None else list(sizes[:count])
