import types
from pathlib import Path

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("plain", {"steps": 3, "n": 4, "d": 3, "k": 2, "hp": {"lr": 0.5}}, public=True, seed=1,
             what="no momentum: p -= lr * grad"),
        Case("momentum", {"steps": 4, "n": 5, "d": 3, "k": 2, "hp": {"lr": 0.3, "momentum": 0.9}}, public=True,
             seed=2, what="heavy-ball momentum 0.9"),
        Case("nesterov", {"steps": 6, "n": 6, "d": 4, "k": 3, "hp": {"lr": 0.2, "momentum": 0.9, "nesterov": True}},
             seed=3, shrink=("steps", "d"), what="Nesterov look-ahead uses the updated buffer"),
        Case("dampening", {"steps": 5, "n": 6, "d": 3, "k": 2,
                           "hp": {"lr": 0.4, "momentum": 0.8, "dampening": 0.5}},
             seed=4, shrink=("steps",), what="dampening 0.5; the first step initialises the buffer undampened"),
        Case("weight-decay", {"steps": 5, "n": 5, "d": 4, "k": 2,
                              "hp": {"lr": 0.3, "momentum": 0.9, "weight_decay": 0.1}},
             seed=5, shrink=("steps",), what="weight decay enters the gradient before momentum"),
        Case("wd-nesterov", {"steps": 6, "n": 4, "d": 3, "k": 3,
                             "hp": {"lr": 0.1, "momentum": 0.5, "weight_decay": 0.05, "nesterov": True}},
             seed=6, shrink=("steps",), what="weight decay with Nesterov"),
        Case("wd-only", {"steps": 4, "n": 4, "d": 2, "k": 2, "hp": {"lr": 0.5, "weight_decay": 0.2}},
             seed=7, shrink=("steps",), what="weight decay without momentum"),
        Case("single-step", {"steps": 1, "n": 3, "d": 2, "k": 1,
                             "hp": {"lr": 1.0, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.1}},
             seed=8, what="one step: the buffer is just the (decayed) gradient"),
    ]


def make_inputs(seed, steps, n, d, k, hp):
    g = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)  # noqa: E731
    return {"x": r(n, d), "y": 0.8 * torch.tanh(r(n, k)), "w": 0.5 * r(k, d), "b": 0.1 * r(k),
            "frozen": r(2), "steps": steps, "hp": dict(hp)}


def _harness():
    mod = types.ModuleType("sgd_harness")
    path = Path(__file__).with_name("harness.py")
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), mod.__dict__)
    return mod


def oracle(inputs):
    return _harness().run(types.SimpleNamespace(SGD=torch.optim.SGD), inputs)
