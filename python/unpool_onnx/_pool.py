"""aten::max_pool{1,2,3}d_with_indices: one MaxPool and per-plane indices.

    Y, I_flat = MaxPool(X, kernel_shape, strides, pads, [dilations], ceil_mode, storage_order=0)
    I         = Sub(I_flat, PlaneOffsets(Y, prod(X's spatial sizes)))

ONNX's MaxPool numbers the elements of the whole N*C*spatial tensor;
PyTorch numbers them inside each (n, c) plane. The stock symbolic gets the
offsets from a second 1x1 MaxPool over all of X (a full extra pass); here
they are (n * C + c) * plane from a Range, which costs N*C elements.

Unbatched inputs (C, *spatial) are Unsqueezed to (1, C, *spatial) first and
both results Squeezed back. torch 1.13's own symbolic hands the rank-3 input
of a 2d pool to MaxPool as it is, with 2-d attributes: onnx.checker's full
check fails ("Attribute strides has incorrect size") and ONNX Runtime refuses
to load the model (measured; tests/test_pattern.py::test_stock_unbatched_pool_is_invalid).
"""
from torch.onnx import symbolic_helper as sh

from ._errors import UnpoolExportError
from ._graph import plane_offsets, prod, squeeze0, static_input, unsqueeze0


def _per_dim(values, dims, name, arg):
    """A size argument as one int per spatial dim ([] stays [])."""
    values = list(values)
    if len(values) == 1:
        return values * dims
    if len(values) not in (0, dims):
        raise UnpoolExportError(f"{name}: {arg} {values} has not 1 or {dims} elements")
    return values


def make_pool_symbolic(dims):
    name = f"aten::max_pool{dims}d_with_indices"

    @sh.parse_args("v", "is", "is", "is", "is", "i")
    def max_pool_with_indices(g, x, kernel_size, stride, padding, dilation, ceil_mode):
        node = g.original_node
        in_sizes = static_input(name, x, node.inputsAt(0), dims, "input")
        kernel = _per_dim(kernel_size, dims, name, "kernel_size")
        attrs = {
            "kernel_shape_i": kernel,
            "strides_i": _per_dim(stride, dims, name, "stride") or kernel,
            "pads_i": _per_dim(padding, dims, name, "padding") * 2,
            "ceil_mode_i": ceil_mode,
            "storage_order_i": 0,
        }
        dilations = _per_dim(dilation, dims, name, "dilation") or [1] * dims
        if any(d != 1 for d in dilations):
            attrs["dilations_i"] = dilations

        unbatched = len(in_sizes) == dims + 1
        xb = unsqueeze0(g, x) if unbatched else x
        y, flat = g.op("MaxPool", xb, outputs=2, **attrs)
        i = g.op("Sub", flat, plane_offsets(g, y, prod(in_sizes[-dims:]), dims))
        if unbatched:
            return squeeze0(g, y), squeeze0(g, i)
        return y, i

    return name, max_pool_with_indices
