import itertools
import math

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"example": True}, public=True, what="the worked example: B = 1, T = 3, K = 2"),
        Case("random-small", {"b": 2, "t": 4, "k": 3, "lengths": [4, 2]}, public=True, seed=1,
             what="B = 2, T = 4, K = 3, one padded sequence"),
        Case("full-length", {"b": 3, "t": 5, "k": 4}, seed=2, shrink=("b",), what="no padding, K = 4, T = 5"),
        Case("variable-lengths", {"b": 5, "t": 6, "k": 3, "lengths": [6, 1, 3, 5, 2]}, seed=3,
             what="lengths 6, 1, 3, 5, 2: scores and paths stop at each sequence's own end"),
        Case("length-one", {"b": 2, "t": 1, "k": 4}, seed=4, what="T = 1: only start + emission + end"),
        Case("single-tag", {"b": 2, "t": 3, "k": 1, "lengths": [3, 2]}, seed=5, what="K = 1"),
        Case("strong-transitions", {"b": 3, "t": 6, "k": 3, "lengths": [6, 4, 5], "trans_scale": 4.0}, seed=6,
             what="transitions dominate the emissions: a greedy decoder goes wrong"),
        Case("asymmetric-transitions", {"b": 2, "t": 5, "k": 4, "lengths": [5, 3], "trans_scale": 3.0,
                                        "asym": True}, seed=7,
             what="transitions[i, j] is from i to j: the matrix is far from symmetric"),
        Case("strong-end", {"b": 3, "t": 4, "k": 3, "lengths": [4, 2, 3], "end_scale": 6.0}, seed=8,
             what="large end scores decide the last tag of every sequence, padded ones included"),
        Case("large", {"b": 4, "t": 40, "k": 8, "lengths": [40, 17, 33, 1]}, seed=9,
             what="T = 40, K = 8: 8^40 paths, so dynamic programming is the only way"),
    ]


def make_inputs(seed, example=False, b=1, t=1, k=1, lengths=None, trans_scale=1.0, asym=False, end_scale=1.0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if example:
        return {"emissions": torch.tensor([[[1.0, 0.0], [0.0, 0.5], [0.6, 0.0]]], dtype=f64),
                "transitions": torch.tensor([[0.0, -2.0], [1.0, 0.0]], dtype=f64),
                "start": torch.tensor([0.0, 0.2], dtype=f64), "end": torch.tensor([0.0, 0.3], dtype=f64),
                "mask": torch.ones(1, 3, dtype=torch.bool)}
    lengths = lengths or [t] * b
    trans = torch.randn(k, k, generator=g, dtype=f64) * trans_scale
    if asym:
        trans = trans + torch.triu(torch.full((k, k), 2.0 * trans_scale, dtype=f64), diagonal=1)
    return {"emissions": torch.randn(b, t, k, generator=g, dtype=f64),
            "transitions": trans,
            "start": torch.randn(k, generator=g, dtype=f64),
            "end": torch.randn(k, generator=g, dtype=f64) * end_scale,
            "mask": torch.arange(t)[None, :] < torch.tensor(lengths)[:, None]}


def oracle(inputs):
    """Brute force over all K^L paths when that is small; otherwise an independent pure-Python
    dynamic programme per sequence (Python floats, lists, no tensors)."""
    em, tr = inputs["emissions"].tolist(), inputs["transitions"].tolist()
    st, en = inputs["start"].tolist(), inputs["end"].tolist()
    lengths = inputs["mask"].sum(dim=1).tolist()
    b, t_max, k = inputs["emissions"].shape
    paths, scores = [], []
    for i in range(b):
        n = lengths[i]
        e = em[i]

        def score(p, e=e):
            return st[p[0]] + sum(e[s][p[s]] for s in range(len(p))) + sum(
                tr[p[s - 1]][p[s]] for s in range(1, len(p))) + en[p[-1]]

        if k ** n <= 5000:
            best = max(itertools.product(range(k), repeat=n), key=score)
            best_score = score(best)
        else:
            v = [st[j] + e[0][j] for j in range(k)]
            back = []
            for s in range(1, n):
                prev = [max(range(k), key=lambda a, j=j: v[a] + tr[a][j]) for j in range(k)]
                v = [v[prev[j]] + tr[prev[j]][j] + e[s][j] for j in range(k)]
                back.append(prev)
            last = max(range(k), key=lambda j: v[j] + en[j])
            best_score = v[last] + en[last]
            best = [last]
            for prev in reversed(back):
                best.append(prev[best[-1]])
            best = best[::-1]
        assert math.isfinite(best_score)
        paths.append(list(best) + [-1] * (t_max - n))
        scores.append(best_score)
    return {"paths": torch.tensor(paths, dtype=torch.long).reshape(b, t_max),
            "scores": torch.tensor(scores, dtype=inputs["emissions"].dtype)}
