import torch
from torch import nn


class Counted(nn.Module):
    """Wraps a layer and counts its forward calls (recomputation in backward calls it again)."""

    def __init__(self, layer):
        super().__init__()
        self.layer = layer
        self.calls = 0

    def forward(self, h):
        self.calls += 1
        return self.layer(h)


KINDS = {"linear": None, "tanh": nn.Tanh, "gelu": nn.GELU, "norm": None, "dropout": None}


def build(inputs):
    d = inputs["d"]
    layers = []
    for kind in inputs["layers"]:
        if kind == "linear":
            layer = nn.Linear(d, d)
        elif kind == "norm":
            layer = nn.LayerNorm(d)
        elif kind == "dropout":
            layer = nn.Dropout(0.5)
        else:
            layer = KINDS[kind]()
        layers.append(Counted(layer))
    model = nn.Sequential(*layers).double()
    g = torch.Generator().manual_seed(inputs["seed"])
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=g, dtype=torch.float64) * 0.7)
    return model


def run_model(forward, inputs):
    model = build(inputs)
    x = inputs["x"].clone().requires_grad_(inputs["x_grad"])
    torch.manual_seed(inputs["seed"])  # dropout masks: drawn in forward, replayed when recomputed
    y = forward(model, x, inputs["segments"])
    fwd = [m.calls for m in model]
    # a training-style backward (not autograd.grad): a random upstream vector, then read every .grad
    g = torch.Generator().manual_seed(1)
    y.backward(torch.randn(y.shape, generator=g, dtype=torch.float64))
    bwd = [m.calls - f for m, f in zip(model, fwd, strict=True)]
    wrt = ([x] if inputs["x_grad"] else []) + list(model.parameters())
    grads = [torch.full_like(t, float("nan")) if t.grad is None else t.grad for t in wrt]  # NaN: no gradient
    return {"y": y.detach(), "forward_calls": fwd, "backward_recomputes": bwd,
            "grads": torch.cat([gr.reshape(-1) for gr in grads])}


def run(sol, inputs):
    return run_model(sol.checkpointed_forward, inputs)
