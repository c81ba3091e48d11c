import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example-align-true", {"values": [[0.0, 1.0], [2.0, 3.0]], "size": [3, 3], "align_corners": True},
             public=True, what="the worked example, align_corners=True"),
        Case("example-align-false", {"values": [[0.0, 1.0], [2.0, 3.0]], "size": [4, 4], "align_corners": False},
             public=True, what="the same image, align_corners=False: half-pixel centres, clamped borders"),
        Case("upsample-odd", {"n": 2, "c": 3, "h": 5, "w": 7, "size": [8, 11], "align_corners": False}, seed=1,
             shrink=("n", "c"), what="5 x 7 -> 8 x 11, non-integer factors"),
        Case("upsample-odd-aligned", {"n": 2, "c": 2, "h": 5, "w": 7, "size": [8, 11], "align_corners": True},
             seed=2, shrink=("n", "c"), what="5 x 7 -> 8 x 11 with align_corners=True"),
        Case("downsample", {"n": 1, "c": 2, "h": 9, "w": 12, "size": [4, 5], "align_corners": False}, seed=3,
             shrink=("c",), what="9 x 12 -> 4 x 5"),
        Case("downsample-aligned", {"n": 1, "c": 2, "h": 9, "w": 12, "size": [4, 5], "align_corners": True}, seed=4,
             shrink=("c",), what="9 x 12 -> 4 x 5 with align_corners=True"),
        Case("mixed-up-down", {"n": 2, "c": 1, "h": 6, "w": 3, "size": [2, 10], "align_corners": False}, seed=5,
             shrink=("n",), what="height shrinks, width grows: each axis has its own scale"),
        Case("output-size-one", {"n": 1, "c": 2, "h": 4, "w": 5, "size": [1, 1], "align_corners": True}, seed=6,
             what="a 1 x 1 output with align_corners=True takes the top-left pixel (no division by zero)"),
        Case("output-size-one-half-pixel", {"n": 1, "c": 2, "h": 4, "w": 6, "size": [1, 3], "align_corners": False},
             seed=7, what="a 1-pixel-high output with half-pixel centres"),
        Case("input-size-one", {"n": 1, "c": 1, "h": 1, "w": 4, "size": [3, 7], "align_corners": False}, seed=8,
             what="a 1-pixel-high input"),
        Case("large", {"n": 1, "c": 2, "h": 45, "w": 61, "size": [97, 130], "align_corners": False, "scale": 100.0},
             seed=9, what="45 x 61 -> 97 x 130, values around 100: coordinates need float64"),
    ]


def make_inputs(seed, size, align_corners, values=None, n=1, c=1, h=1, w=1, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        x = torch.tensor(values, dtype=torch.float64)[None, None]
    else:
        x = torch.randn(n, c, h, w, generator=g, dtype=torch.float64) * scale
    return {"x": x, "size": list(size), "align_corners": align_corners}


def oracle(inputs):
    """F.interpolate(mode="bilinear") itself."""
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    x = inputs["x"].clone().requires_grad_(True)
    y = F.interpolate(x, size=tuple(inputs["size"]), mode="bilinear", align_corners=inputs["align_corners"])
    (g,) = vjp(y, x, seed=1)
    return {"y": y, "grad": g}
