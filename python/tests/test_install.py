"""What export() and register() install, pass and leave behind."""
import inspect

import pytest
import torch
from torch.onnx.errors import UnsupportedOperatorError

import unpool_onnx
import zoo
from conftest import to_model
from pattern import find_pools, find_unpools


def segnet():
    torch.manual_seed(0)
    return zoo.seeded_eval(zoo.SegNet()), torch.randn(1, 3, 8, 8)


def plain_export(model, x, opset=13):
    return to_model(torch.onnx.export, model, x, opset_version=opset)


def uses_stock_pool(m):
    """torch's own pool symbolic: a second, 1x1 MaxPool beside each pool."""
    kernels = [a.ints for n in m.graph.node if n.op_type == "MaxPool" for a in n.attribute
               if a.name == "kernel_shape"]
    ones = [k for k in kernels if set(k) == {1}]
    return len(kernels) == 2 * len(ones) > 0


def test_export_then_plain_export_is_unaffected(export):
    model, x = segnet()
    for opset in (11, 13, 17):
        assert len(find_unpools(export(model, x, opset_version=opset))) == 2
        with pytest.raises(UnsupportedOperatorError, match="max_unpool2d"):
            plain_export(model, x, opset)
    pool_only = zoo.IndicesOut().eval()
    assert uses_stock_pool(plain_export(pool_only, torch.randn(1, 2, 6, 6)))


def test_export_restores_after_a_failure():
    model, x = segnet()
    with pytest.raises(unpool_onnx.UnpoolExportError):
        unpool_onnx.export(model, x, "/dev/null", opset_version=13, input_names=["x"],
                           dynamic_axes={"x": {2: "h"}})
    with pytest.raises(UnsupportedOperatorError):
        plain_export(model, x)


def test_register_and_unregister():
    model, x = segnet()
    unpool_onnx.register()  # opset 11: every export at 11 and above
    try:
        for opset in (11, 13, 17):
            m = plain_export(model, x, opset)
            assert len(find_pools(m)) == 2 and len(find_unpools(m)) == 2
        # export() leaves a registration it did not make in place.
        unpool_onnx.export(model, x, "/dev/null", opset_version=11)
        assert len(find_unpools(plain_export(model, x, 11))) == 2
    finally:
        unpool_onnx.unregister()
    with pytest.raises(UnsupportedOperatorError):
        plain_export(model, x)


def test_register_at_an_opset_applies_from_there():
    model, x = segnet()
    unpool_onnx.register(opset=13)
    try:
        assert len(find_unpools(plain_export(model, x, 17))) == 2
        with pytest.raises(UnsupportedOperatorError):
            plain_export(model, x, 11)
    finally:
        unpool_onnx.unregister(opset=13)


def test_default_opset(tmp_path):
    import onnx
    model, x = segnet()
    unpool_onnx.export(model, x, str(tmp_path / "m.onnx"))
    assert unpool_onnx.DEFAULT_OPSET == 17
    assert onnx.load(str(tmp_path / "m.onnx")).opset_import[0].version == 17


@pytest.mark.parametrize("opset", [9, 10, 18, "13", True])
def test_unsupported_opsets(opset):
    model, x = segnet()
    with pytest.raises(unpool_onnx.UnpoolExportError, match=r"opset .* is not supported: 11 to 17"):
        unpool_onnx.export(model, x, "/dev/null", opset_version=opset)
    with pytest.raises(unpool_onnx.UnpoolExportError, match="unpool_onnx.register: opset"):
        unpool_onnx.register(opset=opset)


# torch.onnx.export's signature decides whether dynamo=False is passed.
def fake_with_dynamo(model, args, f=None, *, opset_version=None, dynamo=True, **kwargs):
    """torch >= 2.5's shape (since 2.9 dynamo defaults to True)."""


def fake_without_dynamo(model, args, f, export_params=True, opset_version=None, **kwargs):
    """torch 1.13's shape."""


@pytest.mark.parametrize("fake,passes", [(fake_with_dynamo, True), (fake_without_dynamo, False)])
@pytest.mark.parametrize("user", [{}, {"dynamo": False}])
def test_dynamo_false_where_the_parameter_exists(monkeypatch, fake, passes, user):
    real = torch.onnx.export
    calls = []

    def spy(model, args, f, **kwargs):
        calls.append(dict(kwargs))
        # The symbolics are installed for the call: the unpool exports.
        kwargs.pop("dynamo", None)
        return real(model, args, f, **kwargs)

    spy.__signature__ = inspect.signature(fake)
    monkeypatch.setattr(torch.onnx, "export", spy)
    model, x = segnet()
    unpool_onnx.export(model, x, "/dev/null", **user)
    assert ("dynamo" in calls[0]) == passes
    if passes:
        assert calls[0]["dynamo"] is False
    assert calls[0]["opset_version"] == 17
    monkeypatch.undo()
    with pytest.raises(UnsupportedOperatorError):  # and removed after it
        plain_export(model, x)


def test_dynamo_true_is_refused(monkeypatch):
    monkeypatch.setattr(torch.onnx, "export", lambda *a, **k: pytest.fail("exported"))
    model, x = segnet()
    with pytest.raises(unpool_onnx.UnpoolExportError, match=r"dynamo=True is not supported yet"):
        unpool_onnx.export(model, x, "/dev/null", dynamo=True)
