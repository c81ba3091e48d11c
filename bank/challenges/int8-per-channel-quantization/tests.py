import torch

from torchdojo.judge.testing import Case

TIES = [[127.0, 2.5, 3.5, -0.5, -1.5, 0.5],  # scale 1: w / scale lands exactly on .5
        [-254.0, 5.0, 7.0, -1.0, -3.0, 1.0],  # scale 2: the same ratios
        [12.7, 1.0, -1.0, 0.05, 0.15, -12.7]]


def cases():
    return [
        Case("square", {"out": 4, "inp": 4, "batch": (3,)}, public=True, seed=1, what="a 4 x 4 weight, bias"),
        Case("rectangular", {"out": 3, "inp": 5, "batch": (2,), "bias": False}, public=True, seed=2,
             what="a 3 x 5 weight (out_features x in_features), no bias"),
        Case("ties", {"values": TIES, "batch": (2,)}, seed=3,
             what="w / scale exactly halfway between integers: torch.round rounds half to even"),
        Case("zero-row", {"out": 5, "inp": 6, "batch": (2,), "zero_rows": [1, 3]}, seed=4,
             what="all-zero rows get scale 1 and q = 0, no NaN"),
        Case("outlier-row", {"out": 6, "inp": 8, "batch": (4,), "row_scales": [1e-3, 1.0, 50.0, 1e-2, 3.0, 0.2]},
             seed=5, what="rows of very different magnitude: each row needs its own scale"),
        Case("float32", {"out": 8, "inp": 16, "batch": (5,), "dtype": "float32"}, seed=6, shrink=("out", "inp"),
             what="float32 weights: scale in float32, q in int8"),
        Case("batched-input", {"out": 5, "inp": 7, "batch": (2, 3)}, seed=7, shrink=("out", "inp"),
             what="x of shape (2, 3, in_features)"),
        Case("single-row", {"out": 1, "inp": 9, "batch": (3,)}, seed=8, what="one output channel"),
        Case("wide", {"out": 16, "inp": 40, "batch": (4,), "scale": 7.0}, seed=9, shrink=("out", "inp"),
             what="a larger random weight"),
    ]


def make_inputs(seed, out=1, inp=1, batch=(1,), bias=True, values=None, zero_rows=(), row_scales=None, scale=1.0,
                dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    if values is not None:
        w = torch.tensor(values, dtype=torch.float64)
        out, inp = w.shape
    else:
        w = torch.randn(out, inp, generator=g, dtype=torch.float64) * scale
    if row_scales is not None:
        w = w * torch.tensor(row_scales, dtype=torch.float64)[:, None]
    w[list(zero_rows)] = 0.0
    return {"w": w.to(dt),
            "q_given": torch.randint(-127, 128, (out, inp), generator=g).to(torch.int8),
            "scale_given": (torch.rand(out, generator=g, dtype=torch.float64) * 0.05 + 1e-3).to(dt),
            "x": torch.randn(*batch, inp, generator=g, dtype=torch.float64).to(dt),
            "bias": torch.randn(out, generator=g, dtype=torch.float64).to(dt) if bias else None}


def check(inputs, got):
    w, w_hat, scale = inputs["w"], got["w_hat"], got["scale"]
    if not all(hasattr(t, "shape") for t in (w_hat, scale)) or w_hat.shape != w.shape or scale.shape != w.shape[:1]:
        return None
    err = (w.double() - w_hat.double()).abs()
    bound = scale.double()[:, None] / 2 * (1 + 1e-5) + 1e-12
    if (err > bound).any():
        return "some |w - dequantize(quantize(w))| exceeds scale / 2: rounding to the nearest level bounds the error"
    return None


def oracle(inputs):
    """Element by element in plain Python (round half to even is Python's round)."""
    from torchdojo.judge.testing import vjp

    w = inputs["w"]
    rows = w.double().tolist()
    scales, qs = [], []
    for r in rows:
        amax = max(abs(v) for v in r)
        s = float(torch.tensor(amax, dtype=w.dtype) / 127) if amax > 0 else 1.0  # scale rounded to w's dtype
        scales.append(s)
        wr = torch.tensor(r, dtype=w.dtype) / torch.tensor(s, dtype=w.dtype)  # the division in w's dtype
        qs.append([max(-127, min(127, round(v))) for v in wr.tolist()])
    scale = torch.tensor(scales, dtype=w.dtype)
    q = torch.tensor(qs, dtype=torch.int8)
    out = {"q": q, "scale": scale, "w_hat": q.to(w.dtype) * scale[:, None]}
    qg, sg = inputs["q_given"], inputs["scale_given"]
    wg = qg.to(sg.dtype) * sg[:, None]
    out["dequantized_given"] = wg
    x = inputs["x"].clone().requires_grad_(True)
    lin = torch.nn.functional.linear
    if inputs["bias"] is None:
        y = lin(x, wg)
        (out["grad_x"],) = vjp(y, x, seed=1)
    else:
        b = inputs["bias"].clone().requires_grad_(True)
        y = lin(x, wg, b)
        out["grad_x"], out["grad_bias"] = vjp(y, (x, b), seed=1)
    out["y"] = y
    return out
