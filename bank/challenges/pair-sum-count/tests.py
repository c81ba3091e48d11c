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
