import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"P": 3, "d": 4}, public=True, what="the worked example"),
        Case("add-to-embeddings", {"P": 6, "d": 6, "batch": 2, "T": 5}, public=True, seed=1,
             what="add the table to a batch of embeddings"),
        Case("odd-d", {"P": 9, "d": 7, "batch": 2, "T": 4}, seed=2, shrink=("P", "batch"),
             what="odd d_model: the last column is a sine"),
        Case("d-one", {"P": 5, "d": 1}, seed=3, shrink=("P",), what="d_model = 1: a single sine column"),
        Case("long-and-wide", {"P": 256, "d": 64, "batch": 1, "T": 40}, seed=4,
             what="many positions, many frequencies"),
        Case("start-offset", {"P": 4, "d": 10, "batch": 3, "T": 6, "start": 50}, seed=5, shrink=("batch",),
             what="a continuation starting at position 50"),
        Case("float32-embeddings", {"P": 8, "d": 12, "batch": 2, "T": 8, "dtype": "float32"}, seed=6,
             shrink=("batch",), what="float32 embeddings keep their dtype"),
        Case("other-base", {"P": 20, "d": 9, "base": 100.0, "batch": 1, "T": 3, "start": 7}, seed=7,
             what="base 100 instead of 10000"),
        Case("no-positions", {"P": 0, "d": 5}, seed=8, what="an empty table (0 positions)"),
    ]


def make_inputs(seed, P, d, base=10000.0, batch=None, T=0, start=0, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    out = {"num_positions": P, "d_model": d, "base": base}
    if batch is not None:
        out["x"] = torch.randn(batch, T, d, generator=g, dtype=torch.float64).to(getattr(torch, dtype))
        out["start"] = start
    return out


def oracle(inputs):
    """Straight from the formula, one entry at a time with Python's math."""
    import math

    from torchdojo.judge.testing import vjp

    def pe(pos, j, d, base):
        angle = pos / base ** ((j - j % 2) / d)
        return math.sin(angle) if j % 2 == 0 else math.cos(angle)

    P, d, base = inputs["num_positions"], inputs["d_model"], inputs["base"]
    out = {"table": torch.tensor([[pe(p, j, d, base) for j in range(d)] for p in range(P)],
                                 dtype=torch.float64).reshape(P, d)}
    if "x" in inputs:
        x = inputs["x"].clone().requires_grad_(True)
        T, s = x.shape[1], inputs["start"]
        rows = torch.tensor([[pe(p, j, d, base) for j in range(d)] for p in range(s, s + T)], dtype=torch.float64)
        y = x + rows.reshape(T, d).to(x.dtype)
        out["y"] = y
        (out["x_grad"],) = vjp(y, x, seed=1)
    return out
