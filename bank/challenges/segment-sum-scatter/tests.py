import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[1.0, -1.0], [2.0, -3.0], [5.0, 4.0], [-2.0, -6.0]], "ids": [0, 2, 0, 2],
                         "num_segments": 4}, public=True, what="the worked example: segments 1 and 3 are empty"),
        Case("random-small", {"n": 10, "d": 3, "num_segments": 4}, public=True, seed=1, what="N = 10, D = 3, S = 4"),
        Case("random", {"n": 200, "d": 8, "num_segments": 17}, seed=2, shrink=("n", "d"),
             what="N = 200, D = 8, S = 17, unsorted ids"),
        Case("all-negative", {"n": 30, "d": 4, "num_segments": 5, "offset": -10.0}, seed=3, shrink=("n", "d"),
             what="every value negative: the max of a segment is negative, not 0"),
        Case("trailing-empty", {"n": 12, "d": 2, "num_segments": 9, "max_id": 4}, seed=4, shrink=("n",),
             what="ids only reach 4 but S = 9: the output still has S rows"),
        Case("many-empty", {"n": 6, "d": 5, "num_segments": 20}, seed=5,
             what="most segments empty: sum, mean and max are 0 there, never NaN or -inf"),
        Case("single-segment", {"n": 9, "d": 3, "num_segments": 1}, seed=6, shrink=("n",), what="S = 1"),
        Case("one-row", {"n": 1, "d": 4, "num_segments": 3}, seed=7, what="N = 1"),
        Case("sorted-looking", {"n": 16, "d": 2, "num_segments": 4, "sorted_runs": True}, seed=8,
             what="the same id appears in several separate runs: ids are not grouped"),
    ]


def make_inputs(seed, num_segments, values=None, ids=None, n=1, d=1, offset=0.0, max_id=None, sorted_runs=False):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        return {"values": torch.tensor(values, dtype=torch.float64), "segment_ids": torch.tensor(ids),
                "num_segments": num_segments}
    top = num_segments if max_id is None else max_id + 1
    if sorted_runs:  # runs of equal ids, the runs in a repeating order: 0 0 1 1 2 2 3 3 0 0 1 1 ...
        seg = (torch.arange(n) // 2) % top
    else:
        seg = torch.randint(0, top, (n,), generator=g)
    v = torch.randn(n, d, generator=g, dtype=torch.float64) + offset
    return {"values": v, "segment_ids": seg, "num_segments": num_segments}


def oracle(inputs):
    """Python loops over the rows of each segment; the max's gradient goes to the arg-max row."""
    from torchdojo.judge.testing import vjp

    ids = inputs["segment_ids"].tolist()
    s_count, d = inputs["num_segments"], inputs["values"].shape[1]

    def reduce(v):
        sums, means, maxes = [], [], []
        for s in range(s_count):
            rows = [i for i, k in enumerate(ids) if k == s]
            if not rows:
                z = v.sum() * 0 + torch.zeros(d, dtype=v.dtype)
                sums.append(z), means.append(z), maxes.append(z)
                continue
            block = torch.stack([v[i] for i in rows])
            sums.append(block.sum(0))
            means.append(block.sum(0) / len(rows))
            maxes.append(torch.stack([block[max(range(len(rows)), key=lambda r, j=j: float(block[r, j])), j]
                                      for j in range(d)]))
        return torch.stack(sums), torch.stack(means), torch.stack(maxes)

    out = {}
    for k, name in enumerate(("sum", "mean", "max")):
        v = inputs["values"].clone().requires_grad_(True)
        res = reduce(v)
        out[name] = res[k]
        (out[f"grad_{name}"],) = vjp(res[k], v, seed=k + 1)
    return out
