import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[[1.0, 2.0], [3.0, 4.0], [100.0, 100.0]], [[5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]],
                         "mask": [[True, True, False], [False, False, False]]}, public=True,
             what="the worked example: a padded token and an empty row"),
        Case("right-padding", {"B": 4, "T": 6, "D": 3, "pattern": "right"}, public=True, seed=1,
             what="sequences of different lengths, padded on the right"),
        Case("random-mask", {"B": 8, "T": 10, "D": 5, "pattern": "random"}, seed=2, shrink=("B", "T"),
             what="padding anywhere in the row"),
        Case("empty-rows", {"B": 6, "T": 5, "D": 4, "pattern": "random", "empty": [1, 4]}, seed=3, shrink=("T",),
             what="rows without any real token give zeros and zero gradients"),
        Case("inf-in-padding", {"B": 5, "T": 7, "D": 3, "pattern": "left", "garbage": "inf", "empty": [2]}, seed=4,
             shrink=("T",), what="padded positions hold inf (left padding)"),
        Case("no-padding", {"B": 3, "T": 9, "D": 4, "pattern": "none"}, seed=5, shrink=("B", "T"),
             what="no padding: the plain mean"),
        Case("length-one", {"B": 4, "T": 1, "D": 6, "pattern": "random"}, seed=6, what="T = 1"),
        Case("float32", {"B": 6, "T": 12, "D": 8, "pattern": "right", "dtype": "float32", "empty": [0]}, seed=7,
             shrink=("B",), what="float32 keeps its dtype"),
        Case("float64-precision", {"B": 4, "T": 9, "D": 5, "pattern": "random", "scale": 1e4}, seed=8,
             shrink=("B",), what="float64 embeddings of magnitude 1e4: float64 in, float64 accuracy out"),
    ]


def make_inputs(seed, values=None, mask=None, B=1, T=1, D=1, pattern="random", empty=(), garbage=None,
                dtype="float64", scale=2.0):
    g = torch.Generator().manual_seed(seed)
    if values is not None:
        return {"x": torch.tensor(values, dtype=torch.float64), "mask": torch.tensor(mask)}
    x = torch.randn(B, T, D, generator=g, dtype=torch.float64) * scale + 1.0
    lengths = torch.randint(1, T + 1, (B,), generator=g)
    pos = torch.arange(T)
    if pattern == "right":
        m = pos[None, :] < lengths[:, None]
    elif pattern == "left":
        m = pos[None, :] >= (T - lengths)[:, None]
    elif pattern == "none":
        m = torch.ones(B, T, dtype=torch.bool)
    else:
        m = torch.rand(B, T, generator=g) < 0.6
    for b in empty:
        if b < B:
            m[b] = False
    if garbage == "inf":
        sign = torch.where(torch.rand(B, T, 1, generator=g) < 0.5, -1.0, 1.0).double()
        x = torch.where(m[..., None], x, sign * float("inf"))
    return {"x": x.to(getattr(torch, dtype)), "mask": m}


def oracle(inputs):
    """Row by row: the mean of the selected tokens, or zeros for an empty row."""
    from torchdojo.judge.testing import vjp

    x = inputs["x"].clone().requires_grad_(True)
    rows = []
    for b in range(x.shape[0]):
        real = x[b][inputs["mask"][b]]
        rows.append(real.mean(dim=0) if real.shape[0] else torch.zeros(x.shape[2], dtype=x.dtype))
    y = torch.stack(rows)
    (g,) = vjp(y, x, seed=1, materialize=True)
    return {"y": y, "x_grad": g}
