import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("self-fused", {"b": 1, "l": 3, "e": 4, "h": 2, "fused": True, "self_attention": True}, public=True,
             seed=1, what="self-attention, fused projection, two heads"),
        Case("cross-separate", {"b": 2, "l": 2, "s": 3, "e": 4, "h": 2, "fused": False}, public=True, seed=2,
             what="cross-attention, separate projections, L != S"),
        Case("padded-self", {"b": 3, "l": 6, "e": 8, "h": 2, "fused": True, "self_attention": True, "pad": True},
             public=True, seed=3, what="self-attention with a key padding mask (True = padded)"),
        Case("many-heads", {"b": 2, "l": 5, "s": 7, "e": 12, "h": 4, "fused": True}, seed=4, shrink=("b", "l", "s"),
             what="fused weights applied to different query/key/value tensors, four heads"),
        Case("padded-cross", {"b": 3, "l": 4, "s": 6, "e": 8, "h": 4, "fused": False, "pad": True}, seed=5,
             shrink=("b", "l"), what="key padding mask in cross-attention (L != S)"),
        Case("one-head", {"b": 2, "l": 4, "s": 5, "e": 6, "h": 1, "fused": False}, seed=6, shrink=("b", "l", "s"),
             what="a single head (Dh = E)"),
        Case("head-dim-one", {"b": 2, "l": 5, "e": 6, "h": 6, "fused": True, "self_attention": True, "pad": True},
             seed=7, shrink=("b",), what="H = E: each head has size 1"),
        Case("single-token", {"b": 2, "l": 1, "s": 1, "e": 8, "h": 2, "fused": False}, seed=8,
             what="L = S = 1"),
        Case("large", {"b": 2, "l": 16, "e": 32, "h": 4, "fused": True, "self_attention": True, "pad": True},
             seed=9, shrink=("b", "l"), what="a larger padded self-attention batch"),
    ]


def make_inputs(seed, b, l, e, h, fused, s=None, self_attention=False, pad=False):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    s = l if self_attention or s is None else s
    out = {"embed_dim": e, "num_heads": h, "fused": fused, "self_attention": self_attention,
           "query": torch.randn(b, l, e, generator=g, dtype=f64)}
    if not self_attention:
        out["key"] = torch.randn(b, s, e, generator=g, dtype=f64)
        out["value"] = torch.randn(b, s, e, generator=g, dtype=f64)
    bound = e ** -0.5
    names = {"qkv_proj": 3 * e} if fused else {"q_proj": e, "k_proj": e, "v_proj": e}
    names["out_proj"] = e
    for n, rows in names.items():
        out[f"{n}.weight"] = (torch.rand(rows, e, generator=g, dtype=f64) * 2 - 1) * bound
        out[f"{n}.bias"] = (torch.rand(rows, generator=g, dtype=f64) * 2 - 1) * bound
    if pad:
        lengths = torch.randint(1, s + 1, (b,), generator=g)
        lengths[0] = max(1, s - 2)  # at least one row is really padded
        out["key_padding_mask"] = torch.arange(s)[None, :] >= lengths[:, None]
    return out
