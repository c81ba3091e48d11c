import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"num": 5, "d": 3, "input": [0, 2, 4, 1, 3], "offsets": [0, 2]}, public=True, seed=1,
             what="two bags: [0, 2] and [4, 1, 3]"),
        Case("empty-bag", {"num": 5, "d": 2, "input": [1, 3, 4, 0], "offsets": [0, 2, 2]}, public=True, seed=2,
             what="an empty bag in the middle gives zeros"),
        Case("random", {"num": 20, "d": 6, "bags": 8, "max_len": 5}, seed=3, shrink=("bags", "d"),
             what="random bag sizes 0-5 over a 20-row table"),
        Case("empty-last", {"num": 10, "d": 4, "input": [3, 1, 4, 1, 5, 9], "offsets": [0, 3, 6]}, seed=4,
             shrink=("d",), what="the last offset equals len(input): the last bag is empty"),
        Case("empty-first", {"num": 10, "d": 4, "input": [2, 7, 1, 8, 2], "offsets": [0, 0, 1, 4]}, seed=5,
             shrink=("d",), what="the first bag is empty"),
        Case("single-bag", {"num": 12, "d": 5, "input": [4, 8, 1, 9, 0, 11, 3], "offsets": [0]}, seed=6,
             shrink=("d",), what="a single bag holding every index"),
        Case("duplicates", {"num": 6, "d": 3, "input": [2, 2, 2, 5, 5, 0, 2], "offsets": [0, 3, 5]}, seed=7,
             shrink=("d",), what="the same index several times in a bag"),
        Case("singletons-uneven", {"num": 15, "d": 4, "input": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
                                   "offsets": [0, 1, 2, 3, 10]}, seed=8, shrink=("d",),
             what="bags of sizes 1, 1, 1, 7 and 1"),
    ]


def make_inputs(seed, num, d, input=None, offsets=None, bags=1, max_len=1):
    g = torch.Generator().manual_seed(seed)
    weight = torch.randn(num, d, generator=g, dtype=torch.float64)
    if input is None:
        sizes = torch.randint(0, max_len + 1, (bags,), generator=g)
        starts = torch.cumsum(sizes, 0) - sizes
        idx = torch.randint(0, num, (int(sizes.sum()),), generator=g)
    else:
        idx, starts = torch.tensor(input, dtype=torch.int64), torch.tensor(offsets, dtype=torch.int64)
    return {"input": idx, "weight": weight, "offsets": starts}
