"""aten::max_unpool{2,3}d: one MaxUnpool over flat indices.

    Z = MaxUnpool(Y, Add(I, PlaneOffsets(Y, prod(out_spatial))),
                  Concat(Slice(Shape(Y), [0], [2], [0]), out_spatial),
                  kernel_shape=[1]*d, strides=[1]*d)

PyTorch's indices count inside each (n, c) plane, ONNX's MaxUnpool reads
them over the whole output tensor: the offsets make them flat. Kernel and
strides 1 keep ONNX Runtime's inferred size at Y's own (its "output_shape is
smaller than minimum required" check), and the output's spatial size is the
static one the tracer recorded; N and C come from Y at run time.

F.max_unpool1d reaches here as max_unpool2d on (N, C, L, 1): the tracer
records aten::unsqueeze(-1) on the values and the indices, max_unpool2d with
output_size [L, 1] and aten::squeeze(-1). Indices inside an (L, 1) plane are
the same numbers as inside an (L,) plane, so that graph is exported as it is.
"""
from ._errors import UnpoolExportError
from ._graph import (batch_channels, const, leading_dims, plane_offsets, prod, set_shape, squeeze0,
                     static_input, traced_spatial, unsqueeze0)

# Ops that move an index tensor without changing a number in it.
_PASS_THROUGH = ("onnx::Unsqueeze", "onnx::Squeeze", "onnx::Identity")


def _pool_plane(indices):
    """The input plane size of the max pool (this package's pattern) whose
    indices `indices` are, or the kind of the op that produced them instead."""
    v = indices
    while v.node().kind() in _PASS_THROUGH:
        v = v.node().inputsAt(0)
    sub = v.node()
    if sub.kind() == "onnx::Sub":
        flat, offsets = sub.inputsAt(0), sub.inputsAt(1)
        if (flat.node().kind() == "onnx::MaxPool" and flat.offset() == 1
                and offsets.node().kind() == "onnx::Reshape"):
            mul = offsets.node().inputsAt(0).node()
            if mul.kind() == "onnx::Mul" and mul.inputsAt(1).node().kind() == "onnx::Constant":
                return int(mul.inputsAt(1).node().t("value").item()), None
    kind = sub.kind()
    return None, ("a model input" if kind == "prim::Param" else kind)


def _constant_ints(value):
    """The ints of an output_size argument, None for each element not constant."""
    node = value.node()
    if node.kind() == "onnx::Constant":
        return [int(v) for v in node.t("value").reshape(-1).tolist()]
    if node.kind() == "prim::ListConstruct":
        return [int(e.node().t("value").item()) if e.node().kind() == "onnx::Constant" else None
                for e in node.inputs()]
    return None


def _check(name, dims, in_spatial, out_spatial, output_size, indices):
    """Refuses what would not be PyTorch's result (see python/README.md)."""
    given = _constant_ints(output_size)  # spatial only: F.max_unpool*d drops N and C
    if given is not None and (len(given) != dims
                              or any(a is not None and a != b for a, b in zip(given, out_spatial))):
        raise UnpoolExportError(
            f"{name}: output_size {given} disagrees with the traced output size {out_spatial}")
    pool_plane, producer = _pool_plane(indices)
    if pool_plane is None:
        raise UnpoolExportError(
            f"{name}: indices that are not a max pool's (they come from {producer}). unpool_onnx "
            "exports an unpool of the indices of a max_pool*d(..., return_indices=True) in the "
            "same model: PyTorch refuses an index outside its plane, the ONNX MaxUnpool would "
            "write it into the next plane")
    if prod(out_spatial) < pool_plane:
        raise UnpoolExportError(
            f"{name}: output plane {out_spatial} ({prod(out_spatial)} elements) is smaller than its "
            f"max pool's input plane ({pool_plane} elements): PyTorch raises for an input whose "
            "maximum lies past the end of the output plane, where the ONNX model would write "
            "into the next plane. Pass output_size (the pool's input size)")
    for axis, (a, b) in enumerate(zip(in_spatial, out_spatial)):
        if b < a:
            # ONNX Runtime infers the size (in - 1) * stride + kernel - pads and
            # refuses a smaller output_shape; with kernel 1 its pads must be 0
            # ("Pad should be smaller than kernel"): no attributes reach it.
            raise UnpoolExportError(
                f"{name}: output size {out_spatial} is smaller than its input's {in_spatial} in "
                f"spatial dim {axis}; ONNX Runtime's MaxUnpool cannot produce an output smaller "
                "than its input")


def make_unpool_symbolic(dims):
    name = f"aten::max_unpool{dims}d"

    def max_unpool(g, y, indices, output_size, *stride_padding):
        # max_unpool3d's stride and padding only check sizes in PyTorch;
        # the traced output size already says what they meant.
        del stride_padding
        node = g.original_node
        in_sizes = static_input(name, y, node.inputsAt(0), dims, "input")
        out_spatial = traced_spatial(name, node.output(), dims, "output")
        _check(name, dims, in_sizes[-dims:], out_spatial, output_size, indices)

        unbatched = len(in_sizes) == dims + 1
        yb, ib = (unsqueeze0(g, y), unsqueeze0(g, indices)) if unbatched else (y, indices)
        flat = g.op("Add", ib, plane_offsets(g, yb, prod(out_spatial), dims))
        shape = g.op("Concat", batch_channels(g, yb), const(g, out_spatial), axis_i=0)
        z = g.op("MaxUnpool", yb, flat, shape, kernel_shape_i=[1] * dims, strides_i=[1] * dims)
        lead = ([1] + leading_dims(y, 1)) if unbatched else leading_dims(y, 2)
        set_shape(z, y, lead + out_spatial)
        return squeeze0(g, z) if unbatched else z

    return name, max_unpool
