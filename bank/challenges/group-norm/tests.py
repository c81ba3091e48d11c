import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[[1.0, 2.0], [3.0, 4.0], [10.0, 10.0], [10.0, 12.0]]], "G": 2, "eps": 0.0,
                         "affine": False}, public=True, what="the worked example"),
        Case("affine-1d", {"n": 2, "c": 6, "spatial": [5], "G": 3, "affine": True}, public=True, seed=1,
             what="(N, C, L) with per-channel weight and bias"),
        Case("images", {"n": 3, "c": 8, "spatial": [4, 5], "G": 4, "affine": True}, seed=2, shrink=("n",),
             what="(N, C, H, W) images, 2 channels per group"),
        Case("instance-norm", {"n": 2, "c": 5, "spatial": [7], "G": 5, "affine": True}, seed=3, shrink=("n",),
             what="num_groups = C (one channel per group)"),
        Case("one-group", {"n": 3, "c": 6, "spatial": [3, 3], "G": 1, "affine": True}, seed=4, shrink=("n",),
             what="num_groups = 1 (the whole sample)"),
        Case("no-spatial", {"n": 4, "c": 12, "spatial": [], "G": 4, "affine": True}, seed=5, shrink=("n",),
             what="(N, C) input with 3 channels per group"),
        Case("small-groups", {"n": 5, "c": 4, "spatial": [1], "G": 2, "affine": False}, seed=6, shrink=("n",),
             what="two elements per group: the biased variance matters most"),
        Case("offset-and-eps", {"n": 2, "c": 6, "spatial": [8], "G": 2, "affine": True, "offset": 1e6,
                                "eps": 0.3, "scale": 0.5}, seed=7, shrink=("n",),
             what="values around 1e6 with small spread, eps = 0.3"),
        Case("constant-groups", {"n": 2, "c": 4, "spatial": [3], "G": 2, "affine": True, "constant": True}, seed=8,
             shrink=("n",), what="constant groups (zero variance) give the bias"),
    ]


def make_inputs(seed, G, affine, values=None, n=1, c=1, spatial=(), eps=1e-5, scale=2.0, offset=0.0,
                constant=False):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        x = torch.tensor(values, dtype=torch.float64)
        c = x.shape[1]
    else:
        x = torch.randn(n, c, *spatial, generator=g, dtype=torch.float64) * scale + offset
        # give every channel its own offset so that per-channel and per-group statistics differ
        x = x + 3.0 * torch.randn(1, c, *([1] * len(spatial)), generator=g, dtype=torch.float64)
        if constant:
            per_group = torch.randn(n, G, 1, generator=g, dtype=torch.float64)
            x = per_group.expand(n, G, x[0].numel() // G).reshape(x.shape).clone()
    out = {"x": x, "num_groups": G, "eps": eps, "affine": affine}
    if affine:
        out["weight"] = 1.0 + 0.5 * torch.randn(c, generator=g, dtype=torch.float64)
        out["bias"] = 0.5 * torch.randn(c, generator=g, dtype=torch.float64)
    return out


def oracle(inputs):
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    x = inputs["x"].clone().requires_grad_(True)
    if inputs["affine"]:
        w = inputs["weight"].clone().requires_grad_(True)
        b = inputs["bias"].clone().requires_grad_(True)
        y = F.group_norm(x, inputs["num_groups"], w, b, eps=inputs["eps"])
        gx, gw, gb = vjp(y, (x, w, b), seed=1)
        return {"y": y, "x_grad": gx, "weight_grad": gw, "bias_grad": gb}
    y = F.group_norm(x, inputs["num_groups"], eps=inputs["eps"])
    (gx,) = vjp(y, x, seed=1)
    return {"y": y, "x_grad": gx}
