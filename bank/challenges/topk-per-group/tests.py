import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [5.0, 1.0, 7.0, 3.0, 9.0], "groups": [0, 1, 0, 1, 0], "G": 3, "k": 2}, public=True,
             what="the worked example (an empty group)"),
        Case("ties", {"values": [2.0, 2.0, 2.0, 1.0], "groups": [0, 0, 0, 0], "G": 1, "k": 2}, public=True,
             what="ties go to the smaller position"),
        Case("k-larger-than-groups", {"n": 20, "G": 4, "k": 9}, seed=1, shrink=("n",), what="k above every group size"),
        Case("random", {"n": 500, "G": 17, "k": 5}, seed=2, shrink=("n",), what="random groups"),
        Case("few-distinct", {"n": 300, "G": 6, "k": 4, "ints": True}, seed=3, shrink=("n",), what="many ties"),
        Case("empty", {"values": [], "groups": [], "G": 2, "k": 3}, what="no values at all"),
    ]


def make_inputs(seed, G, k, values=None, groups=None, n=0, ints=False):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        v = torch.tensor(values, dtype=torch.float64)
        gr = torch.tensor(groups, dtype=torch.int64)
    else:
        v = torch.randint(0, 4, (n,), generator=g).double() if ints else torch.randn(n, generator=g, dtype=torch.float64)
        gr = torch.randint(0, G, (n,), generator=g)
    return {"values": v, "groups": gr, "num_groups": G, "k": k}


def oracle(inputs):
    v, gr, G, k = inputs["values"].tolist(), inputs["groups"].tolist(), inputs["num_groups"], inputs["k"]
    top = torch.full((G, k), float("-inf"), dtype=torch.float64)
    index = torch.full((G, k), -1, dtype=torch.int64)
    for g in range(G):
        members = sorted((i for i in range(len(v)) if gr[i] == g), key=lambda i: (-v[i], i))[:k]
        for r, i in enumerate(members):
            top[g, r], index[g, r] = v[i], i
    return {"top": top, "index": index}
