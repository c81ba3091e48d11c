import math

import torch

from torchdojo.judge.testing import Case

EXAMPLE = [[0.0, 0.0], [3.0, 4.0], [1.0, 0.0], [0.0, 2.0], [5.0, 5.0]]


def cases():
    return [
        Case("example", {"values": EXAMPLE, "label_list": [0, 0, 1, 1, 2], "margin": 1.0}, public=True,
             what="the worked example: 4 valid anchors, one anchor without a positive"),
        Case("random-small", {"b": 8, "d": 4, "classes": 3, "margin": 0.3}, public=True, seed=1,
             what="B = 8, 3 classes"),
        Case("random", {"b": 32, "d": 16, "classes": 6, "margin": 0.5}, seed=2, shrink=("b", "d"),
             what="B = 32, D = 16, 6 classes"),
        Case("singletons", {"b": 12, "d": 5, "classes": 3, "margin": 1.0, "singletons": 4}, seed=3, shrink=("b",),
             what="4 labels occur once: those anchors have no positive and are excluded from the mean"),
        Case("some-hinges-zero", {"b": 16, "d": 6, "classes": 4, "margin": 0.05, "spread": 4.0}, seed=4,
             shrink=("b",), what="well separated classes: many hinges are 0 and still count in the mean"),
        Case("one-label", {"b": 6, "d": 3, "classes": 1, "margin": 0.5}, seed=5,
             what="a single label: no anchor has a negative, the loss is 0 with zero gradient"),
        Case("all-distinct", {"b": 5, "d": 3, "classes": 5, "margin": 0.5, "distinct": True}, seed=6,
             what="every label once: no anchor has a positive, the loss is 0"),
        Case("one-row", {"b": 1, "d": 4, "classes": 1, "margin": 0.5}, seed=7, what="B = 1"),
        Case("duplicate-pair", {"b": 10, "d": 4, "classes": 3, "margin": 0.5, "duplicate": True}, seed=8,
             what="two identical rows with the same label (each other's only positive): distance 0, gradient 0"),
        Case("large-offset", {"b": 12, "d": 8, "classes": 3, "margin": 0.5, "offset": 1e7}, seed=9, shrink=("b",),
             what="embeddings around 1e7 that differ by O(1): |a|^2 - 2ab + |b|^2 cancels catastrophically"),
    ]


def make_inputs(seed, margin, values=None, label_list=None, b=1, d=1, classes=1, singletons=0, spread=0.0,
                distinct=False, duplicate=False, offset=0.0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if values is not None:
        return {"embeddings": torch.tensor(values, dtype=f64), "labels": torch.tensor(label_list),
                "margin": margin}
    if distinct:
        labels = torch.randperm(b, generator=g)
    else:
        labels = torch.arange(b) % classes  # every class at least twice when b >= 2 * classes
        labels = labels[torch.randperm(b, generator=g)]
    if singletons:
        labels[:singletons] = torch.arange(100, 100 + singletons)
    centres = torch.randn(200, d, generator=g, dtype=f64) * spread
    x = centres[labels % 200] + torch.randn(b, d, generator=g, dtype=f64)
    if duplicate:  # rows 0 and 1: label 7, identical, far from everything (never anyone's hardest negative)
        labels[0] = labels[1] = 7
        x[0] = x[1] = 50.0 + torch.randn(d, generator=g, dtype=f64)
    return {"embeddings": x + offset, "labels": labels, "margin": margin}


def oracle(inputs):
    """Brute force: Python floats for the value (math.dist), and autograd through per-pair
    torch.linalg.vector_norm (whose gradient at 0 is 0) on the selected pairs for the gradient."""
    from torchdojo.judge.testing import vjp

    x0 = inputs["embeddings"]
    labels = inputs["labels"].tolist()
    m = inputs["margin"]
    rows = x0.tolist()
    b = len(rows)
    x = x0.clone().requires_grad_(True)
    vals, terms = [], []
    for a in range(b):
        ps = [j for j in range(b) if j != a and labels[j] == labels[a]]
        ns = [j for j in range(b) if labels[j] != labels[a]]
        if not ps or not ns:
            continue
        p = max(ps, key=lambda j: math.dist(rows[a], rows[j]))
        n = min(ns, key=lambda j: math.dist(rows[a], rows[j]))
        vals.append(max(0.0, m + math.dist(rows[a], rows[p]) - math.dist(rows[a], rows[n])))
        terms.append(torch.relu(m + torch.linalg.vector_norm(x[a] - x[p]) - torch.linalg.vector_norm(x[a] - x[n])))
    if not terms:
        return {"loss": torch.zeros((), dtype=x0.dtype), "grad": torch.zeros_like(x0)}
    (g,) = vjp(torch.stack(terms).mean(), x, seed=1, materialize=True)
    return {"loss": torch.tensor(math.fsum(vals) / len(vals), dtype=x0.dtype), "grad": g}
