import torch

from torchdojo.judge.testing import Case

F64 = torch.float64


def cases():
    return [
        Case("example", {"example": True}, public=True,
             what="the statement's example: a rejection with residual resampling, and a bonus token"),
        Case("small-batch", {"b": 3, "k": 3, "v": 5, "noise": 2.0}, public=True, seed=2,
             what="three rows, three draft tokens each"),
        Case("unrelated-models", {"b": 8, "k": 4, "v": 6, "noise": None}, seed=3, shrink=("b",),
             what="draft and target unrelated: early rejections, the replacement comes from max(0, p - q)"),
        Case("close-models", {"b": 8, "k": 4, "v": 7, "noise": 0.05}, seed=4, shrink=("b",),
             what="draft close to the target: most rows accept everything and add a bonus token from p[:, K]"),
        Case("identical", {"b": 4, "k": 3, "v": 5, "noise": 0.0}, seed=5, shrink=("b",),
             what="p equals q at every draft position: every token is accepted (p/q = 1 > u)"),
        Case("target-zero", {"b": 6, "k": 3, "v": 6, "noise": 0.5, "zero_p": True}, seed=6, shrink=("b",),
             what="the target gives some drafted tokens probability 0: they are always rejected"),
        Case("k-one", {"b": 10, "k": 1, "v": 4, "noise": 2.5}, seed=7, shrink=("b",),
             what="a single draft token per row"),
        Case("mixed-large-batch", {"b": 64, "k": 5, "v": 12, "noise": 0.7}, seed=8, shrink=("b",),
             what="64 independent rows with every outcome from 0 to K accepted"),
        Case("peaked", {"b": 16, "k": 4, "v": 9, "noise": 3.0, "scale": 4.0}, seed=9, shrink=("b",),
             what="peaked distributions, ratios far above and below 1"),
    ]


def _example():
    q = torch.tensor([[[0.5, 0.3, 0.2], [0.2, 0.5, 0.3]]] * 2, dtype=F64)
    p = torch.tensor([[[0.4, 0.4, 0.2], [0.4, 0.2, 0.4], [0.1, 0.6, 0.3]]] * 2, dtype=F64)
    return {"draft_tokens": torch.tensor([[0, 1], [0, 1]]), "q": q, "p": p,
            "u_accept": torch.tensor([[0.7, 0.5], [0.1, 0.3]], dtype=F64),
            "u_sample": torch.tensor([0.7, 0.75], dtype=F64)}


def make_inputs(seed, b=1, k=1, v=2, noise=1.0, zero_p=False, scale=1.5, example=False):
    if example:
        return _example()
    g = torch.Generator().manual_seed(seed)
    zq = torch.randn(b, k, v, generator=g, dtype=F64) * scale
    if noise is None:  # an unrelated target
        zp = torch.randn(b, k + 1, v, generator=g, dtype=F64) * scale
    else:
        zp = torch.cat([zq, torch.randn(b, 1, v, generator=g, dtype=F64) * scale], dim=1)
        zp = zp + torch.randn(b, k + 1, v, generator=g, dtype=F64) * noise
    q, p = zq.softmax(-1), zp.softmax(-1)
    if noise == 0.0:
        p[:, :k] = q
    cdf = q.cumsum(-1)
    draft = (cdf <= torch.rand(b, k, 1, generator=g, dtype=F64)).sum(-1).clamp(max=v - 1)  # x_i ~ q_i
    if zero_p:  # the target assigns probability 0 to some drafted tokens (e.g. they fall outside its top-k)
        hit = torch.rand(b, k, generator=g) < 0.4
        p[:, :k] = p[:, :k].scatter(-1, draft[..., None], p[:, :k].gather(-1, draft[..., None]) * ~hit[..., None])
        p = p / p.sum(-1, keepdim=True)
    return {"draft_tokens": draft, "q": q, "p": p, "u_accept": torch.rand(b, k, generator=g, dtype=F64),
            "u_sample": torch.rand(b, generator=g, dtype=F64)}


def check(inputs, got):
    tokens, n = got["tokens"], got["n_accepted"]
    draft = inputs["draft_tokens"]
    B, K = draft.shape
    if not all(hasattr(t, "shape") for t in (tokens, n)) or tokens.shape != (B, K + 1) or n.shape != (B,):
        return None  # the value comparison reports shapes
    for b in range(B):
        m = int(n[b])
        if not 0 <= m <= K:
            return f"row {b}: n_accepted = {m} is outside 0..K"
        if not torch.equal(tokens[b, :m], draft[b, :m]):
            return f"row {b}: the first n_accepted tokens must be the accepted draft tokens, unchanged"
        if (tokens[b, m + 1:] != -1).any():
            return f"row {b}: exactly n_accepted + 1 tokens are emitted; the rest of the row is -1"
    return None


def oracle(inputs):
    """Row by row, position by position, in plain Python."""
    def inv_cdf(w, u):
        s, c = sum(w), 0.0
        for j, x in enumerate(w):
            c += x
            if c / s > u:
                return j
        return len(w) - 1

    draft, q, p = inputs["draft_tokens"].tolist(), inputs["q"].tolist(), inputs["p"].tolist()
    ua, us = inputs["u_accept"].tolist(), inputs["u_sample"].tolist()
    K = len(draft[0])
    toks, ns = [], []
    for b in range(len(draft)):
        out = []
        for i in range(K):
            x = draft[b][i]
            if ua[b][i] < min(1.0, p[b][i][x] / q[b][i][x]):
                out.append(x)
                continue
            out.append(inv_cdf([max(0.0, pp - qq) for pp, qq in zip(p[b][i], q[b][i], strict=True)], us[b]))
            break
        else:
            out.append(inv_cdf(p[b][K], us[b]))
        ns.append(len(out) - 1)
        toks.append(out + [-1] * (K + 1 - len(out)))
    return {"n_accepted": torch.tensor(ns), "tokens": torch.tensor(toks)}
