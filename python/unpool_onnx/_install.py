"""Installing the symbolics, and export() around torch.onnx.export."""
import inspect

import torch

from ._errors import UnpoolExportError
from ._pool import make_pool_symbolic
from ._unpool import make_unpool_symbolic

DEFAULT_OPSET = 17
"""The opset export() writes when opset_version is not given (torch 1.13's highest)."""

MIN_OPSET = 11
"""The lowest opset: the index conversion needs Range (opset 11)."""

# (aten name, symbolic). max_unpool1d is traced as max_unpool2d (_unpool.py).
SYMBOLICS = [make_pool_symbolic(d) for d in (1, 2, 3)] + [make_unpool_symbolic(d) for d in (2, 3)]

_registered = set()  # the opsets register() installed (export() leaves them in place)


def _max_opset():
    try:
        from torch.onnx._constants import ONNX_MAX_OPSET
        return ONNX_MAX_OPSET
    except ImportError:
        return 17


def _check_opset(opset, who):
    if isinstance(opset, bool) or not isinstance(opset, int) or not MIN_OPSET <= opset <= _max_opset():
        raise UnpoolExportError(
            f"unpool_onnx.{who}: opset {opset!r} is not supported: {MIN_OPSET} to {_max_opset()} "
            f"(this torch's highest); the index conversion needs Range (opset 11)")


def _install(opset):
    for name, fn in SYMBOLICS:
        torch.onnx.register_custom_op_symbolic(name, fn, opset)


def _uninstall(opset):
    for name, _ in SYMBOLICS:
        torch.onnx.unregister_custom_op_symbolic(name, opset)
        _forget_if_empty(name)


def _forget_if_empty(name):
    """torch 1.13's unregister leaves an empty function group behind for an
    op torch has no symbolic of (aten::max_unpool2d): the next export that
    meets the op then fails with "ValueError: min() arg is an empty
    sequence" instead of UnsupportedOperatorError (measured). Drops such a
    group, so the registry is as before; a private structure, so this does
    nothing where it differs."""
    try:
        from torch.onnx._internal import registration
        groups = registration.registry._registry
        if name in groups and not groups[name]._functions:
            del groups[name]
    except (ImportError, AttributeError):
        pass


def register(opset=MIN_OPSET):
    """Installs the symbolics for aten::max_pool{1,2,3}d_with_indices and
    aten::max_unpool{2,3}d in torch.onnx, for a torch.onnx.export you call
    yourself at opset_version >= `opset` (torch uses the highest registered
    symbolic at or below the export's opset; the default, 11, covers every
    opset unpool_onnx supports).

    On torch >= 2.9, pass dynamo=False to torch.onnx.export: its default
    (dynamo) exporter does not use these symbolics (nor any symbolic
    registered this way) and has no MaxUnpool. unregister(opset) removes them.
    """
    _check_opset(opset, "register")
    _install(opset)
    _registered.add(opset)


def unregister(opset=MIN_OPSET):
    """Removes what register(opset) installed; torch's own symbolics apply again."""
    _check_opset(opset, "unregister")
    if opset in _registered:
        _uninstall(opset)
        _registered.discard(opset)


def export(model, args, f, **kwargs):
    """torch.onnx.export(model, args, f, **kwargs) with unpool_onnx's symbolics.

    Takes torch.onnx.export's arguments. opset_version defaults to
    DEFAULT_OPSET (17); 11 to 17 are supported (tested: 11, 13, 17). Where
    torch.onnx.export has a `dynamo` parameter (torch >= 2.5), dynamo=False is
    passed: the dynamo exporter is not supported (dynamo=True raises). The
    symbolics are installed for this call only and removed afterwards (unless
    register() installed them at this opset), so a later plain
    torch.onnx.export is unaffected.

    Raises UnpoolExportError, naming the op and why, for a model that cannot
    be exported correctly (see python/README.md).
    """
    if kwargs.get("dynamo"):
        raise UnpoolExportError(
            "unpool_onnx.export: dynamo=True is not supported yet: the dynamo exporter does not "
            "use these symbolics and has no MaxUnpool; unpool_onnx exports with the TorchScript "
            "exporter (dynamo=False)")
    if kwargs.get("opset_version") is None:
        kwargs["opset_version"] = DEFAULT_OPSET
    opset = kwargs["opset_version"]
    _check_opset(opset, "export")
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        kwargs["dynamo"] = False
    else:
        kwargs.pop("dynamo", None)
    installed_here = opset not in _registered
    if installed_here:
        _install(opset)
    try:
        return torch.onnx.export(model, args, f, **kwargs)
    finally:
        if installed_here:
            _uninstall(opset)
