import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("gqa", {"b": 1, "hq": 4, "hkv": 2, "lq": 3, "s": 3, "d": 4, "causal": False}, public=True, seed=1,
             what="4 query heads sharing 2 key/value heads"),
        Case("gqa-causal", {"b": 2, "hq": 4, "hkv": 2, "lq": 5, "s": 5, "d": 4, "causal": True}, public=True, seed=2,
             what="causal, batch of two"),
        Case("six-heads-three-groups", {"b": 2, "hq": 6, "hkv": 3, "lq": 4, "s": 4, "d": 8, "causal": True}, seed=3,
             shrink=("b", "lq"), what="6 query heads, 3 kv heads: heads 0,1 -> kv 0, heads 2,3 -> kv 1, heads 4,5 -> kv 2"),
        Case("mqa", {"b": 2, "hq": 4, "hkv": 1, "lq": 5, "s": 5, "d": 4, "causal": True}, seed=4, shrink=("b", "lq"),
             what="multi-query attention: one kv head for all query heads"),
        Case("mha", {"b": 1, "hq": 3, "hkv": 3, "lq": 4, "s": 4, "d": 6, "causal": False}, seed=5, shrink=("lq",),
             what="n_kv_heads = n_heads: plain multi-head attention"),
        Case("groups-of-four", {"b": 1, "hq": 8, "hkv": 2, "lq": 6, "s": 6, "d": 4, "causal": True}, seed=6,
             shrink=("lq",), what="8 query heads in 2 groups of 4"),
        Case("cross-lengths", {"b": 2, "hq": 6, "hkv": 2, "lq": 3, "s": 7, "d": 5, "causal": False}, seed=7,
             shrink=("b",), what="non-causal with fewer queries than keys (L = 3, S = 7)"),
        Case("length-one", {"b": 3, "hq": 4, "hkv": 2, "lq": 1, "s": 1, "d": 4, "causal": True}, seed=8,
             what="a single position"),
        Case("large-scores", {"b": 1, "hq": 4, "hkv": 2, "lq": 6, "s": 6, "d": 8, "causal": True, "scale": 20.0},
             seed=9, shrink=("lq",), what="large queries/keys: the softmax must stay finite"),
        Case("float32", {"b": 2, "hq": 8, "hkv": 4, "lq": 7, "s": 7, "d": 8, "causal": True, "dtype": "float32"},
             seed=10, shrink=("b", "lq"), what="float32 in, float32 out"),
    ]


def make_inputs(seed, b, hq, hkv, lq, s, d, causal, scale=1.0, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)

    def rnd(*shape, sc=1.0):
        return (torch.randn(*shape, generator=g, dtype=torch.float64) * sc).to(dt)

    return {"q": rnd(b, hq, lq, d, sc=scale), "k": rnd(b, hkv, s, d, sc=scale), "v": rnd(b, hkv, s, d),
            "causal": causal}


def oracle(inputs):
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    q, k, v = (inputs[n].clone().requires_grad_(True) for n in ("q", "k", "v"))
    out = F.scaled_dot_product_attention(q, k, v, is_causal=inputs["causal"], enable_gqa=True)
    gq, gk, gv = vjp(out, (q, k, v), seed=1)
    return {"out": out, "grad_q": gq, "grad_k": gk, "grad_v": gv}
