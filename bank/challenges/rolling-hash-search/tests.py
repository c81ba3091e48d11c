import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"text": [1, 2, 1, 2, 1], "pattern": [1, 2, 1]}, public=True, what="overlapping matches"),
        Case("absent", {"text": [5, 6, 7], "pattern": [6, 5]}, public=True, what="no match"),
        Case("empty-pattern", {"text": [1, 2], "pattern": []}, what="an empty pattern matches nowhere"),
        Case("longer-pattern", {"text": [1], "pattern": [1, 1]}, what="pattern longer than the text"),
        Case("random", {"n": 3000, "m": 3, "vocab": 4}, seed=1, shrink=("n",), what="small alphabet, many matches"),
        Case("large-tokens", {"n": 2000, "m": 40, "vocab": 2**20, "plant": 5}, seed=2, shrink=("n",),
             what="large token ids and a long planted pattern"),
        Case("collision-bait", {"collide": True}, what="two different windows with one hash under a naive modulus"),
        Case("runs", {"text": [3] * 12 + [4] + [3] * 7, "pattern": [3, 3, 3]},
             what="runs of one token: overlapping matches, the last one ending at the last token"),
    ]


def make_inputs(seed, text=None, pattern=None, n=0, m=0, vocab=10, plant=0, collide=False):
    g = torch.Generator().manual_seed(seed)
    if collide:
        # Under a modulus of 2**16 with base 2**16 only the last token matters: [7, 9] and [8, 9] collide.
        return {"text": torch.tensor([7, 9, 8, 9, 7, 9]), "pattern": torch.tensor([8, 9])}
    if text is not None:
        return {"text": torch.tensor(text, dtype=torch.int64), "pattern": torch.tensor(pattern, dtype=torch.int64)}
    t = torch.randint(0, vocab, (n,), generator=g)
    p = torch.randint(0, vocab, (m,), generator=g)
    for _ in range(plant):
        i = int(torch.randint(0, n - m, (1,), generator=g))
        t[i:i + m] = p
    return {"text": t, "pattern": p}


def oracle(inputs):
    t, p = inputs["text"], inputs["pattern"]
    m = p.numel()
    if m == 0 or m > t.numel():
        return {"starts": torch.empty(0, dtype=torch.int64)}
    return {"starts": (t.unfold(0, m, 1) == p).all(dim=1).nonzero().flatten()}
