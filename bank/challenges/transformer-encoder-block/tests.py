import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("small", {"b": 1, "t": 3, "d": 4, "h": 2, "ff": 8}, seed=1, public=True,
             what="one sequence, two heads"),
        Case("padded", {"b": 2, "t": 5, "d": 8, "h": 2, "ff": 16, "pad": True}, seed=2, public=True,
             what="a key padding mask (True = padded key)"),
        Case("random", {"b": 3, "t": 7, "d": 12, "h": 3, "ff": 24}, seed=3, shrink=("b", "t"),
             what="random batch, three heads"),
        Case("large-residual", {"b": 2, "t": 6, "d": 8, "h": 4, "ff": 32, "x_scale": 50.0}, seed=4,
             shrink=("b", "t"), what="inputs of scale 50: the residual stream keeps them un-normalised"),
        Case("one-head-padded", {"b": 3, "t": 6, "d": 6, "h": 1, "ff": 12, "pad": True}, seed=5, shrink=("b",),
             what="a single head with padding"),
        Case("single-token", {"b": 2, "t": 1, "d": 8, "h": 2, "ff": 16}, seed=6, shrink=("b",),
             what="T = 1"),
        Case("affine-ln", {"b": 2, "t": 4, "d": 8, "h": 2, "ff": 8, "ln_random": True}, seed=7, shrink=("b", "t"),
             what="non-trivial LayerNorm weights and biases"),
    ]


def make_inputs(seed, b, t, d, h, ff, pad=False, x_scale=1.0, ln_random=False):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64

    def uniform(*shape, fan_in):
        return (torch.rand(*shape, generator=g, dtype=f64) * 2 - 1) * fan_in ** -0.5

    out = {"d_model": d, "n_head": h, "d_ff": ff, "x": torch.randn(b, t, d, generator=g, dtype=f64) * x_scale}
    for n, (rows, cols) in {"qkv_proj": (3 * d, d), "out_proj": (d, d), "fc1": (ff, d), "fc2": (d, ff)}.items():
        out[f"{n}.weight"] = uniform(rows, cols, fan_in=cols)
        out[f"{n}.bias"] = uniform(rows, fan_in=cols)
    for n in ("ln1", "ln2"):
        if ln_random:
            out[f"{n}.weight"] = 1 + 0.5 * torch.randn(d, generator=g, dtype=f64)
            out[f"{n}.bias"] = 0.5 * torch.randn(d, generator=g, dtype=f64)
        else:
            out[f"{n}.weight"] = torch.ones(d, dtype=f64)
            out[f"{n}.bias"] = torch.zeros(d, dtype=f64)
    if pad:
        lengths = torch.randint(1, t + 1, (b,), generator=g)
        lengths[0] = max(1, t - 2)
        out["key_padding_mask"] = torch.arange(t)[None, :] >= lengths[:, None]
    return out
