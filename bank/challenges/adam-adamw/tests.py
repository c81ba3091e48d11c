import types
from pathlib import Path

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("adam", {"optimizer": "Adam", "steps": 3, "n": 5, "d": 3, "k": 2, "hp": {"lr": 0.1}},
             public=True, seed=1, what="Adam, default betas"),
        Case("adamw", {"optimizer": "AdamW", "steps": 3, "n": 5, "d": 3, "k": 2,
                       "hp": {"lr": 0.1, "weight_decay": 0.1}}, public=True, seed=2, what="AdamW, decoupled decay"),
        Case("adam-l2", {"optimizer": "Adam", "steps": 6, "n": 6, "d": 4, "k": 3,
                         "hp": {"lr": 0.05, "weight_decay": 0.5}}, seed=3, shrink=("steps", "d"),
             what="Adam's weight_decay is an L2 term added to the gradient"),
        Case("adamw-strong-decay", {"optimizer": "AdamW", "steps": 8, "n": 6, "d": 3, "k": 2,
                                    "hp": {"lr": 0.05, "weight_decay": 2.0}}, seed=4, shrink=("steps",),
             what="AdamW with large decay: p *= 1 - lr * wd, outside the moments"),
        Case("low-betas", {"optimizer": "Adam", "steps": 10, "n": 6, "d": 3, "k": 2,
                           "hp": {"lr": 0.02, "betas": [0.5, 0.9]}}, seed=5, shrink=("steps",),
             what="betas (0.5, 0.9): bias correction over 10 steps"),
        Case("large-eps", {"optimizer": "AdamW", "steps": 5, "n": 4, "d": 3, "k": 2,
                           "hp": {"lr": 0.1, "eps": 0.05, "weight_decay": 0.01}}, seed=6, shrink=("steps",),
             what="eps = 0.05 is added after bias-correcting sqrt(v)"),
        Case("single-step", {"optimizer": "Adam", "steps": 1, "n": 3, "d": 2, "k": 2,
                             "hp": {"lr": 0.5, "betas": [0.8, 0.99]}}, seed=7,
             what="one step: the bias-corrected update is lr * g / (|g| + eps)"),
        Case("adamw-no-decay", {"optimizer": "AdamW", "steps": 12, "n": 5, "d": 3, "k": 1,
                                "hp": {"lr": 0.03, "weight_decay": 0.0, "betas": [0.9, 0.95]}}, seed=8,
             shrink=("steps",), what="AdamW with weight_decay 0 equals Adam"),
    ]


def make_inputs(seed, optimizer, steps, n, d, k, hp):
    g = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)  # noqa: E731
    return {"x": r(n, d), "y": r(n, k).abs(), "w": r(k, d), "b": 0.5 + 0.1 * r(k), "frozen": r(3),
            "optimizer": optimizer, "steps": steps, "hp": dict(hp)}


def _harness():
    mod = types.ModuleType("adam_harness")
    path = Path(__file__).with_name("harness.py")
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), mod.__dict__)
    return mod


def oracle(inputs):
    builtin = types.SimpleNamespace(Adam=torch.optim.Adam, AdamW=torch.optim.AdamW)
    return _harness().run(builtin, inputs)
