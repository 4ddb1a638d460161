"""The demo's SegNet: three encoder stages, each conv-BN-ReLU and a 2x2 max
pool that keeps its indices (the "switches"), and three decoder stages, each
a max unpool with the switches of its encoder stage and a conv-BN-ReLU; a
1x1 conv to the classes and their argmax.

    image (1, 3, 48, 48) -> enc1 16 -> pool 24 -> enc2 32 -> pool 12 -> enc3 32 -> pool 6
    -> unpool 12 -> dec3 32 -> unpool 24 -> dec2 16 -> unpool 48 -> dec1 16 -> head 5
    (channels, and the maps' sides)
    outputs: labels (1, 48, 48) int64 (argmax), logits (1, 5, 48, 48)

The innermost unpool takes the pool's own output; the two others the
decoder's features at the pool's size, so the decoder puts its values back
where the encoder found its maxima.
"""
import torch
from torch import nn

WIDTHS = (16, 32, 32)


def cbr(cin, cout):
    """Conv 3x3 (pad 1) + BatchNorm + ReLU."""
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class SegNet(nn.Module):
    def __init__(self, classes=5, cin=3, widths=WIDTHS):
        super().__init__()
        w1, w2, w3 = widths
        self.enc1, self.enc2, self.enc3 = cbr(cin, w1), cbr(w1, w2), cbr(w2, w3)
        self.dec3, self.dec2, self.dec1 = cbr(w3, w2), cbr(w2, w1), cbr(w1, w1)
        self.pool = nn.MaxPool2d(2, 2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2, 2)
        self.head = nn.Conv2d(w1, classes, 1)

    def maps(self, x):
        """The logits, and per stage (innermost last) its five maps:
        encoder (the pool's input), pooled, switches, decoder (the unpool's
        input) and unpooled, as the page shows them."""
        stages = []
        a = x
        for enc in (self.enc1, self.enc2, self.enc3):
            a = enc(a)
            p, i = self.pool(a)
            stages.append({"encoder": a, "pooled": p, "switches": i})
            a = p
        for stage, dec in zip(reversed(stages), (self.dec3, self.dec2, self.dec1)):
            stage["decoder"] = a
            stage["unpooled"] = self.unpool(a, stage["switches"], output_size=stage["encoder"].shape[-2:])
            a = dec(stage["unpooled"])
        return self.head(a), stages

    def logits(self, x):
        return self.maps(x)[0]

    def forward(self, x):
        logits = self.logits(x)
        return torch.argmax(logits, dim=1), logits
