import torch

from torchdojo.judge.testing import Case

TINY = [["a", [4], True], ["b", [2], True], ["c", [2, 3], True], ["d", [1], True]]
MLP = [["embed.weight", [10, 4], True], ["fc1.weight", [8, 4], True], ["fc1.bias", [8], True],
       ["fc2.weight", [3, 8], True], ["fc2.bias", [3], True]]


def _blocks(n):
    spec = [["embed.weight", [7, 5], True]]
    for i in range(n):
        spec += [[f"blocks.{i}.norm.weight", [5], True], [f"blocks.{i}.attn.weight", [5, 5], True],
                 [f"blocks.{i}.mlp.weight", [9, 5], True], [f"blocks.{i}.mlp.bias", [9], True]]
    return spec + [["head.weight", [3, 5], True]]


def cases():
    return [
        Case("tiny", {"spec": TINY, "dtype": "float32", "cap": 32, "world": 2}, seed=1, public=True,
             what="4 float32 parameters, 32-byte buckets"),
        Case("mlp", {"spec": MLP, "dtype": "float64", "cap": 300, "world": 3}, seed=2, public=True,
             what="a small MLP in float64, 3 ranks"),
        Case("exact-fit", {"spec": [["w", [3], True], ["x", [5], True], ["y", [2], True], ["z", [6], True]],
                           "dtype": "float64", "cap": 64, "world": 2}, seed=3,
             what="parameters that fill a bucket to exactly the cap stay together"),
        Case("huge-first", {"spec": [["small", [2], True], ["big", [40], True]], "dtype": "float32", "cap": 64,
                            "world": 2}, seed=4,
             what="the first parameter visited is larger than the cap: its own bucket, no empty bucket"),
        Case("huge-middle", {"spec": [["p0", [3], True], ["p1", [50, 2], True], ["p2", [3], True], ["p3", [2], True]],
                             "dtype": "float32", "cap": 40, "world": 4}, seed=5,
             what="a parameter larger than the cap in the middle gets a bucket of its own"),
        Case("frozen", {"spec": [["emb", [6, 3], False], ["l1", [3, 3], True], ["l1b", [3], False],
                                 ["l2", [4, 3], True], ["l2b", [4], True]], "dtype": "float64", "cap": 120,
                        "world": 2}, seed=6,
             what="requires_grad=False parameters are in no bucket and get no gradient"),
        Case("one-bucket", {"spec": MLP, "dtype": "float32", "cap": 10**6, "world": 3}, seed=7,
             what="a cap larger than the model: a single bucket"),
        Case("tiny-cap", {"spec": TINY, "dtype": "float64", "cap": 1, "world": 3}, seed=8,
             what="a cap smaller than every parameter: one bucket per parameter"),
        Case("transformer-ish", {"spec": _blocks(3), "dtype": "float32", "cap": 256, "world": 5},
             seed=9, shrink=("world",), what="14 parameters of mixed sizes, 5 ranks"),
        Case("single-rank", {"spec": _blocks(1), "dtype": "float64", "cap": 200, "world": 1}, seed=10,
             what="world size 1: the average is the gradient itself"),
    ]


def make_inputs(seed, spec, dtype, cap, world, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    out = {"spec": spec, "dtype": dtype, "cap": cap, "world": world}
    for name, shape, trainable in spec:
        if trainable:
            out["grad:" + name] = (torch.randn(world, *shape, generator=g, dtype=torch.float64) * scale).to(
                getattr(torch, dtype))
    return out


def oracle(inputs):
    """Buckets by cumulative sizes over the reversed trainable list; averages as a plain mean per parameter."""
    item = torch.empty((), dtype=getattr(torch, inputs["dtype"])).element_size()
    order = [(n, torch.Size(s).numel()) for n, s, t in reversed(inputs["spec"]) if t]
    buckets = []
    i = 0
    while i < len(order):
        j, total = i + 1, order[i][1] * item
        while j < len(order) and total + order[j][1] * item <= inputs["cap"]:
            total += order[j][1] * item
            j += 1
        buckets.append([n for n, _ in order[i:j]])
        i = j
    sizes = dict(order)
    out = {"assign_buckets": buckets, "buckets": buckets,
           "all_reduce_numels": [sum(sizes[n] for n in b) for b in buckets], "grad_names": sorted(sizes)}
    for name, _, trainable in inputs["spec"]:
        if trainable:
            out["avg:" + name] = inputs["grad:" + name].sum(0) / inputs["world"]
    return out
