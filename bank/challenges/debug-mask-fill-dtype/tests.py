import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"b": 1, "t": 1, "s": 3, "d": 1, "lengths": [2], "example": True}, public=True,
             what="scores [1, 2, 0.5], last key padded"),
        Case("two-sequences", {"b": 2, "t": 4, "s": 4, "d": 3, "lengths": [4, 2]}, public=True, seed=2,
             what="two sequences, one padded by two"),
        Case("t-ne-s-float32", {"b": 3, "t": 2, "s": 5, "d": 4, "lengths": [5, 3, 1], "dtype": "float32"}, seed=3,
             what="float32, fewer queries than keys"),
        Case("no-padding", {"b": 2, "t": 3, "s": 3, "d": 2, "lengths": [3, 3]}, seed=4,
             what="no padding at all: plain attention"),
        Case("one-real-key", {"b": 2, "t": 3, "s": 6, "d": 2, "lengths": [1, 1]}, seed=5,
             what="a single real key: all weight on it"),
        Case("large-scores", {"b": 2, "t": 3, "s": 5, "d": 4, "lengths": [3, 4], "negative": True}, seed=6,
             what="every real score below -20000: padding must still get zero weight"),
        Case("float16", {"b": 2, "t": 3, "s": 6, "d": 4, "lengths": [6, 2], "dtype": "float16"}, seed=7,
             what="float16 inputs stay float16 (no overflow from the fill value)"),
        Case("float16-short", {"b": 3, "t": 1, "s": 4, "d": 8, "lengths": [1, 4, 2], "dtype": "float16"}, seed=8,
             what="float16, one query"),
    ]


def make_inputs(seed, b, t, s, d, lengths, example=False, negative=False, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)

    def rnd(*shape, sc=1.0):
        return (torch.randn(*shape, generator=g, dtype=torch.float64) * sc).to(dt)

    mask = torch.arange(s)[None, :] >= torch.tensor(lengths)[:, None]
    if example:
        return {"q": torch.ones(1, 1, 1, dtype=dt), "k": torch.tensor([[[1.0], [2.0], [0.5]]], dtype=dt),
                "v": torch.tensor([[[1.0, 0.0], [0.0, 1.0], [5.0, 5.0]]], dtype=dt), "mask": mask}
    if negative:  # q > 100 and k < -100 elementwise: every score is below -100 * 100 * d / sqrt(d) = -20000
        q, k = 100 + rnd(b, t, d, sc=50.0).abs(), -100 - rnd(b, s, d, sc=50.0).abs()
        return {"q": q, "k": k, "v": rnd(b, s, 3), "mask": mask}
    return {"q": rnd(b, t, d), "k": rnd(b, s, d), "v": rnd(b, s, 3), "mask": mask}


def check(inputs, got):
    w = got["weights"]
    if tuple(w.shape) != (inputs["q"].shape[0], inputs["q"].shape[1], inputs["k"].shape[1]):
        return None
    pad = inputs["mask"][:, None, :].expand(w.shape)
    leak = w.detach().double()[pad].abs()
    if leak.numel() and not (leak == 0).all():
        return (f"padded keys get attention weight up to {float(leak.max()):.4g}: they must get exactly 0 "
                "(a masked score has to be -inf, not 0 or a finite constant)")
    return None


def oracle(inputs):
    """Per (sequence, query): softmax over the real keys only, with the padded keys left out."""
    from torchdojo.judge.testing import vjp

    grad = inputs["q"].dtype != torch.float16
    q, k, v = (inputs[n].clone().requires_grad_(grad) for n in ("q", "k", "v"))
    B, T, S = q.shape[0], q.shape[1], k.shape[1]
    rows_w, rows_o = [], []
    for b in range(B):
        real = (~inputs["mask"][b]).nonzero().flatten()
        sc = q[b] @ k[b, real].T / q.shape[-1] ** 0.5  # (T, n_real)
        p = torch.softmax(sc, dim=-1)
        w = torch.zeros(T, S, dtype=q.dtype).index_put((torch.arange(T)[:, None], real[None, :]), p)
        rows_w.append(w)
        rows_o.append(p @ v[b, real])
    out = {"output": torch.stack(rows_o), "weights": torch.stack(rows_w)}
    if grad:
        out["q_vjp"], out["k_vjp"], out["v_vjp"] = vjp(out["output"], (q, k, v), seed=1)
    return out
