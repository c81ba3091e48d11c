import torch

from torchdojo.judge.testing import Case

EXAMPLE = [[-1.0, 0.5, 2.0, 0.0, 0.3, 0.6, 0.9, 1.5]]


def cases():
    return [
        Case("example", {"values": EXAMPLE, "gs": 4}, public=True,
             what="the statement's example: two groups of 4, one with a negative minimum"),
        Case("two-rows", {"out": 2, "inp": 8, "gs": 4}, public=True, seed=2, what="2 x 8, groups of 4"),
        Case("many-groups", {"out": 4, "inp": 32, "gs": 8}, seed=3, shrink=("out",),
             what="4 groups per row: scales and zero points per (row, group)"),
        Case("one-group-per-row", {"out": 5, "inp": 16, "gs": 16}, seed=4, shrink=("out",),
             what="group_size = in_features"),
        Case("group-of-two", {"out": 3, "inp": 6, "gs": 2}, seed=5, what="the smallest group, 2 columns"),
        Case("signs", {"out": 6, "inp": 16, "gs": 8, "signs": True}, seed=6,
             what="all-positive, all-negative and all-zero groups: the range always contains 0"),
        Case("outliers", {"out": 4, "inp": 24, "gs": 8, "outliers": True}, seed=7, shrink=("out",),
             what="an outlier only coarsens its own group"),
        Case("float32", {"out": 8, "inp": 64, "gs": 32, "dtype": "float32"}, seed=8, shrink=("out",),
             what="float32 weights: scale in float32, codes in uint8"),
        Case("high-nibbles", {"out": 3, "inp": 12, "gs": 4, "given_high": True}, seed=9,
             what="packed bytes >= 128 and codes >= 8 everywhere: shifts and masks on uint8"),
    ]


def make_inputs(seed, gs, out=1, inp=2, values=None, signs=False, outliers=False, given_high=False, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    if values is not None:
        w = torch.tensor(values, dtype=torch.float64)
        out, inp = w.shape
    else:
        w = torch.randn(out, inp, generator=g, dtype=torch.float64)
    if signs:
        groups = w.view(out, inp // gs, gs)
        groups[0::3] = groups[0::3].abs()  # all positive
        groups[1::3] = -groups[1::3].abs()  # all negative
        groups[2::3, 0] = 0.0  # an all-zero group
    if outliers:
        w[torch.arange(out), torch.randint(0, inp, (out,), generator=g)] *= 40.0
    lo = 8 if given_high else 0
    return {"w": w.to(dt), "group_size": gs,
            "q_given": torch.randint(lo, 16, (out, inp), generator=g).to(torch.uint8),
            "packed_given": torch.randint(128 if given_high else 0, 256, (out, inp // 2), generator=g).to(torch.uint8),
            "scale_given": (torch.rand(out, inp // gs, generator=g, dtype=torch.float64) * 0.1 + 0.01).to(dt),
            "zero_given": torch.randint(0, 16, (out, inp // gs), generator=g).to(torch.uint8)}


def check(inputs, got):
    q, up = got["q"], got["unpacked"]
    if hasattr(q, "shape") and hasattr(up, "shape") and q.shape == up.shape and not torch.equal(q, up):
        return "unpack_int4(pack_int4(q)) does not give q back"
    w, w_hat, scale = inputs["w"], got["w_hat"], got["scale"]
    gs = inputs["group_size"]
    if hasattr(w_hat, "shape") and hasattr(scale, "shape") and w_hat.shape == w.shape and (
            scale.shape == (w.shape[0], w.shape[1] // gs)):
        bound = scale.double().repeat_interleave(gs, dim=1) / 2 * (1 + 1e-5) + 1e-12
        if ((w.double() - w_hat.double()).abs() > bound).any():
            return "some |w - dequantize(quantize(w))| exceeds scale / 2 of its group"
    return None


def oracle(inputs):
    """Group by group and byte by byte in plain Python integers."""
    w, gs = inputs["w"], inputs["group_size"]
    dt = w.dtype

    def t(x):  # one scalar rounded to w's dtype, as the tensor code computes it
        return torch.tensor(x, dtype=dt)

    qs, scales, zeros = [], [], []
    for row in w.tolist():
        qr, sr, zr = [], [], []
        for j in range(0, len(row), gs):
            grp = row[j:j + gs]
            lo, hi = min(min(grp), 0.0), max(max(grp), 0.0)
            if lo == hi:
                s, z = t(1.0), 0
            else:
                s = (t(hi) - t(lo)) / 15
                z = int(torch.round(-t(lo) / s))
            qr += [max(0, min(15, int(torch.round(t(x) / s)) + z)) for x in grp]
            sr.append(float(s))
            zr.append(z)
        qs.append(qr)
        scales.append(sr)
        zeros.append(zr)

    def pack(rows):
        return [[r[i] + 16 * r[i + 1] for i in range(0, len(r), 2)] for r in rows]

    def unpack(rows):
        return [[x for b in r for x in (b % 16, b // 16)] for r in rows]

    def deq(rows, sc, zp):
        return [[(x - zp[i][j // gs]) * sc[i][j // gs] for j, x in enumerate(r)] for i, r in enumerate(rows)]

    u8 = torch.uint8
    pg = inputs["packed_given"].tolist()
    sg, zg = inputs["scale_given"], inputs["zero_given"].tolist()
    return {"q": torch.tensor(qs, dtype=u8), "scale": torch.tensor(scales, dtype=dt),
            "zero": torch.tensor(zeros, dtype=u8), "packed": torch.tensor(pack(qs), dtype=u8),
            "unpacked": torch.tensor(qs, dtype=u8),
            "w_hat": torch.tensor(deq(qs, scales, zeros), dtype=torch.float64).to(dt),
            "packed_given": torch.tensor(pack(inputs["q_given"].tolist()), dtype=u8),
            "unpacked_given": torch.tensor(unpack(pg), dtype=u8),
            "dequantized_given": torch.tensor(deq(unpack(pg), sg.tolist(), zg), dtype=torch.float64).to(dt)}
