"""Models unpool_onnx cannot export correctly fail at export, with a message
that names the op and why; none is written silently wrong."""
import pytest
import torch
import torch.nn.functional as F

import unpool_onnx
from pattern import find_unpools

Error = unpool_onnx.UnpoolExportError


class PoolUnpool(torch.nn.Module):
    def forward(self, x):
        y, i = F.max_pool2d(x, 2, 2, return_indices=True)
        return F.max_unpool2d(y, i, 2, 2, output_size=[x.shape[2], x.shape[3]])


def export(model, args, **kwargs):
    unpool_onnx.export(model, args, "/dev/null", opset_version=13, **kwargs)


def test_scripted_model():
    with pytest.raises(Error, match=r"aten::max_unpool2d: the static sizes of its input are "
                                    r"unknown \(was the model scripted"):
        export(torch.jit.script(PoolUnpool()), torch.randn(1, 2, 8, 8))


def test_dynamic_spatial_axes_on_a_pool():
    with pytest.raises(Error, match=r"aten::max_pool2d_with_indices: dynamic spatial axes \[2, 3\] on its "
                                    r"input \(shape \(\?, 2, \?, \?\)\): spatial sizes are fixed at export"):
        export(PoolUnpool(), torch.randn(1, 2, 8, 8), input_names=["x"],
               dynamic_axes={"x": {0: "batch", 2: "h", 3: "w"}})


def test_dynamic_spatial_axes_on_an_unpool():
    class M(torch.nn.Module):
        def forward(self, x, v):
            _, i = F.max_pool2d(x, 2, 2, return_indices=True)
            return F.max_unpool2d(v, i, 2, 2)

    with pytest.raises(Error, match=r"aten::max_unpool2d: dynamic spatial axes \[3\] on its input"):
        export(M(), (torch.randn(1, 2, 8, 8), torch.randn(1, 2, 4, 4)), input_names=["x", "v"],
               dynamic_axes={"v": {3: "w"}})


def test_batch_and_channel_axes_may_be_dynamic():
    unpool_onnx.export(PoolUnpool(), torch.randn(1, 2, 8, 8), "/dev/null", input_names=["x"],
                       dynamic_axes={"x": {0: "batch", 1: "channels"}})


def test_indices_from_a_model_input():
    class Decoder(torch.nn.Module):
        def forward(self, y, i):
            return F.max_unpool2d(y, i, 2, 2)

    i = torch.tensor([[[[0, 3], [9, 15]]]])
    with pytest.raises(Error, match=r"aten::max_unpool2d: indices that are not a max pool's \(they come "
                                    r"from a model input\)"):
        export(Decoder(), (torch.randn(1, 1, 2, 2), i))


def test_indices_through_a_reshape():
    class M(torch.nn.Module):
        def forward(self, x):
            y, i = F.max_pool2d(x, 2, 2, return_indices=True)
            return F.max_unpool2d(y, i.reshape(-1).reshape(i.shape), 2, 2)

    with pytest.raises(Error, match=r"aten::max_unpool2d: indices that are not a max pool's \(they come "
                                    r"from onnx::Reshape\)"):
        export(M(), torch.randn(1, 2, 8, 8))


def test_indices_through_identity_ops_are_a_pools(tmp_path):
    import onnx

    class M(torch.nn.Module):
        def forward(self, x):
            y, i = F.max_pool2d(x, 2, 2, return_indices=True)
            return F.max_unpool2d(y, i.clone().contiguous().unsqueeze(0).squeeze(0), 2, 2)

    unpool_onnx.export(M(), torch.randn(1, 2, 8, 8), str(tmp_path / "m.onnx"))
    assert len(find_unpools(onnx.load(str(tmp_path / "m.onnx")))) == 1


def test_output_plane_smaller_than_the_pools_input():
    """7x9 pooled 2x2 is 3x4, whose default unpool is 6x8 (48 < 63): PyTorch
    raises for an input whose maximum lies at index 48 or more."""
    x = torch.zeros(1, 1, 7, 9)
    x[..., ::2, ::2] = 1  # every maximum top left in its window: PyTorch runs this one
    with pytest.raises(Error, match=r"aten::max_unpool2d: output plane \[6, 8\] \(48 elements\) is smaller "
                                    r"than its max pool's input plane \(63 elements\)"):
        export(type("M", (torch.nn.Module,), {"forward": lambda self, x: F.max_unpool2d(
            *F.max_pool2d(x, 2, 2, return_indices=True), 2, 2)})(), x)


def test_output_smaller_than_the_unpools_input():
    class M(torch.nn.Module):
        def forward(self, x):
            y, i = F.max_pool2d(x, 2, 1, 1, return_indices=True)  # 4x4 -> 5x5
            return F.max_unpool2d(y, i, 2, 1, 1)  # (5 - 1) + 2 - 2 = 4

    with pytest.raises(Error, match=r"aten::max_unpool2d: output size \[4, 4\] is smaller than its input's "
                                    r"\[5, 5\] in spatial dim 0; ONNX Runtime's MaxUnpool cannot"):
        export(M(), torch.randn(1, 1, 4, 4))
