import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[[1.0, 2.0, 3.0, 4.0]]], "w": [[[10.0, 1.0]]], "dilation": 2, "bias": False},
             public=True, what="the worked example, dilation 2"),
        Case("channels", {"B": 2, "cin": 3, "cout": 2, "T": 10, "K": 3, "dilation": 1}, public=True, seed=1,
             what="several channels, kernel 3"),
        Case("dilated", {"B": 2, "cin": 2, "cout": 4, "T": 20, "K": 3, "dilation": 4}, seed=2, shrink=("B",),
             what="dilation 4: left padding (K-1)*dilation"),
        Case("even-kernel", {"B": 3, "cin": 2, "cout": 3, "T": 15, "K": 4, "dilation": 2}, seed=3, shrink=("B",),
             what="even kernel size"),
        Case("kernel-one", {"B": 2, "cin": 4, "cout": 3, "T": 9, "K": 1, "dilation": 3}, seed=4, shrink=("B",),
             what="K = 1: no padding at all"),
        Case("short-sequence", {"B": 2, "cin": 3, "cout": 2, "T": 5, "K": 3, "dilation": 5}, seed=5, shrink=("B",),
             what="a sequence shorter than the receptive field"),
        Case("length-one", {"B": 3, "cin": 2, "cout": 2, "T": 1, "K": 3, "dilation": 2}, seed=6,
             what="T = 1"),
        Case("no-bias-wide", {"B": 2, "cin": 8, "cout": 6, "T": 64, "K": 5, "dilation": 3, "bias": False}, seed=7,
             shrink=("B",), what="no bias, more channels"),
    ]


def make_inputs(seed, dilation, values=None, w=None, B=1, cin=1, cout=1, T=1, K=1, bias=True):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        x = torch.tensor(values, dtype=torch.float64)
        weight = torch.tensor(w, dtype=torch.float64)
    else:
        x = torch.randn(B, cin, T, generator=g, dtype=torch.float64)
        weight = torch.randn(cout, cin, K, generator=g, dtype=torch.float64)
    b = torch.randn(weight.shape[0], generator=g, dtype=torch.float64) if bias else None
    return {"x": x, "weight": weight, "bias": b, "dilation": dilation}


def check(inputs, got):
    y = got.get("y")
    if isinstance(y, torch.Tensor) and y.shape[-1] != inputs["x"].shape[-1]:
        return (f"output length {y.shape[-1]} differs from the input length {inputs['x'].shape[-1]}: "
                "pad (K-1)*dilation zeros on the left")
    leak = got.get("future_leak", 0.0)
    if not isinstance(leak, (int, float)) or not leak <= 1e-9:
        return ("changing the input from time T//2 on changed the output before T//2: y[t] depends on future "
                "inputs (pad on the left only)")
    return None


def oracle(inputs):
    """The formula, one tap at a time: y[t] += w[:, :, k] @ x[t - (K-1-k)*d] for valid times."""
    from torchdojo.judge.testing import vjp

    x = inputs["x"].clone().requires_grad_(True)
    w = inputs["weight"].clone().requires_grad_(True)
    d = inputs["dilation"]
    B, _, T = x.shape
    K = w.shape[-1]
    cols = []
    for t in range(T):
        acc = torch.zeros(B, w.shape[0], dtype=torch.float64)
        for k in range(K):
            src = t - (K - 1 - k) * d
            if src >= 0:
                acc = acc + x[:, :, src] @ w[:, :, k].T
        cols.append(acc)
    y = torch.stack(cols, dim=-1)
    if inputs["bias"] is not None:
        b = inputs["bias"].clone().requires_grad_(True)
        y = y + b[:, None]
        gx, gw, gb = vjp(y, (x, w, b), seed=1)
        return {"y": y, "x_grad": gx, "weight_grad": gw, "bias_grad": gb, "future_leak": 0.0}
    gx, gw = vjp(y, (x, w), seed=1)
    return {"y": y, "x_grad": gx, "weight_grad": gw, "future_leak": 0.0}
