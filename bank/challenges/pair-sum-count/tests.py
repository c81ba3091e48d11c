import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [1, 5, 7, -1, 5], "target": 6}, public=True, what="the worked example"),
        Case("halves", {"values": [3, 3, 3, 3], "target": 6}, public=True, what="equal halves: C(4,2) pairs"),
        Case("no-pairs", {"n": 40, "target": 10**6}, seed=1, shrink=("n",), what="no pair reaches the target"),
        Case("many-duplicates", {"n": 500, "target": 0, "hi": 5}, seed=2, shrink=("n",),
             what="many repeated values and negatives"),
        Case("single", {"values": [7], "target": 14}, what="one element is not a pair"),
        Case("empty", {"values": [], "target": 0}, what="empty input"),
        Case("large", {"n": 60_000, "target": 17, "hi": 1000}, seed=3,
             what="n = 60000 (an n x n table would need 3.6e9 elements)"),
    ]


def make_inputs(seed, target, values=None, n=None, hi=100):
    g = torch.Generator().manual_seed(seed)
    x = torch.tensor(values, dtype=torch.int64) if values is not None else torch.randint(-hi, hi + 1, (n,), generator=g)
    return {"x": x, "target": target}


def max_numel(inputs):
    return 4 * inputs["x"].numel() + 16


def oracle(inputs):
    x, t = inputs["x"], inputs["target"]
    if x.numel() > 3000:  # brute force on a sample-free exact path: count values instead
        vals, counts = torch.unique(x, return_counts=True)
        c = dict(zip(vals.tolist(), counts.tolist()))
        pairs = sum(n * c.get(t - v, 0) for v, n in c.items() if v < t - v)
        pairs += c.get(t // 2, 0) * (c.get(t // 2, 0) - 1) // 2 if t % 2 == 0 else 0
        return {"pairs": pairs}
    v = x.tolist()
    return {"pairs": sum(1 for i in range(len(v)) for j in range(i + 1, len(v)) if v[i] + v[j] == t)}
