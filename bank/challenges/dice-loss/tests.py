import math

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"example": True, "eps": 1.0}, public=True, what="the worked example: N = 1, C = 2, 2 x 2"),
        Case("random-small", {"n": 2, "c": 3, "h": 4, "w": 4, "eps": 1.0}, public=True, seed=1,
             what="N = 2, C = 3, 4 x 4"),
        Case("random", {"n": 2, "c": 5, "h": 8, "w": 8, "eps": 1.0}, seed=2, shrink=("n", "h", "w"),
             what="N = 2, C = 5, 8 x 8"),
        Case("ignore-255", {"n": 2, "c": 4, "h": 6, "w": 7, "eps": 1.0, "ignore_index": 255, "p_ignore": 0.3},
             seed=3, shrink=("n", "h", "w"), what="ignore_index = 255: ignored pixels leave both sums"),
        Case("ignore-negative", {"n": 3, "c": 3, "h": 5, "w": 4, "eps": 0.5, "ignore_index": -100, "p_ignore": 0.4},
             seed=4, shrink=("n", "h", "w"), what="ignore_index = -100, eps = 0.5"),
        Case("absent-classes", {"n": 2, "c": 6, "h": 5, "w": 5, "eps": 1.0, "max_class": 3}, seed=5,
             shrink=("n", "h", "w"), what="C = 6 but the targets use only classes 0..3 (num_classes from C)"),
        Case("large-logits", {"n": 2, "c": 4, "h": 4, "w": 6, "eps": 1e-3, "scale": 1000.0}, seed=6,
             shrink=("n", "h", "w"), what="logits around 1e3: the softmax must not overflow"),
        Case("all-ignored", {"n": 1, "c": 3, "h": 3, "w": 3, "eps": 1.0, "ignore_index": 255, "p_ignore": 1.0},
             seed=7, what="every pixel ignored: each class's dice is eps / eps = 1, the loss is 0"),
        Case("odd-shape", {"n": 3, "c": 2, "h": 3, "w": 9, "eps": 1e-5, "ignore_index": 7, "p_ignore": 0.2},
             seed=8, shrink=("n",), what="non-square 3 x 9, C = 2, tiny eps"),
    ]


def make_inputs(seed, eps, example=False, n=1, c=2, h=1, w=1, ignore_index=None, p_ignore=0.0, max_class=None,
                scale=2.0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if example:
        logits = torch.tensor([[[[2.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 2.0]]]], dtype=f64)
        target = torch.tensor([[[0, 0], [1, 1]]])
        return {"logits": logits, "target": target, "eps": eps, "ignore_index": None}
    logits = torch.randn(n, c, h, w, generator=g, dtype=f64) * scale
    top = c if max_class is None else max_class + 1
    target = torch.randint(0, top, (n, h, w), generator=g)
    if ignore_index is not None:
        target = torch.where(torch.rand(n, h, w, generator=g) < p_ignore, torch.full_like(target, ignore_index), target)
    return {"logits": logits, "target": target, "eps": eps, "ignore_index": ignore_index}


def oracle(inputs):
    """Pixel by pixel in Python floats (max-shifted softmax), the gradient by autograd through
    a per-class loop over the list of valid pixels."""
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    x0, t0, eps, ign = inputs["logits"], inputs["target"], inputs["eps"], inputs["ignore_index"]
    n, c, h, w = x0.shape
    xs, ts = x0.tolist(), t0.tolist()
    inter, sp, sy = [0.0] * c, [0.0] * c, [0.0] * c
    pix = []
    for b in range(n):
        for i in range(h):
            for j in range(w):
                t = ts[b][i][j]
                if ign is not None and t == ign:
                    continue
                pix.append((b, i, j))
                z = [xs[b][k][i][j] for k in range(c)]
                m = max(z)
                e = [math.exp(v - m) for v in z]
                s = math.fsum(e)
                for k in range(c):
                    p = e[k] / s
                    sp[k] += p
                    sy[k] += t == k
                    inter[k] += p * (t == k)
    value = 1 - math.fsum((2 * inter[k] + eps) / (sp[k] + sy[k] + eps) for k in range(c)) / c
    x = x0.clone().requires_grad_(True)
    dices = []
    for k in range(c):
        if pix:
            idx = torch.tensor(pix)
            p = F.softmax(x[idx[:, 0], :, idx[:, 1], idx[:, 2]], dim=1)[:, k]
            y = (t0[idx[:, 0], idx[:, 1], idx[:, 2]] == k).to(x.dtype)
            dices.append((2 * (p * y).sum() + eps) / (p.sum() + y.sum() + eps))
        else:
            dices.append(x.sum() * 0 + 1.0)
    (g,) = vjp(1 - torch.stack(dices).mean(), x, seed=1)
    return {"loss": torch.tensor(value, dtype=x0.dtype), "grad": g}
