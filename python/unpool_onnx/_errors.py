"""The one error type of unpool_onnx."""
try:
    from torch.onnx.errors import OnnxExporterError as _Base
except ImportError:  # torch < 1.13
    _Base = RuntimeError


class UnpoolExportError(_Base):
    """A model unpool_onnx cannot export correctly (or a wrong argument).

    The message names the aten op and why. It is raised at export time, so
    no silently wrong model is written. A subclass of torch.onnx's
    OnnxExporterError (a RuntimeError).
    """
