import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"n_heads": [4, 6], "bias_slopes": [0.5], "bias_T": 3, "b": 1, "h": 2, "t": 3, "d": 4},
             public=True, seed=1, what="the worked example; two-head attention"),
        Case("eight-heads", {"n_heads": [8, 12], "bias_slopes": [0.25, 1.5], "bias_T": 5, "b": 1, "h": 8, "t": 4,
                             "d": 4}, public=True, seed=2, what="8 and 12 heads"),
        Case("non-power-of-two", {"n_heads": [3, 5, 7, 20], "bias_slopes": [0.1, 0.2, 0.3], "bias_T": 6,
                                  "b": 2, "h": 3, "t": 6, "d": 4}, seed=3,
             what="head counts that are not powers of two, in the slopes and in attention"),
        Case("many-heads", {"n_heads": [24, 48, 64], "bias_slopes": [2.0], "bias_T": 4, "b": 1, "h": 12, "t": 7,
                            "d": 8}, seed=4, what="large head counts; 12-head attention"),
        Case("one-head-one-token", {"n_heads": [1, 2], "bias_slopes": [0.7], "bias_T": 1, "b": 3, "h": 1, "t": 1,
                                    "d": 5}, seed=5, what="a single head (slope 1/256) and a single token"),
        Case("long-bias", {"n_heads": [16], "bias_slopes": [0.03, 0.5, 1.0, 4.0], "bias_T": 33, "b": 1, "h": 6,
                           "t": 20, "d": 5, "mag": 2.0}, seed=6, shrink=("t",),
             what="a long sequence: distances up to 32; 6-head attention"),
        Case("batch-odd", {"n_heads": [9, 10, 11], "bias_slopes": [0.125, 0.0625], "bias_T": 7, "b": 4, "h": 5,
                           "t": 9, "d": 3}, seed=7, shrink=("b", "t"), what="batch 4, 5 heads, odd sizes"),
    ]


def make_inputs(seed, n_heads, bias_slopes, bias_T, b, h, t, d, mag=1.0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    return {"n_heads": list(n_heads), "bias_slopes": torch.tensor(bias_slopes, dtype=f64), "bias_T": bias_T,
            "q": torch.randn(b, h, t, d, generator=g, dtype=f64) * mag,
            "k": torch.randn(b, h, t, d, generator=g, dtype=f64) * mag,
            "v": torch.randn(b, h, t, d, generator=g, dtype=f64)}


def oracle(inputs):
    """The paper's reference get_slopes (recursive, start * ratio**i), a looped bias, and SDPA."""
    import math

    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    def get_slopes(n):
        def pow2(n):
            start = 2 ** (-2 ** -(math.log2(n) - 3))
            return [start * start ** i for i in range(n)]

        if math.log2(n).is_integer():
            return pow2(n)
        c = 2 ** math.floor(math.log2(n))
        return pow2(c) + get_slopes(2 * c)[0::2][: n - c]

    def bias(slopes, T):
        return torch.tensor([[[-m * (i - j) if j <= i else -math.inf for j in range(T)] for i in range(T)]
                             for m in slopes], dtype=torch.float64).reshape(len(slopes), T, T)

    out = {f"slopes_{n}": torch.tensor(get_slopes(n), dtype=torch.float64) for n in inputs["n_heads"]}
    out["bias"] = bias(inputs["bias_slopes"].tolist(), inputs["bias_T"])
    q, k, v = (inputs[n].clone().requires_grad_(True) for n in ("q", "k", "v"))
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias(get_slopes(q.size(1)), q.size(2)))
    out["attention"] = y
    out["grad_q"], out["grad_k"], out["grad_v"] = vjp(y, (q, k, v), seed=1)
    return out
