import math

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 2.0]], "temperature": 0.5},
             public=True, what="the worked example: N = 2, D = 2"),
        Case("random-small", {"n": 4, "d": 8, "temperature": 0.1}, public=True, seed=1,
             what="N = 4, D = 8, tau = 0.1"),
        Case("random", {"n": 16, "d": 32, "temperature": 0.5}, seed=2, shrink=("n", "d"),
             what="N = 16, D = 32, tau = 0.5"),
        Case("one-pair", {"n": 1, "d": 5, "temperature": 0.2}, seed=3,
             what="N = 1: the only candidate is the positive, so the loss is exactly 0"),
        Case("tiny-temperature", {"n": 8, "d": 4, "temperature": 0.001, "noise": 0.3}, seed=4, shrink=("n",),
             what="tau = 0.001 (logits up to 1000) with near-duplicate views: no overflow, no cancellation"),
        Case("float32-small-temperature", {"n": 8, "d": 4, "temperature": 0.01, "dtype": "float32", "noise": 0.2},
             seed=5, shrink=("n",), what="float32 with tau = 0.01: exp(1/tau) overflows float32"),
        Case("large-norms", {"n": 6, "d": 4, "temperature": 0.5, "scale": 1e3}, seed=6, shrink=("n",),
             what="embeddings with norms around 1e3: only their directions matter"),
        Case("odd-sizes", {"n": 7, "d": 3, "temperature": 0.3, "noise": 0.5}, seed=7, shrink=("n",),
             what="N = 7, D = 3, correlated views"),
    ]


def make_inputs(seed, temperature, values=None, n=1, d=1, dtype="float64", noise=None, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    if values is not None:
        z = torch.tensor(values, dtype=torch.float64)
    elif noise is None:
        z = torch.randn(2 * n, d, generator=g, dtype=torch.float64) * scale
    else:  # the second view is a noisy copy of the first, as two augmentations of one image would be
        a = torch.randn(n, d, generator=g, dtype=torch.float64)
        b = a + noise * torch.randn(n, d, generator=g, dtype=torch.float64)
        z = torch.cat([a, b]) * scale
    return {"z": z.to(dt), "temperature": temperature}


def oracle(inputs):
    """Term by term from the definition in float64 Python scalars (math.fsum over candidates),
    the gradient by autograd through a double-precision loop with a per-anchor max shift."""
    from torchdojo.judge.testing import vjp

    z = inputs["z"].detach().double().clone().requires_grad_(True)
    tau = inputs["temperature"]
    n2 = z.shape[0]
    n = n2 // 2
    unit = [z[i] / z[i].norm() for i in range(n2)]
    terms = []
    for i in range(n2):
        p = i + n if i < n else i - n
        s = torch.stack([unit[i] @ unit[k] / tau for k in range(n2) if k != i])
        m = s.max().detach()
        terms.append(-(unit[i] @ unit[p] / tau) + m + torch.log(torch.exp(s - m).sum()))
    loss = torch.stack(terms).mean()
    (g,) = vjp(loss.to(inputs["z"].dtype), z, seed=1)
    out_dtype = inputs["z"].dtype
    # an independent float64 scalar evaluation of the loss value itself
    zs = inputs["z"].double().tolist()
    norms = [math.sqrt(math.fsum(x * x for x in r)) for r in zs]
    cos = [[math.fsum(a * b for a, b in zip(zs[i], zs[k], strict=True)) / (norms[i] * norms[k]) for k in range(n2)]
           for i in range(n2)]
    total = 0.0
    for i in range(n2):
        p = i + n if i < n else i - n
        cand = [cos[i][k] / tau for k in range(n2) if k != i]
        m = max(cand)
        total += -(cos[i][p] / tau) + m + math.log(math.fsum(math.exp(c - m) for c in cand))
    return {"loss": torch.tensor(total / n2, dtype=out_dtype), "grad": g.to(out_dtype)}
