import torch

from torchdojo.judge.testing import Case

LLAMA = [(4096, 256, None), (5120, 256, None), (6656, 256, None), (8192, 256, None), (4096, 1024, 1.3),
         (8192, 4096, 1.3)]


def cases():
    return [
        Case("example", {"dim": 8, "multiple_of": 4, "n": 3, "configs": [(4096, 256, None), (8, 4, None),
                                                                          (4096, 1024, 1.3)]},
             public=True, seed=1, what="dim 8 (hidden 24) and the LLaMA sizes of the statement"),
        Case("batch-seq", {"dim": 6, "multiple_of": 8, "n": 2, "t": 3, "configs": [(6, 8, None), (1, 1, None)]},
             public=True, seed=2, what="a (B, T, dim) input; hidden 16"),
        Case("llama-sizes", {"dim": 5, "multiple_of": 3, "n": 2, "t": 4, "configs": LLAMA}, seed=3,
             shrink=("n", "t"), what="LLaMA 7B/13B/33B/65B and LLaMA-2-70B / LLaMA-3-8B hidden sizes; dim 5 -> 15"),
        Case("multiplier", {"dim": 12, "multiple_of": 8, "mult": 1.5, "n": 5, "configs": [(12, 8, 1.5), (10, 4, 0.5),
                                                                                          (96, 64, 1.3)]},
             seed=4, shrink=("n",), what="ffn_dim_multiplier is applied before rounding up"),
        Case("shrinking-multiplier", {"dim": 10, "multiple_of": 4, "mult": 0.5, "n": 4, "configs": [(9, 5, 0.75)]},
             seed=5, shrink=("n",), what="a multiplier below 1 (hidden 13 -> 16)"),
        Case("exact-multiple", {"dim": 7, "multiple_of": 1, "n": 2, "t": 3, "configs": [(6, 4, None), (3, 1, None),
                                                                                        (12, 32, None)]},
             seed=6, shrink=("n", "t"), what="multiple_of 1 and sizes already on a multiple: no extra rounding"),
        Case("large-gate", {"dim": 8, "multiple_of": 4, "n": 6, "scale": 1000.0, "configs": [(8, 4, None)]}, seed=7,
             shrink=("n",), what="gate pre-activations around +/-1000: SiLU and its gradient stay finite"),
        Case("single-row", {"dim": 16, "multiple_of": 64, "n": 1, "configs": [(16, 64, None), (2, 3, 2.0)]}, seed=8,
             what="one input row; hidden 42 rounded up to 64"),
    ]


def make_inputs(seed, dim, multiple_of, n, configs, t=None, mult=None, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    shape = (n, dim) if t is None else (n, t, dim)
    return {"dim": dim, "multiple_of": multiple_of, "ffn_dim_multiplier": mult, "configs": [list(c) for c in configs],
            "weight_seed": 100 + seed, "x": torch.randn(*shape, generator=g, dtype=torch.float64) * scale}


def oracle(inputs):
    """Hidden size with math.ceil; the block with explicit matmuls and the built-in SiLU."""
    import math

    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    def hidden(dim, multiple_of, mult):
        h = math.floor(8 * dim / 3)
        if mult is not None:
            h = math.floor(mult * h)
        return math.ceil(h / multiple_of) * multiple_of

    dim = inputs["dim"]
    hd = hidden(dim, inputs["multiple_of"], inputs["ffn_dim_multiplier"])
    out = {"hidden_dims": [hidden(*c) for c in inputs["configs"]],
           "parameters": {"w1.weight": [hd, dim], "w2.weight": [dim, hd], "w3.weight": [hd, dim]}}
    g = torch.Generator().manual_seed(inputs["weight_seed"])
    w = [torch.randn(s, generator=g, dtype=torch.float64) * s[1] ** -0.5 for s in ((hd, dim), (dim, hd), (hd, dim))]
    w = [t.requires_grad_(True) for t in w]
    x = inputs["x"].clone().requires_grad_(True)
    y = (F.silu(x @ w[0].T) * (x @ w[2].T)) @ w[1].T
    out["y"] = y
    out["grad_x"], out["grad_w1"], out["grad_w2"], out["grad_w3"] = vjp(y, (x, *w), seed=1)
    return out
