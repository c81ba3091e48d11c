import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]], "targets": [0, -100], "eps": 0.3},
             public=True, what="the worked example"),
        Case("ignored-rows", {"values": [[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [0.5, 0.5, 0.5], [1.0, -1.0, 0.0]],
                              "targets": [2, -100, 1, -100], "eps": 0.0},
             public=True, what="ignored rows are left out of the mean"),
        Case("random", {"n": 32, "c": 10, "eps": 0.1, "p_ignore": 0.25}, seed=1, shrink=("n", "c"),
             what="random logits, smoothing and some ignored rows"),
        Case("large-logits", {"n": 8, "c": 6, "eps": 0.1, "scale": 1000.0, "p_ignore": 0.0}, seed=2,
             shrink=("n", "c"), what="logits around 1e3 give a finite loss"),
        Case("ignore-valid-class", {"n": 20, "c": 5, "eps": 0.2, "ignore_index": 0, "p_ignore": 0.0}, seed=3,
             shrink=("n",), what="ignore_index=0: targets equal to class 0 are ignored"),
        Case("full-smoothing", {"n": 12, "c": 7, "eps": 1.0, "p_ignore": 0.3, "ignore_index": -1}, seed=4,
             shrink=("n", "c"), what="label_smoothing=1: uniform target distribution"),
        Case("all-ignored", {"n": 5, "c": 4, "eps": 0.1, "p_ignore": 1.0}, seed=5,
             what="every row ignored: NaN loss, zero gradient"),
        Case("one-row-binary", {"n": 1, "c": 2, "eps": 0.05, "p_ignore": 0.0, "scale": 4.0}, seed=6,
             what="a single row with two classes"),
    ]


def make_inputs(seed, eps, values=None, targets=None, n=1, c=1, scale=3.0, p_ignore=0.0, ignore_index=-100):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        x = torch.tensor(values, dtype=torch.float64)
        t = torch.tensor(targets, dtype=torch.int64)
    else:
        x = torch.randn(n, c, generator=g, dtype=torch.float64) * scale
        t = torch.randint(0, c, (n,), generator=g)
        t[torch.rand(n, generator=g) < p_ignore] = ignore_index
    return {"logits": x, "target": t, "ignore_index": ignore_index, "label_smoothing": eps}
