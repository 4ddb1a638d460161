#!/usr/bin/python3
"""The two ONNX models of tests/webgpu/ort.test.ts: a network split at its
max pool / max unpool, so that unpool/webgpu runs the pool (with indices) and
the unpool between two ONNX Runtime Web WebGPU sessions.

  encoder.onnx  x [1, 1, 16, 16] -> Conv 3x3 (1 -> 4, pad 1) -> ReLU -> features [1, 4, 16, 16]
                (the network's MaxPool2d(2, return_indices=True) comes next)
  decoder.onnx  unpooled [1, 4, 16, 16] -> Conv 3x3 (4 -> 2, pad 1) -> y [1, 2, 16, 16]
                (after the network's MaxUnpool2d(2))

Fixed weights (small dyadic fractions, exact in float32), so the files are
the same on every run. Made with Debian's python3-torch (1.13):

  /usr/bin/python3 tests/webgpu/models/make-models.py
"""
import os

import torch

here = os.path.dirname(os.path.abspath(__file__))


def fixed(shape, mul, mod):
    """Weights ((i * mul) % mod - mod // 2) / 16 in flat order."""
    n = 1
    for s in shape:
        n *= s
    i = torch.arange(n, dtype=torch.int64)
    return (((i * mul) % mod - mod // 2).to(torch.float32) / 16).reshape(shape)


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 4, 3, padding=1)
        with torch.no_grad():
            self.conv.weight.copy_(fixed(self.conv.weight.shape, 37, 17))
            self.conv.bias.copy_(torch.tensor([0.125, -0.25, 0.0, 0.5]))

    def forward(self, x):
        return torch.relu(self.conv(x))


class Decoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 2, 3, padding=1)
        with torch.no_grad():
            self.conv.weight.copy_(fixed(self.conv.weight.shape, 29, 13))
            self.conv.bias.copy_(torch.tensor([0.0625, -0.125]))

    def forward(self, x):
        return self.conv(x)


def export(model, shape, name, inp, out):
    model.eval()
    torch.onnx.export(model, torch.zeros(shape), os.path.join(here, name), opset_version=17,
                      input_names=[inp], output_names=[out], do_constant_folding=True)
    print(name, os.path.getsize(os.path.join(here, name)), 'bytes')


if __name__ == '__main__':
    export(Encoder(), (1, 1, 16, 16), 'encoder.onnx', 'x', 'features')
    export(Decoder(), (1, 4, 16, 16), 'decoder.onnx', 'unpooled', 'y')
