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
        Case("many-ops", {"capacity": 40_000, "n_ops": 100_000, "keys": 80_000}, seed=3,
             what="100000 operations, capacity 40000 (timed)"),
    ]


def make_inputs(seed, capacity, ops=None, n_ops=0, keys=1):
    g = torch.Generator().manual_seed(seed)
    if ops is None:
        kinds = (torch.rand(n_ops, generator=g) < 0.5).tolist()
        ks = torch.randint(0, keys, (n_ops,), generator=g).tolist()
        ops = [["put" if k else "get", key] for k, key in zip(kinds, ks)]
    return {"capacity": capacity, "ops": ops}


def oracle(inputs):
    """A plain list simulation: index 0 is least recently used."""
    order, hits = [], []
    for op, key in inputs["ops"]:
        if op == "put":
            if key in order:
                order.remove(key)
            order.append(key)
            if len(order) > inputs["capacity"]:
                order.pop(0)
        elif key in order:
            order.remove(key)
            order.append(key)
            hits.append(1)
        else:
            hits.append(-1)
    return {"hits": hits, "keys": order}
