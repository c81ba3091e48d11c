import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [1.0, 2.0, 3.0], "ops": [["q", 0, 2], ["u", 1, 10.0], ["q", 0, 3]]}, public=True,
             what="the worked example"),
        Case("single", {"values": [5.0], "ops": [["q", 0, 1], ["q", 0, 0], ["u", 0, -2.5], ["q", 0, 1]]}, public=True,
             what="n = 1 and an empty range"),
        Case("odd-n", {"n": 37, "n_ops": 200}, seed=1, shrink=("n",), what="odd n, random operations"),
        Case("power-of-two", {"n": 64, "n_ops": 300}, seed=2, shrink=("n",), what="n a power of two"),
        Case("many-ops", {"n": 100_000, "n_ops": 20_000}, seed=3, what="n = 100000, 20000 operations (timed)"),
    ]


def make_inputs(seed, values=None, ops=None, n=0, n_ops=0):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        return {"values": torch.tensor(values, dtype=torch.float64), "ops": ops}
    vals = torch.randn(n, generator=g, dtype=torch.float64)
    kinds = torch.rand(n_ops, generator=g) < 0.5
    a = torch.randint(0, n, (n_ops,), generator=g).tolist()
    b = torch.randint(0, n + 1, (n_ops,), generator=g).tolist()
    v = torch.randn(n_ops, generator=g, dtype=torch.float64).tolist()
    out = []
    for k, x, y, z in zip(kinds.tolist(), a, b, v):
        out.append(["u", x, z] if k else ["q", min(x, y), max(x, y)])
    return {"values": vals, "ops": out}


def oracle(inputs):
    v = inputs["values"].clone()
    out = []
    for op, a, b in inputs["ops"]:
        if op == "u":
            v[a] = b
        else:
            out.append(float(v[a:int(b)].sum()))
    return {"answers": out}
