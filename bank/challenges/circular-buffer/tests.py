import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"capacity": 3, "feat": [1], "sizes": [2, 2]}, public=True, what="the worked example"),
        Case("not-full", {"capacity": 5, "feat": [2], "sizes": [1, 2]}, public=True, what="fewer rows than capacity"),
        Case("exact-wrap", {"capacity": 4, "feat": [3], "sizes": [4, 4, 4]}, seed=1, what="pushes that end exactly at capacity"),
        Case("oversized-batch", {"capacity": 3, "feat": [2], "sizes": [2, 7, 1]}, seed=2, what="a batch larger than capacity"),
        Case("empty-pushes", {"capacity": 4, "feat": [1], "sizes": [0, 3, 0, 2]}, seed=3, what="empty batches"),
        Case("random", {"capacity": 17, "feat": [2, 3], "sizes": [5, 9, 1, 16, 30, 2, 0, 11]}, seed=4,
             what="random batch sizes, 2-D features"),
    ]


def make_inputs(seed, capacity, feat, sizes):
    g = torch.Generator().manual_seed(seed)
    total = sum(sizes)
    stream = torch.randn((total, *feat), generator=g, dtype=torch.float64)
    bounds, start = [], 0
    for s in sizes:
        bounds.append([start, start + s])
        start += s
    return {"capacity": capacity, "feature_shape": feat, "stream": stream, "batches": bounds}


def check(inputs, got):
    if not got["same_storage"]:
        return "the buffer's storage changed after construction: allocate once and write in place"
    return None


def oracle(inputs):
    rows, lengths, checks = [], [], []
    cap = inputs["capacity"]
    for b in inputs["batches"]:
        rows.extend(inputs["stream"][b[0]:b[1]])
        rows = rows[-cap:]
        lengths.append(len(rows))
        s = torch.stack(rows).reshape(-1) if rows else torch.zeros(0, dtype=torch.float64)
        checks.append(float(s.sum()) + float((s * torch.arange(1, s.numel() + 1)).sum()))
    final = torch.stack(rows) if rows else torch.zeros((0, *inputs["feature_shape"]), dtype=torch.float64)
    return {"final": final, "lengths": lengths, "checksums": checks, "same_storage": True}
