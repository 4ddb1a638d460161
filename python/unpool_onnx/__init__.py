"""unpool_onnx: export PyTorch max pooling with indices and max unpooling to
ONNX with exactly PyTorch's semantics.

    import unpool_onnx
    unpool_onnx.export(model, x, "model.onnx", input_names=["x"], output_names=["y"],
                       dynamic_axes={"x": {0: "batch"}})

torch.onnx cannot export aten::max_unpool{1,2,3}d, and feeding PyTorch's
pool indices (counted per (n, c) plane) straight into ONNX MaxUnpool (which
reads them over the whole N*C*spatial tensor) is silently wrong for every
plane but the first. The symbolics here convert between the two. See
python/README.md for the emitted ONNX and what is refused.
"""
from ._errors import UnpoolExportError
from ._install import DEFAULT_OPSET, MIN_OPSET, export, register, unregister

__version__ = "0.1.0"
__all__ = ["export", "register", "unregister", "UnpoolExportError", "DEFAULT_OPSET", "MIN_OPSET",
           "__version__"]
