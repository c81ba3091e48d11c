import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"b": 1, "prefill": 3, "steps": [1, 1], "e": 4, "h": 2}, public=True, seed=1,
             what="prefill 3 tokens, then 2 single-token steps"),
        Case("batch", {"b": 2, "prefill": 4, "steps": [1, 1, 1], "e": 8, "h": 2}, public=True, seed=2,
             what="a batch of two sequences"),
        Case("prefill-one", {"b": 2, "prefill": 1, "steps": [1, 1, 1, 1], "e": 6, "h": 3}, seed=3, shrink=("b",),
             what="a one-token prefill (no masking needed) followed by steps"),
        Case("long-prefill", {"b": 2, "prefill": 12, "steps": [1, 1], "e": 8, "h": 4}, seed=4,
             shrink=("b", "prefill"), what="a long prompt: the prefill itself must be causal"),
        Case("chunks", {"b": 2, "prefill": 3, "steps": [2, 1, 3], "e": 8, "h": 2}, seed=5, shrink=("b",),
             what="decoding chunks of several tokens: causal inside the chunk, full view of the cache"),
        Case("one-head", {"b": 1, "prefill": 5, "steps": [1, 1, 1], "e": 4, "h": 1}, seed=6,
             shrink=("prefill",), what="a single head"),
        Case("many-steps", {"b": 3, "prefill": 2, "steps": [1] * 10, "e": 12, "h": 4}, seed=7,
             shrink=("b", "prefill"), what="ten decoding steps: the cache grows by one each step"),
        Case("no-steps", {"b": 2, "prefill": 6, "steps": [], "e": 8, "h": 2}, seed=8, shrink=("b", "prefill"),
             what="prefill only"),
    ]


def make_inputs(seed, b, prefill, steps, e, h):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    t = prefill + sum(steps)
    bound = e ** -0.5
    out = {"embed_dim": e, "num_heads": h, "prefill": prefill, "steps": list(steps),
           "x": torch.randn(b, t, e, generator=g, dtype=f64),
           "x2": torch.randn(b + 1, 4, e, generator=g, dtype=f64), "prefill2": 2}
    for n, rows in (("qkv_proj", 3 * e), ("out_proj", e)):
        out[f"{n}.weight"] = (torch.rand(rows, e, generator=g, dtype=f64) * 2 - 1) * bound
        out[f"{n}.bias"] = (torch.rand(rows, generator=g, dtype=f64) * 2 - 1) * bound
    return out


def check(inputs, got):
    if not torch.allclose(got["incremental"], got["full"].detach(), rtol=1e-9, atol=1e-9):
        return "prefill + incremental decoding does not reproduce the full causal attention"
    if not torch.allclose(got["after_reset"], got["after_reset_full"], rtol=1e-9, atol=1e-9):
        return "after reset_cache(), decoding a new sequence does not reproduce its full causal attention"
    return None
