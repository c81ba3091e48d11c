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
        Case("near-ties", {"rows": 6, "n": 60, "k": 11, "near": True}, seed=6, shrink=("rows", "n"),
             what="values a float32 round-trip merges: the answer must be an exact element of the row"),
    ]


def make_inputs(seed, k, values=None, rows=1, n=1, ints=False, scale=1.0, near=False):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        x = torch.tensor(values, dtype=torch.float64)
    elif ints:
        x = torch.randint(-3, 4, (rows, n), generator=g).double()
    elif near:  # distinct float64 values 1e-10 apart around 1 (and a few far away): equal in float32
        x = 1.0 + torch.randint(1, 10**6, (rows, n), generator=g).double() * 1e-10
        far = torch.rand(rows, n, generator=g) < 0.2
        x = torch.where(far, torch.randn(rows, n, generator=g, dtype=torch.float64) * 3.0, x)
    else:
        x = torch.randn(rows, n, generator=g, dtype=torch.float64) * scale
    return {"x": x, "k": k}


def check(inputs, got):
    v = got["value"]
    x = inputs["x"]
    if not isinstance(v, torch.Tensor) or v.shape != (x.shape[0],) or v.dtype != x.dtype:
        return None  # the comparison reports shape / dtype
    rows = (x == v[:, None]).any(1)
    if not bool(rows.all()):
        r = int((~rows).nonzero()[0])
        return (f"row {r}: the result {float(v[r])!r} is not an element of the row: select the value itself "
                "(in float64, no casting through float32, no interpolation)")
    return None


def oracle(inputs):
    return {"value": inputs["x"].topk(inputs["k"], dim=1).values[:, -1]}
