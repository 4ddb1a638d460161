"""Every zoo model exports at opsets 11, 13 and 17, passes onnx.checker, and
holds exactly the pattern of python/README.md: one MaxPool per pool with
its per-plane index conversion, one MaxUnpool per unpool over flat
indices, each unpool fed by a pool's indices."""
import pytest
import torch
import torch.nn.functional as F

import zoo
from conftest import OPSETS, to_model
from pattern import find_pools, find_unpools, producer_chain

# case -> (pools, unpools) in the exported graph
COUNTS = {"segnet": (2, 2), "segnet-small": (2, 2), "encdec1d": (1, 1), "encdec3d": (1, 1),
          "pools": (5, 5), "indices-out": (1, 0), "unbatched": (1, 1), "unbatched1d": (1, 1),
          "float64": (1, 1), "unpool-no-size": (2, 2)}
CASES = [c for c in zoo.cases() if not c.workaround]


def test_counts_cover_the_zoo():
    assert sorted(COUNTS) == sorted(c.name for c in CASES)


@pytest.mark.parametrize("opset", OPSETS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_zoo_pattern(export, case, opset):
    torch.manual_seed(case.seed)
    model = zoo.seeded_eval(case.build())
    x = torch.randn(*case.shape, dtype=case.dtype)
    names = list(case.outputs)
    dyn = {n: {0: "batch"} for n in ["x"] + names} if case.batches else None
    m = export(model, x, opset_version=opset, input_names=["x"], output_names=names, dynamic_axes=dyn)
    assert m.opset_import[0].version == opset
    pools, unpools = find_pools(m), find_unpools(m)
    assert (len(pools), len(unpools)) == COUNTS[case.name]
    # No stock index trick: every MaxPool is one of the model's pools.
    assert sum(n.op_type == "MaxPool" for n in m.graph.node) == len(pools)
    pool_indices = {p["indices"]: p for p in pools}
    for u in unpools:
        kinds, source = producer_chain(m, u["indices"])
        assert source in pool_indices, f"unpool indices from {source} via {kinds}"
        assert u["plane"] >= pool_indices[source]["plane"]
    if case.batches:
        assert m.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
        for o in m.graph.output:
            assert o.type.tensor_type.shape.dim[0].dim_param, f"{o.name}: static batch in the declared shape"


def test_segnet_unpool_planes(export):
    torch.manual_seed(0)
    m = export(zoo.seeded_eval(zoo.SegNet()), torch.randn(2, 3, 15, 17), opset_version=13)
    assert [p["plane"] for p in find_pools(m)] == [15 * 17, 7 * 8]
    assert [(u["spatial"], u["plane"]) for u in find_unpools(m)] == [([7, 8], 56), ([15, 17], 255)]


@pytest.mark.parametrize("opset", OPSETS)
def test_pool_attributes(export, opset):
    class M(torch.nn.Module):
        def forward(self, x):
            a = F.max_pool2d(x, 3, 2, 1, 1, ceil_mode=True, return_indices=True)
            b = F.max_pool2d(x, (3, 2), (1, 2), (1, 0), 2, return_indices=True)
            c = F.max_pool1d(x[:, :, 0], 2, return_indices=True)
            d = F.max_pool3d(x.unsqueeze(1), (2, 3, 3), (1, 2, 2), (0, 1, 1), return_indices=True)
            return a + b + c + d

    pools = find_pools(export(M(), torch.randn(2, 3, 9, 10), opset_version=opset))
    got = [(p["attrs"], p["plane"]) for p in pools]
    assert got == [
        ({"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1, "storage_order": 0}, 90),
        ({"kernel_shape": [3, 2], "strides": [1, 2], "pads": [1, 0, 1, 0], "ceil_mode": 0, "storage_order": 0,
          "dilations": [2, 2]}, 90),
        ({"kernel_shape": [2], "strides": [2], "pads": [0, 0], "ceil_mode": 0, "storage_order": 0}, 10),
        ({"kernel_shape": [2, 3, 3], "strides": [1, 2, 2], "pads": [0, 1, 1, 0, 1, 1], "ceil_mode": 0,
          "storage_order": 0}, 270),
    ]


@pytest.mark.parametrize("opset", OPSETS)
def test_unbatched_unsqueezes_and_squeezes(export, opset):
    m = export(zoo.Unbatched(), torch.randn(3, 10, 12), opset_version=opset)
    (pool,), (unpool,) = find_pools(m), find_unpools(m)
    prod = {o: n for n in m.graph.node for o in n.output}
    assert prod[pool["node"].input[0]].op_type == "Unsqueeze"
    assert prod[unpool["node"].input[0]].op_type == "Unsqueeze"
    assert producer_chain(m, unpool["indices"])[0] == ["Unsqueeze", "Squeeze"]
    for n in m.graph.node:
        if n.op_type in ("Unsqueeze", "Squeeze"):
            if opset >= 13:
                assert len(n.input) == 2 and not n.attribute
            else:
                assert len(n.input) == 1 and [list(a.ints) for a in n.attribute] == [[0]]


def test_unpool1d_is_a_2d_unpool_of_a_trailing_unit_dim(export):
    m = export(zoo.EncDec(1, 4, 6, 3, 3, 2, 1), torch.randn(2, 4, 37), opset_version=13)
    (unpool,) = find_unpools(m)
    assert unpool["spatial"] == [37, 1]
    assert producer_chain(m, unpool["indices"])[0] == ["Unsqueeze"]


def test_stock_unbatched_pool_is_invalid():
    """The measurement behind _pool.py's Unsqueeze: torch 1.13's own symbolic
    gives the rank-3 input of a 2d pool to MaxPool as it is."""
    import onnx

    class P(torch.nn.Module):
        def forward(self, x):
            return F.max_pool2d(x, 2, 2, return_indices=True)

    m = to_model(torch.onnx.export, P(), torch.randn(3, 6, 8), opset_version=13)
    with pytest.raises(Exception, match="Attribute strides has incorrect size"):
        onnx.checker.check_model(m, full_check=True)


@pytest.mark.parametrize("opset", OPSETS)
def test_unpool_with_a_constant_output_size(export, opset):
    """output_size as literal ints (an ONNX Constant by the time the symbolic
    runs) is checked against the traced size, and agrees."""
    class M(torch.nn.Module):
        def forward(self, x):
            y, i = F.max_pool2d(x, 2, 2, return_indices=True)
            return F.max_unpool2d(y, i, 2, 2, output_size=[7, 9])

    (unpool,) = find_unpools(export(M(), torch.randn(2, 3, 7, 9), opset_version=opset))
    assert unpool["spatial"] == [7, 9]
