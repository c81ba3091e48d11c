import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"example": True}, public=True, what="the worked example"),
        Case("small", {"n": 3, "fin": 4, "fout": 3, "r": 2, "alpha": 8.0, "bias": True}, seed=1, public=True,
             what="r = 2, alpha = 8 (scale 4), with bias"),
        Case("random", {"n": 10, "fin": 16, "fout": 12, "r": 4, "alpha": 16.0, "bias": True}, seed=2,
             shrink=("n",), what="r = 4, alpha = 16"),
        Case("alpha-below-r", {"n": 6, "fin": 8, "fout": 8, "r": 8, "alpha": 2.0, "bias": False}, seed=3,
             shrink=("n",), what="alpha < r (scale 0.25), no bias"),
        Case("batched-input", {"n": 5, "t": 3, "fin": 6, "fout": 10, "r": 3, "alpha": 6.0, "bias": True}, seed=4,
             shrink=("n", "t"), what="(B, T, in) input"),
        Case("full-rank", {"n": 4, "fin": 5, "fout": 5, "r": 5, "alpha": 1.0, "bias": True}, seed=5,
             what="r equal to the feature size"),
        Case("wide", {"n": 8, "fin": 32, "fout": 4, "r": 2, "alpha": 32.0, "bias": False}, seed=6, shrink=("n",),
             what="in_features much larger than out_features"),
    ]


def make_inputs(seed, example=False, n=1, t=None, fin=1, fout=1, r=1, alpha=1.0, bias=True):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if example:
        return {"in_features": 2, "out_features": 2, "r": 1, "alpha": 2.0, "bias": False,
                "weight": torch.eye(2, dtype=f64), "x": torch.tensor([[3.0, 4.0]], dtype=f64),
                "A": torch.tensor([[1.0, 0.0]], dtype=f64), "B": torch.tensor([[0.0], [1.0]], dtype=f64)}
    out = {"in_features": fin, "out_features": fout, "r": r, "alpha": alpha, "bias": bias,
           "weight": torch.randn(fout, fin, generator=g, dtype=f64) * fin ** -0.5,
           "x": torch.randn(*((n,) if t is None else (n, t)), fin, generator=g, dtype=f64),
           "A": torch.randn(r, fin, generator=g, dtype=f64) * fin ** -0.5,
           "B": torch.randn(fout, r, generator=g, dtype=f64) * 0.5}
    if bias:
        out["bias_value"] = torch.randn(fout, generator=g, dtype=f64) * 0.1
    return out


def check(inputs, got):
    if not torch.allclose(got["merged_out"], got["out"].detach(), rtol=1e-9, atol=1e-9):
        return "after merge() the output changed: the update must be folded in exactly once"
    return None
