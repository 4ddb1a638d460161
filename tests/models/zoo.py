"""The models of the fixtures (make-fixtures.py) and of python/tests: small
SegNet-style encoder/decoders and the pool/unpool geometries their users
meet. Pure PyTorch; weights come from torch.manual_seed(case.seed).
"""
import dataclasses
from typing import Callable, Dict, List, Optional, Sequence

import torch
import torch.nn.functional as F
from torch import nn

CONV = {1: nn.Conv1d, 2: nn.Conv2d, 3: nn.Conv3d}
BN = {1: nn.BatchNorm1d, 2: nn.BatchNorm2d, 3: nn.BatchNorm3d}
POOL = {1: nn.MaxPool1d, 2: nn.MaxPool2d, 3: nn.MaxPool3d}
UNPOOL = {1: nn.MaxUnpool1d, 2: nn.MaxUnpool2d, 3: nn.MaxUnpool3d}


def cbr(d, cin, cout):
    """Conv 3 (pad 1) + BatchNorm + ReLU."""
    return nn.Sequential(CONV[d](cin, cout, 3, padding=1), BN[d](cout), nn.ReLU())


def seeded_eval(model):
    """Eval mode, with non-trivial BatchNorm statistics and affine terms
    (drawn from the global generator, which the case seeded)."""
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            with torch.no_grad():
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
    return model.eval()


class SegNet(nn.Module):
    """Two conv stages with 2x2 max pools (indices kept), two unpool stages
    back to the pools' input sizes (output_size), a 1x1 conv to the classes.
    With output_size=False the unpools use their default size (even inputs)."""

    def __init__(self, cin=3, classes=5, widths=(8, 16), output_size=True):
        super().__init__()
        w1, w2 = widths
        self.enc1, self.enc2 = cbr(2, cin, w1), cbr(2, w1, w2)
        self.dec2, self.dec1 = cbr(2, w2, w1), cbr(2, w1, w1)
        self.pool = nn.MaxPool2d(2, 2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2, 2)
        self.head = nn.Conv2d(w1, classes, 1)
        self.output_size = output_size

    def forward(self, x):
        a = self.enc1(x)
        p1, i1 = self.pool(a)
        b = self.enc2(p1)
        p2, i2 = self.pool(b)
        u2 = self.unpool(p2, i2, output_size=b.size()) if self.output_size else self.unpool(p2, i2)
        c = self.dec2(u2)
        u1 = self.unpool(c, i1, output_size=a.size()) if self.output_size else self.unpool(c, i1)
        return self.head(self.dec1(u1))


class EncDec(nn.Module):
    """Conv-BN-ReLU, a max pool, conv-BN-ReLU, the unpool back to the pool's
    input size, a 1x1 conv: one stage in d dims with the pool's geometry."""

    def __init__(self, d, cin, hidden, classes, kernel, stride=None, padding=0):
        super().__init__()
        self.enc, self.mid = cbr(d, cin, hidden), cbr(d, hidden, hidden)
        self.pool = POOL[d](kernel, stride, padding, return_indices=True)
        self.unpool = UNPOOL[d](kernel, stride, padding)
        self.head = CONV[d](hidden, classes, 1)
        self.d = d

    def forward(self, x):
        a = self.enc(x)
        p, i = self.pool(a)
        u = self.unpool(self.mid(p), i, output_size=a.shape[-self.d:])
        return self.head(u)


