import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]], "d": 4}, public=True,
             what="the worked example at positions 0 and 1"),
        Case("small", {"b": 1, "h": 2, "t": 5, "d": 8}, seed=1, public=True, what="(B, H, T, D), offset 0"),
        Case("offset", {"b": 1, "h": 2, "t": 3, "d": 8, "offset": 7}, seed=2, public=True,
             what="decoding: positions start at offset"),
        Case("random", {"b": 2, "h": 3, "t": 9, "d": 16}, seed=3, shrink=("b", "h", "t"),
             what="random (B, H, T, D) float64"),
        Case("large-offset", {"b": 2, "h": 2, "t": 4, "d": 32, "offset": 1000}, seed=4, shrink=("b", "h"),
             what="positions around 1000: low frequencies matter too"),
        Case("other-base", {"b": 1, "h": 2, "t": 6, "d": 12, "base": 500000.0, "offset": 3}, seed=5,
             shrink=("h",), what="base 500000 (Llama 3 style) and D/2 odd"),
        Case("head-dim-2", {"b": 2, "h": 1, "t": 7, "d": 2}, seed=6, shrink=("b",),
             what="D = 2: one rotation plane"),
        Case("no-heads-dim", {"t": 10, "d": 6, "offset": 2}, seed=7, shrink=("t",),
             what="a 2-D (T, D) input"),
        Case("single-token", {"b": 3, "h": 2, "t": 1, "d": 8, "offset": 41}, seed=8,
             what="one decoding step at position 41"),
    ]


def make_inputs(seed, d, values=None, b=None, h=None, t=1, offset=0, base=10000.0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if values is not None:
        x = torch.tensor(values, dtype=f64)
    else:
        shape = (t, d) if b is None else (b, h, t, d)
        x = torch.randn(shape, generator=g, dtype=f64)
    return {"x": x, "offset": offset, "base": base, "split": x.shape[-2] // 2, "probe_len": 6,
            "q": torch.randn(d, generator=g, dtype=f64), "k": torch.randn(d, generator=g, dtype=f64)}


def check(inputs, got):
    s = got["scores"]
    if not torch.allclose(s[1:, 1:], s[:-1, :-1], rtol=1e-9, atol=1e-9):
        return "rope(q, m) . rope(k, n) is not a function of m - n alone"
    if not torch.allclose(got["rq_norms"], inputs["q"].norm().expand_as(got["rq_norms"]), rtol=1e-9, atol=1e-9):
        return "the rotation changes the vectors' norms"
    split = inputs["split"]
    if not torch.allclose(got["tail"], got["out"].detach()[..., split:, :], rtol=1e-9, atol=1e-9):
        return "apply_rope(x[..., s:, :], offset=offset + s) differs from apply_rope(x, offset)[..., s:, :]"
    return None
