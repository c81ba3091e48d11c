import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"k": 2, "batches": [[[0.5, 10], [0.9, 11], [0.1, 12]], [[0.9, 13], [0.3, 14]]]},
             public=True, what="the worked example: equal scores, the higher id wins"),
        Case("queries-between-batches", {"k": 3, "n_batches": 6, "batch": 4, "query_every": 1}, public=True, seed=1,
             what="result() after every batch"),
        Case("k-above-stream", {"k": 40, "n_batches": 5, "batch": 6, "query_every": 2}, seed=2,
             shrink=("n_batches",), what="fewer items than k"),
        Case("k-one", {"k": 1, "n_batches": 30, "batch": 7, "query_every": 3}, seed=3, shrink=("n_batches",),
             what="k = 1 keeps the maximum"),
        Case("many-ties", {"k": 10, "n_batches": 40, "batch": 9, "ints": True, "query_every": 5}, seed=4,
             shrink=("n_batches",), what="few distinct scores: ties broken by id"),
        Case("empty-batches", {"k": 5, "n_batches": 20, "batch": 5, "empty_every": 3, "query_every": 4}, seed=5,
             shrink=("n_batches",), what="some batches are empty"),
        Case("negative-and-huge", {"k": 8, "n_batches": 25, "batch": 8, "scale": 1e9, "query_every": 6}, seed=6,
             shrink=("n_batches",), what="negative and very large scores"),
        Case("nothing-pushed", {"k": 3, "n_batches": 0, "batch": 1}, seed=7, what="result() before any item"),
        Case("long-stream", {"k": 50, "n_batches": 2000, "batch": 20, "query_every": 500}, seed=8,
             what="40000 items in 2000 batches, k = 50 (timed against the reference)"),
    ]


def make_inputs(seed, k, batches=None, n_batches=0, batch=1, ints=False, scale=1.0, empty_every=0, query_every=0):
    g = torch.Generator().manual_seed(seed)
    if batches is not None:
        flat = [p for b in batches for p in b]
        scores = torch.tensor([float(s) for s, _ in flat], dtype=torch.float64)
        ids = torch.tensor([int(i) for _, i in flat], dtype=torch.int64)
        sizes = [len(b) for b in batches]
        return {"k": k, "scores": scores, "ids": ids, "sizes": sizes, "query_after": []}
    sizes = [0 if empty_every and b % empty_every == 0 else batch for b in range(n_batches)]
    n = sum(sizes)
    if ints:
        scores = torch.randint(0, 4, (n,), generator=g).double()
    else:
        scores = torch.randn(n, generator=g, dtype=torch.float64) * scale
    ids = torch.randperm(10 * n + 1, generator=g)[:n]  # unique, in random order
    query_after = [b for b in range(n_batches) if query_every and b % query_every == query_every - 1]
    return {"k": k, "scores": scores, "ids": ids, "sizes": sizes, "query_after": query_after}


def oracle(inputs):
    """Sort everything seen so far at every query (slow but obviously right)."""
    pairs = list(zip(inputs["scores"].tolist(), inputs["ids"].tolist()))
    k, sizes = inputs["k"], inputs["sizes"]
    snapshots, seen = [], 0
    for b, n in enumerate(sizes):
        seen += n
        if b in inputs["query_after"]:
            best = sorted(pairs[:seen], reverse=True)[:k]
            snapshots.append([[s for s, _ in best], [i for _, i in best]])
    best = sorted(pairs, reverse=True)[:k]
    return {"top_scores": torch.tensor([s for s, _ in best], dtype=torch.float64),
            "top_ids": torch.tensor([i for _, i in best], dtype=torch.int64), "snapshots": snapshots}
