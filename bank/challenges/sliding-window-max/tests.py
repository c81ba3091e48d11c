import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [1.0, 3.0, -1.0, -3.0, 5.0, 3.0, 6.0, 7.0], "k": 3}, public=True,
             what="the worked example"),
        Case("k-equals-1", {"n": 5, "k": 1}, public=True, what="k = 1 returns x"),
        Case("k-equals-n", {"n": 37, "k": 37}, seed=1, shrink=("n",), what="one window covering everything"),
        Case("decreasing", {"n": 50, "k": 7, "order": "desc"}, seed=2, shrink=("n",), what="strictly decreasing input"),
        Case("ties-and-negatives", {"n": 64, "k": 5, "ints": True}, seed=3, shrink=("n",),
             what="repeated values and negatives"),
        Case("n-not-multiple-of-k", {"n": 101, "k": 10}, seed=4, shrink=("n",), what="n not a multiple of k"),
        Case("float32", {"n": 300, "k": 17, "dtype": "float32"}, seed=5, what="float32 keeps its dtype"),
        Case("large-window", {"n": 200_000, "k": 20_000}, seed=6, what="large n and k (timed against the reference)"),
    ]


def make_inputs(seed, k, values=None, n=None, order=None, ints=False, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    if values is not None:
        x = torch.tensor(values, dtype=dt)
    elif ints:
        x = torch.randint(-3, 4, (n,), generator=g).to(dt)
    else:
        x = torch.randn(n, generator=g, dtype=torch.float64).to(dt)
        if order == "desc":
            x = x.sort(descending=True).values
    return {"x": x, "k": min(k, x.numel())}


def oracle(inputs):
    return {"y": inputs["x"].unfold(0, inputs["k"], 1).amax(dim=1)}
