import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"a": [[0, 0, 2, 2], [1, 1, 3, 3], [0, 0, 2, 2.1]], "scores": [0.9, 0.8, 0.7], "t": 0.5},
             public=True, what="the worked example"),
        Case("touching", {"a": [[0, 0, 1, 1], [1, 0, 2, 1]], "scores": [0.5, 0.6], "t": 0.0}, public=True,
             what="boxes that only touch have IoU 0 (kept even at threshold 0)"),
        Case("degenerate", {"a": [[1, 1, 1, 1], [0, 0, 2, 2], [3, 3, 3, 5]], "scores": [0.9, 0.8, 0.7], "t": 0.1},
             what="zero-area boxes: IoU 0, never NaN"),
        Case("ties", {"n": 30, "tie": True, "t": 0.3}, seed=1, shrink=("n",), what="equal scores keep lower index first"),
        Case("threshold-equality", {"a": [[0, 0, 2, 1], [1, 0, 3, 1]], "scores": [0.9, 0.8], "t": 1 / 3},
             what="IoU exactly at the threshold is kept"),
        Case("random", {"n": 200, "t": 0.45}, seed=2, shrink=("n",), what="200 random boxes"),
        Case("empty", {"a": [], "scores": [], "t": 0.5}, what="no boxes"),
        Case("many-boxes", {"n": 600, "t": 0.5}, seed=3, what="600 boxes: 360000 IoUs (timed against the reference)"),
    ]


def make_inputs(seed, t, a=None, scores=None, n=0, tie=False):
    g = torch.Generator().manual_seed(seed)
    if a is not None:
        boxes = torch.tensor(a, dtype=torch.float64).reshape(-1, 4)
        s = torch.tensor(scores, dtype=torch.float64)
    else:
        xy = torch.rand(n, 2, generator=g, dtype=torch.float64) * 10
        wh = torch.rand(n, 2, generator=g, dtype=torch.float64) * 4
        boxes = torch.cat([xy, xy + wh], dim=1)
        s = torch.rand(n, generator=g, dtype=torch.float64)
        if tie:
            s = (s * 3).floor() / 3
    return {"a": boxes, "b": boxes.flip(0), "scores": s, "threshold": float(t)}
