import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    x = inputs["x"].clone().requires_grad_(True)
    w = inputs["weight"].clone().requires_grad_(True)
    d = inputs["dilation"]
    if inputs["bias"] is not None:
        b = inputs["bias"].clone().requires_grad_(True)
        y = sol.causal_conv1d(x, w, b, dilation=d)
        gx, gw, gb = vjp(y, (x, w, b), seed=1)
        out = {"y": y, "x_grad": gx, "weight_grad": gw, "bias_grad": gb}
    else:
        y = sol.causal_conv1d(x, w, dilation=d)
        gx, gw = vjp(y, (x, w), seed=1)
        out = {"y": y, "x_grad": gx, "weight_grad": gw}
    # causality probe: change the inputs from time s on; outputs before s must not move
    T = x.shape[-1]
    s = T // 2
    leak = 0.0
    if s > 0 and y.shape[-1] == T:
        with torch.no_grad():
            x2 = inputs["x"].clone()
            x2[..., s:] += 1.0 + torch.arange(T - s, dtype=x2.dtype)
            y2 = sol.causal_conv1d(x2, inputs["weight"], inputs["bias"], dilation=d)
            if y2.shape == y.shape:
                leak = float((y2[..., :s] - y.detach()[..., :s]).abs().max())
            else:
                leak = float("inf")  # inconsistent output shapes: treat as not causal
    out["future_leak"] = leak
    return out