def unpool_geometry(size, pooled, stride):
    """An unpool (kernel, stride, padding) whose valid output sizes include
    `size` from `pooled`: PyTorch takes output_size in (default - stride,
    default + stride), default = (pooled - 1) * stride + kernel - 2 * padding."""
    for kernel in range(1, size + 2 * stride + 1):
        for padding in range(kernel // 2 + 1):
            default = (pooled - 1) * stride + kernel - 2 * padding
            if default - stride < size < default + stride:
                return kernel, stride, padding
    raise ValueError(f"no unpool from {pooled} to {size} with stride {stride}")


# name: (kernel, stride, padding, dilation, ceil_mode)
POOLS = {
    "pad": (2, 2, 1, 1, False),
    "dil2": (3, 1, 1, 2, False),
    "ceil": (2, 2, 0, 1, True),
    "k3s2": (3, 2, 1, 1, False),   # overlapping windows: duplicate indices
    "ceil_rule": (2, 4, 1, 1, True),  # PyTorch drops a last window that starts in the right padding
}


class Pools(nn.Module):
    """x (of spatial size `size`) through each 2d max pool of POOLS and its
    unpool back to x's size (output_size): every unpooled result and every
    index tensor."""

    def __init__(self, size):
        super().__init__()
        self.size = list(size)
        self.unpools = []
        for (k, s, p, d, ceil) in POOLS.values():
            pooled = F.max_pool2d(torch.zeros(1, 1, *size), k, s, p, d, ceil_mode=ceil).shape[-2:]
            geo = [unpool_geometry(size[a], pooled[a], s) for a in range(2)]
            self.unpools.append([[g[j] for g in geo] for j in range(3)])

    def forward(self, x):
        outs, idx = [], []
        for (k, s, p, d, ceil), (uk, us, up) in zip(POOLS.values(), self.unpools):
            y, i = F.max_pool2d(x, k, s, p, d, ceil_mode=ceil, return_indices=True)
            outs.append(F.max_unpool2d(y, i, uk, us, up, output_size=self.size))
            idx.append(i)
        return tuple(outs + idx)


class IndicesOut(nn.Module):
    """Conv-BN-ReLU, then a 3x3 stride-2 max pool whose values and indices are the outputs."""

    def __init__(self):
        super().__init__()
        self.enc = cbr(2, 2, 3)
        self.pool = nn.MaxPool2d(3, 2, padding=1, return_indices=True)

    def forward(self, x):
        return self.pool(self.enc(x))


class Unbatched(nn.Module):
    """An unbatched (C, H, W) input: conv, pool, unpool (output_size), conv; and the indices."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU())
        self.pool = nn.MaxPool2d(2, 2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2, 2)
        self.head = nn.Conv2d(4, 2, 3, padding=1)

    def forward(self, x):
        a = self.enc(x)
        p, i = self.pool(a)
        return self.head(self.unpool(p, i, output_size=a.shape[-2:])), i


class ChannelMix(nn.Module):
    """A 1x1 convolution as a Linear over channels last (MatMul + Add in ONNX).
    permute, not movedim(1, -1): torch 1.13 exports movedim's negative dim
    into Transpose's perm as it is (perm [0, -1, 1, 2]), which ONNX Runtime
    refuses to load."""

    def __init__(self, cin, cout):
        super().__init__()
        self.linear = nn.Linear(cin, cout)

    def forward(self, x):
        return self.linear(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)


class MixEncDec(nn.Module):
    """EncDec's shape without convolutions: channel mixes (ONNX Runtime's CPU
    EP has MatMul, BatchNormalization, Relu and MaxPool in float64, Conv in
    float32 only), a 2x2 max pool and its unpool back (output_size)."""

    def __init__(self, cin, hidden, classes):
        super().__init__()
        self.enc = nn.Sequential(ChannelMix(cin, hidden), nn.BatchNorm2d(hidden), nn.ReLU())
        self.mid = nn.Sequential(ChannelMix(hidden, hidden), nn.ReLU())
        self.pool = nn.MaxPool2d(2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2)
        self.head = ChannelMix(hidden, classes)

    def forward(self, x):
        a = self.enc(x)
        p, i = self.pool(a)
        return self.head(self.unpool(self.mid(p), i, output_size=a.shape[-2:]))


class Unbatched1d(nn.Module):
    """An unbatched (C, L) input through F.max_pool1d(3, 2, padding=1) and
    F.max_unpool1d back (output_size); and the indices."""

    def forward(self, x):
        y, i = F.max_pool1d(x, 3, 2, padding=1, return_indices=True)
        return F.max_unpool1d(y, i, 3, 2, padding=1, output_size=x.shape[-1:]), i


@dataclasses.dataclass
class Case:
    """One fixture: a model, how it is exported, and the runs to record."""
    name: str
    description: str
    build: Callable[[], nn.Module]
    shape: Sequence[int]  # the input's shape at export
    outputs: Dict[str, str]  # output name -> kind: logits | values | indices
    atol: float  # for logits and values; justification in make-fixtures.py
    opset: int = 13
    batches: Optional[List[int]] = None  # symbolic batch: the batches of the runs
    gpu: bool = False
    dtype: torch.dtype = torch.float32
    seed: int = 0
    ties: bool = False  # inputs on a grid of 0.5, so windows hold ties
    json: Dict = dataclasses.field(default_factory=dict)  # extra JSON fields
    workaround: bool = False  # export with the stock pool + the naive unpool symbolic


def cases():
    return [
        Case("segnet", "SegNet: two conv-BN-ReLU + MaxPool2d(2, 2) stages, two MaxUnpool2d(2, 2)"
             "(output_size) + conv-BN-ReLU stages, a 1x1 conv to 5 classes; 3x64x64, symbolic batch "
             "(exported at 2)", lambda: SegNet(), (2, 3, 64, 64), {"logits": "logits"}, 1e-5,
             batches=[1, 3], seed=1),
        Case("segnet-small", "segnet's network on an odd 3x15x17 input (output_size needed: 15 -> 7 -> 3 "
             "-> 7 -> 15), symbolic batch", lambda: SegNet(), (2, 3, 15, 17), {"logits": "logits"}, 1e-5,
             opset=17, batches=[1, 3], gpu=True, seed=2),
        Case("encdec1d", "Conv1d-BN-ReLU, MaxPool1d(3, 2, padding=1), Conv1d-BN-ReLU, MaxUnpool1d(3, 2, "
             "padding=1) with output_size (length 37), 1x1 Conv1d to 3 classes; batch 2, 4 channels",
             lambda: EncDec(1, 4, 6, 3, 3, 2, 1), (2, 4, 37), {"logits": "logits"}, 1e-5, opset=11, seed=3),
        Case("encdec3d", "Conv3d-BN-ReLU, MaxPool3d(2), Conv3d-BN-ReLU, MaxUnpool3d(2) with output_size "
             "(5x7x6), 1x1 Conv3d to 3 classes; batch 2, 2 channels",
             lambda: EncDec(3, 2, 4, 3, 2), (2, 2, 5, 7, 6), {"logits": "logits"}, 1e-5, opset=17, gpu=True,
             seed=4),
        Case("pools", "x (3x11x13, values on a grid of 0.5: ties) through five 2d max pools (padding; "
             "dilation 2; ceil_mode; kernel 3 stride 2, overlapping windows, duplicate indices; "
             "ceil_mode with a last window dropped by PyTorch's rule), each unpooled back to 11x13 "
             "with output_size; every result and every index tensor; symbolic batch on the model's "
             "input itself",
             lambda: Pools((11, 13)), (2, 3, 11, 13),
             {**{f"z_{n}": "values" for n in POOLS}, **{f"i_{n}": "indices" for n in POOLS}}, 0.0,
             opset=11, batches=[1, 3], gpu=True, seed=5, ties=True),
        Case("indices-out", "Conv-BN-ReLU, MaxPool2d(3, 2, padding=1) whose values and indices "
             "(PyTorch's per-plane int64) are the outputs; 2x10x12, symbolic batch",
             lambda: IndicesOut(), (2, 2, 10, 12), {"pooled": "values", "indices": "indices"}, 1e-5,
             batches=[1, 3], gpu=True, seed=6),
        Case("unbatched", "an unbatched (C, H, W) = 3x10x12 input: conv, MaxPool2d(2, 2), "
             "MaxUnpool2d(2, 2)(output_size), conv; and the indices",
             lambda: Unbatched(), (3, 10, 12), {"y": "values", "indices": "indices"}, 1e-5, opset=17, gpu=True,
             seed=7),
        Case("unbatched1d", "an unbatched (C, L) = 4x11 input through F.max_pool1d(3, 2, padding=1) and "
             "F.max_unpool1d back (traced as max_unpool2d on (1, C, L, 1)); and the indices; opset 11 "
             "(Unsqueeze and Squeeze with axes attributes)", lambda: Unbatched1d(), (4, 11),
             {"z": "values", "indices": "indices"}, 0.0, opset=11, gpu=True, seed=10),
        Case("float64", "a one-stage 2d encoder-decoder in float64 (.double()), 1x2x9x11: channel mixes "
             "(Linear over channels; ORT's CPU Conv is float32 only) with BatchNorm and ReLU, MaxPool2d(2), "
             "MaxUnpool2d(2)(output_size), 3 classes", lambda: MixEncDec(2, 4, 3).double(),
             (1, 2, 9, 11), {"logits": "logits"}, 1e-12, dtype=torch.float64, seed=8,
             json={"ortCpuAlone": False,
                   "ortCpuAloneError": "Could not find an implementation for MaxUnpool(11) node"}),
        Case("unpool-no-size", "segnet's network with MaxUnpool2d(2, 2) given no output_size (even "
             "3x16x20 input, so the default size is the pool's input size); symbolic batch",
             lambda: SegNet(output_size=False), (2, 3, 16, 20), {"logits": "logits"}, 1e-5,
             opset=17, batches=[1, 3], gpu=True, seed=9),
        Case("segnet-workaround", "segnet exported with the usual workaround: the stock max pool "
             "symbolic and PyTorch's per-plane indices straight into ONNX MaxUnpool (no plane offsets); "
             "the labels must come out wrong", lambda: SegNet(), (2, 3, 64, 64), {"logits": "logits"},
             1e-5, batches=[1, 3], seed=1, workaround=True, json={"expectWrong": True}),
    ]
