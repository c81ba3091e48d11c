import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("small", {"n": 6, "std": 1.5}, public=True, seed=1, what="a few values in float64"),
        Case("boundaries", {"n": 4, "std": 1.0, "edges": True}, public=True, seed=2,
             what="x exactly at lo and hi: the clamp gradient passes there"),
        Case("matrix", {"n": 5, "cols": 7, "std": 2.0}, seed=3, shrink=("n", "cols"),
             what="a 2-D input"),
        Case("large-values", {"n": 16, "std": 20.0}, seed=4, shrink=("n",),
             what="|x| up to ~60: SiLU's sigmoid saturates, gradients stay finite"),
        Case("all-clamped", {"n": 8, "std": 1.0, "lo": 5.0, "hi": 6.0}, seed=5, shrink=("n",),
             what="every value below lo: zero clamp gradient everywhere"),
        Case("fine-grid", {"n": 12, "std": 1.0, "scale": 16.0, "edges": True}, seed=6, shrink=("n",),
             what="rounding to a 1/16 grid"),
        Case("float32", {"n": 10, "cols": 3, "std": 2.0, "dtype": "float32"}, seed=7, shrink=("n",),
             what="float32 in, float32 out and float32 gradients"),
        Case("single", {"n": 1, "std": 1.0}, seed=8, what="one element"),
        Case("halves", {"n": 8, "std": 1.0, "halves": True}, seed=9,
             what="x * scale exactly halfway between integers: round half to even"),
    ]


def make_inputs(seed, n, std, cols=None, lo=-0.7, hi=1.3, scale=4.0, edges=False, dtype="float64",
                halves=False):
    g = torch.Generator().manual_seed(seed)
    shape = (n,) if cols is None else (n, cols)
    x = torch.randn(shape, generator=g, dtype=torch.float64) * std
    if halves:  # x * scale (and 3 x) land on k + 1/2: -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, ...
        x = (torch.arange(n, dtype=torch.float64) - n // 2 + 0.5) / scale
    if edges:
        flat = x.view(-1)
        flat[0] = lo
        if flat.numel() > 1:
            flat[1] = hi
    probe = torch.randn(5, generator=g, dtype=torch.float64) * 2
    probe = torch.where(((probe - lo).abs() < 0.01) | ((probe - hi).abs() < 0.01), probe + 0.1, probe)
    return {"x": x.to(getattr(torch, dtype)), "lo": lo, "hi": hi, "scale": scale, "probe": probe}


def oracle(inputs):
    """PyTorch's own ops: clamp's built-in backward, F.silu, and round with the detach trick."""
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    lo, hi = inputs["lo"], inputs["hi"]
    ste = lambda t: t + (torch.round(t) - t).detach()  # noqa: E731
    x = inputs["x"].clone().requires_grad_(True)
    r = ste(x * inputs["scale"]) / inputs["scale"]
    c = torch.clamp(x, lo, hi)
    s = F.silu(x)
    z = F.silu(torch.clamp(ste(x * 3.0) / 3.0, lo, hi))
    out = {"is_function": [True, True, True], "round": r, "clamp": c, "silu": s, "chain": z}
    for i, (name, y) in enumerate((("round", r), ("clamp", c), ("silu", s), ("chain", z))):
        (out[f"{name}_vjp"],) = vjp(y, x, seed=i + 1)
    if x.dtype == torch.float64:
        out["gradcheck_silu"] = out["gradcheck_clamp"] = True
    return out
