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


def oracle(inputs):
    """Pairwise IoU and NMS written out loop by loop (slow, obviously right)."""
    a, b = inputs["a"].tolist(), inputs["b"].tolist()

    def iou(p, q):
        iw = max(0.0, min(p[2], q[2]) - max(p[0], q[0]))
        ih = max(0.0, min(p[3], q[3]) - max(p[1], q[1]))
        inter = iw * ih
        union = (p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - inter
        return inter / union if union > 0 else 0.0

    m = torch.tensor([[iou(p, q) for q in b] for p in a], dtype=torch.float64).reshape(len(a), len(b))
    s = inputs["scores"].tolist()
    order = sorted(range(len(a)), key=lambda i: (-s[i], i))
    keep, dead = [], set()
    for i in order:
        if i in dead:
            continue
        keep.append(i)
        dead |= {j for j in range(len(a)) if iou(a[i], a[j]) > inputs["threshold"]}
    return {"iou": m, "keep": torch.tensor(keep, dtype=torch.int64)}
