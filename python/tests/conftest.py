"""pytest for unpool_onnx: run from the repository's root as

    /usr/bin/python3 -m pytest -q python/tests

The package is imported from python/ (no install needed); the model zoo
from tests/models/zoo.py, the models of the Node fixtures.
"""
import io
import os
import sys

import onnx
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "models"))
sys.path.insert(0, HERE)

import unpool_onnx  # noqa: E402

OPSETS = (11, 13, 17)


def to_model(export_fn, model, args, **kwargs):
    """Exports with export_fn (unpool_onnx.export or torch.onnx.export) into
    memory; returns the onnx.ModelProto."""
    f = io.BytesIO()
    export_fn(model, args, f, **kwargs)
    return onnx.load_from_string(f.getvalue())


@pytest.fixture
def export():
    """unpool_onnx.export into an onnx.ModelProto, checked by onnx.checker (full check)."""
    def run(model, args, **kwargs):
        m = to_model(unpool_onnx.export, model, args, **kwargs)
        onnx.checker.check_model(m, full_check=True)
        return m
    return run
