import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [-2.0, -1.0, 0.0, 1.0, 2.0]}, public=True, what="a few points"),
        Case("random", {"n": 6, "d": 7, "scale": 2.0}, public=True, seed=1, what="random inputs"),
        Case("around-zero", {"n": 8, "d": 16, "scale": 0.5}, seed=2, shrink=("n", "d"),
             what="small inputs, where the two GELUs differ most in relative terms"),
        Case("wide-range", {"n": 10, "d": 30, "scale": 4.0}, seed=3, shrink=("n", "d"),
             what="inputs spread over [-12, 12]"),
        Case("large-magnitude", {"values": [-1000.0, -200.0, -50.0, 50.0, 200.0, 1000.0]}, seed=4,
             what="|x| up to 1000: finite values and gradients"),
        Case("float32", {"n": 16, "d": 16, "scale": 3.0, "dtype": "float32"}, seed=5, shrink=("n", "d"),
             what="float32 in, float32 out"),
        Case("3d", {"n": 3, "d": 5, "batch": 4, "scale": 1.5}, seed=6, shrink=("n", "batch"), what="a 3-D input"),
    ]


def make_inputs(seed, values=None, n=1, d=1, batch=None, scale=1.0, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        x = torch.tensor(values, dtype=torch.float64)
    else:
        shape = (batch, n, d) if batch else (n, d)
        x = torch.randn(shape, generator=g, dtype=torch.float64) * scale
    return {"x": x.to(getattr(torch, dtype))}
