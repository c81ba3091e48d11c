import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("basic", {"n": 1, "c_in": 2, "c_out": 3, "h": 5, "w": 5, "k": [3, 3]}, public=True, seed=1,
             what="3x3 kernel, stride 1, no padding"),
        Case("stride-padding", {"n": 2, "c_in": 2, "c_out": 2, "h": 6, "w": 5, "k": [3, 3], "stride": 2,
                                "padding": 1}, public=True, seed=2, what="stride 2, padding 1"),
        Case("dilation", {"n": 2, "c_in": 3, "c_out": 4, "h": 9, "w": 8, "k": [3, 3], "dilation": 2}, seed=3,
             shrink=("n", "c_out"), what="dilation 2 (the kernel spans 5x5)"),
        Case("all-options", {"n": 2, "c_in": 3, "c_out": 2, "h": 10, "w": 9, "k": [3, 2], "stride": [2, 1],
                             "padding": [1, 2], "dilation": [2, 3]}, seed=4, shrink=("n", "c_out"),
             what="per-dimension stride, padding and dilation with a non-square kernel"),
        Case("dilated-strided", {"n": 1, "c_in": 2, "c_out": 3, "h": 11, "w": 11, "k": [3, 3], "stride": 2,
                                 "padding": 3, "dilation": 3}, seed=5, shrink=("c_out",),
             what="dilation 3, stride 2, padding 3"),
        Case("no-bias", {"n": 2, "c_in": 4, "c_out": 5, "h": 6, "w": 7, "k": [2, 3], "bias": False}, seed=6,
             shrink=("n", "c_out"), what="bias=None"),
        Case("pointwise", {"n": 3, "c_in": 5, "c_out": 2, "h": 4, "w": 3, "k": [1, 1]}, seed=7, shrink=("n",),
             what="1x1 kernel"),
        Case("kernel-covers-input", {"n": 2, "c_in": 3, "c_out": 4, "h": 4, "w": 5, "k": [4, 5]}, seed=8,
             shrink=("n", "c_out"), what="the kernel is as large as the input: a 1x1 output"),
    ]


def make_inputs(seed, n, c_in, c_out, h, w, k, stride=1, padding=0, dilation=1, bias=True):
    g = torch.Generator().manual_seed(seed)
    out = {"x": torch.randn(n, c_in, h, w, generator=g, dtype=torch.float64),
           "weight": torch.randn(c_out, c_in, *k, generator=g, dtype=torch.float64),
           "stride": stride, "padding": padding, "dilation": dilation}
    if bias:
        out["bias"] = torch.randn(c_out, generator=g, dtype=torch.float64)
    return out
