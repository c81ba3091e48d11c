import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("kaiming", {"fan_in": 6, "fan_out": 4, "init": "kaiming_uniform", "rows": 3}, public=True, seed=1,
             what="Kaiming uniform, 6 -> 4"),
        Case("xavier", {"fan_in": 6, "fan_out": 4, "init": "xavier_uniform", "rows": 3}, public=True, seed=2,
             what="Xavier uniform, 6 -> 4"),
        Case("kaiming-wide", {"fan_in": 64, "fan_out": 16, "init": "kaiming_uniform", "rows": 5}, seed=3,
             shrink=("rows",), what="Kaiming with fan_in much larger than fan_out"),
        Case("kaiming-tall", {"fan_in": 8, "fan_out": 48, "init": "kaiming_uniform", "rows": 5}, seed=4,
             shrink=("rows",), what="Kaiming with fan_out much larger than fan_in"),
        Case("xavier-wide", {"fan_in": 40, "fan_out": 10, "init": "xavier_uniform", "rows": 4}, seed=5,
             shrink=("rows",), what="Xavier, 40 -> 10"),
        Case("no-bias", {"fan_in": 12, "fan_out": 7, "init": "kaiming_uniform", "rows": 4, "bias": False}, seed=6,
             shrink=("rows",), what="bias=False: a single parameter"),
        Case("one-input", {"fan_in": 1, "fan_out": 5, "init": "kaiming_uniform", "rows": 3}, seed=7,
             shrink=("rows",), what="fan_in = 1"),
        Case("batched-3d", {"fan_in": 9, "fan_out": 3, "init": "xavier_uniform", "rows": 4, "batch": 2, "bias": False},
             seed=8, shrink=("rows",), what="input of shape (batch, rows, in_features)"),
    ]


def make_inputs(seed, fan_in, fan_out, init, rows, batch=None, bias=True):
    g = torch.Generator().manual_seed(seed)
    lead = (batch, rows) if batch else (rows,)
    return {"x": torch.randn(*lead, fan_in, generator=g, dtype=torch.float64), "in_features": fan_in,
            "out_features": fan_out, "init": init, "bias": bias, "init_seed": 100 + seed}
