import math

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("min-p", {"b": 3, "v": 8, "T": 1.0, "k": 0, "min_p": 0.1, "scale": 1.0}, public=True, seed=1,
             what="min-p 0.1, no temperature"),
        Case("temperature-then-min-p", {"b": 2, "v": 6, "T": 0.7, "k": 0, "min_p": 0.2, "scale": 1.0}, public=True, seed=2,
             what="temperature 0.7, then min-p 0.2"),
        Case("hot", {"b": 4, "v": 20, "T": 2.5, "k": 0, "min_p": 0.3, "scale": 3.0}, seed=3, shrink=("b",),
             what="high temperature flattens the distribution before the min-p threshold is applied"),
        Case("cold", {"b": 4, "v": 20, "T": 0.3, "k": 0, "min_p": 0.05}, seed=4, shrink=("b",),
             what="low temperature sharpens it: few tokens survive min-p"),
        Case("top-k-then-min-p", {"b": 5, "v": 50, "T": 1.3, "k": 6, "min_p": 0.3}, seed=5, shrink=("b",),
             what="temperature, top-k and min-p together"),
        Case("top-k-ties", {"b": 3, "v": 10, "T": 1.0, "k": 2, "min_p": 0.0, "ties": True}, seed=6,
             what="top-k keeps every logit equal to the k-th largest"),
        Case("min-p-one", {"b": 3, "v": 8, "T": 0.5, "k": 0, "min_p": 1.0, "ties": True}, seed=7,
             what="min_p = 1 keeps exactly the tokens tied for the maximum (p >= min_p * p_max, not >)"),
        Case("exact-threshold", {"exact": True}, what="a token whose probability is exactly min_p * p_max is kept"),
        Case("rows-differ", {"b": 4, "v": 12, "T": 1.0, "k": 0, "min_p": 0.2, "row_scales": [0.2, 1.0, 4.0, 10.0]},
             seed=9, what="rows with very different confidence: the threshold uses each row's own p_max"),
        Case("large-logits-no-filter", {"b": 3, "v": 9, "T": 1.0, "k": 0, "min_p": 0.0, "scale": 300.0}, seed=10,
             what="large logits, min_p = 0 and top_k = 0 disable the filters"),
    ]


def make_inputs(seed, b=1, v=4, T=1.0, k=0, min_p=0.0, ties=False, exact=False, row_scales=None, scale=2.0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if exact:  # probabilities proportional to 1, 1/2, 1/4, e^-3: min_p = 0.5 sits exactly on token 1
        logits = torch.tensor([[0.0, math.log(0.5), math.log(0.25), -3.0],
                               [math.log(0.25), -3.0, 0.0, math.log(0.5)]], dtype=f64)
        return {"logits": logits, "u": torch.tensor([0.99, 0.999], dtype=f64), "temperature": 1.0, "top_k": 0,
                "min_p": 0.5}
    logits = torch.randn(b, v, generator=g, dtype=f64) * scale
    if ties:
        logits = logits.round()
    if row_scales is not None:
        logits = logits * torch.tensor(row_scales, dtype=f64)[:, None]
    u = torch.rand(b, generator=g, dtype=f64)
    return {"logits": logits, "u": u, "temperature": T, "top_k": k, "min_p": min_p}


def check(inputs, got):
    probs = got["probs"]
    if not isinstance(probs, torch.Tensor) or probs.shape != inputs["logits"].shape:
        return None
    if torch.isnan(probs).any():
        return "the distribution has NaN: every token of a row was filtered out (the most likely token must survive)"
    if not torch.allclose(probs.sum(-1), torch.ones(probs.shape[0], dtype=probs.dtype)):
        return "the returned distribution does not sum to 1 (renormalise after filtering)"
    tokens = got["tokens"]
    if isinstance(tokens, torch.Tensor) and tokens.shape == probs.shape[:1] and (
            probs.gather(1, tokens.long()[:, None]) == 0).any():
        return "a sampled token has probability 0 in the distribution you sampled from"
    return None


def oracle(inputs):
    """Row by row in plain Python."""
    out_p, out_t = [], []
    for row, u in zip(inputs["logits"].tolist(), inputs["u"].tolist(), strict=True):
        z = [x / inputs["temperature"] for x in row]
        if inputs["top_k"] > 0:
            kth = sorted(z, reverse=True)[min(inputs["top_k"], len(z)) - 1]
            z = [x if x >= kth else -math.inf for x in z]
        m = max(z)
        e = [math.exp(x - m) for x in z]
        s = sum(e)
        p = [x / s for x in e]
        if inputs["min_p"] > 0:
            cut = inputs["min_p"] * max(p)
            p = [x if x >= cut else 0.0 for x in p]
            s = sum(p)
            p = [x / s for x in p]
        c, tok = 0.0, len(p) - 1
        for i, x in enumerate(p):
            c += x
            if c > u:
                tok = i
                break
        out_p.append(p)
        out_t.append(tok)
    return {"tokens": torch.tensor(out_t), "probs": torch.tensor(out_p, dtype=torch.float64)}
