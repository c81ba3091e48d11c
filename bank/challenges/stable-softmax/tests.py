import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[1.0, 2.0, 3.0]], "dim": -1}, public=True, what="a small row"),
        Case("large-logits", {"values": [[1000.0, 1001.0], [-1000.0, 0.0]], "dim": -1}, public=True,
             what="large logits do not overflow"),
        Case("random-rows", {"n": 16, "d": 33, "scale": 3.0, "dim": -1}, seed=1, shrink=("n", "d"),
             what="random float64 rows, last dim"),
        Case("dim0", {"n": 7, "d": 5, "scale": 1.0, "dim": 0}, seed=2, shrink=("n", "d"), what="along dim 0"),
        Case("huge-scale", {"n": 8, "d": 16, "scale": 1e4, "dim": 1}, seed=3, shrink=("n", "d"),
             what="logits around 1e4 stay finite"),
        Case("masked", {"n": 6, "d": 9, "scale": 2.0, "dim": -1, "mask": True}, seed=4, shrink=("n",),
             what="-inf entries get probability 0"),
        Case("float32-3d", {"n": 4, "d": 10, "scale": 5.0, "dim": 1, "batch": 3, "dtype": "float32"}, seed=5,
             what="float32, 3-D, middle dim"),
    ]


def make_inputs(seed, dim, values=None, n=1, d=1, scale=1.0, mask=False, batch=None, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    if values is not None:
        x = torch.tensor(values, dtype=dt)
    else:
        shape = (batch, n, d) if batch else (n, d)
        x = (torch.randn(shape, generator=g, dtype=torch.float64) * scale).to(dt)
    grad = True
    if mask:
        m = torch.rand(x.shape, generator=g) < 0.3
        m[..., 0] = False  # every row keeps one finite entry
        x = x.masked_fill(m, float("-inf"))
        grad = False  # gradients at -inf are NaN-prone by definition; values are what matters here
    return {"x": x, "dim": dim, "grad": grad}


def check(inputs, got):
    p = got["softmax"]
    s = p.sum(dim=inputs["dim"])
    if not torch.allclose(s, torch.ones_like(s), atol=1e-5):
        return "softmax rows do not sum to 1"
    return None


def oracle(inputs):
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    x = inputs["x"].clone().requires_grad_(True)
    p, lp = F.softmax(x, inputs["dim"]), F.log_softmax(x, inputs["dim"])
    out = {"softmax": p, "log_softmax": lp}
    if inputs.get("grad", True):
        (out["softmax_vjp"],) = vjp(p, x, seed=1)
        (out["log_softmax_vjp"],) = vjp(lp, x, seed=2)
    return out
