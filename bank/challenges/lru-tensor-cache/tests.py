import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"capacity": 2, "ops": [["put", 1], ["put", 2], ["get", 1], ["put", 3], ["get", 2], ["get", 3],
                                                   ["get", 1]]}, public=True, what="get refreshes recency"),
        Case("replace", {"capacity": 2, "ops": [["put", 1], ["put", 2], ["put", 1], ["put", 3], ["get", 2], ["get", 1]]},
             public=True, what="re-putting a key refreshes it"),
        Case("capacity-one", {"capacity": 1, "n_ops": 60, "keys": 3}, seed=1, shrink=("n_ops",), what="capacity 1"),
        Case("random", {"capacity": 8, "n_ops": 400, "keys": 20}, seed=2, shrink=("n_ops",), what="random operations"),
        Case("many-ops", {"capacity": 20_000, "n_ops": 50_000, "keys": 40_000}, seed=3,
             what="50000 operations, capacity 20000 (timed)"),
    ]


def make_inputs(seed, capacity, ops=None, n_ops=0, keys=1):
    g = torch.Generator().manual_seed(seed)
    if ops is None:
        kinds = (torch.rand(n_ops, generator=g) < 0.5).tolist()
        ks = torch.randint(0, keys, (n_ops,), generator=g).tolist()
        ops = [["put" if k else "get", key] for k, key in zip(kinds, ks)]
    return {"capacity": capacity, "ops": ops}
