import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[1.0, 2.0, 3.0, 4.0]], "shape": [4], "eps": 0.0, "affine": False},
             public=True, what="the worked example"),
        Case("affine", {"rows": 3, "shape": [5], "affine": True}, public=True, seed=1,
             what="weight and bias over the last dim"),
        Case("random-3d", {"rows": 6, "shape": [17], "batch": 4, "affine": True}, seed=2, shrink=("rows", "batch"),
             what="3-D input, last dim, with affine"),
        Case("last-two-dims", {"rows": 5, "shape": [3, 7], "affine": True}, seed=3, shrink=("rows",),
             what="normalized_shape with two dims"),
        Case("small-n", {"rows": 8, "shape": [2], "affine": False}, seed=4, shrink=("rows",),
             what="only two elements per row: population variance matters most"),
        Case("large-eps", {"rows": 6, "shape": [9], "eps": 0.5, "scale": 0.3, "affine": True}, seed=5,
             shrink=("rows",), what="eps = 0.5 on low-variance rows"),
        Case("large-offset", {"rows": 6, "shape": [16], "offset": 1e6, "affine": True}, seed=6, shrink=("rows",),
             what="rows around 1e6 with unit spread"),
        Case("constant-rows", {"rows": 4, "shape": [6], "constant": True, "affine": True}, seed=7, shrink=("rows",),
             what="constant rows (zero variance) give bias"),
    ]


def make_inputs(seed, shape, affine, values=None, rows=1, batch=None, eps=1e-5, scale=2.0, offset=0.0,
                constant=False):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        x = torch.tensor(values, dtype=torch.float64)
    else:
        lead = (batch, rows) if batch else (rows,)
        x = torch.randn(*lead, *shape, generator=g, dtype=torch.float64) * scale + offset
        if constant:
            x = torch.randn(*lead, *([1] * len(shape)), generator=g, dtype=torch.float64).expand_as(x).clone()
    out = {"x": x, "normalized_shape": list(shape), "eps": eps, "affine": affine}
    if affine:
        out["weight"] = 1.0 + 0.5 * torch.randn(*shape, generator=g, dtype=torch.float64)
        out["bias"] = 0.5 * torch.randn(*shape, generator=g, dtype=torch.float64)
    return out
