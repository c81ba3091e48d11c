import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[3.0, 1.0, 4.0, 1.0, 5.0], [5.0, 5.0, 1.0, 0.0, 2.0]], "k": 2}, public=True,
             what="duplicates count separately"),
        Case("k-is-n", {"rows": 3, "n": 7, "k": 7}, public=True, seed=1, what="k = n is the minimum"),
        Case("k-is-1", {"rows": 4, "n": 33, "k": 1}, seed=2, shrink=("rows", "n"), what="k = 1 is the maximum"),
        Case("many-ties", {"rows": 6, "n": 50, "k": 17, "ints": True}, seed=3, shrink=("rows", "n"),
             what="few distinct values"),
        Case("random", {"rows": 16, "n": 500, "k": 123}, seed=4, shrink=("rows", "n"), what="random rows"),
        Case("negative-and-huge", {"rows": 5, "n": 40, "k": 9, "scale": 1e12}, seed=5, shrink=("rows", "n"),
             what="large magnitudes of both signs"),
    ]


def make_inputs(seed, k, values=None, rows=1, n=1, ints=False, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        x = torch.tensor(values, dtype=torch.float64)
    elif ints:
        x = torch.randint(-3, 4, (rows, n), generator=g).double()
    else:
        x = torch.randn(rows, n, generator=g, dtype=torch.float64) * scale
    return {"x": x, "k": k}


def oracle(inputs):
    return {"value": inputs["x"].topk(inputs["k"], dim=1).values[:, -1]}
