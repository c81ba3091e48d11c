import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("basic", {"n": 1, "c": 1, "h": 4, "w": 4, "k": 2}, public=True, seed=1,
             what="2x2 windows, stride defaults to the kernel size"),
        Case("overlap-padding", {"n": 1, "c": 2, "h": 5, "w": 5, "k": 3, "stride": 1, "padding": 1}, public=True,
             seed=2, what="overlapping 3x3 windows with padding 1"),
        Case("all-negative-padded", {"n": 2, "c": 2, "h": 6, "w": 5, "k": 3, "stride": 2, "padding": 1,
                                     "negative": True}, seed=3, shrink=("n", "c"),
             what="all inputs negative: padding must never win the max"),
        Case("odd-size", {"n": 2, "c": 3, "h": 7, "w": 9, "k": 2}, seed=4, shrink=("n", "c"),
             what="odd sizes: the last row/column that does not fill a window is dropped"),
        Case("non-square", {"n": 2, "c": 2, "h": 8, "w": 7, "k": [3, 2], "stride": [2, 1], "padding": [1, 0]},
             seed=5, shrink=("n", "c"), what="per-dimension kernel, stride and padding"),
        Case("ties", {"n": 2, "c": 3, "h": 6, "w": 6, "k": 2, "stride": 1, "ties": True}, seed=6,
             shrink=("n", "c"), what="many tied maxima (ReLU-like zeros) in overlapping windows"),
        Case("strided-padded", {"n": 2, "c": 4, "h": 9, "w": 8, "k": 3, "stride": 2, "padding": 1}, seed=7,
             shrink=("n", "c"), what="3x3, stride 2, padding 1 (a ResNet stem)"),
        Case("kernel-one", {"n": 1, "c": 2, "h": 5, "w": 6, "k": 1, "stride": 2}, seed=8, shrink=("c",),
             what="1x1 kernel with stride 2: subsampling"),
    ]


def make_inputs(seed, n, c, h, w, k, stride=None, padding=None, negative=False, ties=False):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, c, h, w, generator=g, dtype=torch.float64)
    if negative:
        x = -x.abs() - 1.0
    if ties:
        x = torch.randint(-2, 3, (n, c, h, w), generator=g).to(torch.float64).clamp(min=0.0)
    out = {"x": x, "kernel_size": k}
    if stride is not None:
        out["stride"] = stride
    if padding is not None:
        out["padding"] = padding
    return out
