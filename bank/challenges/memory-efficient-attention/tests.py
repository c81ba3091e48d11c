import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("two-blocks", {"b": 1, "h": 1, "l": 8, "s": 8, "d": 4, "block": 4}, seed=1, public=True,
             what="L = S = 8 in two key blocks"),
        Case("causal-small", {"b": 1, "h": 1, "l": 8, "s": 8, "d": 4, "block": 4, "causal": True}, seed=2,
             public=True, what="causal, two key blocks"),
        Case("ragged-blocks", {"b": 2, "h": 2, "l": 37, "s": 37, "d": 8, "block": 8}, seed=3,
             shrink=("b", "h"), what="S not a multiple of block_size: a short last block"),
        Case("large-scores", {"b": 1, "h": 2, "l": 32, "s": 32, "d": 8, "block": 8, "mag": 20.0}, seed=4,
             shrink=("h",), what="scores around a thousand: the running max keeps exp finite"),
        Case("increasing-max", {"b": 1, "h": 2, "l": 16, "s": 48, "d": 4, "block": 8, "ramp": True}, seed=5,
             shrink=("h",), what="later key blocks hold larger scores: the accumulator must be rescaled"),
        Case("causal-long", {"b": 2, "h": 2, "l": 64, "s": 64, "d": 8, "block": 16, "causal": True}, seed=6,
             shrink=("b", "h"), what="causal with four key blocks"),
        Case("cross-long-keys", {"b": 1, "h": 2, "l": 12, "s": 96, "d": 8, "dv": 4, "block": 16}, seed=7,
             shrink=("h",), what="L < S, Dv != D (cross-attention)"),
        Case("block-one", {"b": 1, "h": 1, "l": 10, "s": 10, "d": 3, "block": 1}, seed=8,
             what="block_size = 1"),
        Case("causal-ragged", {"b": 1, "h": 1, "l": 21, "s": 21, "d": 4, "block": 5, "causal": True, "mag": 4.0},
             seed=9, what="causal with a short last block and large scores"),
    ]


def make_inputs(seed, b, h, l, s, d, block, dv=None, causal=False, mag=1.0, ramp=False):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    q = torch.randn(b, h, l, d, generator=g, dtype=f64) * mag
    k = torch.randn(b, h, s, d, generator=g, dtype=f64) * mag
    v = torch.randn(b, h, s, dv or d, generator=g, dtype=f64)
    if ramp:  # keys grow with position, aligned with a shared query direction: the max moves every block
        u = torch.randn(d, generator=g, dtype=f64)
        q = q + 3 * u
        k = k + torch.linspace(0, 6, s, dtype=f64)[:, None] * u
    return {"q": q, "k": k, "v": v, "block_size": block, "is_causal": causal}


def max_numel(inputs):
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    b, h, l, _ = q.shape
    return max(b * h * l * inputs["block_size"], q.numel(), k.numel(), v.numel(), b * h * l * v.size(-1))
