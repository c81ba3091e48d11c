import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("top2-small", {"n": 6, "d": 4, "ff": 8, "e": 4, "k": 2}, seed=1, public=True,
             what="6 tokens, 4 experts, top-2"),
        Case("top1-switch", {"n": 8, "d": 4, "ff": 6, "e": 3, "k": 1}, seed=2, public=True,
             what="top-1 (Switch) routing"),
        Case("random", {"n": 40, "d": 8, "ff": 16, "e": 8, "k": 2}, seed=3, shrink=("n",),
             what="40 tokens, 8 experts, top-2"),
        Case("batched", {"n": 4, "t": 5, "d": 6, "ff": 12, "e": 4, "k": 3}, seed=4, shrink=("n", "t"),
             what="(B, T, D) input, top-3"),
        Case("idle-experts", {"n": 3, "d": 4, "ff": 8, "e": 8, "k": 1}, seed=5,
             what="more experts than tokens: some experts get nothing"),
        Case("all-experts", {"n": 10, "d": 4, "ff": 8, "e": 3, "k": 3}, seed=6, shrink=("n",),
             what="top_k = num_experts: every expert sees every token"),
        Case("single-token", {"n": 1, "d": 8, "ff": 8, "e": 4, "k": 2}, seed=7, what="one token"),
        Case("peaked-router", {"n": 24, "d": 8, "ff": 8, "e": 6, "k": 2, "gate_scale": 4.0}, seed=8,
             shrink=("n",), what="a confident router (near one-hot probabilities)"),
    ]


def make_inputs(seed, n, d, ff, e, k, t=None, gate_scale=1.0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64

    def uniform(*shape, fan_in):
        return (torch.rand(*shape, generator=g, dtype=f64) * 2 - 1) * fan_in ** -0.5

    out = {"d_model": d, "d_ff": ff, "num_experts": e, "top_k": k,
           "x": torch.randn(*((n,) if t is None else (n, t)), d, generator=g, dtype=f64),
           "gate.weight": torch.randn(e, d, generator=g, dtype=f64) * gate_scale * d ** -0.5}
    for i in range(e):
        out[f"experts.{i}.fc1.weight"] = uniform(ff, d, fan_in=d)
        out[f"experts.{i}.fc1.bias"] = uniform(ff, fan_in=d)
        out[f"experts.{i}.fc2.weight"] = uniform(d, ff, fan_in=ff)
        out[f"experts.{i}.fc2.bias"] = uniform(d, fan_in=ff)
    return out
