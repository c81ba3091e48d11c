import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"b": 1, "h": 1, "l": 5, "s": 5, "d": 4, "w": 2}, public=True, seed=1,
             what="L = S = 5, window 2"),
        Case("kv-longer", {"b": 2, "h": 2, "l": 3, "s": 7, "d": 4, "w": 3}, public=True, seed=2,
             what="3 queries over 7 keys: queries are the last 3 positions"),
        Case("window-one", {"b": 2, "h": 2, "l": 6, "s": 6, "d": 3, "w": 1}, seed=3, shrink=("b", "h"),
             what="window 1: each query sees only its own key"),
        Case("window-exceeds", {"b": 1, "h": 3, "l": 5, "s": 8, "d": 4, "w": 20}, seed=4, shrink=("h",),
             what="window larger than S: plain causal attention with a cache offset"),
        Case("decode-step", {"b": 3, "h": 2, "l": 1, "s": 9, "d": 5, "w": 4}, seed=5, shrink=("b", "h"),
             what="one query (a decoding step) over 9 cached keys"),
        Case("dv-differs", {"b": 2, "h": 2, "l": 4, "s": 6, "d": 9, "dv": 3, "w": 3}, seed=6, shrink=("b", "h"),
             what="value dim differs from the query dim: the default scale is 1/sqrt(q.size(-1))"),
        Case("explicit-scale", {"b": 2, "h": 1, "l": 5, "s": 5, "d": 4, "w": 3, "scale": 0.3}, seed=7,
             shrink=("b",), what="an explicit scale replaces 1/sqrt(D)"),
        Case("large-scores", {"b": 1, "h": 2, "l": 6, "s": 10, "d": 8, "w": 4, "mag": 40.0}, seed=8,
             shrink=("h",), what="scores in the thousands stay finite (max subtraction)"),
        Case("odd-float32", {"b": 3, "h": 1, "l": 7, "s": 11, "d": 6, "w": 5, "dtype": "float32"}, seed=9,
             shrink=("b",), what="float32, odd sizes, L < S"),
    ]


def make_inputs(seed, b, h, l, s, d, w, dv=None, scale=None, mag=1.0, dtype="float64"):  # noqa: E741
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)

    def rnd(*shape):
        return torch.randn(*shape, generator=g, dtype=torch.float64).to(dt)

    return {"q": rnd(b, h, l, d) * mag, "k": rnd(b, h, s, d) * mag, "v": rnd(b, h, s, dv or d),
            "window": w, "scale": scale}


def oracle(inputs):
    """The built-in the candidate may not use, with a mask built element by element."""
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    q, k, v = (inputs[n].clone().requires_grad_(True) for n in ("q", "k", "v"))
    L, S, w = q.size(-2), k.size(-2), inputs["window"]
    mask = torch.tensor([[S - L + i - w < j <= S - L + i for j in range(S)] for i in range(L)])
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=inputs["scale"])
    res = {"out": out}
    res["grad_q"], res["grad_k"], res["grad_v"] = vjp(out, (q, k, v), seed=1)
    return res
