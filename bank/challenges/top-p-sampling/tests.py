import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("plain", {"b": 3, "v": 5, "T": 1.0, "k": 0, "p": 1.0}, public=True, seed=1, what="no filtering"),
        Case("top-p", {"b": 2, "v": 6, "T": 1.0, "k": 0, "p": 0.6}, public=True, seed=2, what="nucleus 0.6"),
        Case("top-k", {"b": 4, "v": 10, "T": 0.7, "k": 3, "p": 1.0}, seed=3, shrink=("b",), what="top-3 with temperature"),
        Case("both", {"b": 5, "v": 50, "T": 1.3, "k": 10, "p": 0.8}, seed=4, shrink=("b",), what="top-k then top-p"),
        Case("tiny-p", {"b": 4, "v": 20, "T": 1.0, "k": 0, "p": 1e-9}, seed=5, shrink=("b",),
             what="top_p near 0 keeps only the argmax"),
        Case("ties", {"b": 2, "v": 8, "T": 1.0, "k": 2, "p": 1.0, "ties": True}, seed=6,
             what="ties at the k-th logit are kept"),
        Case("threshold-exact", {"exact": True}, what="cumulative mass hitting top_p exactly"),
        Case("ties-at-boundary", {"values": [[3.0, 1.0, 1.0, 1.0, 0.0], [2.0, 2.0, 2.0, 0.0, -1.0]],
                                  "u_values": [0.97, 0.9], "k": 2},
             what="the k-th largest logit is tied: every tied logit is kept (top_k = 2 keeps 4 and 3 tokens)"),
    ]


def make_inputs(seed, b=1, v=4, T=1.0, k=0, p=1.0, ties=False, exact=False, values=None, u_values=None):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        return {"logits": torch.tensor(values, dtype=torch.float64), "u": torch.tensor(u_values, dtype=torch.float64),
                "temperature": T, "top_k": k, "top_p": p}
    if exact:
        probs = torch.tensor([[0.5, 0.25, 0.125, 0.125]], dtype=torch.float64)
        return {"logits": probs.log(), "u": torch.tensor([0.9], dtype=torch.float64), "temperature": 1.0, "top_k": 0,
                "top_p": 0.75}
    logits = torch.randn(b, v, generator=g, dtype=torch.float64) * 2
    if ties:
        logits = logits.round()
    u = torch.rand(b, generator=g, dtype=torch.float64)
    return {"logits": logits, "u": u, "temperature": T, "top_k": k, "top_p": p}


def check(inputs, got):
    probs = got["probs"]
    if not torch.allclose(probs.sum(-1), torch.ones(probs.shape[0], dtype=probs.dtype)):
        return "the returned distribution does not sum to 1"
    if (probs.gather(1, got["tokens"][:, None]) == 0).any():
        return "a sampled token has probability 0 in the distribution you sampled from"
    return None


def oracle(inputs):
    """Row by row in plain Python: filter, renormalise, walk the CDF."""
    import math

    out_p, out_t = [], []
    for row, u in zip(inputs["logits"].tolist(), inputs["u"].tolist()):
        z = [x / inputs["temperature"] for x in row]
        if inputs["top_k"] > 0:
            kth = sorted(z, reverse=True)[min(inputs["top_k"], len(z)) - 1]
            z = [x if x >= kth else -math.inf for x in z]
        m = max(z)
        e = [math.exp(x - m) for x in z]
        p = [x / sum(e) for x in e]
        if inputs["top_p"] < 1.0:
            order = sorted(range(len(p)), key=lambda i: (-p[i], i))
            keep, mass = set(), 0.0
            for i in order:
                if mass >= inputs["top_p"]:
                    break
                keep.add(i)
                mass += p[i]
            p = [x if i in keep else 0.0 for i, x in enumerate(p)]
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
