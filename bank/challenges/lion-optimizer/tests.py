import math

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("three-steps", {"steps": 3, "n": 5, "d": 3, "k": 2, "hp": {"lr": 0.05}}, public=True, seed=1,
             what="default betas, no weight decay"),
        Case("weight-decay", {"steps": 4, "n": 5, "d": 3, "k": 2, "hp": {"lr": 0.05, "weight_decay": 0.5}},
             public=True, seed=2, what="decoupled weight decay"),
        Case("many-steps", {"steps": 10, "n": 6, "d": 4, "k": 3, "hp": {"lr": 0.02}}, seed=3,
             shrink=("steps", "d"), what="ten steps: the direction uses beta1, the momentum beta2"),
        Case("custom-betas", {"steps": 8, "n": 6, "d": 3, "k": 2, "hp": {"lr": 0.03, "betas": [0.5, 0.95]}},
             seed=4, shrink=("steps",), what="betas (0.5, 0.95)"),
        Case("swapped-betas", {"steps": 8, "n": 6, "d": 3, "k": 2, "hp": {"lr": 0.03, "betas": [0.99, 0.3]}},
             seed=5, shrink=("steps",), what="beta1 > beta2: which beta goes where matters a lot"),
        Case("strong-decay", {"steps": 6, "n": 4, "d": 3, "k": 2,
                              "hp": {"lr": 0.05, "betas": [0.9, 0.9], "weight_decay": 3.0}},
             seed=6, shrink=("steps",), what="weight decay 3.0 applied to the weights, not the momentum"),
        Case("single-step", {"steps": 1, "n": 3, "d": 2, "k": 1, "hp": {"lr": 0.1, "weight_decay": 0.1}},
             seed=7, what="one step: p(1 - lr*wd) - lr*sign(g)"),
        Case("zero-gradient", {"steps": 4, "n": 5, "d": 4, "k": 2, "hp": {"lr": 0.05}, "zero_col": True},
             seed=8, shrink=("steps",), what="an input feature that is always 0: its weights get gradient 0 "
                                             "and, since sign(0) = 0, never move"),
    ]


def make_inputs(seed, steps, n, d, k, hp, zero_col=False):
    g = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)  # noqa: E731
    x = r(n, d)
    if zero_col:
        x[:, 0] = 0.0  # the gradient of w[:, 0] is exactly 0 at every step
    return {"x": x, "y": 0.8 * torch.tanh(r(n, k)), "w": 0.5 * r(k, d), "b": 0.1 * r(k),
            "frozen": r(2), "steps": steps, "hp": dict(hp)}


def oracle(inputs):
    """Lion written differently: plain Python floats, one scalar at a time (Chen et al. 2023, Alg. 2)."""
    hp = inputs["hp"]
    lr, wd = hp.get("lr", 1e-4), hp.get("weight_decay", 0.0)
    beta1, beta2 = hp.get("betas", (0.9, 0.99))
    x, y = inputs["x"], inputs["y"]
    theta = {"w": inputs["w"].flatten().tolist(), "b": inputs["b"].tolist()}
    mom = {k: [0.0] * len(v) for k, v in theta.items()}
    shape = inputs["w"].shape
    out = {"loss": [], "w": [], "b": []}
    for _ in range(inputs["steps"]):
        w = torch.tensor(theta["w"], dtype=torch.float64).view(shape).requires_grad_(True)
        b = torch.tensor(theta["b"], dtype=torch.float64).requires_grad_(True)
        loss = (torch.tanh(x @ w.T + b) - y).pow(2).mean()
        gw, gb = torch.autograd.grad(loss, (w, b))
        grads = {"w": gw.flatten().tolist(), "b": gb.tolist()}
        for key in theta:
            for j, gj in enumerate(grads[key]):
                c = beta1 * mom[key][j] + (1 - beta1) * gj
                s = 0.0 if c == 0 else math.copysign(1.0, c)
                theta[key][j] = theta[key][j] - lr * (s + wd * theta[key][j])
                mom[key][j] = beta2 * mom[key][j] + (1 - beta2) * gj
        out["loss"].append(loss.detach())
        out["w"].append(torch.tensor(theta["w"], dtype=torch.float64).view(shape))
        out["b"].append(torch.tensor(theta["b"], dtype=torch.float64))
    return {"loss": torch.stack(out["loss"]), "w": torch.stack(out["w"]), "b": torch.stack(out["b"]),
            "frozen": inputs["frozen"].clone()}
