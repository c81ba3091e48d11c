import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[3.0, 4.0]], "shape": [2], "eps": 0.0, "affine": False}, public=True,
             what="the worked example"),
        Case("weighted", {"rows": 3, "shape": [6], "affine": True}, public=True, seed=1,
             what="with a weight over the last dim"),
        Case("offset-rows", {"rows": 6, "shape": [10], "offset": 3.0, "affine": True}, seed=2, shrink=("rows",),
             what="rows with a large non-zero mean are not centred"),
        Case("last-two-dims", {"rows": 4, "shape": [3, 5], "batch": 2, "affine": True}, seed=3,
             shrink=("rows", "batch"), what="normalized_shape with two dims on a 4-D input"),
        Case("large-eps", {"rows": 6, "shape": [8], "eps": 0.1, "scale": 0.2, "affine": True}, seed=4,
             shrink=("rows",), what="eps = 0.1 on small-magnitude rows"),
        Case("zero-rows", {"rows": 4, "shape": [5], "zero_rows": True, "affine": True}, seed=5, shrink=("rows",),
             what="all-zero rows give zeros and a finite gradient"),
        Case("float32", {"rows": 8, "shape": [16], "affine": True, "dtype": "float32"}, seed=6, shrink=("rows",),
             what="float32 in, float32 out"),
        Case("no-weight-wide", {"rows": 5, "shape": [64], "offset": -1.0, "affine": False}, seed=7, shrink=("rows",),
             what="no weight, 64 features"),
    ]


def make_inputs(seed, shape, affine, values=None, rows=1, batch=None, eps=1e-6, scale=1.0, offset=0.0,
                zero_rows=False, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    if values is not None:
        x = torch.tensor(values, dtype=torch.float64)
    else:
        lead = (batch, rows) if batch else (rows,)
        x = torch.randn(*lead, *shape, generator=g, dtype=torch.float64) * scale + offset
        if zero_rows:
            x[::2] = 0.0
    out = {"x": x.to(dt), "normalized_shape": list(shape), "eps": eps}
    if affine:
        out["weight"] = (1.0 + 0.5 * torch.randn(*shape, generator=g, dtype=torch.float64)).to(dt)
    return out
