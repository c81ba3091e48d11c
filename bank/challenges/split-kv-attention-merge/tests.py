import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"example": True, "splits": 2, "scale": 1.0, "chunk": [2, 4]}, public=True,
             what="the worked example: 4 keys in 2 splits, scale 1"),
        Case("basic", {"b": 2, "h": 2, "s": 10, "d": 4, "splits": 3, "chunk": [4, 8]}, public=True, seed=1,
             what="10 keys in 3 splits of 4, 4, 2 (a short last split)"),
        Case("empty-last-split", {"b": 2, "h": 3, "s": 9, "d": 4, "splits": 4, "chunk": [6, 9]}, seed=2,
             shrink=("b", "h"), what="9 keys in 4 splits of 3, 3, 3, 0: the last split is empty"),
        Case("more-splits-than-keys", {"b": 1, "h": 2, "s": 3, "d": 4, "splits": 5, "chunk": [0, 1]}, seed=3,
             shrink=("h",), what="3 keys in 5 splits: two empty splits"),
        Case("large-scores", {"b": 1, "h": 2, "s": 24, "d": 8, "splits": 4, "mag": 30.0, "lse_offset": 1e4,
                              "chunk": [0, 6]}, seed=4, shrink=("h",),
             what="scores around a thousand and partial lse around 1e4: exp must never see them unshifted"),
        Case("value-dim", {"b": 2, "h": 2, "s": 11, "d": 8, "dv": 3, "splits": 3, "chunk": [4, 8]}, seed=5,
             shrink=("b", "h"), what="Dv != D: the default scale is 1/sqrt(D) from q, not from v"),
        Case("explicit-scale", {"b": 2, "h": 1, "s": 8, "d": 4, "splits": 2, "scale": 0.3, "chunk": [0, 4]},
             seed=6, shrink=("b",), what="an explicit scale is used as given"),
        Case("one-split", {"b": 2, "h": 2, "s": 7, "d": 4, "splits": 1, "chunk": [0, 7]}, seed=7,
             shrink=("b", "h"), what="num_splits = 1: plain attention"),
        Case("one-key", {"b": 3, "h": 2, "s": 1, "d": 4, "splits": 2, "chunk": [0, 1]}, seed=8, shrink=("b", "h"),
             what="a cache of one key: the output is that key's value, lse its score"),
        Case("many-splits", {"b": 2, "h": 4, "s": 40, "d": 8, "dv": 6, "splits": 7, "mag": 3.0, "chunk": [30, 36]},
             seed=9, shrink=("b", "h"), what="40 keys in 7 splits of 6 (the last of 4), sharper scores"),
    ]


def make_inputs(seed, splits, chunk, example=False, b=1, h=1, s=1, d=1, dv=None, mag=1.0, scale=None,
                lse_offset=0.0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if example:
        q = torch.tensor([[[1.0, 0.0]]], dtype=f64)
        k = torch.tensor([[[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]]], dtype=f64)
        v = torch.tensor([[[[1.0], [2.0], [3.0], [4.0]]]], dtype=f64)
    else:
        q = torch.randn(b, h, d, generator=g, dtype=f64) * mag
        k = torch.randn(b, h, s, d, generator=g, dtype=f64) * mag
        v = torch.randn(b, h, s, dv or d, generator=g, dtype=f64)
    bq, hq, dvv = q.shape[0], q.shape[1], v.shape[-1]
    part_outs = torch.randn(3, bq, hq, dvv, generator=g, dtype=f64)
    part_lses = torch.randn(3, bq, hq, generator=g, dtype=f64) * 3 + lse_offset
    part_lses[1, 0, 0] = float("-inf")  # an empty partial for one (batch, head): it must get weight 0
    return {"q": q, "k": k, "v": v, "num_splits": splits, "scale": scale, "chunk": list(chunk),
            "part_outs": part_outs, "part_lses": part_lses}


def check(inputs, got):
    eo, el = got.get("empty_out"), got.get("empty_lse")
    if isinstance(eo, torch.Tensor) and not bool(torch.all(eo == 0)):
        return "chunk_attention over an empty chunk must return out = 0 (not NaN): it has no keys to average"
    if isinstance(el, torch.Tensor) and not bool(torch.all(torch.isneginf(el))):
        return "chunk_attention over an empty chunk must return lse = -inf (the log of an empty sum)"
    for name in ("out", "lse", "merged_out", "merged_lse"):
        t = got.get(name)
        if isinstance(t, torch.Tensor) and t.is_floating_point() and not bool(torch.isfinite(t).all()):
            return (f"'{name}' has non-finite values: shift by a maximum before exp, and give empty "
                    "partials weight exp(-inf - lse) = 0")
    return None


def oracle(inputs):
    """Full attention of the query over all keys at once, and a direct merge by log-sum-exp weights."""
    from torchdojo.judge.testing import vjp

    q = inputs["q"].clone().requires_grad_(True)
    k = inputs["k"].clone().requires_grad_(True)
    v = inputs["v"].clone().requires_grad_(True)
    scale = q.size(-1) ** -0.5 if inputs["scale"] is None else inputs["scale"]

    def full(q, k, v):
        s = torch.einsum("bhd,bhsd->bhs", q, k) * scale
        return torch.einsum("bhs,bhsd->bhd", torch.softmax(s, dim=-1), v), torch.logsumexp(s, dim=-1)

    out, lse = full(q, k, v)
    dq, dk, dv = vjp((out, lse), (q, k, v), seed=1)
    a, b = inputs["chunk"]
    qd, kd, vd = inputs["q"], inputs["k"], inputs["v"]
    co, cl = full(qd, kd[..., a:b, :], vd[..., a:b, :])
    po, pl = inputs["part_outs"], inputs["part_lses"]
    ml = torch.logsumexp(pl, dim=0)
    mo = (torch.softmax(pl, dim=0).unsqueeze(-1) * po).sum(dim=0)
    return {"out": out, "lse": lse, "dq": dq, "dk": dk, "dv": dv, "chunk_out": co, "chunk_lse": cl,
            "empty_out": torch.zeros_like(out), "empty_lse": torch.full_like(lse, float("-inf")),
            "merged_out": mo, "merged_lse": ml}
