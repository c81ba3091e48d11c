import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": True}, public=True, what="the worked example"),
        Case("bool-mask", {"values": True, "mask": "example"}, public=True,
             what="a boolean mask: True keeps a key"),
        Case("causal-square", {"b": 1, "h": 2, "l": 4, "s": 4, "e": 3, "causal": True}, seed=1, public=True,
             what="is_causal with L == S"),
        Case("random-4d", {"b": 2, "h": 3, "l": 7, "s": 9, "e": 8}, seed=2, shrink=("b", "h", "l", "s", "e"),
             what="batch and heads, no mask, default scale"),
        Case("causal-rect", {"b": 2, "h": 2, "l": 5, "s": 8, "e": 4, "causal": True}, seed=3, shrink=("b", "h"),
             what="is_causal with L < S is aligned to the top-left corner"),
        Case("causal-tall", {"b": 1, "h": 2, "l": 7, "s": 3, "e": 4, "causal": True}, seed=4, shrink=("h",),
             what="is_causal with L > S (later queries see every key)"),
        Case("bool-mask-broadcast", {"b": 2, "h": 3, "l": 6, "s": 5, "e": 4, "mask": "bool-b1ls"}, seed=5,
             shrink=("h",), what="boolean mask of shape (B, 1, L, S) broadcast over heads"),
        Case("float-mask", {"b": 2, "h": 2, "l": 5, "s": 6, "e": 4, "mask": "float-ls"}, seed=6,
             shrink=("b", "h"), what="additive float mask of shape (L, S) with some -inf entries"),
        Case("custom-scale-3d", {"b": 3, "l": 4, "s": 5, "e": 6, "ev": 2, "scale": 0.3}, seed=7,
             shrink=("b",), what="no heads dim, Ev != E, explicit scale"),
        Case("default-scale-ev", {"b": 2, "h": 2, "l": 5, "s": 6, "e": 9, "ev": 4}, seed=10, shrink=("b", "h"),
             what="Ev != E with scale=None: the default scale is 1/sqrt(E), q's last dim"),
        Case("large-scores", {"b": 1, "h": 2, "l": 6, "s": 6, "e": 16, "mag": 30.0, "causal": True}, seed=8,
             shrink=("h",), what="large scores: still finite (softmax must be stable)"),
        Case("single-query", {"b": 2, "h": 1, "l": 1, "s": 7, "e": 5, "mask": "bool-b1ls"}, seed=9,
             what="L = 1 with a boolean mask"),
    ]


def make_inputs(seed, values=False, mask=None, b=1, h=None, l=1, s=1, e=1, ev=None, causal=False,
                scale=None, mag=1.0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if values:
        q = torch.tensor([[1.0, 0.0]], dtype=f64)
        k = torch.tensor([[1.0, 0.0], [0.0, 1.0]], dtype=f64)
        v = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=f64)
        out = {"q": q, "k": k, "v": v, "is_causal": False, "scale": None}
        if mask == "example":
            out["attn_mask"] = torch.tensor([[True, False]])
        return out
    lead = (b,) if h is None else (b, h)
    q = torch.randn(*lead, l, e, generator=g, dtype=f64) * mag
    k = torch.randn(*lead, s, e, generator=g, dtype=f64) * mag
    v = torch.randn(*lead, s, ev or e, generator=g, dtype=f64)
    out = {"q": q, "k": k, "v": v, "is_causal": causal, "scale": scale}
    if mask is not None:
        keep = torch.rand(b, 1, l, s, generator=g) < 0.6
        keep[..., torch.randint(0, s, (1,), generator=g)] = True  # no fully masked row
        if mask == "bool-b1ls":
            out["attn_mask"] = keep
        elif mask == "float-ls":
            bias = torch.randn(l, s, generator=g, dtype=f64)
            out["attn_mask"] = bias.masked_fill(~keep[0, 0], float("-inf"))
    return out
